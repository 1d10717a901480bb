/* bsq_mg_gsrb.c: the smoother verb, red-black Gauss-Seidel (BSQ.md
 * "Pressure solvers"): the point relaxation of bsq_relax on the cells with
 * i + j + k even, then odd.  A colour reads only the other colour, so the
 * planes of one colour update in any order: the same bits on any number of
 * threads. */
#include "bsq_impl.h"

static double colour_row(void *vctx, size_t c0, int n)
{
	const struct bsq_lctx *x = vctx;
	int i, j, k;
	size_t c;
	bsq_row_jk(x->g, c0, &i, &j, &k);
	/* cells with (i + j + k0 + k) % 2 == red: i = 1 or 2 first */
	for (c = c0 + (size_t)((1 + j + x->l->k0 + k + x->red) & 1); c < c0 + (size_t)n; c += 2)
		x->out[c] = bsq_relax_at(x->out, x->in2, c, x->sy, x->sz, &x->l->h);
	return 0;
}

void bsq_mg_colour(struct bsq_level *l, int phi, int rhs, int red)
{
	struct bsq_lctx x = bsq_lctx_of(l);
	x.out = l->v[phi];
	x.in2 = l->v[rhs];
	x.red = red;
	bsq_mg_ghosts(l, phi);
	bsq_rows_max(&l->g, bsq_interior, colour_row, &x);
}

void bsq_mg_smooth(struct bsq_level *l, int phi, int rhs, int sweeps)
{
	int s;
	for (s = 0; s < sweeps; s++) {
		bsq_mg_colour(l, phi, rhs, 0);
		bsq_mg_colour(l, phi, rhs, 1);
	}
}
