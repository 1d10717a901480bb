/* bsq_mg_interp_pl.c: the trilinear prolongation verb (BSQ.md "Pressure
 * solvers"): a fine cell takes 27/64 of its parent, 9/64 of each of the
 * three nearest face neighbours of the parent towards it, 3/64 of the edge
 * ones and 1/64 of the corner one: bsq_pl nested over x, y, z.  A direction
 * that is not coarsened uses the parent alone (far == near).  Reads the
 * coarse ghosts (Neumann or periodic) at the boundary. */
#include "bsq_impl.h"

static double pl_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	const struct bsq_level *f = x->l;
	const bsq_real a = (bsq_real)x->a;
	int i, j, k, e;
	bsq_row_jk(x->g, c0, &i, &j, &k);
	for (e = 0; e < n; e++, i++)
		x->out[c0 + e] = bsq_prolong_add(a, x->out[c0 + e],
			bsq_pl_at(x->in, &x->c->g, f->cx, f->cy, f->cz, i, j, k));
	return 0;
}

void bsq_mg_interp_pl(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	bsq_mg_interp_rows(fine, fvec, a, coarse, cvec, pl_row);
}
