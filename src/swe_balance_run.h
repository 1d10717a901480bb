/* swe_balance_run.h: the state of the [parallel] tuning of a decomposed
 * shallow-water run, shared by swe_balance.c (options, exchanges, trials,
 * probe, report) and swe_balance_move.c (measuring the work, planning and
 * moving rows).  Private to those two files. */
#ifndef SPATE_SWE_BALANCE_RUN_H
#define SPATE_SWE_BALANCE_RUN_H

#include "swe_balance.h"
#include "balance.h"

struct swe_balance {
	struct swe_params pw;          /* what the subdomains keep */
	const struct swe_params *p;    /* as given */
	const struct swe_sub_ops *ops;
	struct swe_balance_run r;
	int ny, halo_alloc;
	/* exchange schedule */
	int k, due;                    /* k: ghost expansion in use (1: classic) */
	/* ghost_expansion = auto */
	int kcand[4], nk, ktry, ksteps; /* ktry: candidate on trial, -1: done */
	double ktime[4];
	/* early_exit = auto */
	int ephase, esteps;            /* 0: running, 1: trying on, 2: trying off */
	int moved;                     /* rows moved since swe_balance_moved */
	long enext;
	double e0[DECOMP_MAX], eon[DECOMP_MAX];
	int early_on[DECOMP_MAX];
	/* load balancing */
	long next_measure, last_measure;
	double tc_prev[DECOMP_MAX];
	double beta;
	/* the cost of a move, s: c_fix + c_cell * cells that change subdomain,
	 * fitted to the moves made (mv: their count and sums of cells, s,
	 * cells^2, cells * s); c_cell < 0 before the first */
	double c_fix, c_cell, mv[5];
	double *work;                  /* per global row */
	double *act;                   /* per global row: its active cells */
	/* resting subdomains (swe_balance_rest.c): the set until the next
	 * measure, the fixed cost of a step on one device and on several (s;
	 * < 0: unknown), the wall seconds of the steps since the last measure,
	 * the steps a measure may come late */
	int rest[DECOMP_MAX], rest_changed, slack;
	int awake;               /* no subdomain may rest (swe_balance_keep_awake) */
	double a_one, a_multi, wall_acc;
	long wall_steps;
	int trace;                     /* SPATE_BALANCE_TRACE */
	int *iwork;
	struct balance_report rep;
};

/* Seconds subdomain k of this rank has computed so far: the device's own
 * count where the phases only enqueue work (ops->times; it waits for the
 * device), else the driver's clock. */
static inline double swe_balance_compute_s(const struct swe_balance *b, int k)
{
	double c, x;
	if (b->r.ops->times && b->r.ops->times(b->r.sub[k], &c, &x) == 0)
		return c;
	return b->r.t_compute[k];
}

/* Every balance_interval steps: measure, plan, and move when worth it
 * (swe_balance_move.c).  Collective. */
int swe_balance_now(struct swe_balance *b, long steps);
/* Add a move of cells cells that took s seconds to the sums mv (zeroed at
 * first) and fit the cost of a move to them: *c_fix + *c_cell * cells,
 * least squares with both terms >= 0 (through the origin until two moves
 * of different sizes are known). */
void swe_balance_cost_fit(double mv[5], double cells, double s, double *c_fix, double *c_cell);

/* swe_balance_rest.c.  After an interval of isteps steps with boundaries
 * bold: the fixed cost of a step as the interval ran it (one device or
 * several), from the wall time less the predicted compute. */
void swe_balance_rest_learn(struct swe_balance *b, const int *bold, const double *sec,
	const int *group, long isteps);
/* The predicted seconds of the next interval with boundaries bnew (the
 * balanced plan), or with a plan that gathers the active rows on one of two
 * subdomains when that is faster (then in bnew); *told: with bold.  With
 * subdomains that cannot rest: balance_time of both. */
double swe_balance_rest_plan(struct swe_balance *b, const int *bold, const double *sec,
	const int *group, long isteps, int *bnew, double *told);
/* After the measure (and any move): which subdomains rest until the next. */
void swe_balance_rest_apply(struct swe_balance *b, int moved);

#endif
