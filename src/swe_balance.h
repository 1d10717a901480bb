/* swe_balance.h: the [parallel] tuning of a decomposed shallow-water run
 * (swe_multi.c): the initial speed probe, early exit on, off or auto, ghost
 * cell expansion, and dynamic load balancing by moving rows between
 * neighbouring subdomains (balance.h), with the report of every phase.
 *
 * The decomposed run calls, in this order:
 *   swe_balance_new      before the subdomains: options checked, p resolved
 *   swe_balance_probe    the workloads from the speeds ([parallel] probe)
 *   (decomp_plan with swe_balance_min_rows, the subdomains' init)
 *   swe_balance_attach   the run's parts
 *   per step: swe_balance_exchange_due / swe_balance_halo before it,
 *             swe_balance_step after it
 *   swe_balance_report   at the end (collective), swe_balance_free. */
#ifndef SPATE_SWE_BALANCE_H
#define SPATE_SWE_BALANCE_H

#include "swe.h"
#include "swe_backend.h"
#include "swe_sub.h"
#include "decomp.h"
#include "swe_balance_types.h"

struct swe_balance;

/* The parts of the run that swe_balance_attach hands over (struct
 * swe_balance_run) and the test hook around a move (swe_balance_hook):
 * swe_balance_types.h. */

/* Check the [parallel] options of p against the sub-operations ops for n
 * subdomains of ny rows, and make *pw, the parameters the subdomains keep
 * (owned by b): p with early_exit = auto started as on and ghost_expansion
 * = auto resolved to the largest k it will try.  Returns 0 or -SPATE_E*
 * after a message. */
int swe_balance_new(struct swe_balance **b, const struct swe_params *p,
	const struct swe_sub_ops *ops, int n, int ny, const struct swe_params **pw);
/* [parallel] probe = on: time probe_steps steps of a fully wet grid of nx
 * columns on each of the n subdomains' devices (dev[k]: the device of
 * subdomain k of this rank; collective under MPI), and set workload[0..n) to
 * their speeds (cells/s) and *nworkload = n.  Off: nothing.  Returns 0 or
 * -SPATE_E*. */
int swe_balance_probe(struct swe_balance *b, const struct swe_state *s, int n,
	const int *dev, double *workload, int *nworkload);
/* The fewest rows a subdomain may own: the ghost rows it holds. */
int swe_balance_min_rows(const struct swe_balance *b);
void swe_balance_attach(struct swe_balance *b, const struct swe_balance_run *r);
/* Whether the step about to start, step `steps` of the run counted from
 * 0, exchanges U first: with ghost cell expansion k when steps is a
 * multiple of k; at k = 1 every step, or never where U is exchanged after
 * each step (after_step 1: backends with mid_stage SWE_STAGE_RATE); and
 * once after k changed or the run restarted (swe_balance_exchange_soon).
 * How many rows an exchange moves; whether U* (or L) is exchanged in the
 * step and, after_step, U after it (k = 1); the k in use. */
int swe_balance_exchange_due(struct swe_balance *b, long steps, int after_step);
void swe_balance_exchange_soon(struct swe_balance *b);
int swe_balance_halo(const struct swe_balance *b);
int swe_balance_exchange_ustar(const struct swe_balance *b);
int swe_balance_k(const struct swe_balance *b);
/* After step `steps` (counted from the start of the run) that took step_s
 * seconds on this rank: the trials of early_exit = auto and ghost_expansion
 * = auto, and every balance_interval steps a measure of the work and maybe
 * a move of rows.  Collective.  Returns 0 or -SPATE_E*. */
int swe_balance_step(struct swe_balance *b, long steps, double step_s);
/* How many steps may run, after step `steps`, before swe_balance_step must
 * see one (a decomposed run that calls it once per batch of steps, with
 * the batch's steps and its mean step time): 1 while a trial of early_exit
 * or ghost_expansion = auto runs, up to the next measure with balancing,
 * else LONG_MAX. */
long swe_balance_steps_free(const struct swe_balance *b, long steps);
/* Whether rows moved since the last call: every internal edge then needs
 * its halos again (a backend that exchanges U after each step, mid_stage =
 * SWE_STAGE_RATE, exchanges it once more). */
int swe_balance_moved(struct swe_balance *b);
/* Resting subdomains (the rule: swe_balance_plan.c): whether subdomain k (global
 * index) sits out the steps until the next measure (the driver skips its
 * phases and the halos of its edges; the others take the time step without
 * it); the flags of every subdomain when any rests, else NULL; whether the
 * set changed since the last call (the driver then records its graphs
 * again; swe_balance_moved is also set, for the halos); how many steps a
 * measure may come after the one swe_balance_steps_free asked for (batches
 * rounded up to graphs; the flood's reach counts them). */
int swe_balance_resting(const struct swe_balance *b, int k);
const int *swe_balance_rest_flags(const struct swe_balance *b);
int swe_balance_rest_changed(struct swe_balance *b);
void swe_balance_set_slack(struct swe_balance *b, int steps);
/* No subdomain rests from now on (the devices keep the gauges: a resting
 * one would miss their rows). */
void swe_balance_keep_awake(struct swe_balance *b);
/* Fill and print the phase table (balance_last(); rank 0 prints) for a run
 * of `steps` steps that spent advance_s seconds advancing.  Collective. */
void swe_balance_report(struct swe_balance *b, long steps, double advance_s);
void swe_balance_free(struct swe_balance *b);

#endif
