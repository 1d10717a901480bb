/* swe_cuda_gauges.cu: gauges kept on a GPU (swe_cuda.h, struct
 * swe_cuda_gauges; the kernel k_gauges is in swe_cuda_cells.cu), for the
 * single-GPU backend (swe_cuda_state.cu) and the subdomains of a
 * decomposed run (swe_cuda_sub_gauges.cu): the device arrays, the rows
 * read back, the tracks read back.  The caller has set the device and
 * waited for the stream that runs the steps. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
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
	CUDA_CHECK(cudaMalloc((void **)&g->idx, ns * sizeof(long)));
	CUDA_CHECK(cudaMalloc((void **)&g->tr, ns * sizeof *g->tr));
	CUDA_CHECK(cudaMalloc((void **)&g->clk, sizeof *g->clk));
	CUDA_CHECK(cudaMalloc((void **)&g->rt, SWE_GAUGE_ROWS * sizeof(double)));
	CUDA_CHECK(cudaMalloc((void **)&g->rv, 3 * (size_t)SWE_GAUGE_ROWS * n * sizeof(real)));
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
