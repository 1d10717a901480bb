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

static double sweep_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++)
		x->out[c] = bsq_relax_at(x->in, x->in2, c, x->sy, x->sz, &x->l->h);
	return 0;
}

void bsq_jacobi_sweep(struct bsq_level *l)
{
	struct bsq_lctx x = bsq_lctx_of(l);
	bsq_real *y = l->v[BSQ_TMP];
	x.out = y;
	x.in = l->v[BSQ_PHI];
	x.in2 = l->v[BSQ_RHS];
	bsq_mg_ghosts(l, BSQ_PHI);
	bsq_rows_max(&l->g, bsq_interior, sweep_row, &x);
	l->v[BSQ_TMP] = l->v[BSQ_PHI];
	l->v[BSQ_PHI] = y;
}

int bsq_jacobi(const struct bsq_ops *o, struct bsq_level *l, double rtol, int max_sweeps,
	int *sweeps, double *res)
{
	int n = 0;
	while ((*res = o->residual(l, BSQ_RES, BSQ_PHI, BSQ_RHS)) > rtol && n < max_sweeps) {
		int s;
		for (s = 0; s < CHECK && n < max_sweeps; s++, n++)
			o->jacobi_sweep(l);
		o->shift(l, BSQ_PHI, o->mean(l, BSQ_PHI));
	}
	*sweeps = n;
	return *res <= rtol ? 0 : -SPATE_ENUMERIC;
}
