/* bsq_mg_gsrb.c: the smoother verb, red-black Gauss-Seidel (BSQ.md
 * "Pressure solvers"): the point relaxation of bsq_relax on the cells with
 * i + j + k even, then odd.  A colour reads only the other colour, so the
 * planes of one colour update in any order: the same bits on any number of
 * threads.
 *
 * A sweep runs as one pass over memory where it can (bsq_mg_smooth): plane
 * by plane upward, the red cells of plane t, then the black cells of plane
 * t - 1, whose red neighbours (planes t - 2 to t) are then all new while
 * the black cells the red ones read are all still old: the values of the
 * two passes (one a colour) to the bit, with the planes t - 2 to t + 1 in
 * cache instead of the whole field read twice.  The ghosts a black cell
 * reads after the red pass: across a periodic face refreshed from the new
 * red cells of its plane (what the fill between the two passes does),
 * across any other face the ghost mirrors the black cell itself, untouched.
 * Not where a z face is periodic or a slab's halo (the colour verb then,
 * as slabs use it); SPATE_BSQ_GS=colours keeps the two passes, for
 * comparison (as on the GPU, cuda/bsq_cuda_gs.cu). */
#include <stdlib.h>
#include <string.h>

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

/* Whether a sweep of l can run as one pass (the file's comment). */
static int one_pass(const struct bsq_level *l)
{
	static int colours = -1;
	int f;
	if (colours < 0) {
		const char *e = getenv("SPATE_BSQ_GS");
		colours = e && strcmp(e, "colours") == 0;
	}
	for (f = 0; f < BSQ_NFACE; f++)
		if (l->ghost[f] == BSQ_GHOST_HALO || (f >= BSQ_ZM && l->ghost[f] == BSQ_GHOST_PERIODIC))
			return 0;
	return !colours;
}

/* The periodic x ghosts of row (j, k) and, for row -1, the periodic y ghost
 * rows of plane k: copies of the cells they wrap to, as a fill makes them. */
static void wrap_row(struct bsq_level *l, bsq_real *a, int j, int k)
{
	const struct bsq_grid *g = &l->g;
	int i;
	if (j >= 0) {
		a[bsq_idx(g, 0, j, k)] = a[bsq_idx(g, g->nx, j, k)];
		a[bsq_idx(g, g->nx + 1, j, k)] = a[bsq_idx(g, 1, j, k)];
		return;
	}
	for (i = 1; i <= g->nx; i++) {
		a[bsq_idx(g, i, 0, k)] = a[bsq_idx(g, i, g->ny, k)];
		a[bsq_idx(g, i, g->ny + 1, k)] = a[bsq_idx(g, i, 1, k)];
	}
}

static void sweep_one_pass(struct bsq_level *l, int phi, int rhs)
{
	struct bsq_lctx red = bsq_lctx_of(l), black;
	const struct bsq_grid *g = &l->g;
	const int px = l->ghost[BSQ_XM] == BSQ_GHOST_PERIODIC;
	const int py = l->ghost[BSQ_YM] == BSQ_GHOST_PERIODIC;
	int t;
	red.out = l->v[phi];
	red.in2 = l->v[rhs];
	black = red;
	black.red = 1;
	bsq_mg_ghosts(l, phi);
#pragma omp parallel private(t) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (t = 1; t <= g->nz + 1; t++) {
		int j;
		if (t <= g->nz) {
#pragma omp for schedule(static)
			for (j = 1; j <= g->ny; j++) {
				colour_row(&red, bsq_idx(g, 1, j, t), g->nx);
				if (px)
					wrap_row(l, red.out, j, t);
			}
			if (py) {
#pragma omp single
				wrap_row(l, red.out, -1, t);
			}
		}
		if (t >= 2) {
#pragma omp for schedule(static) nowait
			for (j = 1; j <= g->ny; j++)
				colour_row(&black, bsq_idx(g, 1, j, t - 1), g->nx);
		}
	}
}

void bsq_mg_smooth(struct bsq_level *l, int phi, int rhs, int sweeps)
{
	int s;
	for (s = 0; s < sweeps; s++) {
		if (one_pass(l)) {
			sweep_one_pass(l, phi, rhs);
		} else {
			bsq_mg_colour(l, phi, rhs, 0);
			bsq_mg_colour(l, phi, rhs, 1);
		}
	}
}
