/* swe_gauges.h: the run driver's gauges (swe.c): sampled by the driver
 * after every step, or kept by the backend (struct spate_backend,
 * gauges_start) and read back after every advance. */
#ifndef SPATE_SWE_GAUGES_H
#define SPATE_SWE_GAUGES_H

#include "swe.h"
#include "swe_backend.h"
#include "gauge.h"

struct swe_out;

struct swe_gauges {
	int dev;          /* the backend keeps them */
	double *t;        /* its rows as read back: SWE_GAUGE_ROWS times */
	real *v;          /* and values (struct spate_backend, gauges_rows) */
};

/* Sample the gauges now (time t): maxima and arrival times, and a row of
 * the time series when t has passed *next (then *next moves on). */
int swe_gauges_sample(const struct spate_backend *be, struct swe_backend_ctx *ctx,
	struct gauge_set *gs, struct swe_state *s, const struct swe_params *p, double t,
	double *next, struct swe_out *out);

/* Hand the gauges to the backend where it keeps them (else g->dev = 0):
 * after the first sample, or a restart's values.  0 or -SPATE_E*. */
int swe_gauges_start(struct swe_gauges *g, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, const struct gauge_set *gs, const struct swe_state *s,
	const struct swe_params *p, double next);

/* Most steps of the next advance, given the driver's wish. */
long swe_gauges_limit(const struct swe_gauges *g, const struct gauge_set *gs, long want);

/* After an advance to time t: the backend's rows to the time series, or a
 * sample by the driver. */
int swe_gauges_after(struct swe_gauges *g, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, struct gauge_set *gs, struct swe_state *s,
	const struct swe_params *p, double t, double *next, struct swe_out *out);

/* Before a checkpoint or the end: the backend's rows, maxima and clock
 * (*next) into the driver's. */
int swe_gauges_pull(struct swe_gauges *g, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, struct gauge_set *gs, double *next, struct swe_out *out);

void swe_gauges_free(struct swe_gauges *g);

#endif
