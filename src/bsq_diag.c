/* bsq_diag.c: diagnostics of a Boussinesq state (BSQ.md "Diagnostics"):
 * divergence, kinetic energy, Nusselt numbers (wall and volume forms), and
 * point samples of the staggered fields for centreline profiles.  Sums run
 * serially in a fixed order: the same bits on any number of threads. */
#include <math.h>

#include "bsq_impl.h"

void bsq_diag_div(const struct bsq_state *s, double *max, double *l2)
{
	const struct bsq_grid *g = &s->g;
	const struct bsq_h h = bsq_h_of(g->dx, g->dy, g->dz);
	const size_t sy = bsq_sy(g), sz = bsq_sz(g);
	double m = 0, sum = 0;
	int i, j, k;
	for (k = 1; k <= g->nz; k++)
		for (j = 1; j <= g->ny; j++)
			for (i = 1; i <= g->nx; i++) {
				double d = bsq_div_at(s->u, s->v, s->w, bsq_idx(g, i, j, k), sy, sz, &h);
				m = fmax(m, fabs(d));
				sum += d * d;
			}
	*max = m;
	*l2 = sqrt(sum / ((double)g->nx * g->ny * g->nz));
}

double bsq_diag_energy(const struct bsq_state *s)
{
	const struct bsq_grid *g = &s->g;
	const size_t sy = bsq_sy(g), sz = bsq_sz(g);
	double sum = 0;
	int i, j, k;
	for (k = 1; k <= g->nz; k++)
		for (j = 1; j <= g->ny; j++)
			for (i = 1; i <= g->nx; i++) {
				size_t c = bsq_idx(g, i, j, k);
				double uc = bsq_avg(s->u[c], s->u[c + 1]), vc = bsq_avg(s->v[c], s->v[c + sy]),
				       wc = bsq_avg(s->w[c], s->w[c + sz]);
				sum += uc * uc + vc * vc + wc * wc;
			}
	return 0.5 * sum * g->dx * g->dy * g->dz;
}

double bsq_diag_nusselt_wall(const struct bsq_state *s, const struct bsq_params *p, double dT)
{
	const struct bsq_grid *g = &s->g;
	const double Tw = p->wall_T[BSQ_XM];
	double sum = 0;
	int j, k;
	for (k = 1; k <= g->nz; k++)
		for (j = 1; j <= g->ny; j++) {
			size_t c = bsq_idx(g, 1, j, k);
			sum -= bsq_dtdn_wall(Tw, s->T[c], s->T[c + 1], g->dx);
		}
	return p->lx / dT * sum / ((double)g->ny * g->nz);
}

double bsq_diag_nusselt_volume(const struct bsq_state *s, const struct bsq_params *p, double dT)
{
	const struct bsq_grid *g = &s->g;
	const size_t sz = bsq_sz(g);
	double sum = 0;
	int i, j, k;
	for (k = 1; k <= g->nz; k++)
		for (j = 1; j <= g->ny; j++)
			for (i = 1; i <= g->nx; i++) {
				size_t c = bsq_idx(g, i, j, k);
				sum += bsq_avg(s->w[c], s->w[c + sz]) * s->T[c];
			}
	sum /= (double)g->nx * g->ny * g->nz;
	return 1 + sum / (p->kappa * dT / p->lz);
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
