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
#include <stdlib.h>

#include "bsq_impl.h"
#include "spate.h"

/* Levels of at most this many cells run on the host when the backend can
 * move a level's vectors there (o->level_get, level_put: the GPU's).  On a
 * GPU each verb of such a level is a launch or two of a few blocks, bound by
 * latency: the coarsest level's sweeps to 1e-10 alone made thousands of
 * launches a V-cycle (Rayleigh-Benard 384 x 384 x 192 on an H100: 3651
 * ghost fills on one block in 6000 launches; doc/bench/boussinesq.md).  The
 * host runs the backend's host verbs (o->host, the CPU's) on copies of those
 * levels: the same bits. */
#define HOST_CELLS 4096

/* One solve: the backend's verbs and the levels they act on; levels lh and
 * coarser also as host copies in hlev[] (lh = nlev: none); V-cycles from
 * level lt down in one go by the backend (o->tail_cycle; lt = nlev: none). */
struct mg {
	const struct bsq_ops *o;
	struct bsq_level *lev;
	int nlev;
	const struct bsq_params *p;
	int lh;
	struct bsq_level *hlev;
	int lt;
};

static void vcycle(const struct mg *m, int l);
static void fmg_at(const struct mg *m, int l0);

/* The solve of the host levels: level lh's phi and right-hand side down,
 * fn on the host copies (vcycle or fmg_at from lh), phi back up. */
static void on_host(const struct mg *m, void (*fn)(const struct mg *, int))
{
	struct mg h = *m;
	struct bsq_level *D = &m->lev[m->lh], *H = &m->hlev[m->lh];
	h.o = m->o->host;
	h.lev = m->hlev;
	h.lh = m->nlev;
	h.lt = m->nlev;
	if (m->o->level_get(D, BSQ_PHI, H->v[BSQ_PHI]) || m->o->level_get(D, BSQ_RHS, H->v[BSQ_RHS]))
		return; /* the backend noted the error; the step reports it */
	fn(&h, m->lh);
	m->o->level_put(D, BSQ_PHI, H->v[BSQ_PHI]);
}

/* Where the small levels run: m->lt, the first level of the backend's tail
 * (o->tail_from; nlev: none), and host copies of the levels from the first
 * of at most HOST_CELLS cells, m->lh and m->hlev (lh = nlev, every level
 * where it is, when the backend cannot move levels or there is no memory).
 * A cycle takes whichever of the two it reaches first; full multigrid's coarsest
 * solve still runs on the host copies. */
static void host_levels(struct mg *m)
{
	int l, v, first;
	m->lh = m->nlev;
	m->hlev = NULL;
	m->lt = m->o->tail_from && m->o->tail_cycle ? m->o->tail_from(m->lev, m->nlev, m->p) :
		m->nlev;
	if (!m->o->level_get || !m->o->level_put || !m->o->host)
		return;
	for (first = 0; first < m->nlev && bsq_count(&m->lev[first].g) > HOST_CELLS; first++)
		;
	if (first == m->nlev || !(m->hlev = calloc((size_t)m->nlev, sizeof *m->hlev)))
		return;
	for (l = first; l < m->nlev; l++) {
		m->hlev[l] = m->lev[l];
		for (v = 0; v < BSQ_NVEC; v++)
			m->hlev[l].v[v] = NULL;
		/* the cycles never read PREV (the warm start's, level 0) */
		for (v = 0; v < BSQ_NVEC; v++)
			if (v != BSQ_PREV && !(m->hlev[l].v[v] =
				calloc(bsq_count(&m->lev[l].g), sizeof(bsq_real))))
				return;
	}
	m->lh = first;
}

static void host_levels_free(struct mg *m)
{
	int l, v;
	if (!m->hlev)
		return;
	for (l = 0; l < m->nlev; l++)
		for (v = 0; v < BSQ_NVEC; v++)
			free(m->hlev[l].v[v]);
	free(m->hlev);
	m->hlev = NULL;
	m->lh = m->nlev;
}

static void coarse_solve(const struct mg *m, struct bsq_level *L)
{
	const struct bsq_ops *o = m->o;
	double r0, r;
	int sweeps = 0;
	o->shift(L, BSQ_RHS, o->mean(L, BSQ_RHS));
	r = r0 = o->residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
	while (r > BSQ_COARSE_RTOL * r0 && sweeps < BSQ_COARSE_SWEEPS_MAX) {
		o->smooth(L, BSQ_PHI, BSQ_RHS, BSQ_COARSE_SWEEPS);
		sweeps += BSQ_COARSE_SWEEPS;
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
	if (l == m->lt) {
		o->tail_cycle(m->lev, l, m->nlev, m->p);
		return;
	}
	if (l == m->lh) {
		on_host(m, vcycle);
		return;
	}
	if (l == m->nlev - 1) {
		coarse_solve(m, L);
		return;
	}
	o->smooth(L, BSQ_PHI, BSQ_RHS, m->p->pre);
	if (o->restrict_residual) {
		o->restrict_residual(C, BSQ_RHS, L, BSQ_PHI, BSQ_RHS);
	} else {
		if (o->residual_only)
			o->residual_only(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
		else
			o->residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS);
		o->restriction(C, BSQ_RHS, L, BSQ_RES);
	}
	o->zero(C, BSQ_PHI);
	vcycle(m, l + 1);
	interp(m, L, 1, C);
	o->smooth(L, BSQ_PHI, BSQ_RHS, m->p->post);
}

/* Full multigrid from level l0 down (its right-hand side given); the host
 * levels from lh as one block (on_host). */
static void fmg_at(const struct mg *m, int l0)
{
	int l, last = m->lh < m->nlev ? m->lh : m->nlev - 1;
	for (l = l0; l < last; l++)
		m->o->restriction(&m->lev[l + 1], BSQ_RHS, &m->lev[l], BSQ_RHS);
	if (last == m->lh) {
		on_host(m, fmg_at);
	} else {
		m->o->zero(&m->lev[last], BSQ_PHI);
		coarse_solve(m, &m->lev[last]);
	}
	for (l = last - 1; l >= l0; l--) {
		interp(m, &m->lev[l], 0, &m->lev[l + 1]);
		vcycle(m, l);
	}
}

int bsq_poisson_on(const struct bsq_ops *o, struct bsq_state *s, const struct bsq_params *p,
	double rtol, int first_fmg, struct bsq_stats *st)
{
	struct bsq_level *L = &s->lev[0];
	struct mg m;
	double last = 0;
	int err = 0, flat = 0;
	m.o = o;
	m.lev = s->lev;
	m.nlev = s->nlev;
	m.p = p;
	host_levels(&m);
	st->cycles = 0;
	st->fmg = 0;
	if (p->solver == BSQ_SOLVER_JACOBI) {
		err = bsq_jacobi(o, L, rtol, p->max_sweeps, &st->cycles, &st->residual);
	} else {
		if (first_fmg) {
			fmg_at(&m, 0);
			st->fmg = 1;
		}
		while ((st->residual = o->residual(L, BSQ_RES, BSQ_PHI, BSQ_RHS)) > rtol &&
			st->cycles < p->max_cycles) {
			/* BSQ_STALL_FALL: a residual that no longer falls */
			flat = st->cycles > 0 && st->residual * BSQ_STALL_FALL > last ? flat + 1 : 0;
			if (flat >= BSQ_STALL_CYCLES)
				break;
			last = st->residual;
			vcycle(&m, 0);
			st->cycles++;
		}
		if (!(st->residual <= rtol))
			err = -SPATE_ENUMERIC;
	}
	/* Jacobi sweeps and a CUDA smoother write out of place (PHI, TMP swapped) */
	s->p = L->v[BSQ_PHI];
	o->shift(L, BSQ_PHI, o->mean(L, BSQ_PHI));
	host_levels_free(&m);
	if (err && flat >= BSQ_STALL_CYCLES)
		spate_log_error("bsq", "pressure solve (%s): residual %g after %d V-cycles, above %g, "
			"and no longer falling (less than %gx a cycle for %d cycles): the round-off of "
			"%s precision for this pressure; raise tol%s", o->name, st->residual,
			st->cycles, rtol, BSQ_STALL_FALL, BSQ_STALL_CYCLES, BSQ_PRECISION,
			sizeof(bsq_real) < 8 ? ", or build without --enable-bsq-single" : "");
	else if (err)
		spate_log_error("bsq", "pressure solve (%s): residual %g after %d %s, above %g "
			"(raise max_cycles or max_sweeps, or tol)", o->name, st->residual, st->cycles,
			p->solver == BSQ_SOLVER_JACOBI ? "sweeps" : "V-cycles", rtol);
	return err;
}

int bsq_vcycles_on(const struct bsq_ops *o, struct bsq_state *s, const struct bsq_params *p,
	int n)
{
	struct mg m;
	int k;
	m.o = o;
	m.lev = s->lev;
	m.nlev = s->nlev;
	m.p = p;
	host_levels(&m);
	for (k = 0; k < n; k++)
		vcycle(&m, 0);
	host_levels_free(&m);
	return 0;
}
