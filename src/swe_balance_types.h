/* swe_balance_types.h: what the balancer of a decomposed shallow-water run
 * shares with the run (swe_balance.h) and with its own files
 * (swe_balance_run.h): the parts of the run it reaches, and the test hook
 * around a move of rows.  Includes nothing. */
#ifndef SPATE_SWE_BALANCE_TYPES_H
#define SPATE_SWE_BALANCE_TYPES_H

struct swe_sub_ops;
struct swe_backend_ctx;
struct decomp;
struct halo_plan;

/* What the balancer reaches of the decomposed run. */
struct swe_balance_run {
	const struct swe_sub_ops *ops;
	struct decomp *d;
	struct swe_backend_ctx **sub;   /* [DECOMP_MAX], NULL on other ranks */
	struct halo_plan *halo;         /* rebuilt when the exchange depth changes */
	double *t_compute, *t_exchange; /* per subdomain, s, growing */
	int nx, ny, pitch;
};

/* Test hook: when set, called on every rank after each move of rows with the
 * decomposition before and after it and, per global row, the sums of w, hu
 * and hv over the row's cells (in double, in column order; sums[f ny + j])
 * before and after: a row lost, duplicated or moved without its state shows
 * there.  NULL (default): not called, and the sums are not computed. */
struct swe_balance_check {
	int ny, n;
	const int *row0_before, *rows_before, *row0_after, *rows_after;
	const double *sums_before, *sums_after;
};
extern void (*swe_balance_hook)(const struct swe_balance_check *c);

#endif
