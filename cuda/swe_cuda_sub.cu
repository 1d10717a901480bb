/* swe_cuda_sub.cu: a subdomain of rows on one GPU: the step phases of the
 * decomposed run (swe_multi.h) made of the kernels of swe_cuda_kern.cu.
 *
 * A subdomain owns rows [row0, row0 + rows) of the global grid with two
 * ghost rows on each side; only the sides that are edges of the domain get
 * boundary conditions (kp.sides).  The kernels run in host-dt mode: stage 1
 * gathers its face speeds in the control block, which the host reads back
 * (pinned, asynchronously) so that the driver can take the maximum over
 * every subdomain and rank; the host then writes t and dt for stage 2.
 *
 * Stage 2 rebuilds U* from U^n and L where its stencil needs it, ghost rows
 * included, so the mid-step exchange moves the two ghost rows of L (the
 * stage-1 rates) and the ghost rows of U* come out of the same function on
 * the same values as on one GPU: the results are the single-GPU bits.
 *
 * Overlap of halo exchange and computation ([parallel] overlap; Jacobsen,
 * Thibault & Senocak 2010):
 *   none      each stage is one kernel; the halos follow it
 *   compute   the rows next to internal edges first, then their halos are
 *             copied out, then the interior kernel on the same stream: the
 *             MPI messages travel while the interior computes
 *   streams   edge rows and halo copies on a high-priority stream, the
 *             interior on another one, concurrently; events join them
 * The rows a kernel updates do not change the values it computes (every
 * face comes out of the same loop body), so the three give the same bits.
 *
 * Local links are device-to-device copies (cudaMemcpyPeerAsync; peer access
 * is enabled where the devices offer it, else the driver stages the copy);
 * the receiving subdomain's next stage waits for the copy's event.  Remote
 * links go through pinned host buffers (halo_get, halo_put) and MPI
 * (halo.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_cuda.h"
#include "swe_multi.h"
#include "products_kern.h"
}

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Evaluates a CUDA runtime call; on failure reports file:line and returns
 * -SPATE_EDEVICE from the calling function. */
#define CUDA_CHECK(expr)                                                                  \
	do {                                                                              \
		cudaError_t cuda_check_err_ = (expr);                                     \
		if (cuda_check_err_ != cudaSuccess) {                                     \
			spate_log_error("cuda", "%s:%d: %s: %s", __FILE__, __LINE__, #expr,  \
				cudaGetErrorString(cuda_check_err_));                     \
			return -SPATE_EDEVICE;                                            \
		}                                                                         \
	} while (0)

#define G SWE_GHOST
/* Device times are measured on every TIME_EVERY-th step (events cost host
 * time) and scaled to all steps; at most TIME_PAIRS intervals per step. */
#define TIME_EVERY 8
#define TIME_PAIRS 24
/* Strip heights as on one GPU (swe_cuda.cu): 64 rows, halved down to 8
 * until the grid has 64 warps per multiprocessor. */
#define STRIP_ROWS 64
#define STRIP_ROWS_MIN 8
#define STRIP_WARPS_PER_SM 64
#define STRIP_WARPS 4
#define MAX_PEER 64

typedef struct swe_cuda_ctl ctl_t;
typedef struct swe_cuda_step step_t;

/* One timed interval on a stream: kind 0 computing, 1 copying halos. */
struct tpair {
	cudaEvent_t a, b;
	int kind;
};

struct swe_backend_ctx {
	int device, overlap, rows;
	int lo, hi;                  /* interior rows [lo, hi); edge rows around */
	int rj[4][2];                /* row ranges: all, south edge, interior, north
	                                edge */
	int *list;                   /* tiles 0, 1, ...: those of a row range */
	unsigned int *count;         /* [4]: tiles of each row range */
	struct swe_cuda_params kp;
	real *w[2], *hu[2], *hv[2];  /* ping-pong states */
	real *Lw, *Lhu, *Lhv, *Bc, *Bm;
	struct swe_bc *bc;
	ctl_t *dctl, *hin, *hout;    /* control block; pinned copies to / from it */
	int cur;                     /* parity of the current state */
	double t;
	long steps;
	cudaStream_t main, edge;     /* edge == main unless overlap = streams */
	cudaEvent_t ev_edge, ev_main, ev_spd, ev_out[2], ev_put[2];
	cudaEvent_t *wait_in[2];     /* neighbours' copies into our ghost rows */
	int last_s2, spd_ready;      /* last stage enqueued; its speeds read back */
	int pending, pend_s2;        /* interior rows of a stage still to enqueue */
	step_t pend_a;
	real *hsend[2], *hrecv[2];   /* pinned halo buffers per side */
	struct swe_prod *prod;
	real prod_thr;
	int timing, ntp;             /* this step is timed; intervals recorded */
	struct tpair tp[TIME_PAIRS];
	long tsteps;                 /* steps timed */
	double t_comp, t_copy;       /* their device seconds */
};

static size_t halo_elems(const struct swe_backend_ctx *x)
{
	return (size_t)G * x->kp.pitch;
}

static struct swe_cuda_step step_arrays(const struct swe_backend_ctx *x, int p)
{
	step_t a;
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
	a.list = x->list;
	a.count = x->count;
	a.list1 = NULL; /* no tile map: every tile of a range is computed */
	a.count1 = NULL;
	a.wet = a.act = a.streak = NULL;
	return a;
}

/* The three arrays of U (current state) or L; NULL for U*, which this
 * backend never stores. */
static int stage_fields(const struct swe_backend_ctx *x, int stage, real *f[3])
{
	if (stage == SWE_STAGE_U) {
		f[0] = x->w[x->cur];
		f[1] = x->hu[x->cur];
		f[2] = x->hv[x->cur];
	} else if (stage == SWE_STAGE_RATE) {
		f[0] = x->Lw;
		f[1] = x->Lhu;
		f[2] = x->Lhv;
	} else {
		spate_log_error("cuda", "a GPU subdomain keeps no U* (stage %d)", stage);
		return -SPATE_EUNSUPPORTED;
	}
	return 0;
}

static real *row(real *f, const struct swe_backend_ctx *x, int j)
{
	return f + (size_t)(j + G) * x->kp.pitch;
}

/* ---- device timing */

static int tstart(struct swe_backend_ctx *x, cudaStream_t s, int kind)
{
	int i;
	if (!x->timing || x->ntp >= TIME_PAIRS)
		return -1;
	i = x->ntp++;
	x->tp[i].kind = kind;
	cudaEventRecord(x->tp[i].a, s);
	return i;
}

static void tstop(struct swe_backend_ctx *x, int i, cudaStream_t s)
{
	if (i >= 0)
		cudaEventRecord(x->tp[i].b, s);
}

/* Add the finished intervals to the totals (all: wait for every one). */
static void harvest(struct swe_backend_ctx *x, int all)
{
	int keep = 0;
	for (int i = 0; i < x->ntp; i++) {
		float ms = 0;
		cudaError_t e;
		if (all)
			cudaEventSynchronize(x->tp[i].b);
		e = cudaEventElapsedTime(&ms, x->tp[i].a, x->tp[i].b);
		if (e == cudaErrorNotReady) {
			struct tpair t = x->tp[keep];
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
}

/* ---- the pieces of a stage */

/* Stage s2 on row range r (x->rj) on stream s. */
static void launch(struct swe_backend_ctx *x, const step_t *a0, int s2, int r, cudaStream_t s)
{
	step_t a = *a0;
	int i;
	if (x->rj[r][1] <= x->rj[r][0])
		return;
	a.count = x->count + r;
	i = tstart(x, s, 0);
	swe_cuda_enqueue_stage(&x->kp, &a, s2, x->rj[r][0], x->rj[r][1], s);
	tstop(x, i, s);
}

/* Before a stage: wait for the neighbours' copies into our ghost rows, and
 * let the edge stream follow what the main stream did (the ctl block). */
static void begin_stage(struct swe_backend_ctx *x)
{
	for (int s = 0; s < 2; s++)
		if (x->wait_in[s]) {
			cudaStreamWaitEvent(x->edge, *x->wait_in[s], 0);
			x->wait_in[s] = NULL;
		}
	if (x->edge != x->main) {
		cudaEventRecord(x->ev_main, x->main);
		cudaStreamWaitEvent(x->edge, x->ev_main, 0);
	}
}

/* After the last rows of a stage (main stream): join the edge stream, then
 * read the stage-1 speeds back, or update the flood products. */
static void end_stage(struct swe_backend_ctx *x, const step_t *a, int s2)
{
	if (x->edge != x->main)
		cudaStreamWaitEvent(x->main, x->ev_edge, 0);
	if (!s2) {
		cudaMemcpyAsync(x->hout, x->dctl, sizeof *x->hout, cudaMemcpyDeviceToHost, x->main);
		cudaEventRecord(x->ev_spd, x->main);
		x->spd_ready = 1;
	} else if (x->prod) {
		int i = tstart(x, x->main, 0);
		swe_cuda_enqueue_products(&x->kp, a, x->prod, x->prod_thr, 0, x->main);
		tstop(x, i, x->main);
	}
}

static int sub_interior(struct swe_backend_ctx *x);

/* A stage: its edge rows, and unless overlap = compute its interior. */
static int stage(struct swe_backend_ctx *x, int s2)
{
	step_t a = step_arrays(x, x->cur);
	CUDA_CHECK(cudaSetDevice(x->device));
	begin_stage(x);
	x->last_s2 = s2;
	x->spd_ready = 0;
	if (x->overlap == SWE_OVERLAP_NONE) {
		launch(x, &a, s2, 0, x->main);
		end_stage(x, &a, s2);
	} else {
		launch(x, &a, s2, 1, x->edge);
		launch(x, &a, s2, 3, x->edge);
		if (x->edge != x->main)
			cudaEventRecord(x->ev_edge, x->edge);
		x->pending = 1;
		x->pend_s2 = s2;
		x->pend_a = a;
		if (x->overlap == SWE_OVERLAP_STREAMS)
			return sub_interior(x);
	}
	CUDA_CHECK(cudaGetLastError());
	return 0;
}

static int sub_interior(struct swe_backend_ctx *x)
{
	if (!x->pending)
		return 0;
	CUDA_CHECK(cudaSetDevice(x->device));
	x->pending = 0;
	launch(x, &x->pend_a, x->pend_s2, 2, x->main);
	end_stage(x, &x->pend_a, x->pend_s2);
	CUDA_CHECK(cudaGetLastError());
	return 0;
}

/* Everything enqueued on this subdomain, and the copies into it, done. */
static int sync_all(struct swe_backend_ctx *x)
{
	int rc = sub_interior(x);
	if (rc)
		return rc;
	for (int s = 0; s < 2; s++)
		if (x->wait_in[s])
			CUDA_CHECK(cudaEventSynchronize(*x->wait_in[s]));
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->edge));
	CUDA_CHECK(cudaStreamSynchronize(x->main));
	return 0;
}

/* ---- the phases (swe_multi.h) */

static int sub_stage1(struct swe_backend_ctx *x, double t, double *ax, double *ay)
{
	(void)t; /* the ghosts of U^n were written at t by the step that made it */
	x->timing = x->steps % TIME_EVERY == 0;
	x->tsteps += x->timing;
	*ax = *ay = 0;
	return stage(x, 0);
}

static real bits_real(swe_rbits b)
{
	real r;
	memcpy(&r, &b, sizeof r);
	return r;
}

static int sub_speeds(struct swe_backend_ctx *x, double *ax, double *ay)
{
	swe_rbits bx, by;
	int rc = sub_interior(x);
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	if (!x->spd_ready) {
		CUDA_CHECK(cudaMemcpyAsync(x->hout, x->dctl, sizeof *x->hout,
			cudaMemcpyDeviceToHost, x->main));
		CUDA_CHECK(cudaEventRecord(x->ev_spd, x->main));
		x->spd_ready = 1;
	}
	CUDA_CHECK(cudaEventSynchronize(x->ev_spd));
	harvest(x, 0);
	bx = x->last_s2 ? x->hout->ax2 : x->hout->ax1;
	by = x->last_s2 ? x->hout->ay2 : x->hout->ay1;
	/* NaN or infinity in stage 1: no time step (as swe_cuda_kern.cu's set_dt) */
	if (!x->last_s2 && (bx >= SWE_RBITS_INF || by >= SWE_RBITS_INF)) {
		spate_log_error("cuda", "non-finite wave speed at t = %g s, step %ld, on GPU %d",
			x->t, x->steps, x->device);
		return -SPATE_ENUMERIC;
	}
	*ax = (double)bits_real(bx);
	*ay = (double)bits_real(by);
	return 0;
}

/* The host's t and dt for the second kernel of the step; Euler: that
 * kernel. */
static int sub_predict(struct swe_backend_ctx *x, double dt, double t_new)
{
	int rc = sub_interior(x);
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	memset(x->hin, 0, sizeof *x->hin);
	x->hin->t = t_new;
	x->hin->t_stop = HUGE_VAL;
	x->hin->dt = dt;
	x->hin->last_dt = dt;
	x->hin->steps = x->steps + 1;
	CUDA_CHECK(cudaMemcpyAsync(x->dctl, x->hin, sizeof *x->hin, cudaMemcpyHostToDevice,
		x->main));
	if (x->kp.integrator == 1) {
		step_t a = step_arrays(x, x->cur);
		int i = tstart(x, x->main, 0);
		swe_cuda_enqueue_euler(&x->kp, &a, x->main);
		tstop(x, i, x->main);
		x->last_s2 = 0;
		x->spd_ready = 0;
		end_stage(x, &a, 1);
		if (x->edge != x->main) {
			CUDA_CHECK(cudaEventRecord(x->ev_main, x->main));
			CUDA_CHECK(cudaStreamWaitEvent(x->edge, x->ev_main, 0));
		}
	}
	CUDA_CHECK(cudaGetLastError());
	return 0;
}

static int sub_correct(struct swe_backend_ctx *x, double dt, double *ax, double *ay)
{
	(void)dt; /* in the control block since predict */
	*ax = *ay = 0; /* read back by speeds at the end of a run of steps */
	return stage(x, 1);
}

static int sub_commit(struct swe_backend_ctx *x, double t, double dt)
{
	(void)dt;
	x->cur ^= 1;
	x->t = t;
	x->steps++;
	return 0;
}

/* ---- halos */

static void enable_peer(int a, int b)
{
	static unsigned char done[MAX_PEER][MAX_PEER];
	int can = 0, cur = 0;
	if (a == b || a >= MAX_PEER || b >= MAX_PEER || done[a][b])
		return;
	done[a][b] = done[b][a] = 1;
	cudaGetDevice(&cur);
	for (int k = 0; k < 2; k++) {
		int from = k ? b : a, to = k ? a : b;
		if (cudaDeviceCanAccessPeer(&can, from, to) == cudaSuccess && can) {
			cudaSetDevice(from);
			cudaDeviceEnablePeerAccess(to, 0);
		}
	}
	cudaGetLastError(); /* "already enabled", or none: copies are staged */
	cudaSetDevice(cur);
}

static int sub_halo_get(struct swe_backend_ctx *x, int st, int side, void *buf)
{
	real *f[3];
	size_t n = halo_elems(x);
	int rc = stage_fields(x, st, f), i;
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	i = tstart(x, x->edge, 1);
	for (int k = 0; k < 3; k++)
		CUDA_CHECK(cudaMemcpyAsync(x->hsend[side] + k * n, row(f[k], x, side ? x->rows - G : 0),
			n * sizeof(real), cudaMemcpyDeviceToHost, x->edge));
	tstop(x, i, x->edge);
	CUDA_CHECK(cudaStreamSynchronize(x->edge));
	memcpy(buf, x->hsend[side], 3 * n * sizeof(real));
	return 0;
}

static int sub_halo_put(struct swe_backend_ctx *x, int st, int side, const void *buf)
{
	real *f[3];
	size_t n = halo_elems(x);
	int rc = stage_fields(x, st, f), i;
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaEventSynchronize(x->ev_put[side])); /* hrecv free again */
	memcpy(x->hrecv[side], buf, 3 * n * sizeof(real));
	i = tstart(x, x->edge, 1);
	for (int k = 0; k < 3; k++)
		CUDA_CHECK(cudaMemcpyAsync(row(f[k], x, side ? x->rows : -G), x->hrecv[side] + k * n,
			n * sizeof(real), cudaMemcpyHostToDevice, x->edge));
	tstop(x, i, x->edge);
	CUDA_CHECK(cudaEventRecord(x->ev_put[side], x->edge));
	return 0;
}

static int sub_halo_copy(struct swe_backend_ctx *x, int st, int side, struct swe_backend_ctx *y)
{
	real *f[3], *g[3];
	size_t n = halo_elems(x);
	int rc = stage_fields(x, st, f), i;
	if (rc || (rc = stage_fields(y, st, g)))
		return rc;
	enable_peer(x->device, y->device);
	CUDA_CHECK(cudaSetDevice(x->device));
	i = tstart(x, x->edge, 1);
	for (int k = 0; k < 3; k++)
		CUDA_CHECK(cudaMemcpyPeerAsync(row(g[k], y, side ? -G : y->rows), y->device,
			row(f[k], x, side ? x->rows - G : 0), x->device, n * sizeof(real), x->edge));
	tstop(x, i, x->edge);
	CUDA_CHECK(cudaEventRecord(x->ev_out[side], x->edge));
	y->wait_in[1 - side] = &x->ev_out[side];
	return 0;
}

/* ---- whole-subdomain access (synchronous) */

static int rows_copy(struct swe_backend_ctx *x, int st, int j0, int j1, real *w, real *hu,
	real *hv, int put)
{
	real *f[3], *h[3] = { w, hu, hv };
	size_t n = (size_t)(j1 - j0) * x->kp.pitch * sizeof(real);
	int rc;
	if (j0 < -G || j1 > x->rows + G || j0 > j1)
		return -SPATE_EINVAL;
	if ((rc = stage_fields(x, st, f)) || (rc = sync_all(x)))
		return rc;
	for (int k = 0; k < 3; k++)
		CUDA_CHECK(cudaMemcpy(put ? row(f[k], x, j0) : h[k], put ? h[k] : row(f[k], x, j0), n,
			put ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
	return 0;
}

static int sub_rows_get(struct swe_backend_ctx *x, int st, int j0, int j1, real *w, real *hu,
	real *hv)
{
	return rows_copy(x, st, j0, j1, w, hu, hv, 0);
}

static int sub_rows_put(struct swe_backend_ctx *x, int st, int j0, int j1, const real *w,
	const real *hu, const real *hv)
{
	return rows_copy(x, st, j0, j1, (real *)w, (real *)hu, (real *)hv, 1);
}

static int sub_sample(struct swe_backend_ctx *x, const long *idx, int n, real *w, real *hu,
	real *hv)
{
	int rc = sync_all(x);
	for (int q = 0; q < n && !rc; q++) {
		CUDA_CHECK(cudaMemcpy(w + q, x->w[x->cur] + idx[q], sizeof(real),
			cudaMemcpyDeviceToHost));
		CUDA_CHECK(cudaMemcpy(hu + q, x->hu[x->cur] + idx[q], sizeof(real),
			cudaMemcpyDeviceToHost));
		CUDA_CHECK(cudaMemcpy(hv + q, x->hv[x->cur] + idx[q], sizeof(real),
			cudaMemcpyDeviceToHost));
	}
	return rc;
}

static int sub_products_start(struct swe_backend_ctx *x, real thr)
{
	step_t a = step_arrays(x, x->cur);
	int rc = sync_all(x);
	if (rc)
		return rc;
	if (!x->prod)
		CUDA_CHECK(cudaMalloc((void **)&x->prod,
			(size_t)x->kp.nx * x->rows * sizeof(struct swe_prod)));
	x->prod_thr = thr;
	a.w1 = a.w; /* the current state, presented as a step's output */
	a.hu1 = a.hu;
	a.hv1 = a.hv;
	swe_cuda_enqueue_products(&x->kp, &a, x->prod, thr, 1, x->main);
	CUDA_CHECK(cudaGetLastError());
	return 0;
}

static int sub_products_get(struct swe_backend_ctx *x, struct swe_prod *out)
{
	int rc = x->prod ? sync_all(x) : -SPATE_EINVAL;
	if (rc)
		return rc;
	CUDA_CHECK(cudaMemcpy(out, x->prod, (size_t)x->kp.nx * x->rows * sizeof *out,
		cudaMemcpyDeviceToHost));
	return 0;
}

static int sub_times(struct swe_backend_ctx *x, double *compute, double *exchange)
{
	int rc = sync_all(x);
	double scale;
	if (rc)
		return rc;
	harvest(x, 1);
	scale = x->tsteps > 0 ? (double)x->steps / x->tsteps : 0;
	*compute = x->t_comp * scale;
	*exchange = x->t_copy * scale;
	return 0;
}

/* ---- set-up */

static void sub_fini(struct swe_backend_ctx *x)
{
	if (!x)
		return;
	cudaSetDevice(x->device);
	cudaDeviceSynchronize();
	for (int p = 0; p < 2; p++) {
		cudaFree(x->w[p]);
		cudaFree(x->hu[p]);
		cudaFree(x->hv[p]);
		cudaFreeHost(x->hsend[p]);
		cudaFreeHost(x->hrecv[p]);
		if (x->ev_out[p])
			cudaEventDestroy(x->ev_out[p]);
		if (x->ev_put[p])
			cudaEventDestroy(x->ev_put[p]);
	}
	cudaFree(x->Lw);
	cudaFree(x->Lhu);
	cudaFree(x->Lhv);
	cudaFree(x->Bc);
	cudaFree(x->Bm);
	cudaFree(x->bc);
	cudaFree(x->list);
	cudaFree(x->count);
	cudaFree(x->dctl);
	cudaFree(x->prod);
	cudaFreeHost(x->hin);
	cudaFreeHost(x->hout);
	for (int i = 0; i < TIME_PAIRS; i++)
		if (x->tp[i].a) {
			cudaEventDestroy(x->tp[i].a);
			cudaEventDestroy(x->tp[i].b);
		}
	if (x->ev_edge)
		cudaEventDestroy(x->ev_edge);
	if (x->ev_main)
		cudaEventDestroy(x->ev_main);
	if (x->ev_spd)
		cudaEventDestroy(x->ev_spd);
	if (x->edge && x->edge != x->main)
		cudaStreamDestroy(x->edge);
	if (x->main)
		cudaStreamDestroy(x->main);
	cudaGetLastError();
	free(x);
}

/* The row ranges of the stage kernels and their tile lists: every tile of a
 * range, numbered from its first row. */
static int upload_tiles(struct swe_backend_ctx *x)
{
	int r[4][2] = { { 0, x->rows }, { 0, x->lo }, { x->lo, x->hi }, { x->hi, x->rows } };
	unsigned int cnt[4];
	int n = x->kp.ntx * ((x->rows + x->kp.rows - 1) / x->kp.rows), *ids;
	cudaError_t e;
	for (int k = 0; k < 4; k++) {
		x->rj[k][0] = r[k][0];
		x->rj[k][1] = r[k][1];
		cnt[k] = (unsigned int)(x->kp.ntx * ((r[k][1] - r[k][0] + x->kp.rows - 1) /
			x->kp.rows));
	}
	ids = (int *)malloc((size_t)n * sizeof *ids);
	if (!ids)
		return -SPATE_ENOMEM;
	for (int t = 0; t < n; t++)
		ids[t] = t;
	e = cudaMalloc((void **)&x->list, (size_t)n * sizeof *ids);
	if (e == cudaSuccess)
		e = cudaMemcpy(x->list, ids, (size_t)n * sizeof *ids, cudaMemcpyHostToDevice);
	free(ids);
	CUDA_CHECK(e);
	CUDA_CHECK(cudaMalloc((void **)&x->count, sizeof cnt));
	CUDA_CHECK(cudaMemcpy(x->count, cnt, sizeof cnt, cudaMemcpyHostToDevice));
	return 0;
}

/* Device memory, the rows of g with their ghost rows, streams and events. */
static int upload(struct swe_backend_ctx *x, const struct swe_state *g,
	const struct swe_params *p, int row0)
{
	size_t n = (size_t)x->kp.ncell * sizeof(real), off = (size_t)row0 * g->pitch;
	size_t nc = (size_t)(x->rows + 2 * G + 1) * g->cpitch * sizeof(real);
	size_t nh = 3 * halo_elems(x) * sizeof(real);
	real **arr[] = { &x->w[0], &x->hu[0], &x->hv[0], &x->w[1], &x->hu[1], &x->hv[1],
		&x->Lw, &x->Lhu, &x->Lhv, &x->Bm };
	const unsigned sync = cudaEventDisableTiming;
	int lo, hi, rc;
	for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++) {
		CUDA_CHECK(cudaMalloc((void **)arr[a], n));
		CUDA_CHECK(cudaMemset(*arr[a], 0, n));
	}
	CUDA_CHECK(cudaMalloc((void **)&x->Bc, nc));
	CUDA_CHECK(cudaMalloc((void **)&x->bc, sizeof p->bc));
	CUDA_CHECK(cudaMalloc((void **)&x->dctl, sizeof *x->dctl));
	CUDA_CHECK(cudaMallocHost((void **)&x->hin, sizeof *x->hin));
	CUDA_CHECK(cudaMallocHost((void **)&x->hout, sizeof *x->hout));
	for (int s = 0; s < 2; s++) {
		CUDA_CHECK(cudaMallocHost((void **)&x->hsend[s], nh));
		CUDA_CHECK(cudaMallocHost((void **)&x->hrecv[s], nh));
		CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_out[s], sync));
		CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_put[s], sync));
	}
	CUDA_CHECK(cudaMemcpy(x->w[0], g->w + off, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->hu[0], g->hu + off, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->hv[0], g->hv + off, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->Bm, g->Bm + off, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->Bc, g->Bc + (size_t)row0 * g->cpitch, nc,
		cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->bc, p->bc, sizeof p->bc, cudaMemcpyHostToDevice));
	if ((rc = upload_tiles(x)))
		return rc;
	memset(x->hin, 0, sizeof *x->hin);
	x->hin->t_stop = HUGE_VAL; /* stage 1 runs whatever t is: the host decides */
	CUDA_CHECK(cudaMemcpy(x->dctl, x->hin, sizeof *x->dctl, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaStreamCreateWithFlags(&x->main, cudaStreamNonBlocking));
	x->edge = x->main;
	if (x->overlap == SWE_OVERLAP_STREAMS) {
		/* edge rows and their copies ahead of the interior's blocks */
		CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
		CUDA_CHECK(cudaStreamCreateWithPriority(&x->edge, cudaStreamNonBlocking, hi));
	}
	CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_edge, sync));
	CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_main, sync));
	CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_spd, sync));
	for (int i = 0; i < TIME_PAIRS; i++) {
		CUDA_CHECK(cudaEventCreate(&x->tp[i].a));
		CUDA_CHECK(cudaEventCreate(&x->tp[i].b));
	}
	return 0;
}

static int env_int(const char *name, int def, int lo, int hi)
{
	const char *e = getenv(name);
	int v = e && *e ? atoi(e) : def;
	return v >= lo && v <= hi ? v : def;
}

static int sub_init(struct swe_backend_ctx **out, const struct swe_state *g,
	const struct swe_params *p, int row0, int rows, int device)
{
	struct swe_backend_ctx *x = (struct swe_backend_ctx *)calloc(1, sizeof *x);
	int rc, sms = 1, srows = STRIP_ROWS;
	long sx = (g->nx + SWE_CUDA_STRIP_COLS - 1) / SWE_CUDA_STRIP_COLS;
	step_t a;
	if (!x)
		return -SPATE_ENOMEM;
	if (row0 < 0 || rows < G || row0 + rows > g->ny) {
		free(x);
		return -SPATE_EINVAL;
	}
	x->device = device;
	x->overlap = p->overlap;
	x->rows = rows;
	x->kp.integrator = p->integrator;
	x->kp.warps = env_int("SPATE_CUDA_WARPS", STRIP_WARPS, 1, 8);
	x->kp.c = swe_coef_of(p);
	x->kp.early = p->early_exit && x->kp.c.kappa4 > 0;
	x->kp.nx = g->nx;
	x->kp.ny = rows;
	x->kp.pitch = g->pitch;
	x->kp.cpitch = g->cpitch;
	x->kp.inv_dx = (real)(1.0 / g->dx);
	x->kp.inv_dy = (real)(1.0 / g->dy);
	x->kp.dx = g->dx;
	x->kp.dy = g->dy;
	x->kp.cfl = p->cfl;
	x->kp.ncell = (long)(rows + 2 * G) * g->pitch;
	x->kp.host_dt = 1;
	x->kp.sides = 1u << SWE_WEST | 1u << SWE_EAST | (row0 == 0 ? 1u << SWE_SOUTH : 0) |
		(row0 + rows == g->ny ? 1u << SWE_NORTH : 0);
	swe_bcdev_fill(&x->kp.bcd, g, p);
	/* rows next to an internal edge: their L and U travel to the neighbour */
	x->lo = x->kp.sides & 1u << SWE_SOUTH ? 0 : G;
	x->hi = x->kp.sides & 1u << SWE_NORTH ? rows : rows - G;
	x->hi = x->hi > x->lo ? x->hi : x->lo;
	if (cudaSetDevice(device) != cudaSuccess) {
		spate_log_error("cuda", "cannot use device %d: %s", device,
			cudaGetErrorString(cudaGetLastError()));
		free(x);
		return -SPATE_ENODEV;
	}
	if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
		sms = 1;
	while (srows > STRIP_ROWS_MIN &&
		sx * ((rows + srows - 1) / srows) < (long)sms * STRIP_WARPS_PER_SM)
		srows /= 2;
	x->kp.rows = env_int("SPATE_CUDA_ROWS", srows, 1, 1 << 20);
	x->kp.ntx = (int)sx;
	x->kp.nty = (rows + x->kp.rows - 1) / x->kp.rows;
	x->kp.tiles = 0; /* the tile map sees no neighbour across a halo */
	rc = upload(x, g, p, row0);
	if (!rc)
		rc = swe_cuda_kernels_init();
	if (rc) {
		spate_log_error("cuda", "cannot set up rows %d-%d (%d x %d cells) on device %d",
			row0, row0 + rows - 1, g->nx, rows, device);
		sub_fini(x);
		return rc;
	}
	x->kp.bc = x->bc;
	a = step_arrays(x, 0);
	swe_cuda_enqueue_bc(&x->kp, &a, x->main); /* ghosts of U^0 on global edges */
	if (cudaStreamSynchronize(x->main) != cudaSuccess) {
		spate_log_error("cuda", "cannot fill the ghost cells on device %d: %s", device,
			cudaGetErrorString(cudaGetLastError()));
		sub_fini(x);
		return -SPATE_EDEVICE;
	}
	*out = x;
	return 0;
}

extern "C" const struct swe_sub_ops swe_cuda_sub_ops = {
	"cuda", sub_init, sub_stage1, sub_predict, sub_correct, sub_commit, sub_rows_get,
	sub_rows_put, sub_sample, sub_products_start, sub_products_get, sub_fini,
	SWE_STAGE_RATE, sub_speeds, sub_interior, sub_halo_get, sub_halo_put, sub_halo_copy,
	sub_times
};
