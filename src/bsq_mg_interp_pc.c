/* bsq_mg_interp_pc.c: the piecewise-constant prolongation verb (BSQ.md
 * "Pressure solvers"): every fine cell takes its parent's value (bsq_pc_at).
 * Cheaper than trilinear, slower V-cycles. */
#include "bsq_impl.h"

void bsq_mg_interp_pc(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	bsq_mg_interp_rows(fine, fvec, a, coarse, cvec, 0);
}
