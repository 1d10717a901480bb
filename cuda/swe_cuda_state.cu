/* swe_cuda_state.cu: the single-GPU backend's state in and out (swe.h,
 * struct spate_backend): the state downloaded, gauge cells gathered, the
 * flood products started, read and restored, rain rates uploaded, the clock
 * set for a restart, the gauges kept on the device.  The device, memory and time loop are in swe_cuda.cu
 * (their shared context: swe_cuda_one.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda.h"
#include "swe_cuda_one.h"
#include "gauge.h"
}

#include <cuda_runtime.h>
#include <string.h>

/* The arrays of a step from parity p (state p -> state 1-p). */
struct swe_cuda_step swe_cuda_one_arrays(const struct swe_backend_ctx *x, int p)
{
	struct swe_cuda_step a;
	a.w = x->w[p];
	a.hu = x->hu[p];
	a.hv = x->hv[p];
	a.w1 = x->w[1 - p];
	a.hu1 = x->hu[1 - p];
	a.hv1 = x->hv[1 - p];
	a.Lw = x->Lw;
	a.Lhu = x->Lhu;
	a.Lhv = x->Lhv;
	a.Bc = x->Bc;
	a.Bm = x->Bm;
	a.q = x->dctl;
	a.list = x->list[p];
	a.count = x->count + p;
	a.list1 = x->list[1 - p];
	a.count1 = x->count + 1 - p;
	a.wet = x->wet;
	a.act = x->act;
	a.streak = x->streak;
	a.n2 = x->n2;
	a.rain = x->have_rain ? x->rain : NULL;
	a.rtile = x->have_rain && x->kp.tiles ? x->rtile : NULL;
	a.spd = NULL; /* speeds and dt in the control block */
	a.par = -1;   /* set_dt (enqueue_step sets the per-cell kernels' clock) */
	a.grab = x->kp.qblocks[0] > 0 ? x->grab : NULL; /* SPATE_CUDA_QUEUE */
	a.cost = a.grab ? x->cost : NULL;
	return a;
}

/* Graphs hold the kernels' arguments: drop them when those change (all of
 * them: the walks', the per-cell kernels' and the stacks'). */
void swe_cuda_one_drop_graphs(struct swe_backend_ctx *x)
{
	for (size_t p = 0; p < sizeof x->graph / sizeof x->graph[0]; p++)
		if (x->have_graph[p]) {
			cudaGraphExecDestroy(x->graph[p]);
			x->have_graph[p] = 0;
		}
}

/* The state to the host: the three fields into a pinned staging buffer at
 * full DMA speed (allocated at the first download), then into s; the
 * writer thread (swe_out.c) writes from there while the next steps run. */
int swe_cuda_one_download(struct swe_backend_ctx *x, struct swe_state *s)
{
	size_t n = (size_t)x->kp.ncell * sizeof(real);
	real *f[3] = { s->w, s->hu, s->hv }, *d[3] = { x->w[x->cur], x->hu[x->cur], x->hv[x->cur] };
	CUDA_CHECK(cudaSetDevice(x->device));
	if (!x->hstage && cudaMallocHost((void **)&x->hstage, 3 * n) != cudaSuccess) {
		cudaGetLastError();
		x->hstage = NULL; /* no pinned memory to spare: copy straight */
	}
	for (int k = 0; k < 3; k++)
		CUDA_CHECK(cudaMemcpyAsync(x->hstage ? (char *)x->hstage + k * n : (char *)f[k], d[k], n,
			cudaMemcpyDeviceToHost, x->stream));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	if (x->hstage)
		for (int k = 0; k < 3; k++)
			memcpy(f[k], (char *)x->hstage + k * n, n);
	return 0;
}

int swe_cuda_one_products_start(struct swe_backend_ctx *x, real thr)
{
	struct swe_cuda_step a = swe_cuda_one_arrays(x, x->cur);
	size_t n = (size_t)x->kp.nx * x->kp.ny * sizeof(struct swe_prod);
	CUDA_CHECK(cudaSetDevice(x->device));
	if (!x->prod)
		CUDA_ALLOC((void **)&x->prod, n);
	x->prod_thr = thr;
	/* the state is in parity cur: present it as the output of a step */
	a.w1 = a.w;
	a.hu1 = a.hu;
	a.hv1 = a.hv;
	swe_cuda_enqueue_products(&x->kp, &a, x->prod, thr, 1, x->stream);
	CUDA_CHECK(cudaGetLastError());
	/* graphs captured before hold no product updates */
	swe_cuda_one_drop_graphs(x);
	return 0;
}

int swe_cuda_one_set_rain(struct swe_backend_ctx *x, const float *rate, double uniform)
{
	int rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	if ((rc = swe_cuda_rain_put(&x->rain, rate, (size_t)x->kp.nx * x->kp.ny)))
		return rc;
	x->have_rain = rate != NULL;
	x->kp.rain_u = (real)uniform;
	if (rate) {
		/* the tile map's view of them (the stream is idle: the next step
		 * follows these on it) */
		swe_cuda_enqueue_rain_tiles(&x->kp, x->rain, x->rtile, x->stream);
		CUDA_CHECK(cudaGetLastError());
	}
	swe_cuda_one_drop_graphs(x);
	return 0;
}

int swe_cuda_one_products_get(struct swe_backend_ctx *x, struct swe_prod *out)
{
	if (!x->prod)
		return -SPATE_EINVAL;
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	CUDA_CHECK(cudaMemcpy(out, x->prod, (size_t)x->kp.nx * x->kp.ny * sizeof *out,
		cudaMemcpyDeviceToHost));
	return 0;
}

int swe_cuda_one_products_put(struct swe_backend_ctx *x, const struct swe_prod *in)
{
	if (!x->prod)
		return -SPATE_EINVAL;
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	CUDA_CHECK(cudaMemcpy(x->prod, in, (size_t)x->kp.nx * x->kp.ny * sizeof *in,
		cudaMemcpyHostToDevice));
	return 0;
}

/* Restart: the control block at time t after steps steps, and the ghosts of
 * the uploaded state at t (as the step that made it wrote them). */
int swe_cuda_one_set_time(struct swe_backend_ctx *x, double t, long steps, double last_dt)
{
	struct swe_cuda_step a = swe_cuda_one_arrays(x, x->cur);
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	memset(x->hctl, 0, sizeof *x->hctl);
	x->hctl->t = t;
	x->hctl->t_stop = t;
	x->hctl->steps = steps;
	x->hctl->last_dt = last_dt;
	x->t_stop_dev = -1;
	CUDA_CHECK(cudaMemcpy(x->dctl, x->hctl, sizeof *x->dctl, cudaMemcpyHostToDevice));
	swe_cuda_enqueue_bc(&x->kp, &a, x->stream);
	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	return 0;
}

int swe_cuda_one_sample(struct swe_backend_ctx *x, const long *idx, int n, real *w, real *hu,
	real *hv)
{
	CUDA_CHECK(cudaSetDevice(x->device));
	return swe_cuda_samples_get(&x->smp, idx, n, 1, x->w[x->cur], x->hu[x->cur],
		x->hv[x->cur], x->stream, w, hu, hv);
}

/* ---- gauges kept on the device (swe.h, gauges_start; swe_cuda_gauges.cu) */

void swe_cuda_one_gauges_free(struct swe_backend_ctx *x)
{
	swe_cuda_gauges_free(&x->gg, &x->hclk);
}

int swe_cuda_one_gauges_start(struct swe_backend_ctx *x, const struct gauge_set *gs,
	double bref, double next, double interval)
{
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	swe_cuda_one_drop_graphs(x); /* they hold the kernels of a step */
	return swe_cuda_gauges_alloc(&x->gg, &x->hclk, gs->idx, gs->n, gs->per, gs->tr, bref,
		gs->threshold, next, interval);
}

int swe_cuda_one_gauges_rows(struct swe_backend_ctx *x, double *t, real *v, int *nrows)
{
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	return swe_cuda_gauges_rows(&x->gg, x->hclk, t, v, nrows);
}

int swe_cuda_one_gauges_get(struct swe_backend_ctx *x, struct gauge_set *gs, double *next)
{
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->stream));
	return swe_cuda_gauges_tracks(&x->gg, x->hclk, gs->tr, next);
}
