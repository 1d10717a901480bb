/* bsq_mg_restrict.c: the restriction verb, cell-centred (BSQ.md "Pressure
 * solvers"): a coarse cell gets the mean of its children, cx cy cz of them
 * (2 per coarsened direction, 1 otherwise). */
#include "bsq_impl.h"

/* Rows of the coarse level; x->l is the fine level. */
static double restrict_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	const struct bsq_level *f = x->l;
	const int cx = f->cx, cy = f->cy, cz = f->cz;
	int I, J, K, e, a, b, d;
	bsq_row_jk(&x->c->g, c0, &I, &J, &K);
	for (e = 0; e < n; e++, I++) {
		bsq_real sum = 0;
		for (d = 0; d < cz; d++)
			for (b = 0; b < cy; b++)
				for (a = 0; a < cx; a++)
					sum += x->in[bsq_idx(&f->g, (I - 1) * cx + 1 + a,
						(J - 1) * cy + 1 + b, (K - 1) * cz + 1 + d)];
		x->out[c0 + e] = bsq_restrict(sum, cx * cy * cz);
	}
	return 0;
}

void bsq_mg_restrict(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int fvec)
{
	struct bsq_lctx x = bsq_lctx_of(fine);
	x.c = coarse;
	x.out = coarse->v[cvec];
	x.in = fine->v[fvec];
	bsq_rows_max(&coarse->g, bsq_interior, restrict_row, &x);
}
