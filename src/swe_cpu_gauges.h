/* swe_cpu_gauges.h: gauges kept by a CPU subdomain (swe_cpu_gauges.c):
 * struct swe_sub_ops' gauges_start, gauges_rows and gauges_get, and the
 * update after every step (called by the commit, swe_cpu.c). */
#ifndef SPATE_SWE_CPU_GAUGES_H
#define SPATE_SWE_CPU_GAUGES_H

#include "swe_cpu_ctx.h"

struct gauge_track;

/* Keep the tracks of n gauges of per cells each at local state indices idx
 * (counted from the first owned row less SWE_GHOST; < 0: a cell of another
 * subdomain, skipped), starting from tr; a row at the first step with
 * t >= next, then every interval (swe_backend.h, gauges_start).  0 or
 * -SPATE_ENOMEM. */
int swe_cpu_gauges_start(struct swe_backend_ctx *x, const long *idx, int n, int per,
	const struct gauge_track *tr, double bref, double thr, double next, double interval);
/* The rows kept since the last call (*nrows; values of other subdomains'
 * gauges left unset); 0, or -SPATE_EINVAL when more than SWE_GAUGE_ROWS
 * were due. */
int swe_cpu_gauges_rows(struct swe_backend_ctx *x, double *t, real *v, int *nrows);
/* The tracks of all n * per cells (those of other subdomains as handed in)
 * and the time of the next row.  0, or -SPATE_EINVAL before a start. */
int swe_cpu_gauges_get(struct swe_backend_ctx *x, struct gauge_track *tr, double *next);
/* After a step that reached x->t: the tracks and, when due, a row. */
void swe_cpu_gauges_step(struct swe_backend_ctx *x);
void swe_cpu_gauges_free(struct swe_backend_ctx *x);

#endif
