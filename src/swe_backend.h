/* swe_backend.h: the table a shallow-water backend (CPU, CUDA, a decomposed
 * domain) fills, and the backends built in.  A type of its own, below every
 * backend and the driver: backend.c picks one, swe_run.c calls through it */
#ifndef SPATE_SWE_BACKEND_H
#define SPATE_SWE_BACKEND_H

#include <stddef.h>
#include <stdlib.h>

#include "swe.h"

/* Steps to enqueue when `need` steps are left before t_stop (a device's
 * batch of steps): a little less, then single steps, since a step enqueued
 * after t reached t_stop is a no-op (the first of a row still copies U).
 * SPATE_NOOP_STEPS=n (a test hook): n more, so that batches run on past
 * t_stop in no-op steps. */
static inline long swe_steps_short(double need)
{
	const char *e = getenv("SPATE_NOOP_STEPS");
	long n = (long)(need * 0.95), more = e ? atol(e) : 0;
	return (n < 1 ? 1 : n) + (more > 0 && more < 1000 ? more : 0);
}

struct swe_backend_ctx;
struct gauge_set;
struct swe_prod;

/* A backend: the CPU one is always built, the CUDA one when configured. */
struct spate_backend {
	const char *name;
	/* Number of devices this backend can use now (0: none). */
	int (*count)(void);
	/* Describe device i into buf; returns 0 or -SPATE_E*. */
	int (*describe)(int i, char *buf, size_t len);
	/* Take a host state and parameters; allocate and upload. */
	int (*init)(struct swe_backend_ctx **ctx, const struct swe_state *s,
		const struct swe_params *p, int device);
	/* Advance until t >= t_stop or max_steps more steps; updates st. */
	int (*advance)(struct swe_backend_ctx *ctx, double t_stop, long max_steps,
		struct swe_stats *st);
	/* Copy the current state back into s (interior and ghosts). */
	int (*download)(struct swe_backend_ctx *ctx, struct swe_state *s);
	void (*fini)(struct swe_backend_ctx *ctx);
	/* Read (w = depth, hu, hv) of n cells at state indices idx (NULL: not offered;
	 * the driver then downloads the whole state). */
	int (*sample)(struct swe_backend_ctx *ctx, const long *idx, int n, real *w, real *hu,
		real *hv);
	/* Flood products (products_kern.h): from now on keep one struct swe_prod
	 * per interior cell, updated after every step; thr: wet threshold, m. */
	int (*products_start)(struct swe_backend_ctx *ctx, real thr);
	/* Copy the products to out: nx * ny, row-major, row 0 the southern. */
	int (*products_get)(struct swe_backend_ctx *ctx, struct swe_prod *out);
	/* Restart (NULL: not offered): set the clock of the state init took:
	 * simulated time t (s), steps taken, the last step's dt (s). */
	int (*set_time)(struct swe_backend_ctx *ctx, double t, long steps, double last_dt);
	/* Restart (NULL: not offered): replace the products kept since
	 * products_start by in (laid out as products_get gives them). */
	int (*products_put)(struct swe_backend_ctx *ctx, const struct swe_prod *in);
	/* Rain from now on: rate[nx * ny] in m/s (row-major, row 0 southern; the
	 * caller keeps it alive), or NULL for `uniform` m/s everywhere (NULL
	 * op: the backend has no rain). */
	int (*set_rain)(struct swe_backend_ctx *ctx, const float *rate, double uniform);
	/* Gauges kept by the backend (NULL: not offered; the driver then
	 * samples them after every step, one step per advance).  From now on
	 * the tracks gs->tr of the cells gs->idx follow every real step
	 * (gauge_kern.h), and the first step with t >= next keeps a row of
	 * the centres' (w, hu, hv); next then moves on by interval, past t
	 * (interval <= 0: no more rows).  The driver advances at most
	 * SWE_GAUGE_ROWS steps between two calls of gauges_rows. */
	int (*gauges_start)(struct swe_backend_ctx *ctx, const struct gauge_set *gs, double bref,
		double next, double interval);
	/* The rows kept since the last call: *nrows of them, row r at time
	 * t[r] with gauge k's w, hu, hv at v[(3 r + f) n + k], f = 0, 1, 2. */
	int (*gauges_rows)(struct swe_backend_ctx *ctx, double *t, real *v, int *nrows);
	/* The tracks back into gs->tr; *next: the time of the next row. */
	int (*gauges_get)(struct swe_backend_ctx *ctx, struct gauge_set *gs, double *next);
	/* The instability guard (swe_guard.c; NULL: not offered: the driver
	 * then checks only the states it downloads).  op SWE_GUARD_CHECK: *bad
	 * = 1 when a step since init stored a non-finite value (swe_guard.h);
	 * KEEP: keep a copy of the current state (and flood products) as the
	 * last good one; REWIND: the current state becomes that copy; PLANT (test hook): store NaN as
	 * the depth of the cell at state index `cell`, as a step would, with
	 * its note; PLANT_SILENT: the same without the note (the next step's
	 * stores must set the flag).  0 or -SPATE_E*. */
	int (*guard)(struct swe_backend_ctx *ctx, int op, long cell, int *bad);
};

enum {
	SWE_GUARD_CHECK, SWE_GUARD_KEEP, SWE_GUARD_REWIND, SWE_GUARD_PLANT, SWE_GUARD_PLANT_SILENT
};

/* Most steps of an advance while the backend keeps the gauges (and most
 * rows it keeps between two reads). */
#define SWE_GAUGE_ROWS 1024

extern const struct spate_backend spate_backend_cpu;
/* Rows whose right-hand side the CPU backend skipped as dry ([parallel]
 * early_exit), summed over all contexts since the program started. */
extern long swe_cpu_rows_skipped;
/* Blocks of CPU_BLOCK columns (whole rows included) skipped the same way,
 * and those looked at (skipped or computed), early exit on or off. */
extern long swe_cpu_blocks_skipped, swe_cpu_blocks_seen;
/* The values a cell of swe_cuda_recip_values gives (below). */
#define SWE_RECIP_HOOK 6
#ifdef HAVE_CUDA
extern const struct spate_backend spate_backend_cuda;
/* Tiles the CUDA backend's next step skipped as dry ([parallel] early_exit),
 * sampled once per batch of steps, summed since the program started; and
 * the tiles of the map at the same samples (0 without the tile map: every
 * tile computed).  1 - skipped / seen: the share of the cells computed. */
extern long swe_cuda_tiles_skipped, swe_cuda_tiles_seen;
/* Batches of steps after which the list held every tile and the next batch
 * walks stacks of tiles (swe_cuda_params.stack), summed likewise. */
extern long swe_cuda_stacked;
/* Test hook: kp07_inv_depth(x[i], kappa4) into r[i], swe_recip(x[i]) into
 * r[n + i], swe_sqrt0(x[i]) into r[2n + i], swe_div0(x[i], 0.7) into
 * r[3n + i], kp07_speed_ratio(-x[i], 1.75 x[i]) into r[4n + i] and
 * kp07_speed_ratio(-0.7, x[i]) into r[5n + i], i < n, computed on GPU 0 (r
 * holds SWE_RECIP_HOOK n); 0 or -SPATE_E*. */
int swe_cuda_recip_values(const real *x, real *r, int n, real kappa4);
#endif

#endif
