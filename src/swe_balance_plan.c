/* swe_balance_plan.c: the plan of a balancing decision (swe_balance.c), from
 * the measure (swe_balance_measure.c): the new boundaries (balance_plan), the
 * subdomains that rest with them, and whether the move pays for itself.
 *
 * The move pays when the saving over the next interval (as long as this
 * one) exceeds balance_gain times its cost; balance_gain = 0 follows every
 * plan.  Before the first move: a move touches every cell of the
 * subdomains it changes about as much as half a step does, a step's
 * seconds spread over every cell of the grid (dry ones cost little to
 * step, as much to move); then the fit to the moves made
 * (swe_balance_move.c).
 *
 * Resting subdomains.  A subdomain whose rows are dry, as are the rows of
 * its neighbours that the flood could reach before the next measure of the
 * work, "rests": the decomposed run skips its phases and the halos of its
 * edges until then, and the others take the time step without waiting for
 * it.  Its state is what the steps would have left: a dry cell among dry
 * ones is a fixed point of the step (the early exit's tile and block maps
 * rely on the same: a dry cell is (B, +0, +0) after any step, and its rates
 * are (-0, +0, +0)), and its ghost rows and the rows its neighbours read of
 * it stay dry.
 *
 * Reach.  A stage moves a wet front by a cell at most (a face between two
 * dry cells carries nothing: the reconstruction of a dry cell has depth 0
 * at both faces), so in the s steps to the next measure the flood moves at
 * most s (Euler) or 2 s (RK2) rows; the activity counts (rows mode: cells
 * of active tiles or blocks; bbox mode: the box widened by a cell) already
 * hold the stencil around every wet cell, and SWE_GHOST more rows cover the
 * ghost rows.
 *
 * On GPUs.  A decomposed step waits across devices three times (the
 * rates' halos, the time step, U's halos); on a small flood those waits,
 * not the cells, set the pace, and a second device may cost more than it
 * saves (measured so far, a GPU computing next to a resting one still
 * costs more per step than the balanced pair: doc/bench/balance-gpu.md,
 * eighth session).  The model of a plan (with two subdomains) is the slowest
 * device's predicted seconds plus a fixed cost per step, one for a step on
 * one device (a_one) and one for a step on several (a_multi), each measured
 * over the intervals run that way (the wall time less the predicted
 * compute); a plan that gathers every active row on one subdomain (moving
 * the boundary past them, with room for the flood to grow) competes with
 * the balanced one.  An unknown fixed cost counts 0: the first chance to
 * run on one device is taken, and measured.  SPATE_BALANCE_STEP_COST=a,b
 * fixes them (seconds per step on one device, on several) instead: to
 * compare, and for the tests.
 *
 * On GPU subdomains the exchanges of a step skip the edges of a resting
 * subdomain (halo_keep: its ghost rows stay valid), so after rows moved
 * the driver exchanges both copies of U and the rates over every edge once
 * (swe_multi_exchange_moved): a new edge's ghost rows hold nothing before,
 * and a step writes only the owned rows of the copy it makes.
 * On CPU subdomains every halo still travels, and a resting subdomain
 * hands its U as its U* (swe_multi.c, halo_get): its U* array holds its
 * last step's, or nothing after its rows moved.
 * Not with several MPI ranks, ghost cell expansion, early_exit = auto or
 * off, rain, a Manning raster, or a level or inflow boundary (whose ghosts
 * change with time), nor with gauges kept on the devices; not with
 * SPATE_BALANCE_REST=0. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_balance_run.h"

/* The boundaries of the subdomains now: bd[0..n], bd[n] = ny. */
static void bounds_now(const struct swe_balance *b, int *bd)
{
	const struct decomp *d = b->r.d;
	for (int k = 0; k < d->n; k++)
		bd[k] = d->part[k].row0;
	bd[d->n] = b->ny;
}

/* Whether subdomains may rest in this run (see the top of the file); not
 * with SPATE_BALANCE_REST=0. */
static int allowed(const struct swe_balance *b)
{
	const struct swe_params *p = b->p;
	const char *e = getenv("SPATE_BALANCE_REST");
	if ((e && *e == '0') || b->awake || b->r.d->nranks > 1 || b->r.d->n < 2 ||
		b->k != 1 ||
		b->ktry >= 0 || p->early_exit != SWE_EARLY_ON || p->balance == SWE_BALANCE_STATIC ||
		p->rain > 0 || p->rain_files[0] || p->manning_file[0])
		return 0;
	for (int s = 0; s < 4; s++)
		if (p->bc[s].kind == SWE_BC_LEVEL || p->bc[s].kind == SWE_BC_INFLOW)
			return 0;
	return 1;
}

/* Rows the flood may reach past the last active row before the next
 * measure (see the top of the file). */
static int reach(const struct swe_balance *b)
{
	int per = b->pw.integrator == 1 ? 1 : 2;
	return per * (b->p->balance_interval + b->slack) + SWE_GHOST;
}

/* The first and last row with an active cell (*lo > *hi: none). */
static void active_span(const struct swe_balance *b, int *lo, int *hi)
{
	*lo = b->ny;
	*hi = -1;
	for (int j = 0; j < b->ny; j++)
		if (b->act[j] > 0) {
			*lo = j < *lo ? j : *lo;
			*hi = j;
		}
}

/* Which subdomains of boundaries bd[0..n] may rest: no active row within
 * reach of their rows.  At least one computes (none rests on a grid with no
 * active row).  Returns how many rest. */
static int rest_set(const struct swe_balance *b, const int *bd, int *rest)
{
	int n = b->r.d->n, R = reach(b), cnt = 0;
	for (int k = 0; k < n; k++) {
		/* no active row in [bd[k] - R, bd[k + 1] + R) */
		int j0 = bd[k] - R < 0 ? 0 : bd[k] - R;
		int j1 = bd[k + 1] + R > b->ny ? b->ny : bd[k + 1] + R;
		rest[k] = 1;
		for (int j = j0; j < j1 && rest[k]; j++)
			rest[k] = !(b->act[j] > 0);
		cnt += rest[k];
	}
	if (cnt == n) {
		memset(rest, 0, (size_t)n * sizeof *rest);
		cnt = 0;
	}
	return cnt;
}

/* Predicted seconds of an interval of isteps steps with boundaries bd and
 * rest set rest: the slowest group of the subdomains that compute, plus the
 * fixed cost of a step on one or on several devices (0 while unknown). */
static double plan_time(const struct swe_balance *b, const int *bd, const int *rest,
	const double *sec, const int *group, long isteps)
{
	int n = b->r.d->n, on = 0;
	double g[DECOMP_MAX], worst = 0, a;
	memset(g, 0, sizeof g);
	for (int k = 0; k < n; k++) {
		double w = 0;
		if (rest[k])
			continue;
		on++;
		for (int j = bd[k]; j < bd[k + 1]; j++)
			w += b->work[j];
		g[group[k]] += sec[k] * w;
	}
	for (int k = 0; k < n; k++)
		worst = g[k] > worst ? g[k] : worst;
	a = on > 1 ? b->a_multi : b->a_one;
	return worst + (a > 0 ? a : 0) * (double)isteps;
}

/* SPATE_BALANCE_STEP_COST=a_one,a_multi (s, >= 0): whether set; a value
 * that does not read so is reported once and ignored. */
static int fixed_cost(double *one, double *multi)
{
	static int told;
	const char *e = getenv("SPATE_BALANCE_STEP_COST");
	char end;
	if (!e)
		return 0;
	if (sscanf(e, "%lf,%lf%c", one, multi, &end) == 2 && *one >= 0 && *multi >= 0 &&
		*one < 1e3 && *multi < 1e3)
		return 1;
	if (!told++)
		spate_log_error("balance", "warning: SPATE_BALANCE_STEP_COST=%s ignored: give two "
			"seconds per step in [0, 1000), on one device and on several, as in 2e-5,6e-5", e);
	return 0;
}

/* After an interval of isteps steps with boundaries bold: the fixed cost of
 * a step as the interval ran it (one device or several), from the wall time
 * less the predicted compute. */
static void rest_learn(struct swe_balance *b, const int *bold, const double *sec,
	const int *group, long isteps)
{
	int n = b->r.d->n, on = 0;
	double obs, *a;
	if (fixed_cost(&b->a_one, &b->a_multi))
		return;
	for (int k = 0; k < n; k++)
		on += !b->rest[k];
	if (isteps <= 0 || !(b->wall_acc > 0))
		return;
	/* the compute part of the interval, then what the model misses */
	obs = (b->wall_acc - plan_time(b, bold, b->rest, sec, group, 0)) / (double)isteps;
	a = on > 1 ? &b->a_multi : &b->a_one;
	obs = obs > 0 ? obs : 0;
	*a = *a < 0 ? obs : 0.5 * (*a + obs);
}

/* Where subdomains may rest: the predicted seconds of the next interval
 * with boundaries bnew (the balanced plan), or with a plan that gathers the
 * active rows on one of two subdomains when that is faster (then in bnew);
 * *told: with bold. */
static double rest_plan(const struct swe_balance *b, const int *bold, const double *sec,
	const int *group, long isteps, int *bnew, double *told)
{
	int n = b->r.d->n, rest[DECOMP_MAX], R = reach(b), lo, hi, mn = b->min_rows;
	double tnew;
	rest_set(b, bold, rest);
	*told = plan_time(b, bold, rest, sec, group, isteps);
	rest_set(b, bnew, rest);
	tnew = plan_time(b, bnew, rest, sec, group, isteps);
	active_span(b, &lo, &hi);
	if (n != 2 || lo > hi)
		return tnew;
	/* two subdomains: every active row on one of them, with room to grow */
	for (int c = 0; c < 2; c++) {
		int bc[3] = { 0, 0, b->ny }, cut;
		double t;
		if (c == 0) {
			cut = hi + 1 + 2 * R;
			cut = cut < bold[1] ? bold[1] : cut;
			cut = cut > b->ny - mn ? b->ny - mn : cut;
		} else {
			cut = lo - 2 * R;
			cut = cut > bold[1] ? bold[1] : cut;
			cut = cut < mn ? mn : cut;
		}
		bc[1] = cut;
		if (rest_set(b, bc, rest) != 1)
			continue;
		t = plan_time(b, bc, rest, sec, group, isteps);
		if (t < tnew) {
			tnew = t;
			memcpy(bnew, bc, sizeof bc);
		}
	}
	return tnew;
}

/* SPATE_BALANCE_TRACE=1: every plan on the log (rank 0). */
static void trace(const struct swe_balance *b, long steps, const int *bold, const int *bnew,
	const double *sec, double told, double tnew)
{
	const struct decomp *d = b->r.d;
	char line[1024];
	int o = 0;
	if (d->rank != 0)
		return;
	for (int k = 0; k < d->n && o < (int)sizeof line - 80; k++) {
		double w = 0;
		for (int j = bold[k]; j < bold[k + 1]; j++)
			w += b->work[j];
		o += snprintf(line + o, sizeof line - o, " [%d: rows %d-%d -> %d-%d, work %.4g, %.3g s/unit]",
			k, bold[k], bold[k + 1] - 1, bnew[k], bnew[k + 1] - 1, w, sec[k]);
	}
	spate_log_info("spate: balance at step %ld:%s; slowest %.4g -> %.4g s\n", steps, line,
		told, tnew);
	if (b->trace > 1)
		for (int j = 0; j < b->ny; j += (b->ny + 31) / 32)
			spate_log_info("spate:   row %d: work %.4g\n", j, b->work[j]);
}

/* Whether boundaries bnew are bold; else the cells of the subdomains they
 * change (*touched) and the cells that change subdomain (pl->cells). */
static int same_bounds(const struct swe_balance *b, struct swe_balance_next *pl, double *touched)
{
	const int *bold = pl->bold, *bnew = pl->bnew;
	int n = b->r.d->n, same = 1;
	*touched = 0;
	pl->cells = 0;
	for (int k = 0; k < n; k++)
		if (bnew[k] != bold[k] || bnew[k + 1] != bold[k + 1]) {
			same = 0;
			*touched += (double)(bold[k + 1] - bold[k] + bnew[k + 1] - bnew[k]) * b->r.nx;
		}
	for (int k = 1; k < n; k++)
		pl->cells += (double)abs(bnew[k] - bold[k]) * b->r.nx;
	return same;
}

/* The predicted seconds of a move (see the top of the file). */
static double move_cost(const struct swe_balance *b, const struct swe_balance_meas *m,
	double touched, double cells)
{
	double s = 0;
	if (b->c_cell < 0) {
		for (int k = 0; k < b->r.d->n; k++)
			s += m->T[k];
		return 0.5 * s / ((double)b->ny * b->r.nx) / (double)m->isteps * touched;
	}
	return b->c_fix + b->c_cell * cells;
}

/* The boundaries of the next interval (pl->bnew) and whether to move to
 * them (see the top of the file). */
static int balance(struct swe_balance *b, const struct swe_balance_meas *m, long steps,
	struct swe_balance_next *pl)
{
	double told, tnew, touched;
	rest_learn(b, pl->bold, m->sec, m->group, m->isteps);
	told = balance_time(b->r.d->n, b->work, m->sec, m->group, pl->bold);
	tnew = balance_plan(b->ny, b->r.d->n, b->work, m->sec, m->group, pl->bold, b->min_rows,
		pl->bnew);
	if (pl->may_rest)
		tnew = rest_plan(b, pl->bold, m->sec, m->group, m->isteps, pl->bnew, &told);
	if (b->trace)
		trace(b, steps, pl->bold, pl->bnew, m->sec, told, tnew);
	if (same_bounds(b, pl, &touched))
		return 0;
	if (b->p->balance_gain > 0 &&
		!(told - tnew > b->p->balance_gain * move_cost(b, m, touched, pl->cells))) {
		b->rep.skipped++;
		return 0;
	}
	return 1;
}

void swe_balance_plan(struct swe_balance *b, const struct swe_balance_meas *m, long steps,
	struct swe_balance_next *pl)
{
	bounds_now(b, pl->bold);
	pl->may_rest = allowed(b);
	pl->move = m->valid && balance(b, m, steps, pl);
	pl->nrest = pl->may_rest ? rest_set(b, pl->move ? pl->bnew : pl->bold, pl->rest) : 0;
	b->wall_acc = 0;
}
