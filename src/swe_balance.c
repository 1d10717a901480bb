/* swe_balance.c: the [parallel] tuning of a decomposed shallow-water run,
 * its entry points (swe_balance.h): options, speed probe, exchange schedule,
 * and after every step the trials (swe_balance_trial.c) and every
 * balance_interval steps one balancing decision, measure -> plan -> move
 * (swe_balance_measure.c, swe_balance_plan.c, swe_balance_move.c).
 *
 * Every decision that changes what the ranks exchange (the rows each
 * subdomain owns, the ghost expansion k) is taken from numbers reduced over
 * the ranks first, so every rank takes the same one.  None changes a bit of
 * the results: the step is the same for any decomposition, any k, and early
 * exit on or off.
 *
 * beta, the cost of a cell the early exit skips relative to a computed one
 * in the work model of swe_balance_measure.c: the backend's, the probe's
 * measure, else SWE_BALANCE_BETA. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_balance.h"
#include "swe_balance_run.h"

/* Relative cost of a cell the early exit skips (the update of U*, U^{n+1}
 * and the dry test remain): 0.10-0.13 measured by the probe on the CPU
 * backend (2 threads, 1000 columns). */
#define SWE_BALANCE_BETA 0.15

static void report_names(struct swe_balance *b)
{
	static const char *const bal[] = { "static", "bbox", "rows" };
	static const char *const early[] = { "off", "on", "auto" };
	snprintf(b->rep.balance, sizeof b->rep.balance, "%s", bal[b->p->balance]);
	snprintf(b->rep.early, sizeof b->rep.early, "%s", early[b->p->early_exit]);
}

/* The options the sub-operations cannot serve (early_exit = auto without
 * set_early is taken as on, as the single-domain CUDA backend does). */
static int check_ops(const struct swe_params *p, const struct swe_sub_ops *ops)
{
	const char *what = NULL;
	if (p->balance != SWE_BALANCE_STATIC && (!ops->activity || !ops->rows_bytes ||
		!ops->rows_pack || !ops->rows_resize))
		what = p->balance == SWE_BALANCE_BBOX ? "balance = bbox" : "balance = rows";
	else if (p->ghost_expansion != 1 && !ops->expand)
		what = "ghost_expansion other than 1";
	if (!what)
		return 0;
	spate_log_error("decomp", "[parallel] %s: the %s backend cannot do it in a decomposed "
		"run yet; leave the key at its default", what, ops->name);
	return -SPATE_EUNSUPPORTED;
}

static int ghost_options(struct swe_balance *b, int n, int ny)
{
	const struct swe_params *p = b->p;
	b->ktry = -1;
	b->k = p->ghost_expansion;
	if (p->ghost_expansion == 0) {
		/* auto: the k whose ghost rows fit in half a subdomain's share */
		for (int k = 1; k <= 8; k *= 2) {
			b->pw.ghost_expansion = k;
			if (k == 1 || swe_halo_rows(&b->pw) <= ny / n / 2)
				b->kcand[b->nk++] = k;
		}
		b->pw.ghost_expansion = b->kcand[b->nk - 1];
		b->k = 1;
		b->ktry = b->nk > 1 ? 0 : -1;
	}
	b->halo_alloc = swe_halo_rows(&b->pw);
	b->min_rows = b->halo_alloc > SWE_GHOST ? b->halo_alloc : SWE_GHOST;
	if (b->halo_alloc > SWE_GHOST && (long)n * b->halo_alloc > ny) {
		spate_log_error("decomp", "[parallel] ghost_expansion = %d: each subdomain holds %d "
			"ghost rows and must own as many; %d subdomains need %ld rows, the grid has %d "
			"(a smaller k, or fewer subdomains)", b->k, b->halo_alloc, n,
			(long)n * b->halo_alloc, ny);
		return -SPATE_EINVAL;
	}
	return 0;
}

int swe_balance_new(struct swe_balance **out, const struct swe_params *p,
	const struct swe_sub_ops *ops, int n, int ny, const struct swe_params **pw)
{
	struct swe_balance *b = calloc(1, sizeof *b);
	int rc;
	balance_last()->valid = 0;
	if (!b)
		return -SPATE_ENOMEM;
	b->p = p;
	b->pw = *p;
	b->ops = ops;
	b->ny = ny;
	b->work = malloc((size_t)ny * sizeof *b->work);
	b->iwork = malloc((size_t)ny * sizeof *b->iwork);
	b->act = malloc((size_t)ny * sizeof *b->act);
	if (!b->work || !b->iwork || !b->act) {
		swe_balance_free(b);
		return -SPATE_ENOMEM;
	}
	if ((rc = check_ops(p, ops)) || (rc = ghost_options(b, n, ny))) {
		swe_balance_free(b);
		return rc;
	}
	if (p->early_exit == SWE_EARLY_AUTO)
		b->pw.early_exit = SWE_EARLY_ON;
	for (int k = 0; k < DECOMP_MAX; k++)
		b->early_on[k] = b->pw.early_exit != SWE_EARLY_OFF;
	b->beta = p->early_exit == SWE_EARLY_OFF ? 1 : ops->skip_cost > 0 ? ops->skip_cost :
		SWE_BALANCE_BETA;
	b->c_cell = -1;
	b->a_one = b->a_multi = -1;
	b->next_measure = p->balance_interval;
	{
		const char *e = getenv("SPATE_BALANCE_TRACE");
		b->trace = e ? atoi(e) : 0;
	}
	report_names(b);
	*pw = &b->pw;
	*out = b;
	return 0;
}

int swe_balance_min_rows(const struct swe_balance *b)
{
	return b->min_rows;
}

void swe_balance_attach(struct swe_balance *b, const struct swe_balance_run *r)
{
	b->r = *r;
	swe_balance_computed(b, b->tc_prev); /* the first interval starts */
}

long swe_balance_steps_free(const struct swe_balance *b, long steps)
{
	if (b->ktry >= 0 || (b->p->early_exit == SWE_EARLY_AUTO && b->r.ops->set_early))
		return 1;
	if (b->p->balance != SWE_BALANCE_STATIC && b->r.d->n > 1)
		return b->next_measure > steps ? b->next_measure - steps : 1;
	return LONG_MAX;
}

int swe_balance_moved(struct swe_balance *b)
{
	int m = b->moved;
	b->moved = 0;
	return m;
}

void swe_balance_free(struct swe_balance *b)
{
	if (!b)
		return;
	free(b->work);
	free(b->iwork);
	free(b->act);
	free(b);
}

/* ------------------------------------------------------------ exchanges */

int swe_balance_halo(const struct swe_balance *b)
{
	struct swe_params q = b->pw;
	q.ghost_expansion = b->k;
	return swe_halo_rows(&q);
}

int swe_balance_exchange_ustar(const struct swe_balance *b)
{
	return b->k == 1 && b->pw.integrator != 1;
}

int swe_balance_exchange_due(struct swe_balance *b, long steps, int after_step)
{
	int due = b->due || (b->k == 1 ? !after_step : steps % b->k == 0);
	b->due = 0;
	return due;
}

void swe_balance_exchange_soon(struct swe_balance *b)
{
	b->due = 1;
}

int swe_balance_k(const struct swe_balance *b)
{
	return b->k;
}

/* ------------------------------------------------------------- the step */

/* The subdomains that rest until the next measure, as the plan has them
 * (after its move, if any). */
static void rest_apply(struct swe_balance *b, const struct swe_balance_next *pl)
{
	size_t bytes = (size_t)b->r.d->n * sizeof *b->rest;
	if (!pl->may_rest)
		return;
	if (memcmp(pl->rest, b->rest, bytes)) {
		memcpy(b->rest, pl->rest, bytes);
		b->rest_changed = 1;
		b->moved = 1; /* the halos of the edges that rested, again */
	}
	b->rep.rests += pl->nrest;
	b->rep.rest_moves += pl->move && pl->nrest;
}

/* One balancing decision, every balance_interval steps: measure the work and
 * the speeds, plan the next interval, move the rows when it pays and rest
 * the subdomains out of the flood's reach; then the next interval starts.
 * Collective. */
static int balance_now(struct swe_balance *b, long steps)
{
	struct swe_balance_meas m;
	struct swe_balance_next pl;
	double t1;
	int rc;
	if ((rc = swe_balance_measure(b, steps, &m)))
		return rc;
	t1 = spate_now();
	swe_balance_plan(b, &m, steps, &pl);
	if (pl.move && (rc = swe_balance_move(b, pl.bnew, pl.cells)))
		return rc;
	rest_apply(b, &pl);
	swe_balance_computed(b, b->tc_prev); /* the next interval starts */
	b->rep.redecomp += spate_now() - t1;
	return 0;
}

int swe_balance_step(struct swe_balance *b, long steps, double step_s)
{
	int rc;
	if (steps > b->wall_steps)
		b->wall_acc += step_s * (double)(steps - b->wall_steps);
	b->wall_steps = steps;
	rc = swe_balance_trial(b, steps, step_s);
	if (!rc && b->p->balance != SWE_BALANCE_STATIC && b->r.d->n > 1 &&
		steps >= b->next_measure) {
		rc = balance_now(b, steps);
		b->next_measure = steps + b->p->balance_interval;
	}
	return rc;
}

/* ---------------------------------------------------------------- probe */

int swe_balance_probe(struct swe_balance *b, const struct swe_state *s, int n,
	const int *dev, double *workload, int *nworkload)
{
	double beta, t0 = spate_now();
	int rc;
	if (!b->p->probe)
		return 0;
	rc = swe_probe_speeds(b->ops, &b->pw, s, n, dev, workload, &beta);
	if (!rc) {
		*nworkload = n;
		memcpy(b->rep.speed, workload, (size_t)n * sizeof *workload);
		if (b->p->early_exit != SWE_EARLY_OFF && !(b->ops->skip_cost > 0))
			b->beta = beta < 0.02 ? 0.02 : beta > 1 ? 1 : beta;
	}
	b->rep.probe = spate_now() - t0;
	return rc;
}

/* ---------------------------------------------------- resting subdomains */

int swe_balance_resting(const struct swe_balance *b, int k)
{
	return b->rest[k];
}

const int *swe_balance_rest_flags(const struct swe_balance *b)
{
	for (int k = 0; k < b->r.d->n; k++)
		if (b->rest[k])
			return b->rest;
	return NULL;
}

int swe_balance_rest_changed(struct swe_balance *b)
{
	int c = b->rest_changed;
	b->rest_changed = 0;
	return c;
}

void swe_balance_set_slack(struct swe_balance *b, int steps)
{
	b->slack = steps > 0 ? steps : 0;
}

void swe_balance_keep_awake(struct swe_balance *b)
{
	b->awake = 1;
}

/* --------------------------------------------------------------- report */

void swe_balance_report(struct swe_balance *b, long steps, double advance_s)
{
	b->rep.ghost_k = b->k;
	balance_report(&b->rep, b->r.d, steps, advance_s, b->r.t_exchange, b->early_on);
}
