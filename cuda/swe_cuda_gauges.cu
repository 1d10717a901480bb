/* swe_cuda_gauges.cu: gauges on a GPU, for the single-GPU backend
 * (swe_cuda_state.cu) and the subdomains of a decomposed run
 * (swe_cuda_sub_gauges.cu, swe_cuda_sub_mem.cu): cells gathered and read
 * back (struct swe_cuda_samples), and gauges kept on the device (struct
 * swe_cuda_gauges; the kernel k_gauges is in swe_cuda_cells.cu): the device
 * arrays, the rows read back, the tracks read back.  The caller has set the
 * device and waited for the stream that runs the steps. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda.h"
#include "gauge_kern.h"
}

#include <cuda_runtime.h>
#include <string.h>

void swe_cuda_gauges_free(struct swe_cuda_gauges *g, struct swe_cuda_gauge_clock **hclk)
{
	cudaFree((void *)g->idx);
	cudaFree(g->tr);
	cudaFree(g->clk);
	cudaFree(g->rt);
	cudaFree(g->rv);
	if (*hclk)
		cudaFreeHost(*hclk);
	memset(g, 0, sizeof *g);
	*hclk = NULL;
}

int swe_cuda_gauges_alloc(struct swe_cuda_gauges *g, struct swe_cuda_gauge_clock **hclk,
	const long *idx, int n, int per, const struct gauge_track *tr, double bref, double thr,
	double next, double interval)
{
	size_t ns = (size_t)n * per;
	swe_cuda_gauges_free(g, hclk);
	if (n <= 0)
		return 0;
	CUDA_ALLOC((void **)&g->idx, ns * sizeof(long));
	CUDA_ALLOC((void **)&g->tr, ns * sizeof *g->tr);
	CUDA_ALLOC((void **)&g->clk, sizeof *g->clk);
	CUDA_ALLOC((void **)&g->rt, SWE_GAUGE_ROWS * sizeof(double));
	CUDA_ALLOC((void **)&g->rv, 3 * (size_t)SWE_GAUGE_ROWS * n * sizeof(real));
	CUDA_CHECK(cudaMallocHost((void **)hclk, sizeof **hclk));
	(*hclk)->next = next;
	(*hclk)->rows = 0;
	CUDA_CHECK(cudaMemcpy((void *)g->idx, idx, ns * sizeof(long), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(g->tr, tr, ns * sizeof *g->tr, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(g->clk, *hclk, sizeof *g->clk, cudaMemcpyHostToDevice));
	g->per = per;
	g->cap = SWE_GAUGE_ROWS;
	g->bref = bref;
	g->thr = thr;
	g->interval = interval;
	g->n = n; /* last: the steps enqueue the kernel from now on */
	return 0;
}

int swe_cuda_gauges_rows(struct swe_cuda_gauges *g, struct swe_cuda_gauge_clock *hclk,
	double *t, real *v, int *nrows)
{
	int r;
	*nrows = 0;
	if (!g->n)
		return 0;
	CUDA_CHECK(cudaMemcpy(hclk, g->clk, sizeof *hclk, cudaMemcpyDeviceToHost));
	r = hclk->rows;
	if (r > g->cap) {
		spate_log_error("cuda", "%d gauge rows between two reads, room for %d", r, g->cap);
		return -SPATE_EINVAL;
	}
	if (r <= 0)
		return 0;
	CUDA_CHECK(cudaMemcpy(t, g->rt, (size_t)r * sizeof(double), cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(v, g->rv, 3 * (size_t)r * g->n * sizeof(real),
		cudaMemcpyDeviceToHost));
	hclk->rows = 0;
	CUDA_CHECK(cudaMemcpy(&g->clk->rows, &hclk->rows, sizeof(int), cudaMemcpyHostToDevice));
	*nrows = r;
	return 0;
}

int swe_cuda_gauges_tracks(const struct swe_cuda_gauges *g, struct swe_cuda_gauge_clock *hclk,
	struct gauge_track *tr, double *next)
{
	if (!g->n)
		return -SPATE_EINVAL;
	CUDA_CHECK(cudaMemcpy(tr, g->tr, (size_t)g->n * g->per * sizeof *tr,
		cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(hclk, g->clk, sizeof *hclk, cudaMemcpyDeviceToHost));
	*next = hclk->next;
	return 0;
}

void swe_cuda_samples_free(struct swe_cuda_samples *b)
{
	cudaFree(b->didx);
	cudaFree(b->dsamp);
	if (b->hsamp)
		cudaFreeHost(b->hsamp);
	memset(b, 0, sizeof *b);
}

int swe_cuda_samples_get(struct swe_cuda_samples *b, const long *idx, int n, int cache,
	const real *w, const real *hu, const real *hv, void *stream, real *ow, real *ohu,
	real *ohv)
{
	cudaStream_t st = (cudaStream_t)stream;
	if (n <= 0)
		return 0;
	if (n > b->nsamp) {
		swe_cuda_samples_free(b);
		CUDA_ALLOC((void **)&b->didx, (size_t)n * sizeof(long));
		CUDA_ALLOC((void **)&b->dsamp, 3 * (size_t)n * sizeof(real));
		CUDA_CHECK(cudaMallocHost((void **)&b->hsamp, 3 * (size_t)n * sizeof(real)));
		b->nsamp = n;
	}
	if (!cache || b->sampled != idx) {
		CUDA_CHECK(cudaMemcpyAsync(b->didx, idx, (size_t)n * sizeof(long),
			cudaMemcpyHostToDevice, st));
		b->sampled = cache ? idx : NULL;
	}
	swe_cuda_enqueue_gather(b->didx, n, w, hu, hv, b->dsamp, st);
	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaMemcpyAsync(b->hsamp, b->dsamp, 3 * (size_t)n * sizeof(real),
		cudaMemcpyDeviceToHost, st));
	CUDA_CHECK(cudaStreamSynchronize(st));
	memcpy(ow, b->hsamp, (size_t)n * sizeof(real));
	memcpy(ohu, b->hsamp + n, (size_t)n * sizeof(real));
	memcpy(ohv, b->hsamp + 2 * n, (size_t)n * sizeof(real));
	return 0;
}
