/* bsq_mg_residual.c: the residual verb, res = rhs - lap7(phi) on the
 * interior (BSQ.md "Grid": 7-point Laplacian with the level's spacing). */
#include <math.h>

#include "bsq_impl.h"

static double residual_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	double m = 0;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++) {
		x->out[c] = bsq_residual_at(x->in, x->in2, c, x->sy, x->sz, &x->l->h);
		m = fmax(m, fabs((double)x->out[c]));
	}
	return m;
}

double bsq_mg_residual(struct bsq_level *l, int res, int phi, int rhs)
{
	struct bsq_lctx x = bsq_lctx_of(l);
	x.out = l->v[res];
	x.in = l->v[phi];
	x.in2 = l->v[rhs];
	bsq_mg_ghosts(l, phi);
	return bsq_rows_max(&l->g, bsq_interior, residual_row, &x);
}
