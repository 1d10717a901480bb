/* bsq_mg_restrict.c: the restriction verb, cell-centred (BSQ.md "Pressure
 * solvers"): a coarse cell gets the mean of its children, cx cy cz of them
 * (2 per coarsened direction, 1 otherwise). */
#include "bsq_impl.h"

void bsq_mg_restrict(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int fvec)
{
	const struct bsq_grid *g = &coarse->g, *gf = &fine->g;
	const int cx = fine->cx, cy = fine->cy, cz = fine->cz;
	const bsq_real *f = fine->v[fvec];
	bsq_real *c = coarse->v[cvec];
	int K;
#pragma omp parallel for schedule(static) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (K = 1; K <= g->nz; K++) {
		int I, J, a, b, d;
		for (J = 1; J <= g->ny; J++)
			for (I = 1; I <= g->nx; I++) {
				bsq_real sum = 0;
				for (d = 0; d < cz; d++)
					for (b = 0; b < cy; b++)
						for (a = 0; a < cx; a++)
							sum += f[bsq_idx(gf, (I - 1) * cx + 1 + a,
								(J - 1) * cy + 1 + b, (K - 1) * cz + 1 + d)];
				c[bsq_idx(g, I, J, K)] = bsq_restrict(sum, cx * cy * cz);
			}
	}
}
