/* bsq_mg.c: the pressure Poisson solve lap(phi) = b (BSQ.md "Pressure
 * solvers"): geometric multigrid cycles built from the verbs of bsq_impl.h
 * alone (HPGMG style), or the Jacobi baseline.
 *
 * V(pre, post): smooth, restrict the residual, recurse from a zero guess,
 * add the prolongated correction, smooth.  Full multigrid: the right-hand
 * side restricted to every level, the coarsest solved, then each finer level
 * starts from the prolongated coarser solution and runs one V-cycle.  The
 * coarsest level (at most 512 cells) is solved by sweeps to 1e-10 of its
 * initial residual.  Every problem here is singular (Neumann or periodic
 * everywhere): right-hand sides have their mean removed and solutions are
 * shifted to mean 0. */
#include <math.h>

#include "bsq_impl.h"
#include "spate.h"

#define COARSE_SWEEPS_MAX 2000

static void coarse_solve(struct bsq_level *L)
{
	double r0, r;
	int sweeps = 0;
	bsq_mg_shift(L, BSQ_RHS, bsq_mg_mean(L, BSQ_RHS));
	r = r0 = bsq_mg_residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
	while (r > 1e-10 * r0 && sweeps < COARSE_SWEEPS_MAX) {
		bsq_mg_smooth(L, BSQ_PHI, BSQ_RHS, 4);
		sweeps += 4;
		r = bsq_mg_residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
	}
	bsq_mg_shift(L, BSQ_PHI, bsq_mg_mean(L, BSQ_PHI));
}

static void interp(const struct bsq_params *p, struct bsq_level *fine, double a,
	struct bsq_level *coarse)
{
	if (p->interp == BSQ_INTERP_PC)
		bsq_mg_interp_pc(fine, BSQ_PHI, a, coarse, BSQ_PHI);
	else
		bsq_mg_interp_pl(fine, BSQ_PHI, a, coarse, BSQ_PHI);
}

static void vcycle(struct bsq_state *s, const struct bsq_params *p, int l)
{
	struct bsq_level *L = &s->lev[l], *C = &s->lev[l + 1];
	if (l == s->nlev - 1) {
		coarse_solve(L);
		return;
	}
	bsq_mg_smooth(L, BSQ_PHI, BSQ_RHS, p->pre);
	bsq_mg_residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
	bsq_mg_restrict(C, BSQ_RHS, L, BSQ_RES);
	bsq_mg_zero(C, BSQ_PHI);
	vcycle(s, p, l + 1);
	interp(p, L, 1, C);
	bsq_mg_smooth(L, BSQ_PHI, BSQ_RHS, p->post);
}

static void fmg(struct bsq_state *s, const struct bsq_params *p)
{
	int l;
	for (l = 0; l + 1 < s->nlev; l++)
		bsq_mg_restrict(&s->lev[l + 1], BSQ_RHS, &s->lev[l], BSQ_RHS);
	bsq_mg_zero(&s->lev[s->nlev - 1], BSQ_PHI);
	coarse_solve(&s->lev[s->nlev - 1]);
	for (l = s->nlev - 2; l >= 0; l--) {
		interp(p, &s->lev[l], 0, &s->lev[l + 1]);
		vcycle(s, p, l);
	}
}

int bsq_poisson(struct bsq_state *s, const struct bsq_params *p, double rtol, int first_fmg,
	struct bsq_stats *st)
{
	struct bsq_level *L = &s->lev[0];
	int err = 0;
	st->cycles = 0;
	st->fmg = 0;
	if (p->solver == BSQ_SOLVER_JACOBI) {
		err = bsq_jacobi(L, rtol, p->max_sweeps, &st->cycles, &st->residual);
		s->p = L->v[BSQ_PHI];
	} else {
		if (first_fmg) {
			fmg(s, p);
			st->fmg = 1;
		}
		while ((st->residual = bsq_mg_residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS)) > rtol &&
			st->cycles < p->max_cycles) {
			vcycle(s, p, 0);
			st->cycles++;
		}
		if (!(st->residual <= rtol))
			err = -SPATE_ENUMERIC;
	}
	bsq_mg_shift(L, BSQ_PHI, bsq_mg_mean(L, BSQ_PHI));
	if (err)
		spate_log_error("bsq", "pressure solve: residual %g after %d %s, above %g "
			"(raise max_cycles or max_sweeps, or tol)", st->residual, st->cycles,
			p->solver == BSQ_SOLVER_JACOBI ? "sweeps" : "V-cycles", rtol);
	return err;
}
