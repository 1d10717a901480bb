/* swe_cuda_sub.cu: a subdomain of rows on one GPU: the step phases of the
 * decomposed run (swe_multi.h) made of the kernels of swe_cuda_kern.cu, and
 * its halos (set-up and whole-subdomain copies: swe_cuda_sub_mem.cu; device
 * times: swe_cuda_sub_time.cu; what they share: swe_cuda_sub.h).
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
 * With sources (rain, the Manning raster: swe_cuda_sub_src.cu) stage 2 is
 * one launch whatever the overlap: its halos leave after the sources.
 *
 * The tile map (RK2 with early exit, as on one GPU; swe_cuda_sub.h): the
 * edge ranges are the tile rows within two rows of an internal edge, always
 * computed (with overlap none too, as three launches), and the interior
 * launches its active tiles; k_tiles follows the products after stage 2.
 * A tile skipped holds what a step would write (k_tiles), so the bits stay
 * those of one GPU.
 *
 * Ghost cell expansion (k > 1): the subdomain holds swe_halo_rows ghost rows
 * at internal edges; each stage also computes the rows beyond them where its
 * input holds the neighbour's values, less the stencil (extend), and U is
 * exchanged every k steps instead of L and U every step.
 *
 * The halos (cuda/swe_cuda_sub_halo.cu): local links go device to device
 * (a kernel storing into the neighbour in device-dt mode, else peer copies);
 * the receiving subdomain's next stage waits for the copy's event.  Remote
 * links go through pinned host buffers (halo_get, halo_put) and MPI
 * (halo.c), or GPU to GPU through NCCL on the edge stream (halo_dev,
 * halo_mark; halo_nccl.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda_sub.h"
#include "products_kern.h"
}

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define G SWE_GHOST
typedef struct swe_cuda_step step_t;

struct swe_cuda_step swe_cuda_sub_arrays(const struct swe_backend_ctx *x, int p)
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
	a.wet = NULL;
	a.act = a.streak = NULL;
	a.n2 = NULL;
	a.rain = NULL;
	a.rtile = NULL;
	a.spd = NULL; /* stage 1 in device-dt mode: stage() sets it */
	a.par = -1;   /* set_dt or the host's dt */
	a.grab = NULL; /* ranges run on several streams at once */
	a.cost = NULL;
	if (x->kp.tiles) {
		/* the interior's active tiles; k_tiles writes the next step's */
		a.list = x->tl[p];
		a.count = x->tcnt + p;
		a.list1 = x->tl[1 - p];
		a.count1 = x->tcnt + 1 - p;
		a.wet = x->wet;
		a.act = x->act;
		a.streak = x->streak;
		a.rtile = x->have_rain ? x->rtile : NULL;
	}
	return a;
}

/* The three arrays of U (current state) or L; NULL for U*, which this
 * backend never stores. */
int swe_cuda_sub_fields(const struct swe_backend_ctx *x, int stage, real *f[3])
{
	if (stage == SWE_STAGE_U) {
		f[0] = x->w[x->cur];
		f[1] = x->hu[x->cur];
		f[2] = x->hv[x->cur];
	} else if (stage == SWE_STAGE_RATE) {
		f[0] = x->Lw;
		f[1] = x->Lhu;
		f[2] = x->Lhv;
	} else if (stage == SWE_STAGE_UNEXT) {
		f[0] = x->w[1 - x->cur];
		f[1] = x->hu[1 - x->cur];
		f[2] = x->hv[1 - x->cur];
	} else {
		spate_log_error("cuda", "a GPU subdomain keeps no U* (stage %d)", stage);
		return -SPATE_EUNSUPPORTED;
	}
	return 0;
}

/* ---- the pieces of a stage */

/* Stage s2 on row range r (x->rj) on stream s: every tile of the range, or
 * with the tile map the interior's active tiles (a0's list). */
static void launch(struct swe_backend_ctx *x, const step_t *a0, int s2, int r, cudaStream_t s)
{
	step_t a = *a0;
	int i, R = x->kp.rows, n;
	if (r == 4) {
		/* both edge ranges of the tile map, listed after every tile */
		n = x->kp.ntx * ((x->rj[1][1] + R - 1) / R + (x->rows - x->rj[3][0] + R - 1) / R);
		if (x->rj[1][1] <= 0 && x->rj[3][0] >= x->rows)
			return;
		i = swe_cuda_sub_tstart(x, s, 0);
		a.list = x->list + (size_t)x->kp.ntx * x->kp.nty;
		a.count = x->count + 4;
		swe_cuda_enqueue_list(&x->kp, &a, s2, n, s);
		swe_cuda_sub_tstop(x, i, s);
		return;
	}
	n = x->kp.ntx * ((x->rj[r][1] - x->rj[r][0] + R - 1) / R);
	if (x->rj[r][1] <= x->rj[r][0])
		return;
	i = swe_cuda_sub_tstart(x, s, 0);
	if (x->stack_now && (r == 2 || (r == 0 && !x->kp.tiles))) {
		/* every tile of the interior (or, with overlap none, of the rows) */
		swe_cuda_enqueue_stacks(&x->kp, &a, s2, x->rj[r][0], x->rj[r][1], s);
		swe_cuda_stacked++;
	} else if (!x->kp.tiles) {
		a.count = x->count + r;
		swe_cuda_enqueue_stage(&x->kp, &a, s2, x->rj[r][0], x->rj[r][1], s);
	} else {
		/* tiles numbered from row 0; the ranges are whole tile rows */
		if (r != 2) {
			a.list = x->list + (size_t)(x->rj[r][0] / R) * x->kp.ntx;
			a.count = x->count + r;
		}
		swe_cuda_enqueue_list(&x->kp, &a, s2, n, s);
	}
	swe_cuda_sub_tstop(x, i, s);
}


void swe_cuda_sub_valid(struct swe_backend_ctx *x, int stage, int side, int rows)
{
	if (stage != SWE_STAGE_UNEXT) /* no stage reads that copy's ghost rows */
		(stage == SWE_STAGE_U ? x->mu : x->ms)[side] = rows;
}

void swe_cuda_sub_keep(struct swe_backend_ctx *x, int stage, int side)
{
	swe_cuda_sub_valid(x, stage, side, SWE_GHOST);
}

/* Rows [0, e) beyond internal edge `side` (ghost cell expansion) of stage
 * s2, or of the Euler update, on stream s: the arrays shifted to them, a
 * grid of e rows without global edges south and north, every tile, the
 * speeds into spdx (only the owned faces count). */
static void launch_ext(struct swe_backend_ctx *x, const step_t *a0, int s2, int euler,
	int side, int e, cudaStream_t s)
{
	step_t a = *a0;
	struct swe_cuda_params k = x->kp;
	int i;
	if (e <= 0)
		return;
	swe_cuda_sub_shift(&a, &x->kp, side ? x->rows : -e);
	a.spd = x->spdx;
	a.list = x->list;
	a.count = x->ecnt + e;
	a.list1 = NULL;
	a.count1 = NULL;
	a.wet = NULL;
	a.act = a.streak = NULL;
	k.tiles = 0;
	k.ny = e;
	k.ncell = (long)(e + 2 * G) * x->kp.pitch;
	k.sides &= ~(1u << SWE_SOUTH | 1u << SWE_NORTH);
	i = swe_cuda_sub_tstart(x, s, 0);
	if (euler)
		swe_cuda_enqueue_euler(&k, &a, s);
	else
		swe_cuda_enqueue_stage(&k, &a, s2, 0, e, s);
	swe_cuda_sub_tstop(x, i, s);
}

/* Ghost cell expansion: the rows beyond each internal edge where the input
 * of stage s2 (U for stage 1, L and U for stage 2; L for the Euler update)
 * holds the neighbour's values, less the stencil (the Euler update: all of
 * them); then the output's valid rows.  With SWE_GHOST valid rows (no
 * expansion) there are none. */
static int extend(struct swe_backend_ctx *x, const step_t *a, int s2, int euler,
	cudaStream_t s)
{
	int *in = s2 || euler ? x->ms : x->mu, *out = s2 || euler ? x->mu : x->ms;
	for (int side = 0; side < 2; side++) {
		int e;
		if (x->kp.sides & 1u << (side ? SWE_NORTH : SWE_SOUTH))
			continue; /* a global edge */
		if (in[side] < (euler ? 0 : G)) {
			spate_log_error("cuda", "rows %d-%d: a stage without valid ghost rows (%d "
				"beyond the %s edge): the decomposition skipped a halo exchange", x->row0,
				x->row0 + x->rows - 1, in[side], side ? "north" : "south");
			return -SPATE_EINVAL;
		}
		e = euler ? in[side] : in[side] - G;
		launch_ext(x, a, s2, euler, side, e, s);
		out[side] = e;
	}
	return 0;
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
 * read the stage-1 speeds back, or update the flood products and gauges. */
static void end_stage(struct swe_backend_ctx *x, const step_t *a, int s2)
{
	if (x->edge != x->main)
		cudaStreamWaitEvent(x->main, x->ev_edge, 0);
	if (!s2 && x->devdt) {
		/* the speeds stay on the device: the peers' k_dt_peers wait for this */
		cudaEventRecord(x->ev_spd, x->main);
		return;
	}
	if (!s2) {
		cudaMemcpyAsync(x->hout, x->dctl, sizeof *x->hout, cudaMemcpyDeviceToHost, x->main);
		if (x->kp.tiles)
			cudaMemcpyAsync(x->hcnt, a->count, sizeof *x->hcnt, cudaMemcpyDeviceToHost,
				x->main);
		cudaEventRecord(x->ev_spd, x->main);
		x->spd_ready = 1;
		return;
	}
	swe_cuda_sub_sources(x, a, x->main); /* rain, Manning raster (kp.src) */
	if (x->prod) {
		int i = swe_cuda_sub_tstart(x, x->main, 0);
		swe_cuda_enqueue_products(&x->kp, a, x->prod, x->prod_thr, 0, x->main);
		swe_cuda_sub_tstop(x, i, x->main);
	}
	if (x->gg.n)
		swe_cuda_enqueue_gauges(&x->gg, a, x->main);
	/* after the products, which read which tiles this step computed */
	swe_cuda_enqueue_tiles(&x->kp, a, x->main);
}

/* A stage: its edge rows, and unless overlap = compute its interior. */
static int stage(struct swe_backend_ctx *x, int s2)
{
	step_t a = swe_cuda_sub_arrays(x, x->cur);
	if (x->devdt && !s2)
		a.spd = x->spd + 2 * (x->steps & 1);
	CUDA_CHECK(cudaSetDevice(x->device));
	begin_stage(x);
	x->last_s2 = s2;
	x->spd_ready = 0;
	if (extend(x, &a, s2, 0, x->edge))
		return -SPATE_EINVAL;
	if (x->overlap == SWE_OVERLAP_NONE || (s2 && x->kp.src)) {
		/* with sources, stage 2 as one: the halos of U^{n+1} leave after
		 * the sources made it (end_stage), the edge stream waits for that */
		if (x->edge != x->main) {
			cudaEventRecord(x->ev_edge, x->edge);
			cudaStreamWaitEvent(x->main, x->ev_edge, 0);
		}
		if (x->kp.tiles) {
			launch(x, &a, s2, 4, x->main);
			launch(x, &a, s2, 2, x->main);
		} else {
			launch(x, &a, s2, 0, x->main);
		}
		end_stage(x, &a, s2);
		if (x->edge != x->main) {
			cudaEventRecord(x->ev_main, x->main);
			cudaStreamWaitEvent(x->edge, x->ev_main, 0);
		}
	} else {
		if (x->kp.tiles) {
			launch(x, &a, s2, 4, x->edge);
		} else {
			launch(x, &a, s2, 1, x->edge);
			launch(x, &a, s2, 3, x->edge);
		}
		if (x->edge != x->main)
			cudaEventRecord(x->ev_edge, x->edge);
		x->pending = 1;
		x->pend_s2 = s2;
		x->pend_a = a;
		if (x->overlap == SWE_OVERLAP_STREAMS)
			return swe_cuda_sub_interior(x);
	}
	CUDA_CHECK(cudaGetLastError());
	return 0;
}

int swe_cuda_sub_interior(struct swe_backend_ctx *x)
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
int swe_cuda_sub_sync(struct swe_backend_ctx *x)
{
	int rc = swe_cuda_sub_interior(x);
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

int swe_cuda_sub_stage1(struct swe_backend_ctx *x, double t, double *ax, double *ay)
{
	(void)t; /* the ghosts of U^n were written at t by the step that made it */
	x->timing = x->steps % x->time_every == 0;
	x->tsteps += x->timing;
	*ax = *ay = 0;
	return stage(x, 0);
}

int swe_cuda_sub_speeds(struct swe_backend_ctx *x, double *ax, double *ay)
{
	swe_rbits bx, by;
	int rc = swe_cuda_sub_interior(x);
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
	swe_cuda_sub_harvest(x, 0);
	if (!x->last_s2 && x->kp.tiles) {
		swe_cuda_tiles_skipped += x->nint - (long)*x->hcnt;
		swe_cuda_tiles_seen += x->nint;
		if (!x->devdt) /* as swe_cuda_sub_clock_get for the next step */
			x->stack_now = x->kp.stack > 1 && (long)*x->hcnt == x->nint;
	}
	bx = x->last_s2 ? x->hout->ax2 : x->hout->ax1;
	by = x->last_s2 ? x->hout->ay2 : x->hout->ay1;
	/* NaN or infinity in stage 1: no time step (as set_dt, swe_cuda_dev.h) */
	if (!x->last_s2 && (bx >= SWE_RBITS_INF || by >= SWE_RBITS_INF)) {
		spate_log_error("cuda", "non-finite wave speed at t = %g s, step %ld, on GPU %d",
			x->t, x->steps, x->device);
		return -SPATE_ENUMERIC;
	}
	*ax = (double)swe_bits_real(bx);
	*ay = (double)swe_bits_real(by);
	return 0;
}

/* The host's t and dt for the second kernel of the step; Euler: that
 * kernel. */
int swe_cuda_sub_predict(struct swe_backend_ctx *x, double dt, double t_new)
{
	int rc = swe_cuda_sub_interior(x);
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	if (!x->devdt) { /* else t and dt are on the device (swe_cuda_sub_dt) */
		memset(x->hin, 0, sizeof *x->hin);
		x->hin->t = t_new;
		x->hin->t_stop = HUGE_VAL;
		x->hin->dt = dt;
		x->hin->last_dt = dt;
		x->hin->steps = x->steps + 1;
		CUDA_CHECK(cudaMemcpyAsync(x->dctl, x->hin, SWE_CUDA_CTL_SET,
			cudaMemcpyHostToDevice, x->main));
	}
	if (x->kp.integrator == 1) {
		step_t a = swe_cuda_sub_arrays(x, x->cur);
		int i = swe_cuda_sub_tstart(x, x->main, 0);
		swe_cuda_enqueue_euler(&x->kp, &a, x->main);
		swe_cuda_sub_tstop(x, i, x->main);
		if (extend(x, &a, 0, 1, x->main))
			return -SPATE_EINVAL;
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

int swe_cuda_sub_correct(struct swe_backend_ctx *x, double dt, double *ax, double *ay)
{
	(void)dt; /* in the control block since predict */
	*ax = *ay = 0; /* read back by speeds at the end of a run of steps */
	return stage(x, 1);
}

int swe_cuda_sub_commit(struct swe_backend_ctx *x, double t, double dt)
{
	(void)dt;
	x->cur ^= 1;
	x->t = t;
	x->steps++;
	return 0;
}
