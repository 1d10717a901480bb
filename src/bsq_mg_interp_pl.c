/* bsq_mg_interp_pl.c: the trilinear prolongation verb (BSQ.md "Pressure
 * solvers"): a fine cell takes 27/64 of its parent, 9/64 of each of the
 * three nearest face neighbours of the parent towards it, 3/64 of the edge
 * ones and 1/64 of the corner one: bsq_pl nested over x, y, z.  A direction
 * that is not coarsened uses the parent alone (far == near).  Reads the
 * coarse ghosts (Neumann or periodic) at the boundary. */
#include <stddef.h>

#include "bsq_impl.h"

static double pl_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	const struct bsq_level *f = x->l;
	const struct bsq_grid *gc = &x->c->g;
	const ptrdiff_t sy = (ptrdiff_t)bsq_sy(gc), sz = (ptrdiff_t)bsq_sz(gc);
	const bsq_real a = (bsq_real)x->a;
	int i, j, k, e;
	bsq_row_jk(x->g, c0, &i, &j, &k);
	for (e = 0; e < n; e++, i++) {
		const ptrdiff_t ox = bsq_far(i, f->cx), oy = bsq_far(j, f->cy) * sy,
			oz = bsq_far(k, f->cz) * sz;
		const bsq_real *q = x->in + bsq_idx(gc, bsq_parent(i, f->cx), bsq_parent(j, f->cy),
			bsq_parent(k, f->cz));
		bsq_real xn = bsq_pl(bsq_pl(q[0], q[oz]), bsq_pl(q[oy], q[oy + oz]));
		bsq_real xf = bsq_pl(bsq_pl(q[ox], q[ox + oz]), bsq_pl(q[ox + oy], q[ox + oy + oz]));
		x->out[c0 + e] = a * x->out[c0 + e] + bsq_pl(xn, xf);
	}
	return 0;
}

void bsq_mg_interp_pl(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	bsq_mg_interp_rows(fine, fvec, a, coarse, cvec, pl_row);
}
