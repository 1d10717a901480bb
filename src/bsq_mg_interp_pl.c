/* bsq_mg_interp_pl.c: the trilinear prolongation verb (BSQ.md "Pressure
 * solvers"): a fine cell takes 27/64 of its parent, 9/64 of each of the
 * three nearest face neighbours of the parent towards it, 3/64 of the edge
 * ones and 1/64 of the corner one: bsq_pl nested over x, y, z.  A direction
 * that is not coarsened uses the parent alone (far == near).  Reads the
 * coarse ghosts (Neumann or periodic) at the boundary. */
#include <stddef.h>

#include "bsq_impl.h"

void bsq_mg_interp_pl(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	const struct bsq_grid *g = &fine->g, *gc = &coarse->g;
	const ptrdiff_t sy = (ptrdiff_t)bsq_sy(gc), sz = (ptrdiff_t)bsq_sz(gc);
	const int cx = fine->cx, cy = fine->cy, cz = fine->cz;
	const bsq_real *c = coarse->v[cvec];
	bsq_real *f = fine->v[fvec];
	const bsq_real ar = (bsq_real)a;
	int k;
	bsq_mg_ghosts(coarse, cvec);
#pragma omp parallel for schedule(static) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (k = 1; k <= g->nz; k++) {
		const ptrdiff_t oz = bsq_far(k, cz) * sz;
		int i, j;
		for (j = 1; j <= g->ny; j++) {
			const ptrdiff_t oy = bsq_far(j, cy) * sy;
			for (i = 1; i <= g->nx; i++) {
				const ptrdiff_t ox = bsq_far(i, cx);
				const bsq_real *n = c + bsq_idx(gc, bsq_parent(i, cx), bsq_parent(j, cy),
					bsq_parent(k, cz));
				bsq_real xn = bsq_pl(bsq_pl(n[0], n[oz]), bsq_pl(n[oy], n[oy + oz]));
				bsq_real xf = bsq_pl(bsq_pl(n[ox], n[ox + oz]),
					bsq_pl(n[ox + oy], n[ox + oy + oz]));
				size_t e = bsq_idx(g, i, j, k);
				f[e] = ar * f[e] + bsq_pl(xn, xf);
			}
		}
	}
}
