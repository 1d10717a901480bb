/* bsq_mg_interp_pl.c: the trilinear prolongation verb (BSQ.md "Pressure
 * solvers"): a fine cell takes 27/64 of its parent, 9/64 of each of the
 * three nearest face neighbours of the parent towards it, 3/64 of the edge
 * ones and 1/64 of the corner one: bsq_pl nested over x, y, z (bsq_pl_at).
 * A direction that is not coarsened uses the parent alone (far == near).
 * Reads the coarse ghosts (Neumann or periodic) at the boundary. */
#include "bsq_impl.h"

void bsq_mg_interp_pl(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	bsq_mg_interp_rows(fine, fvec, a, coarse, cvec, 1);
}
