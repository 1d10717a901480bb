/* bsq_cpu.c: the Boussinesq module's CPU backend: its table of verbs (the
 * OpenMP row loops of bsq_*.c) and the public step and pressure solve
 * (bsq.h) on it.  The CUDA twin is cuda/bsq_cuda.cu; both run the control
 * flow of bsq_step.c and bsq_mg.c. */
#include "bsq_impl.h"

const struct bsq_ops bsq_ops_cpu = {
	"cpu",
	bsq_rhs, bsq_field_max, bsq_predict, bsq_correct_comp, bsq_div_rhs,
	bsq_bc_velocity, bsq_bc_scalar, bsq_diag_div,
	bsq_mg_zero, bsq_mg_mean, bsq_mg_shift, bsq_mg_ghosts, bsq_mg_residual, bsq_mg_smooth,
	bsq_mg_restrict, bsq_mg_interp_pl, bsq_mg_interp_pc, bsq_jacobi_sweep,
	bsq_mg_colour, bsq_mg_plane_sums, bsq_diag_div_planes,
	NULL, NULL, NULL, NULL, /* in place: no residual without its max, no level moves */
	bsq_mg_extrapolate, bsq_mg_restrict_residual,
	NULL, NULL /* every level's verbs run as they are */
};

int bsq_step(struct bsq_state *s, const struct bsq_params *p, struct bsq_stats *st)
{
	return bsq_step_on(&bsq_ops_cpu, s, p, st);
}

int bsq_poisson(struct bsq_state *s, const struct bsq_params *p, double rtol, int first_fmg,
	struct bsq_stats *st)
{
	return bsq_poisson_on(&bsq_ops_cpu, s, p, rtol, first_fmg, st);
}

int bsq_vcycles(struct bsq_state *s, const struct bsq_params *p, int n)
{
	return bsq_vcycles_on(&bsq_ops_cpu, s, p, n);
}
