/* bsq_diag.c: diagnostics of a Boussinesq state (BSQ.md "Diagnostics"):
 * divergence, kinetic energy, Nusselt numbers (wall and volume forms), and
 * point samples of the staggered fields for centreline profiles.  Sums run
 * serially in a fixed order: the same bits on any number of threads. */
#include <math.h>
#include <stdlib.h>

#include "bsq_impl.h"

/* What the diagnostics' row functions read. */
struct diag_ctx {
	const struct bsq_state *s;
	size_t sy, sz;
	struct bsq_h h;
	double max;
};

static struct diag_ctx diag_ctx_of(const struct bsq_state *s)
{
	struct diag_ctx x;
	x.s = s;
	x.sy = bsq_sy(&s->g);
	x.sz = bsq_sz(&s->g);
	x.h = bsq_h_of(s->g.dx, s->g.dy, s->g.dz);
	x.max = 0;
	return x;
}

/* Sum of div^2 over the row; the max of |div| kept in the context. */
static double div_row(void *vctx, size_t c0, int n)
{
	struct diag_ctx *x = vctx;
	const struct bsq_state *s = x->s;
	return bsq_div_row(s->u, s->v, s->w, c0, n, x->sy, x->sz, &x->h, &x->max);
}

void bsq_diag_div_planes(const struct bsq_state *s, double *max, double *ps)
{
	struct diag_ctx x = diag_ctx_of(s);
	bsq_rows_planes(&s->g, div_row, &x, ps);
	*max = x.max;
}

void bsq_diag_div(const struct bsq_state *s, double *max, double *l2)
{
	struct diag_ctx x = diag_ctx_of(s);
	const struct bsq_grid *g = &s->g;
	double sum = bsq_rows_sum(g, div_row, &x);
	*max = x.max;
	*l2 = sqrt(sum / bsq_ncells(g));
}

static double energy_row(void *vctx, size_t c0, int n)
{
	const struct diag_ctx *x = vctx;
	const struct bsq_state *s = x->s;
	double sum = 0;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++) {
		double uc = bsq_avg(s->u[c], s->u[c + 1]), vc = bsq_avg(s->v[c], s->v[c + x->sy]),
		       wc = bsq_avg(s->w[c], s->w[c + x->sz]);
		sum += uc * uc + vc * vc + wc * wc;
	}
	return sum;
}

static double energy_of(const struct bsq_grid *g, double sum)
{
	return 0.5 * sum * g->dx * g->dy * g->dz;
}

double bsq_diag_energy(const struct bsq_state *s)
{
	struct diag_ctx x = diag_ctx_of(s);
	return energy_of(&s->g, bsq_rows_sum_pure(&s->g, energy_row, &x));
}

/* The -dT/dx terms of the x = 0 wall held at Tw, row by row of plane k,
 * into t[0..ny). */
static void wall_terms(const struct bsq_state *s, double Tw, int k, double *t)
{
	const struct bsq_grid *g = &s->g;
	int j;
	for (j = 1; j <= g->ny; j++) {
		size_t c = bsq_idx(g, 1, j, k);
		t[j - 1] = bsq_dtdn_wall(Tw, s->T[c], s->T[c + 1], g->dx);
	}
}

/* The wall's Nusselt number from its terms, plane by plane, `per` apart. */
static double nusselt_wall_of(const struct bsq_grid *g, const struct bsq_params *p, double dT,
	const double *t, size_t per)
{
	double sum = 0;
	int j, k;
	for (k = 0; k < g->nz; k++)
		for (j = 0; j < g->ny; j++)
			sum -= t[(size_t)k * per + (size_t)j];
	return p->lx / dT * sum / ((double)g->ny * g->nz);
}

double bsq_diag_nusselt_wall(const struct bsq_state *s, const struct bsq_params *p, double dT)
{
	const struct bsq_grid *g = &s->g;
	double *t = malloc((size_t)g->ny * g->nz * sizeof *t), nu;
	int k;
	if (!t)
		return NAN;
	for (k = 1; k <= g->nz; k++)
		wall_terms(s, p->wall_T[BSQ_XM], k, t + (size_t)(k - 1) * g->ny);
	nu = nusselt_wall_of(g, p, dT, t, (size_t)g->ny);
	free(t);
	return nu;
}

static double wT_row(void *vctx, size_t c0, int n)
{
	const struct diag_ctx *x = vctx;
	const struct bsq_state *s = x->s;
	double sum = 0;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++)
		sum += bsq_avg(s->w[c], s->w[c + x->sz]) * s->T[c];
	return sum;
}

static double nusselt_volume_of(const struct bsq_grid *g, const struct bsq_params *p, double dT,
	double sum)
{
	double wT = sum / ((double)g->nx * g->ny * g->nz);
	return 1 + wT / (p->kappa * dT / p->lz);
}

double bsq_diag_nusselt_volume(const struct bsq_state *s, const struct bsq_params *p, double dT)
{
	struct diag_ctx x = diag_ctx_of(s);
	return nusselt_volume_of(&s->g, p, dT, bsq_rows_sum_pure(&s->g, wT_row, &x));
}

int bsq_diag_nusselt_kind(const struct bsq_params *p, double *dT)
{
	if (p->temp_bc[BSQ_XM] == BSQ_T_FIXED && p->temp_bc[BSQ_XP] == BSQ_T_FIXED &&
		p->wall_T[BSQ_XM] != p->wall_T[BSQ_XP]) {
		*dT = p->wall_T[BSQ_XM] - p->wall_T[BSQ_XP];
		return 1;
	}
	if (p->temp_bc[BSQ_ZM] == BSQ_T_FIXED && p->temp_bc[BSQ_ZP] == BSQ_T_FIXED &&
		p->wall_T[BSQ_ZM] != p->wall_T[BSQ_ZP]) {
		*dT = p->wall_T[BSQ_ZM] - p->wall_T[BSQ_ZP];
		return 2;
	}
	*dT = 0;
	return 0;
}

void bsq_diag_series_planes(const struct bsq_state *s, const struct bsq_params *p, double *d)
{
	struct diag_ctx x = diag_ctx_of(s);
	const size_t per = BSQ_SERIES_PER(&s->g);
	double *ps = malloc((size_t)s->g.nz * 2 * sizeof *ps);
	int k;
	if (!ps) {
		for (size_t q = 0; q < (size_t)s->g.nz * per; q++)
			d[q] = NAN;
		return;
	}
	bsq_rows_planes_pure(&s->g, energy_row, &x, ps);
	bsq_rows_planes_pure(&s->g, wT_row, &x, ps + s->g.nz);
	for (k = 1; k <= s->g.nz; k++) {
		double *dk = d + (size_t)(k - 1) * per;
		dk[0] = ps[k - 1];
		dk[1] = ps[s->g.nz + k - 1];
		wall_terms(s, p->wall_T[BSQ_XM], k, dk + 2);
	}
	free(ps);
}

void bsq_diag_series_of(const struct bsq_grid *g, const struct bsq_params *p, const double *d,
	double *energy, double *nusselt)
{
	const size_t per = BSQ_SERIES_PER(g);
	double e = 0, wT = 0, dT;
	int k, kind = bsq_diag_nusselt_kind(p, &dT);
	for (k = 0; k < g->nz; k++) {
		e += d[(size_t)k * per];
		wT += d[(size_t)k * per + 1];
	}
	*energy = energy_of(g, e);
	*nusselt = kind == 1 ? nusselt_wall_of(g, p, dT, d + 2, per) :
		kind == 2 ? nusselt_volume_of(g, p, dT, wT) : NAN;
}

/* Index i0 and weight t of coordinate x between samples at (i - 1 + sh) h,
 * i = 0..n+1 (ghosts included); a direction of one cell has one sample. */
static int locate(double x, double h, double sh, int n, double *t)
{
	double f = x / h + 1 - sh;
	int i0 = (int)floor(f);
	if (n == 1) {
		*t = 0;
		return 1;
	}
	i0 = i0 < 0 ? 0 : i0 > n ? n : i0;
	*t = f - i0;
	return i0;
}

double bsq_diag_sample(const struct bsq_state *s, int field, double x, double y, double z)
{
	const struct bsq_grid *g = &s->g;
	const bsq_real *const f[5] = { s->u, s->v, s->w, s->T, s->p };
	const bsq_real *a = f[field < 0 || field > 4 ? 3 : field];
	const size_t sy = bsq_sy(g), sz = bsq_sz(g);
	double tx, ty, tz;
	int i = locate(x, g->dx, field == 0 ? 0 : 0.5, g->nx, &tx);
	int j = locate(y, g->dy, field == 1 ? 0 : 0.5, g->ny, &ty);
	int k = locate(z, g->dz, field == 2 ? 0 : 0.5, g->nz, &tz);
	const bsq_real *n = a + bsq_idx(g, i, j, k);
	const size_t ox = g->nx > 1, oy = g->ny > 1 ? sy : 0, oz = g->nz > 1 ? sz : 0;
	double y0 = bsq_lerp(bsq_lerp(n[0], n[ox], tx), bsq_lerp(n[oy], n[oy + ox], tx), ty);
	double y1 = bsq_lerp(bsq_lerp(n[oz], n[oz + ox], tx),
		bsq_lerp(n[oz + oy], n[oz + oy + ox], tx), ty);
	return bsq_lerp(y0, y1, tz);
}

void bsq_diag_line(const struct bsq_state *s, int field, int axis, double x, double y, double z,
	int n, const double *at, double *out)
{
	int i;
	for (i = 0; i < n; i++)
		out[i] = bsq_diag_sample(s, field, axis == 0 ? at[i] : x, axis == 1 ? at[i] : y,
			axis == 2 ? at[i] : z);
}
