/* bsq_mg_residual.c: the residual verb, res = rhs - lap7(phi) on the
 * interior (BSQ.md "Grid": 7-point Laplacian with the level's spacing). */
#include <math.h>

#include "bsq_impl.h"

double bsq_mg_residual(struct bsq_level *l, int res, int phi, int rhs)
{
	const struct bsq_grid *g = &l->g;
	const size_t sy = bsq_sy(g), sz = bsq_sz(g);
	const bsq_real *x = l->v[phi], *b = l->v[rhs];
	bsq_real *r = l->v[res];
	double m = 0;
	int k;
	bsq_mg_ghosts(l, phi);
#pragma omp parallel for schedule(static) reduction(max : m) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (k = 1; k <= g->nz; k++) {
		int i, j;
		for (j = 1; j <= g->ny; j++)
			for (i = 1; i <= g->nx; i++) {
				size_t c = bsq_idx(g, i, j, k);
				struct bsq_st7 q = bsq_gather7(x, c, sy, sz);
				r[c] = bsq_residual(&q, b[c], &l->h);
				m = fmax(m, fabs((double)r[c]));
			}
	}
	return m;
}
