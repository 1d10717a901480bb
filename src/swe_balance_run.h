/* swe_balance_run.h: the state of the [parallel] tuning of a decomposed
 * shallow-water run (struct swe_balance) and what each of its files offers
 * swe_balance.c, the one above them all.  Private to the balancer; below
 * all of its files, it includes only the types it is made of.
 *
 * swe_balance.c calls, after every step:
 *   swe_balance_trial.c    the trials of early_exit = auto and
 *                          ghost_expansion = auto
 * and every balance_interval steps one balancing decision, top to bottom:
 *   swe_balance_measure.c  the work of every row, the speed of every subdomain
 *   swe_balance_plan.c     the new boundaries, whether the move pays, which
 *                          subdomains rest
 *   swe_balance_move.c     the rows moved between neighbours, the cost fitted
 * (the trials read the seconds the subdomains computed from the measure's
 * file), and once before the run swe_probe.c, the speed probe. */
#ifndef SPATE_SWE_BALANCE_RUN_H
#define SPATE_SWE_BALANCE_RUN_H

#include "swe.h"
#include "balance.h"
#include "swe_balance_types.h"

struct swe_balance {
	struct swe_params pw;          /* what the subdomains keep */
	const struct swe_params *p;    /* as given */
	const struct swe_sub_ops *ops;
	struct swe_balance_run r;
	int ny, halo_alloc;
	int min_rows;                  /* the fewest rows a subdomain may own */
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
	/* resting subdomains (swe_balance_plan.c): the set until the next
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

/* ---- swe_balance_trial.c */

/* After step `steps` that took step_s seconds: a step of the trial of
 * ghost_expansion = auto while it runs, else of early_exit = auto (with a
 * backend that can switch it).  Collective.  Returns 0 or -SPATE_E*. */
int swe_balance_trial(struct swe_balance *b, long steps, double step_s);

/* ---- swe_balance_measure.c */

/* One measure of an interval of isteps steps: the seconds T each subdomain
 * computed, its seconds per unit of work sec (valid = 0: none, no plan),
 * and its group (subdomains of one group run one after another:
 * balance_plan). */
struct swe_balance_meas {
	long isteps;
	int valid;
	double T[DECOMP_MAX], sec[DECOMP_MAX];
	int group[DECOMP_MAX];
};
/* The seconds each subdomain of this rank has computed so far into
 * c[first..last): the device's own count where the phases only enqueue work
 * (it waits for the device), else the driver's clock.  Into b->tc_prev: the
 * interval that the next measure times starts. */
void swe_balance_computed(const struct swe_balance *b, double *c);
/* After step `steps`: the work of every row (b->work, b->act) and the
 * measure *m of the interval since the last one.  Collective.  Returns 0
 * or -SPATE_E*. */
int swe_balance_measure(struct swe_balance *b, long steps, struct swe_balance_meas *m);

/* ---- swe_balance_plan.c */

/* The next interval as planned: the boundaries now (bold) and the balanced
 * ones (bnew, or every active row on one of two subdomains when that is
 * faster), the cells that would change subdomain, and whether the rows
 * move; whether subdomains may rest in this run, and which rest with the
 * boundaries of the next interval (nrest of them). */
struct swe_balance_next {
	int bold[DECOMP_MAX + 1], bnew[DECOMP_MAX + 1];
	double cells;
	int move;
	int may_rest, rest[DECOMP_MAX], nrest;
};
/* Plan the next interval from the measure m after step `steps` into *pl:
 * move = 1 when the rows should move to bnew, 0 when they stay (no valid
 * measure, the same boundaries, or a saving short of balance_gain times
 * the move's cost).  The wall time of the interval, once it taught the
 * fixed cost of a step, starts anew. */
void swe_balance_plan(struct swe_balance *b, const struct swe_balance_meas *m, long steps,
	struct swe_balance_next *pl);

/* ---- swe_balance_move.c */

/* Move the rows to boundaries bnew (cells: how many change subdomain), and
 * fit the cost of a move to the seconds it took.  Collective.  Returns 0
 * or -SPATE_E*. */
int swe_balance_move(struct swe_balance *b, const int *bnew, double cells);
/* Add a move of cells cells that took s seconds to the sums mv (zeroed at
 * first) and fit the cost of a move to them: *c_fix + *c_cell * cells,
 * least squares with both terms >= 0 (through the origin until two moves
 * of different sizes are known). */
void swe_balance_cost_fit(double mv[5], double cells, double s, double *c_fix, double *c_cell);

/* ---- swe_probe.c */

/* The speed of each of the n subdomains' devices (dev[k] for subdomain k
 * of this rank), cells/s, on probe_steps steps of a fully wet flat grid of
 * s->nx columns (and a few hundred thousand cells) into speed[0..n), and
 * *beta, the mean time of the same grid dry over the wet one.  Collective;
 * returns 0 or -SPATE_E*. */
int swe_probe_speeds(const struct swe_sub_ops *ops, const struct swe_params *p,
	const struct swe_state *s, int n, const int *dev, double *speed, double *beta);

#endif
