/* bsq_mg_restrict.c: the restriction verb, cell-centred (BSQ.md "Pressure
 * solvers"): a coarse cell gets the mean of its children, cx cy cz of them
 * (2 per coarsened direction, 1 otherwise); and the restriction of the
 * residual computed where it is read (no residual field written and read
 * again: one pass over phi and rhs instead of three over fine fields). */
#include "bsq_transfer.h"

/* Rows of the coarse level; x->l is the fine level. */
static double restrict_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	const struct bsq_level *f = x->l;
	int I, J, K, e;
	bsq_row_jk(&x->c->g, c0, &I, &J, &K);
	for (e = 0; e < n; e++, I++)
		x->out[c0 + e] = bsq_restrict_at(x->in, x->in2, &f->h, &f->g, f->cx, f->cy, f->cz, I,
			J, K);
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

void bsq_mg_restrict_residual(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int phi,
	int rhs)
{
	struct bsq_lctx x = bsq_lctx_of(fine);
	x.c = coarse;
	x.out = coarse->v[cvec];
	x.in = fine->v[phi];
	x.in2 = fine->v[rhs];
	bsq_mg_ghosts(fine, phi);
	bsq_rows_max(&coarse->g, bsq_interior, restrict_row, &x);
}
