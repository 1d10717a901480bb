/* swe_cuda_sub_time.cu: the device time of a subdomain of rows on one GPU
 * (swe_cuda_sub.cu): timed intervals between pairs of events, kind 0
 * computing and 1 copying halos (swe_cuda_sub_halo.cu), on the timed steps
 * (one in time_every) or as event nodes of a graph (swe_cuda_sub_dev.cu),
 * added to the totals that the sub-operation times reads. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_cuda_sub.h"
#include "swe_backend.h"
}

#include <cuda_runtime.h>

int swe_cuda_sub_tstart(struct swe_backend_ctx *x, cudaStream_t s, int kind)
{
	int i;
	if (x->timing && x->capturing && x->gntp < SWE_CUDA_TIME_PAIRS) {
		/* an event node of the graph: SWE_CUDA_TIME_PAIRS + its pair */
		i = x->gntp++;
		x->gtp[i].kind = kind;
		cudaEventRecordWithFlags(x->gtp[i].a, s, cudaEventRecordExternal);
		return SWE_CUDA_TIME_PAIRS + i;
	}
	if (!x->timing || x->capturing || x->ntp >= SWE_CUDA_TIME_PAIRS)
		return -1;
	i = x->ntp++;
	x->tp[i].kind = kind;
	cudaEventRecord(x->tp[i].a, s);
	return i;
}

void swe_cuda_sub_tstop(struct swe_backend_ctx *x, int i, cudaStream_t s)
{
	if (i >= SWE_CUDA_TIME_PAIRS)
		cudaEventRecordWithFlags(x->gtp[i - SWE_CUDA_TIME_PAIRS].b, s,
			cudaEventRecordExternal);
	else if (i >= 0)
		cudaEventRecord(x->tp[i].b, s);
}

void swe_cuda_sub_graph_times(struct swe_backend_ctx *x, int reset)
{
	long r = x->greplay - x->gmark;
	for (int i = 0; i < x->gntp && r > 0; i++) {
		float ms = 0;
		if (cudaEventElapsedTime(&ms, x->gtp[i].a, x->gtp[i].b) == cudaSuccess)
			*(x->gtp[i].kind ? &x->t_copy : &x->t_comp) += ms * 1e-3 * (double)r;
		cudaGetLastError();
	}
	x->gmark = x->greplay;
	if (reset)
		x->gntp = 0;
}

/* Add the finished intervals to the totals (all: wait for every one). */
void swe_cuda_sub_harvest(struct swe_backend_ctx *x, int all)
{
	int keep = 0;
	for (int i = 0; i < x->ntp; i++) {
		float ms = 0;
		cudaError_t e;
		if (all)
			cudaEventSynchronize(x->tp[i].b);
		e = cudaEventElapsedTime(&ms, x->tp[i].a, x->tp[i].b);
		if (e == cudaErrorNotReady) {
			struct swe_cuda_tpair t = x->tp[keep];
			cudaGetLastError();
			x->tp[keep++] = x->tp[i];
			x->tp[i] = t;
			continue;
		}
		if (e == cudaSuccess)
			*(x->tp[i].kind ? &x->t_copy : &x->t_comp) += ms * 1e-3;
		cudaGetLastError();
	}
	x->ntp = keep;
	if (all)
		swe_cuda_sub_graph_times(x, 0);
}
