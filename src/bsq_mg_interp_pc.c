/* bsq_mg_interp_pc.c: the piecewise-constant prolongation verb (BSQ.md
 * "Pressure solvers"): every fine cell takes its parent's value.  Cheaper
 * than trilinear, slower V-cycles. */
#include "bsq_impl.h"

static double pc_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	const struct bsq_level *f = x->l;
	const bsq_real a = (bsq_real)x->a;
	int i, j, k, e;
	bsq_row_jk(x->g, c0, &i, &j, &k);
	for (e = 0; e < n; e++, i++)
		x->out[c0 + e] = bsq_prolong_add(a, x->out[c0 + e],
			bsq_pc_at(x->in, &x->c->g, f->cx, f->cy, f->cz, i, j, k));
	return 0;
}

void bsq_mg_interp_pc(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	bsq_mg_interp_rows(fine, fvec, a, coarse, cvec, pc_row);
}
