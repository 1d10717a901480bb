/* bsq_jacobi.c: the Jacobi pressure solve, the seed papers' baseline
 * (Jacobsen et al. 2010; BSQ.md "Pressure solvers"): every cell relaxed from
 * the previous iterate, phi_new = (sum of neighbours / h^2 - b) / (2 sum
 * 1/h^2), ping-ponging between PHI and TMP.  O(N^2) sweeps.  The residual is
 * checked every CHECK sweeps; the mean is removed there too (singular
 * problem).  On a periodic grid with an even number of cells the
 * checkerboard mode has amplification -1: only its round-off content is
 * there, far below any tolerance. */
#include "bsq_impl.h"
#include "spate.h"

#define CHECK 10

static void sweep(struct bsq_level *l)
{
	const struct bsq_grid *g = &l->g;
	const size_t sy = bsq_sy(g), sz = bsq_sz(g);
	const bsq_real *x = l->v[BSQ_PHI], *b = l->v[BSQ_RHS];
	bsq_real *y = l->v[BSQ_TMP];
	int k;
	bsq_mg_ghosts(l, BSQ_PHI);
#pragma omp parallel for schedule(static) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (k = 1; k <= g->nz; k++) {
		int i, j;
		for (j = 1; j <= g->ny; j++)
			for (i = 1; i <= g->nx; i++) {
				size_t c = bsq_idx(g, i, j, k);
				struct bsq_st7 q = bsq_gather7(x, c, sy, sz);
				y[c] = bsq_relax(&q, b[c], &l->h);
			}
	}
	l->v[BSQ_TMP] = l->v[BSQ_PHI];
	l->v[BSQ_PHI] = y;
}

int bsq_jacobi(struct bsq_level *l, double rtol, int max_sweeps, int *sweeps, double *res)
{
	int n = 0;
	while ((*res = bsq_mg_residual(l, BSQ_RES, BSQ_PHI, BSQ_RHS)) > rtol && n < max_sweeps) {
		int s;
		for (s = 0; s < CHECK && n < max_sweeps; s++, n++)
			sweep(l);
		bsq_mg_shift(l, BSQ_PHI, bsq_mg_mean(l, BSQ_PHI));
	}
	*sweeps = n;
	return *res <= rtol ? 0 : -SPATE_ENUMERIC;
}
