/* bsq_mg_level.c: the multigrid levels (coarsening plan, allocation) and the
 * vector verbs that need no stencil: zero, mean, shift, max norm, ghosts.
 *
 * Coarsening (BSQ.md "Pressure solvers", cell-centred): a direction is
 * halved while it has an even number of cells (down to one) and its
 * spacing is within 1.5x of the finest coarsenable spacing (semi-coarsening
 * keeps the cells of a level near-isotropic, so point smoothing stays
 * effective).  Stopping a direction at 2 cells left the coarsest level of a
 * flat box anisotropic, and its sweeps to 1e-10 took ~1100 a V-cycle (CPU,
 * cavity 64 x 8 x 64: 144 -> 37 ms a step, 17.7 -> 11 V-cycles).  The coarsest
 * level, solved by sweeps, must have at most BSQ_MG_COARSEST cells.
 * Sums run in a fixed order (serially): results do not depend on threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bsq_transfer.h"
#include "spate.h"

#define BSQ_MG_COARSEST 512

int bsq_mg_plan(const struct bsq_params *p, int n[BSQ_MG_MAXLEV][3])
{
	double h[3] = { p->lx / p->nx, p->ly / p->ny, p->lz / p->nz };
	int l = 0, d;
	n[0][0] = p->nx;
	n[0][1] = p->ny;
	n[0][2] = p->nz;
	while (p->solver == BSQ_SOLVER_MG && l + 1 < BSQ_MG_MAXLEV) {
		double hmin = 1e300;
		int any = 0;
		for (d = 0; d < 3; d++)
			if (n[l][d] % 2 == 0 && n[l][d] >= 2 && h[d] < hmin)
				hmin = h[d];
		for (d = 0; d < 3; d++) {
			int c = n[l][d] % 2 == 0 && n[l][d] >= 2 && h[d] <= 1.5 * hmin;
			n[l + 1][d] = c ? n[l][d] / 2 : n[l][d];
			h[d] *= c ? 2 : 1;
			any |= c;
		}
		if (!any)
			break;
		l++;
	}
	return l + 1;
}

int bsq_mg_check(const struct bsq_params *p)
{
	int n[BSQ_MG_MAXLEV][3], nl = bsq_mg_plan(p, n), d, worst = 0;
	const char *const key[3] = { "nx", "ny", "nz" };
	const int given[3] = { p->nx, p->ny, p->nz };
	const int *c = n[nl - 1];
	if ((double)c[0] * c[1] * c[2] <= BSQ_MG_COARSEST)
		return 0;
	for (d = 1; d < 3; d++)
		if (c[d] > c[worst])
			worst = d;
	spate_log_error("bsq", "%s = %d: multigrid coarsens %d x %d x %d cells only to "
		"%d x %d x %d (more than %d): use m 2^k cells with m <= 8 (or [solver] pressure = jacobi)",
		key[worst], given[worst], p->nx, p->ny, p->nz, c[0], c[1], c[2], BSQ_MG_COARSEST);
	return -SPATE_EINVAL;
}

int bsq_mg_build(struct bsq_state *s, const struct bsq_params *p, int arrays)
{
	int n[BSQ_MG_MAXLEV][3], l, v, kind[BSQ_NFACE];
	s->nlev = bsq_mg_plan(p, n);
	bsq_bc_kinds_p(p, kind);
	for (l = 0; l < s->nlev; l++) {
		struct bsq_level *L = &s->lev[l];
		size_t bytes;
		L->g.nx = n[l][0];
		L->g.ny = n[l][1];
		L->g.nz = n[l][2];
		L->g.dx = p->lx / L->g.nx;
		L->g.dy = p->ly / L->g.ny;
		L->g.dz = p->lz / L->g.nz;
		L->h = bsq_h_of(L->g.dx, L->g.dy, L->g.dz);
		/* One cell thick: no second derivative (struct bsq_h). */
		L->h.idx2 = L->g.nx > 1 ? L->h.idx2 : 0;
		L->h.idy2 = L->g.ny > 1 ? L->h.idy2 : 0;
		L->h.idz2 = L->g.nz > 1 ? L->h.idz2 : 0;
		bsq_h_relax(&L->h);
		L->cx = l + 1 < s->nlev ? n[l][0] / n[l + 1][0] : 1;
		L->cy = l + 1 < s->nlev ? n[l][1] / n[l + 1][1] : 1;
		L->cz = l + 1 < s->nlev ? n[l][2] / n[l + 1][2] : 1;
		memcpy(L->ghost, kind, sizeof kind);
		bytes = bsq_count(&L->g) * sizeof(bsq_real);
		for (v = 0; v < BSQ_NVEC && arrays; v++) {
			if (!bsq_vec_held(p, l, v))
				continue;
			if (!(L->v[v] = spate_alloc(bytes)))
				return -SPATE_ENOMEM;
			memset(L->v[v], 0, bytes);
		}
	}
	return 0;
}

void bsq_mg_free(struct bsq_state *s)
{
	int l, v;
	for (l = 0; l < BSQ_MG_MAXLEV; l++)
		for (v = 0; v < BSQ_NVEC; v++) {
			free(s->lev[l].v[v]);
			s->lev[l].v[v] = NULL;
		}
	s->nlev = 0;
}

void bsq_mg_zero(struct bsq_level *l, int vec)
{
	memset(l->v[vec], 0, bsq_count(&l->g) * sizeof(bsq_real));
}

static double sum_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	return bsq_row_sum(x->in, c0, n);
}

/* Mean over the interior cells, summed in a fixed order. */
double bsq_mg_mean(const struct bsq_level *l, int vec)
{
	struct bsq_lctx x = bsq_lctx_of(l);
	x.in = l->v[vec];
	return bsq_rows_sum_pure(&l->g, sum_row, &x) / bsq_ncells(&l->g);
}

void bsq_mg_plane_sums(const struct bsq_level *l, int vec, double *ps)
{
	struct bsq_lctx x = bsq_lctx_of(l);
	x.in = l->v[vec];
	bsq_rows_planes_pure(&l->g, sum_row, &x, ps);
}

static double shift_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	int i;
	for (i = 0; i < n; i++)
		x->out[c0 + i] = bsq_shifted(x->out[c0 + i], x->a);
	return 0;
}

void bsq_mg_shift(struct bsq_level *l, int vec, double by)
{
	struct bsq_lctx x = bsq_lctx_of(l);
	x.out = l->v[vec];
	x.a = by;
	bsq_rows_max(&l->g, bsq_interior, shift_row, &x);
}

static double extrapolate_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	int i;
	for (i = 0; i < n; i++)
		bsq_extrapolate_at(x->out, x->l->v[BSQ_PREV], c0 + (size_t)i, (bsq_real)x->a);
	return 0;
}

void bsq_mg_extrapolate(struct bsq_level *l, double r)
{
	struct bsq_lctx x = bsq_lctx_of(l);
	x.out = l->v[BSQ_PHI];
	x.a = r;
	bsq_rows_max(&l->g, bsq_interior, extrapolate_row, &x);
}

static double max_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	double m = 0;
	int i;
	for (i = 0; i < n; i++)
		m = fmax(m, fabs((double)x->in[c0 + i]));
	return m;
}

/* A max is exact in any order. */
double bsq_field_max(const struct bsq_grid *g, const bsq_real *a)
{
	struct bsq_lctx x;
	memset(&x, 0, sizeof x);
	x.in = a;
	return bsq_rows_max(g, bsq_interior, max_row, &x);
}

double bsq_mg_norm_max(const struct bsq_level *l, int vec)
{
	return bsq_field_max(&l->g, l->v[vec]);
}

static double interp_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	const struct bsq_level *f = x->l;
	const bsq_real a = (bsq_real)x->a;
	int i, j, k, e;
	bsq_row_jk(x->g, c0, &i, &j, &k);
	for (e = 0; e < n; e++, i++)
		x->out[c0 + e] = bsq_prolong_add(a, x->out[c0 + e],
			bsq_interp_at(x->in, &x->c->g, f->cx, f->cy, f->cz, i, j, k, x->pl));
	return 0;
}

void bsq_mg_interp_rows(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec, int pl)
{
	struct bsq_lctx x = bsq_lctx_of(fine);
	x.c = coarse;
	x.out = fine->v[fvec];
	x.in = coarse->v[cvec];
	x.a = a;
	x.pl = pl;
	bsq_mg_ghosts(coarse, cvec);
	bsq_rows_max(&fine->g, bsq_interior, interp_row, &x);
}

void bsq_mg_ghosts(struct bsq_level *l, int vec)
{
	bsq_bc_scalar(&l->g, l->v[vec], l->ghost, NULL);
}
