/* bsq_mg_interp_pc.c: the piecewise-constant prolongation verb (BSQ.md
 * "Pressure solvers"): every fine cell takes its parent's value.  Cheaper
 * than trilinear, slower V-cycles. */
#include "bsq_impl.h"

void bsq_mg_interp_pc(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	const struct bsq_grid *g = &fine->g, *gc = &coarse->g;
	const int cx = fine->cx, cy = fine->cy, cz = fine->cz;
	const bsq_real *c = coarse->v[cvec];
	bsq_real *f = fine->v[fvec];
	const bsq_real ar = (bsq_real)a;
	int k;
#pragma omp parallel for schedule(static) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (k = 1; k <= g->nz; k++) {
		int i, j;
		for (j = 1; j <= g->ny; j++)
			for (i = 1; i <= g->nx; i++) {
				size_t e = bsq_idx(g, i, j, k);
				f[e] = ar * f[e] + c[bsq_idx(gc, bsq_parent(i, cx), bsq_parent(j, cy),
					bsq_parent(k, cz))];
			}
	}
}
