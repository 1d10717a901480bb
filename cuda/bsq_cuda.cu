/* bsq_cuda.cu: the Boussinesq module's CUDA backend, host side (bsq_cuda.h):
 * device memory, the backend table and the API.
 *
 * The device copy is a struct bsq_state whose arrays (u, v, w, T, p, F,
 * Fold and every multigrid level's vectors) are device pointers; a step is
 * bsq_step_on(&ops, ...), the CPU's own control flow (bsq_step.c, bsq_mg.c),
 * with the verbs of cuda/bsq_cuda_kern.cu.  The host reads back only the
 * scalars the control flow needs (maxima for dt and the solve's stopping
 * test, means, the divergence norms). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "bsq_cuda.h"
#include "bsq_cuda_dev.h"
#include "bsq_slab.h"
#include "decomp.h"
#include "cuda_check.h"
}
#include "bsq_cuda_launch.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>


struct bsq_cuda {
	struct bsq_state dev; /* device pointers; grid, levels' shapes, time */
};

/* Contexts alive: the reduction scratch is released with the last. */
static int alive;

static const struct bsq_ops ops = {
	"cuda",
	bsq_cuda_rhs, bsq_cuda_field_max, bsq_cuda_predict, bsq_cuda_correct, bsq_cuda_div_rhs,
	bsq_cuda_bc_velocity, bsq_cuda_bc_scalar, bsq_cuda_diag_div,
	bsq_cuda_zero, bsq_cuda_mean, bsq_cuda_shift, bsq_cuda_ghosts, bsq_cuda_residual,
	bsq_cuda_smooth, bsq_cuda_restrict, bsq_cuda_interp_pl, bsq_cuda_interp_pc,
	bsq_cuda_jacobi_sweep, bsq_cuda_colour, bsq_cuda_plane_sums, bsq_cuda_div_planes,
	bsq_cuda_residual_only, bsq_cuda_level_get, bsq_cuda_level_put, &bsq_ops_cpu,
	bsq_cuda_extrapolate, bsq_cuda_restrict_residual, bsq_cuda_tail_from, bsq_cuda_tail_cycle
};

extern "C" int bsq_cuda_available(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError();
		return 0;
	}
	return n;
}

/* A device copy of the host array h of n values into *d. */
static int upload(bsq_real **d, const bsq_real *h, size_t n)
{
	CUDA_ALLOC(d, n * sizeof(bsq_real));
	CUDA_CHECK(cudaMemcpy(*d, h, n * sizeof(bsq_real), cudaMemcpyHostToDevice));
	return 0;
}

static int download(bsq_real *h, const bsq_real *d, size_t n)
{
	CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(bsq_real), cudaMemcpyDeviceToHost));
	return 0;
}

/* Every array of the device state; the pointer members of d are device
 * pointers (NULL where not yet allocated). */
static int upload_all(struct bsq_state *d, const struct bsq_state *s)
{
	int c, l, v, err;
	if ((err = upload(&d->u, s->u, s->n)) || (err = upload(&d->v, s->v, s->n)) ||
		(err = upload(&d->w, s->w, s->n)) || (err = upload(&d->T, s->T, s->n)))
		return err;
	for (c = 0; c < 4; c++)
		if ((err = upload(&d->F[c], s->F[c], s->n)) ||
			(err = upload(&d->Fold[c], s->Fold[c], s->n)))
			return err;
	/* every vector the host state holds (PREV: bsq_vec_held) */
	for (l = 0; l < s->nlev; l++)
		for (v = 0; v < BSQ_NVEC; v++)
			if (s->lev[l].v[v] &&
				(err = upload(&d->lev[l].v[v], s->lev[l].v[v], bsq_count(&s->lev[l].g))))
				return err;
	/* p is level 0's PHI (after Jacobi sweeps, whichever array that is). */
	for (v = 0; v < BSQ_NVEC; v++)
		if (s->p == s->lev[0].v[v])
			d->p = d->lev[0].v[v];
	return 0;
}

static void free_all(struct bsq_state *d)
{
	int c, l, v;
	cudaFree(d->u);
	cudaFree(d->v);
	cudaFree(d->w);
	cudaFree(d->T);
	for (c = 0; c < 4; c++) {
		cudaFree(d->F[c]);
		cudaFree(d->Fold[c]);
	}
	for (l = 0; l < BSQ_MG_MAXLEV; l++)
		for (v = 0; v < BSQ_NVEC; v++)
			cudaFree(d->lev[l].v[v]);
}

extern "C" int bsq_cuda_init(struct bsq_cuda **ctx, const struct bsq_state *s,
	const struct bsq_params *p)
{
	struct bsq_cuda *x;
	int l, v, c, err;
	(void)p;
	*ctx = NULL;
	if (bsq_cuda_available() < 1) {
		spate_log_error("cuda", "bsq: no usable CUDA GPU found (use --device=cpu or auto)");
		return -SPATE_EDEVICE;
	}
	if (!(x = (struct bsq_cuda *)calloc(1, sizeof *x)))
		return -SPATE_ENOMEM;
	/* The shapes, time and step count as they are; pointers replaced. */
	x->dev = *s;
	x->dev.u = x->dev.v = x->dev.w = x->dev.T = x->dev.p = NULL;
	for (c = 0; c < 4; c++)
		x->dev.F[c] = x->dev.Fold[c] = NULL;
	for (l = 0; l < BSQ_MG_MAXLEV; l++)
		for (v = 0; v < BSQ_NVEC; v++)
			x->dev.lev[l].v[v] = NULL;
	alive++;
	if ((err = bsq_cuda_scratch((size_t)s->g.ny * s->g.nz)) ||
		(err = upload_all(&x->dev, s))) {
		bsq_cuda_free(x);
		return err;
	}
	*ctx = x;
	return 0;
}

extern "C" int bsq_cuda_step(struct bsq_cuda *ctx, const struct bsq_params *p,
	struct bsq_stats *st)
{
	int err = bsq_step_on(&ops, &ctx->dev, p, st), derr;
	CUDA_CHECK(cudaDeviceSynchronize());
	derr = bsq_cuda_error();
	return derr ? derr : err;
}

extern "C" int bsq_cuda_vcycles(struct bsq_cuda *ctx, const struct bsq_params *p, int n)
{
	bsq_vcycles_on(&ops, &ctx->dev, p, n);
	CUDA_CHECK(cudaDeviceSynchronize());
	return bsq_cuda_error();
}

/* u, v, w, T, the time and step count of the device state into s. */
static int download_flow(const struct bsq_state *d, struct bsq_state *s)
{
	int err;
	if (s->n != d->n || s->nlev != d->nlev) {
		spate_log_error("cuda", "bsq: download into a state of another grid");
		return -SPATE_EINVAL;
	}
	if ((err = download(s->u, d->u, s->n)) || (err = download(s->v, d->v, s->n)) ||
		(err = download(s->w, d->w, s->n)) || (err = download(s->T, d->T, s->n)))
		return err;
	s->t = d->t;
	s->dt_prev = d->dt_prev;
	s->step = d->step;
	return 0;
}

extern "C" int bsq_cuda_download_flow(struct bsq_cuda *ctx, struct bsq_state *s)
{
	return download_flow(&ctx->dev, s);
}

extern "C" int bsq_cuda_download(struct bsq_cuda *ctx, struct bsq_state *s)
{
	const struct bsq_state *d = &ctx->dev;
	int c, err;
	if ((err = download_flow(d, s)) || (err = download(s->p, d->p, s->n)))
		return err;
	for (c = 0; c < 4; c++)
		if ((err = download(s->F[c], d->F[c], s->n)) ||
			(err = download(s->Fold[c], d->Fold[c], s->n)))
			return err;
	/* Level 0's right-hand side and residual (never swapped) for
	 * diagnostics, the previous pressure (where held) for checkpoints. */
	if ((err = download(s->lev[0].v[BSQ_RHS], d->lev[0].v[BSQ_RHS], s->n)) ||
		(err = download(s->lev[0].v[BSQ_RES], d->lev[0].v[BSQ_RES], s->n)) ||
		(s->lev[0].v[BSQ_PREV] &&
		(err = download(s->lev[0].v[BSQ_PREV], d->lev[0].v[BSQ_PREV], s->n))))
		return err;
	return 0;
}

extern "C" void bsq_cuda_free(struct bsq_cuda *ctx)
{
	if (!ctx)
		return;
	free_all(&ctx->dev);
	if (--alive == 0)
		bsq_cuda_scratch(0);
	free(ctx);
}

/* ---- slabs on this GPU (bsq_slab.h): the slabs' arrays in device memory,
 * each slab's cell kernels on its own stream with overlap = streams.  Under
 * mpirun each rank's slabs are on GPU rank mod GPUs; the halos between ranks
 * travel GPU to GPU through NCCL where [parallel] transport and the machine
 * allow it (halo_nccl.c), else through host buffers and MPI, as the gathers
 * of whole levels always do. */

static cudaStream_t slab_stream[DECOMP_MAX];
static int slab_streams;
/* Halos GPU to GPU between ranks: slab k's transfers run on halo_stream[k]
 * (non-blocking: beside the kernels, on the default stream too); halo_ready
 * and halo_done order them with the slabs' work (dev_halo_mark). */
static cudaStream_t halo_stream[DECOMP_MAX];
static cudaEvent_t halo_ready[DECOMP_MAX], halo_done[DECOMP_MAX];

static void *dev_alloc(size_t bytes)
{
	void *a = NULL;
	if (cudaMalloc(&a, bytes) != cudaSuccess) {
		cudaGetLastError();
		return NULL;
	}
	return a;
}

static void dev_release(void *a)
{
	cudaFree(a);
}

/* Host or device on either side (unified addressing). */
static int dev_copy(void *dst, const void *src, size_t bytes)
{
	CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
	return 0;
}

static void dev_stream(int k)
{
	bsq_cuda_now = k >= 0 && k < slab_streams ? slab_stream[k] : 0;
}

static int dev_finish(void)
{
	CUDA_CHECK(cudaDeviceSynchronize());
	return bsq_cuda_error();
}

static int dev_gpu(void)
{
	int d = 0;
	if (cudaGetDevice(&d) != cudaSuccess)
		cudaGetLastError();
	return d;
}

/* Slab k's halo stream and its two events, made at first use. */
static int halo_make(int k)
{
	if (k < 0 || k >= slab_streams)
		return -SPATE_EINVAL;
	if (halo_stream[k])
		return 0;
	if (cudaStreamCreateWithFlags(&halo_stream[k], cudaStreamNonBlocking) != cudaSuccess ||
		cudaEventCreateWithFlags(&halo_ready[k], cudaEventDisableTiming) != cudaSuccess ||
		cudaEventCreateWithFlags(&halo_done[k], cudaEventDisableTiming) != cudaSuccess) {
		bsq_cuda_note(cudaGetLastError(), "halo stream");
		return -SPATE_EDEVICE;
	}
	return 0;
}

static void *dev_halo_stream(int k)
{
	return halo_make(k) ? NULL : (void *)halo_stream[k];
}

/* end 0: an event on the legacy default stream completes when all work
 * before it is done, on the slabs' streams too (they are blocking ones):
 * the edge planes are written when the halo stream passes it.  end 1: the
 * transfers enqueued on the halo stream are done at halo_done[k]. */
static int dev_halo_mark(int k, int end)
{
	cudaError_t e;
	if (halo_make(k))
		return -SPATE_EDEVICE;
	if (end)
		e = cudaEventRecord(halo_done[k], halo_stream[k]);
	else if ((e = cudaEventRecord(halo_ready[k], 0)) == cudaSuccess)
		e = cudaStreamWaitEvent(halo_stream[k], halo_ready[k], 0);
	bsq_cuda_note(e, "halo event");
	return e == cudaSuccess ? 0 : -SPATE_EDEVICE;
}

/* The default stream and every slab stream wait for slab k's transfers
 * (the ghost planes received, the edge planes sent before they change). */
static int dev_halo_wait(int k)
{
	cudaError_t e;
	int j;
	if (k < 0 || k >= slab_streams || !halo_stream[k])
		return 0;
	e = cudaStreamWaitEvent(0, halo_done[k], 0);
	for (j = 0; j < slab_streams && e == cudaSuccess; j++)
		e = cudaStreamWaitEvent(slab_stream[j], halo_done[k], 0);
	bsq_cuda_note(e, "halo wait");
	return e == cudaSuccess ? 0 : -SPATE_EDEVICE;
}

static void dev_close(void)
{
	int k;
	bsq_cuda_now = 0;
	for (k = 0; k < slab_streams; k++) {
		cudaStreamDestroy(slab_stream[k]);
		if (halo_stream[k]) {
			cudaStreamDestroy(halo_stream[k]);
			cudaEventDestroy(halo_ready[k]);
			cudaEventDestroy(halo_done[k]);
			halo_stream[k] = NULL;
		}
	}
	slab_streams = 0;
	if (--alive == 0)
		bsq_cuda_scratch(0);
}

static const struct bsq_slab_mem dev_mem = { 1, dev_alloc, dev_release, dev_copy, dev_stream,
	dev_finish, dev_close, dev_gpu, dev_halo_stream, dev_halo_mark, dev_halo_wait };

extern "C" int bsq_cuda_slabs_init(struct bsq_slabs **out, const struct bsq_state *w,
	const struct bsq_params *p, int n, int overlap, int transport)
{
	int k, err;
	*out = NULL;
	if (bsq_cuda_available() < 1) {
		spate_log_error("cuda", "bsq: slabs: no usable CUDA GPU found");
		return -SPATE_EDEVICE;
	}
	if (slab_streams > 0) {
		spate_log_error("cuda", "bsq: [parallel] subdomains = %d: one set of slabs at a "
			"time on the GPU", n);
		return -SPATE_EINVAL;
	}
	/* under mpirun: rank r on GPU r mod GPUs (a rank owns its slabs) */
	if (decomp_world_size() > 1)
		CUDA_CHECK(cudaSetDevice(decomp_world_rank() % bsq_cuda_available()));
	alive++;
	for (k = 0; k < n && k < DECOMP_MAX; k++) {
		if (cudaStreamCreate(&slab_stream[k]) != cudaSuccess) {
			cudaGetLastError();
			break;
		}
		slab_streams++;
	}
	if (slab_streams < n && n <= DECOMP_MAX) {
		dev_close();
		spate_log_error("cuda", "bsq: %d streams for %d slabs: cannot create them", n, n);
		return -SPATE_EDEVICE;
	}
	if ((err = bsq_cuda_scratch((size_t)w->g.ny * w->g.nz))) {
		dev_close();
		return err;
	}
	return bsq_slabs_init_on(out, w, p, n, overlap, transport, &ops, &dev_mem);
}
