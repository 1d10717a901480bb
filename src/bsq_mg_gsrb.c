/* bsq_mg_gsrb.c: the smoother verb, red-black Gauss-Seidel (BSQ.md
 * "Pressure solvers"): the point relaxation of bsq_relax on the cells with
 * i + j + k even, then odd.  A colour reads only the other colour, so the
 * planes of one colour update in any order: the same bits on any number of
 * threads. */
#include "bsq_impl.h"

static void colour(struct bsq_level *l, int phi, int rhs, int red)
{
	const struct bsq_grid *g = &l->g;
	const size_t sy = bsq_sy(g), sz = bsq_sz(g);
	bsq_real *x = l->v[phi];
	const bsq_real *b = l->v[rhs];
	int k;
	bsq_mg_ghosts(l, phi);
#pragma omp parallel for schedule(static) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (k = 1; k <= g->nz; k++) {
		int i, j;
		for (j = 1; j <= g->ny; j++)
			for (i = 1 + ((1 + j + k + red) & 1); i <= g->nx; i += 2) {
				size_t c = bsq_idx(g, i, j, k);
				struct bsq_st7 q = bsq_gather7(x, c, sy, sz);
				x[c] = bsq_relax(&q, b[c], &l->h);
			}
	}
}

void bsq_mg_smooth(struct bsq_level *l, int phi, int rhs, int sweeps)
{
	int s;
	for (s = 0; s < sweeps; s++) {
		colour(l, phi, rhs, 0);
		colour(l, phi, rhs, 1);
	}
}
