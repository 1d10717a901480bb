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
 * shifted to mean 0.  The cycles call the verbs through a backend table
 * (struct bsq_ops): the same code drives the CPU and the CUDA levels. */
#include <math.h>

#include "bsq_impl.h"
#include "spate.h"

#define COARSE_SWEEPS_MAX 2000

/* One solve: the backend's verbs and the levels they act on. */
struct mg {
	const struct bsq_ops *o;
	struct bsq_level *lev;
	int nlev;
	const struct bsq_params *p;
};

static void coarse_solve(const struct mg *m, struct bsq_level *L)
{
	const struct bsq_ops *o = m->o;
	double r0, r;
	int sweeps = 0;
	o->shift(L, BSQ_RHS, o->mean(L, BSQ_RHS));
	r = r0 = o->residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
	while (r > 1e-10 * r0 && sweeps < COARSE_SWEEPS_MAX) {
		o->smooth(L, BSQ_PHI, BSQ_RHS, 4);
		sweeps += 4;
		r = o->residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
	}
	o->shift(L, BSQ_PHI, o->mean(L, BSQ_PHI));
}

static void interp(const struct mg *m, struct bsq_level *fine, double a, struct bsq_level *coarse)
{
	if (m->p->interp == BSQ_INTERP_PC)
		m->o->interp_pc(fine, BSQ_PHI, a, coarse, BSQ_PHI);
	else
		m->o->interp_pl(fine, BSQ_PHI, a, coarse, BSQ_PHI);
}

static void vcycle(const struct mg *m, int l)
{
	const struct bsq_ops *o = m->o;
	struct bsq_level *L = &m->lev[l], *C = &m->lev[l + 1];
	if (l == m->nlev - 1) {
		coarse_solve(m, L);
		return;
	}
	o->smooth(L, BSQ_PHI, BSQ_RHS, m->p->pre);
	o->residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
	o->restriction(C, BSQ_RHS, L, BSQ_RES);
	o->zero(C, BSQ_PHI);
	vcycle(m, l + 1);
	interp(m, L, 1, C);
	o->smooth(L, BSQ_PHI, BSQ_RHS, m->p->post);
}

static void fmg(const struct mg *m)
{
	int l;
	for (l = 0; l + 1 < m->nlev; l++)
		m->o->restriction(&m->lev[l + 1], BSQ_RHS, &m->lev[l], BSQ_RHS);
	m->o->zero(&m->lev[m->nlev - 1], BSQ_PHI);
	coarse_solve(m, &m->lev[m->nlev - 1]);
	for (l = m->nlev - 2; l >= 0; l--) {
		interp(m, &m->lev[l], 0, &m->lev[l + 1]);
		vcycle(m, l);
	}
}

int bsq_poisson_on(const struct bsq_ops *o, struct bsq_state *s, const struct bsq_params *p,
	double rtol, int first_fmg, struct bsq_stats *st)
{
	struct bsq_level *L = &s->lev[0];
	struct mg m;
	int err = 0;
	m.o = o;
	m.lev = s->lev;
	m.nlev = s->nlev;
	m.p = p;
	st->cycles = 0;
	st->fmg = 0;
	if (p->solver == BSQ_SOLVER_JACOBI) {
		err = bsq_jacobi(o, L, rtol, p->max_sweeps, &st->cycles, &st->residual);
		s->p = L->v[BSQ_PHI];
	} else {
		if (first_fmg) {
			fmg(&m);
			st->fmg = 1;
		}
		while ((st->residual = o->residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS)) > rtol &&
			st->cycles < p->max_cycles) {
			vcycle(&m, 0);
			st->cycles++;
		}
		if (!(st->residual <= rtol))
			err = -SPATE_ENUMERIC;
	}
	o->shift(L, BSQ_PHI, o->mean(L, BSQ_PHI));
	if (err)
		spate_log_error("bsq", "pressure solve (%s): residual %g after %d %s, above %g "
			"(raise max_cycles or max_sweeps, or tol)", o->name, st->residual, st->cycles,
			p->solver == BSQ_SOLVER_JACOBI ? "sweeps" : "V-cycles", rtol);
	return err;
}
