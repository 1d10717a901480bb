/* swe_cuda_sub_gauges.cu: gauges kept on the GPU of a subdomain
 * (struct swe_sub_ops: gauges_start, gauges_rows, gauges_get; the arrays
 * in swe_cuda_gauges.cu, the kernel after each step's products in
 * swe_cuda_sub.cu).  The decomposed run (swe_multi_gauges.c) hands every
 * subdomain all the gauges, with the cells it does not hold marked, and
 * merges what they keep. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda.h"
#include "swe_cuda_sub.h"
}

#include <cuda_runtime.h>

void swe_cuda_sub_gauges_free(struct swe_backend_ctx *x)
{
	swe_cuda_gauges_free(&x->gg, &x->hclk);
}

int swe_cuda_sub_gauges_start(struct swe_backend_ctx *x, const long *idx, int n, int per,
	const struct gauge_track *tr, double bref, double thr, double next, double interval)
{
	int rc = swe_cuda_sub_sync(x);
	if (rc)
		return rc;
	return swe_cuda_gauges_alloc(&x->gg, &x->hclk, idx, n, per, tr, bref, thr, next, interval);
}

int swe_cuda_sub_gauges_rows(struct swe_backend_ctx *x, double *t, real *v, int *nrows)
{
	int rc = swe_cuda_sub_sync(x);
	*nrows = 0;
	return rc ? rc : swe_cuda_gauges_rows(&x->gg, x->hclk, t, v, nrows);
}

int swe_cuda_sub_gauges_get(struct swe_backend_ctx *x, struct gauge_track *tr, double *next)
{
	int rc = swe_cuda_sub_sync(x);
	return rc ? rc : swe_cuda_gauges_tracks(&x->gg, x->hclk, tr, next);
}
