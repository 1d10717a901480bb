/* swe_balance_trial.c: the trials that tune a decomposed shallow-water run
 * as it goes (swe_balance.c calls them after every step): ghost_expansion =
 * auto tries every candidate k and keeps the fastest, early_exit = auto
 * times each subdomain with it on and off and keeps the faster.  Neither
 * changes a bit of the results. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "spate.h"
#include "swe_sub.h"
#include "swe_balance_run.h"

/* Trial length of ghost_expansion = auto: whole exchange cycles of every k
 * tried (1, 2, 4, 8). */
#define KTRIAL 16

/* Exchange every k steps from now on: the halo plan for the new depth. */
static int set_k(struct swe_balance *b, int k)
{
	struct swe_params q = b->pw;
	double t0 = spate_now();
	size_t bytes;
	int rc;
	b->k = k;
	b->due = 1;
	q.ghost_expansion = k;
	bytes = 3 * (size_t)swe_halo_rows(&q) * b->r.pitch * sizeof(real);
	halo_plan_free(b->r.halo);
	rc = halo_plan_build(b->r.halo, b->r.d, bytes);
	b->rep.tuning += spate_now() - t0;
	return rc;
}

/* ghost_expansion = auto: KTRIAL steps of every candidate k, then the one
 * whose slowest rank was fastest. */
static int ghost_trial(struct swe_balance *b, double step_s)
{
	int best = 0, rc;
	b->ktime[b->ktry] += step_s;
	if (++b->ksteps < KTRIAL)
		return 0;
	if ((rc = decomp_max(&b->ktime[b->ktry], 1, NULL)))
		return rc;
	b->ksteps = 0;
	if (++b->ktry < b->nk)
		return set_k(b, b->kcand[b->ktry]);
	for (int q = 1; q < b->nk; q++)
		if (b->ktime[q] < b->ktime[best])
			best = q;
	b->ktry = -1;
	return set_k(b, b->kcand[best]);
}

/* Early exit on or off on every subdomain of this rank. */
static void early_all(struct swe_balance *b, int on)
{
	for (int k = b->r.d->first; k < b->r.d->last; k++)
		b->r.ops->set_early(b->r.sub[k], on);
}

/* early_exit = auto: every early_exit_interval steps, early_exit_steps
 * steps with and as many without; each subdomain keeps the faster (a local
 * choice: the results are the same bits, nothing else changes).  The
 * seconds the subdomains computed are read once at each turn of the trial
 * (switching early exit adds none). */
static void early_trial(struct swe_balance *b, long steps)
{
	const struct decomp *d = b->r.d;
	double t0 = spate_now(), c[DECOMP_MAX];
	if (b->ephase == 0 ? steps < b->enext : ++b->esteps < b->p->early_exit_steps)
		return;
	swe_balance_computed(b, c);
	if (b->ephase == 0) {
		early_all(b, 1);
	} else if (b->ephase == 1) {
		for (int k = d->first; k < d->last; k++)
			b->eon[k] = c[k] - b->e0[k];
		early_all(b, 0);
	} else {
		for (int k = d->first; k < d->last; k++) {
			b->early_on[k] = b->eon[k] <= c[k] - b->e0[k];
			b->r.ops->set_early(b->r.sub[k], b->early_on[k]);
		}
		b->ephase = 0;
		b->enext = steps + b->p->early_exit_interval;
		b->rep.early_trials++;
		b->rep.tuning += spate_now() - t0;
		return;
	}
	for (int k = d->first; k < d->last; k++)
		b->e0[k] = c[k];
	b->ephase++;
	b->esteps = 0;
	b->rep.tuning += spate_now() - t0;
}

int swe_balance_trial(struct swe_balance *b, long steps, double step_s)
{
	if (b->ktry >= 0)
		return ghost_trial(b, step_s);
	if (b->p->early_exit == SWE_EARLY_AUTO && b->r.ops->set_early)
		early_trial(b, steps);
	return 0;
}
