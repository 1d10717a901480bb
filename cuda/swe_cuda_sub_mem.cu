/* swe_cuda_sub_mem.cu: a subdomain of rows on one GPU (swe_cuda_sub.cu):
 * device memory, streams and events (the tile lists: swe_cuda_sub_tiles.cu);
 * the rows of the global state it holds and their upload; copies of whole
 * rows, gauge samples and flood products back to the host (each waits for
 * everything enqueued on the subdomain); device times; and the table of
 * sub-operations (swe_multi.h). */
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

/* ---- whole-subdomain access (synchronous) */

static int rows_copy(struct swe_backend_ctx *x, int st, int j0, int j1, real *w, real *hu,
	real *hv, int put)
{
	real *f[3], *h[3] = { w, hu, hv };
	size_t n = (size_t)(j1 - j0) * x->kp.pitch * sizeof(real);
	int rc;
	int lo = swe_cuda_sub_held(x, 0), hi = swe_cuda_sub_held(x, 1);
	if (j0 < -lo || j1 > x->rows + hi || j0 > j1)
		return -SPATE_EINVAL;
	if ((rc = swe_cuda_sub_fields(x, st, f)) || (rc = swe_cuda_sub_sync(x)))
		return rc;
	/* rows put beyond an internal edge: the neighbour's, valid */
	if (put && j1 == 0 && lo == x->halo)
		swe_cuda_sub_valid(x, st, 0, -j0);
	if (put && j0 == x->rows && hi == x->halo)
		swe_cuda_sub_valid(x, st, 1, j1 - x->rows);
	for (int k = 0; k < 3; k++) {
		real *d = swe_cuda_sub_row(f[k], x, j0);
		CUDA_CHECK(cudaMemcpy(put ? d : h[k], put ? h[k] : d, n,
			put ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
	}
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

/* The n cells at indices idx (this subdomain's layout): one gather and one
 * copy (a copy per value cost ~30 ms per step on Malpasset's 1274 gauge
 * cells). */
static int sub_sample(struct swe_backend_ctx *x, const long *idx, int n, real *w, real *hu,
	real *hv)
{
	int rc = swe_cuda_sub_sync(x);
	return rc ? rc : swe_cuda_samples_get(&x->smp, idx, n, 0, x->w[x->cur], x->hu[x->cur],
		x->hv[x->cur], x->main, w, hu, hv);
}

static int sub_products_start(struct swe_backend_ctx *x, real thr)
{
	step_t a = swe_cuda_sub_arrays(x, x->cur);
	int rc = swe_cuda_sub_sync(x);
	if (rc)
		return rc;
	if (!x->prod) {
		CUDA_ALLOC((void **)&x->st.prod,
			(size_t)x->kp.nx * x->st.cap * sizeof(struct swe_prod));
		swe_cuda_sub_store_use(x);
	}
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
	int rc = x->prod ? swe_cuda_sub_sync(x) : -SPATE_EINVAL;
	if (rc)
		return rc;
	CUDA_CHECK(cudaMemcpy(out, x->prod, (size_t)x->kp.nx * x->rows * sizeof *out,
		cudaMemcpyDeviceToHost));
	return 0;
}

/* Restart: the products of the owned rows from in. */
static int sub_products_put(struct swe_backend_ctx *x, const struct swe_prod *in)
{
	int rc = x->prod ? swe_cuda_sub_sync(x) : -SPATE_EINVAL;
	if (rc)
		return rc;
	CUDA_CHECK(cudaMemcpy(x->prod, in, (size_t)x->kp.nx * x->rows * sizeof *in,
		cudaMemcpyHostToDevice));
	return 0;
}

static int sub_times(struct swe_backend_ctx *x, double *compute, double *exchange)
{
	int rc = swe_cuda_sub_sync(x);
	double scale;
	if (rc)
		return rc;
	swe_cuda_sub_harvest(x, 1);
	/* each timed step stands for the time_every steps it begins
	 * (the same steps on every subdomain): the growth of these totals over
	 * an interval is that interval's (balancing), not the run's mean */
	scale = x->time_every;
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
	swe_cuda_sub_store_free(&x->st);
	for (int p = 0; p < 2; p++) {
		cudaFreeHost(x->hsend[p]);
		cudaFreeHost(x->hrecv[p]);
		if (x->ev_out[p])
			cudaEventDestroy(x->ev_out[p]);
		if (x->ev_put[p])
			cudaEventDestroy(x->ev_put[p]);
	}
	cudaFree(x->bc);
	swe_cuda_sub_sources_free(x);
	cudaFree(x->ecnt);
	cudaFree(x->spdx);
	swe_cuda_sub_tiles_free(x);
	if (x->hcnt)
		cudaFreeHost(x->hcnt);
	cudaFree(x->dctl);
	cudaFree(x->good);
	cudaFree(x->good_prod);
	cudaFree(x->spd);
	cudaFree(x->dpeers);
	cudaFree(x->dacc);
	if (x->gexec)
		cudaGraphExecDestroy(x->gexec);
	if (x->ev_fork)
		cudaEventDestroy(x->ev_fork);
	for (int i = 0; i < 2 * DECOMP_MAX; i++)
		if (x->ev_join[i])
			cudaEventDestroy(x->ev_join[i]);
	cudaFreeHost(x->hin);
	cudaFreeHost(x->hout);
	swe_cuda_samples_free(&x->smp);
	swe_cuda_sub_gauges_free(x);
	for (int i = 0; i < SWE_CUDA_TIME_PAIRS; i++)
		if (x->tp[i].a) {
			cudaEventDestroy(x->tp[i].a);
			cudaEventDestroy(x->tp[i].b);
		}
	for (int i = 0; i < SWE_CUDA_TIME_PAIRS; i++)
		if (x->gtp[i].a) {
			cudaEventDestroy(x->gtp[i].a);
			cudaEventDestroy(x->gtp[i].b);
		}
	if (x->ev_edge)
		cudaEventDestroy(x->ev_edge);
	if (x->ev_main)
		cudaEventDestroy(x->ev_main);
	if (x->ev_spd)
		cudaEventDestroy(x->ev_spd);
	if (x->ev_ghost)
		cudaEventDestroy(x->ev_ghost);
	if (x->edge && x->edge != x->main)
		cudaStreamDestroy(x->edge);
	if (x->main)
		cudaStreamDestroy(x->main);
	cudaGetLastError();
	free(x);
}

/* Device memory, the rows of g with their ghost rows, streams and events. */
/* The state and the bed of x's rows from g (row0 its first), with ghost
 * cell expansion the rows beyond internal edges too: their state and bed
 * are valid from the start. */
static int upload_state(struct swe_backend_ctx *x, const struct swe_state *g, int row0)
{
	int el = row0 > 0 ? x->halo - G : 0, eh = row0 + x->rows < g->ny ? x->halo - G : 0;
	size_t P = (size_t)g->pitch, C = (size_t)g->cpitch, oe = (size_t)el * P;
	size_t n = ((size_t)x->kp.ncell + (size_t)(el + eh) * P) * sizeof(real);
	size_t nc = (size_t)(x->rows + 2 * G + 1 + el + eh) * C * sizeof(real);
	size_t off = (size_t)row0 * P - oe;
	CUDA_CHECK(cudaMemcpy(x->w[0] - oe, g->w + off, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->hu[0] - oe, g->hu + off, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->hv[0] - oe, g->hv + off, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->Bm - oe, g->Bm + off, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->Bc - (size_t)el * C, g->Bc + (size_t)(row0 - el) * C, nc,
		cudaMemcpyHostToDevice));
	x->mu[0] = el + G;
	x->mu[1] = eh + G;
	x->ms[0] = x->ms[1] = 0;
	return 0;
}

/* Tiles of e rows, e = 0 .. halo (launch_ext's counts), and the speeds of
 * the rows beyond the edges. */
static int edge_counts(struct swe_backend_ctx *x)
{
	unsigned int *c = (unsigned int *)malloc(((size_t)x->halo + 1) * sizeof *c);
	cudaError_t e;
	if (!c)
		return -SPATE_ENOMEM;
	for (int r = 0; r <= x->halo; r++)
		c[r] = (unsigned int)(x->kp.ntx * ((r + x->kp.rows - 1) / x->kp.rows));
	e = cudaMalloc((void **)&x->ecnt, ((size_t)x->halo + 1) * sizeof *c);
	if (e == cudaSuccess)
		e = cudaMemcpy(x->ecnt, c, ((size_t)x->halo + 1) * sizeof *c, cudaMemcpyHostToDevice);
	free(c);
	CUDA_CHECK(e);
	CUDA_ALLOC((void **)&x->spdx, 2 * sizeof *x->spdx);
	return 0;
}

static int upload(struct swe_backend_ctx *x, const struct swe_state *g,
	const struct swe_params *p, int row0)
{
	size_t nh = 3 * swe_cuda_sub_halo(x) * sizeof(real);
	const unsigned sync = cudaEventDisableTiming;
	int lo, hi, rc;
	if ((rc = swe_cuda_sub_store_new(x, row0, x->rows, &x->st)))
		return rc;
	swe_cuda_sub_store_use(x);
	CUDA_ALLOC((void **)&x->bc, sizeof p->bc);
	CUDA_ALLOC((void **)&x->dctl, sizeof *x->dctl);
	CUDA_CHECK(cudaMallocHost((void **)&x->hin, sizeof *x->hin));
	CUDA_CHECK(cudaMallocHost((void **)&x->hout, sizeof *x->hout));
	for (int s = 0; s < 2; s++) {
		CUDA_CHECK(cudaMallocHost((void **)&x->hsend[s], nh));
		CUDA_CHECK(cudaMallocHost((void **)&x->hrecv[s], nh));
		CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_out[s], sync));
		CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_put[s], sync));
	}
	if ((rc = upload_state(x, g, row0)) || (rc = edge_counts(x)) ||
		(rc = swe_cuda_sub_sources_init(x, g)))
		return rc;
	CUDA_CHECK(cudaMemcpy(x->bc, p->bc, sizeof p->bc, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMallocHost((void **)&x->hcnt, sizeof *x->hcnt));
	if ((rc = swe_cuda_sub_tiles(x)))
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
	CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_ghost, sync));
	for (int i = 0; i < SWE_CUDA_TIME_PAIRS; i++) {
		CUDA_CHECK(cudaEventCreate(&x->tp[i].a));
		CUDA_CHECK(cudaEventCreate(&x->tp[i].b));
		CUDA_CHECK(cudaEventCreate(&x->gtp[i].a));
		CUDA_CHECK(cudaEventCreate(&x->gtp[i].b));
	}
	return 0;
}

static int env_int(const char *name, int def, int lo, int hi)
{
	const char *e = getenv(name);
	int v = e && *e ? atoi(e) : def;
	return v >= lo && v <= hi ? v : def;
}

/* x's settings and kernel parameters for rows [row0, row0 + rows) of g
 * (the tile height is sub_init's). */
static void settings(struct swe_backend_ctx *x, const struct swe_state *g,
	const struct swe_params *p, int row0, int rows)
{
	x->overlap = p->overlap;
	x->row0 = row0;
	x->rows = rows;
	x->gny = g->ny;
	x->halo = swe_halo_rows(p);
	x->halo_memcpy = env_int("SPATE_CUDA_HALO_MEMCPY", 0, 0, 1);
	x->time_every = env_int("SPATE_CUDA_TIME_EVERY", SWE_CUDA_TIME_EVERY, 2, 4096);
	/* room to grow in place (SPATE_CUDA_ROOM=0: none, every gain a new store) */
	x->room = p->balance != SWE_BALANCE_STATIC && env_int("SPATE_CUDA_ROOM", 1, 0, 1);
	swe_cuda_params_fill(&x->kp, g, p, rows);
	x->kp.host_dt = 1;
	/* wide halos may come between two no-op steps (copy_all) */
	x->kp.noop_skip = x->halo == G;
	x->kp.sides = 1u << SWE_WEST | 1u << SWE_EAST | (row0 == 0 ? 1u << SWE_SOUTH : 0) |
		(row0 + rows == g->ny ? 1u << SWE_NORTH : 0);
}

static int sub_init(struct swe_backend_ctx **out, const struct swe_state *g,
	const struct swe_params *p, int row0, int rows, int device)
{
	struct swe_backend_ctx *x;
	int rc;
	step_t a;
	if (row0 < 0 || rows < G || row0 + rows > g->ny)
		return -SPATE_EINVAL;
	if (!(x = (struct swe_backend_ctx *)calloc(1, sizeof *x)))
		return -SPATE_ENOMEM;
	x->device = device;
	settings(x, g, p, row0, rows);
	if ((rc = swe_cuda_params_device(&x->kp, device))) {
		free(x);
		return rc;
	}
	rc = upload(x, g, p, row0);
	if (!rc)
		rc = swe_cuda_kernels_init();
	if (!rc) {
		x->kp.maxblocks = swe_cuda_strip_cap(&x->kp, device);
		x->kp.split = swe_cuda_strip_split(&x->kp, device);
		x->kp.part_rows = swe_cuda_strip_part_rows();
		/* the stacks' launch has no work queue: each warp of the capped
		 * grid takes every W-th stack, so fewer than about 8 rounds leave
		 * the last one part idle (two H200s, 4096^2 a GPU, stacks of 4 in
		 * 2.2 rounds: 1.125e10 cell-steps/s a GPU against 1.177e10 by the
		 * lists; 8192^2 a GPU, 8.9 rounds: 1.299e10 against 1.199e10) */
		const long wv = (long)(x->kp.maxblocks > 0 ? x->kp.maxblocks :
			swe_cuda_strip_resident(&x->kp, device)) * x->kp.warps;
		x->kp.stack = swe_cuda_strip_stack(&x->kp, 2 * wv);
		/* without the tile map every tile is computed: stacks at once */
		x->stack_now = x->kp.stack > 1 && !x->kp.tiles;
	}
	if (rc) {
		spate_log_error("cuda", "cannot set up rows %d-%d (%d x %d cells) on device %d",
			row0, row0 + rows - 1, g->nx, rows, device);
		sub_fini(x);
		return rc;
	}
	x->kp.bc = x->bc;
	a = swe_cuda_sub_arrays(x, 0);
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

/* The rates of the whole grid (NULL: `uniform` everywhere), from the next
 * step on. */
int swe_cuda_sub_set_rain(struct swe_backend_ctx *x, const float *rate, double uniform)
{
	int rc = swe_cuda_sub_sync(x);
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	if ((rc = swe_cuda_rain_put(&x->rain, rate, (size_t)x->kp.nx * x->gny)))
		return rc;
	x->have_rain = rate != NULL;
	x->kp.rain_u = (real)uniform;
	return swe_cuda_sub_rain_tiles(x);
}

/* The table filled by field name (C++17 has no designated initialisers), so
 * that fields added to struct swe_sub_ops stay NULL here wherever they go. */
static struct swe_sub_ops cuda_sub_ops(void)
{
	struct swe_sub_ops o;
	memset(&o, 0, sizeof o);
	o.name = "cuda";
	o.init = sub_init;
	o.stage1 = swe_cuda_sub_stage1;
	o.predict = swe_cuda_sub_predict;
	o.correct = swe_cuda_sub_correct;
	o.commit = swe_cuda_sub_commit;
	o.rows_get = sub_rows_get;
	o.rows_put = sub_rows_put;
	o.sample = sub_sample;
	o.gauges_start = swe_cuda_sub_gauges_start;
	o.gauges_rows = swe_cuda_sub_gauges_rows;
	o.gauges_get = swe_cuda_sub_gauges_get;
	o.products_start = sub_products_start;
	o.products_get = sub_products_get;
	o.fini = sub_fini;
	o.mid_stage = SWE_STAGE_RATE;
	o.speeds = swe_cuda_sub_speeds;
	o.interior = swe_cuda_sub_interior;
	o.halo_get = swe_cuda_sub_halo_get;
	o.halo_put = swe_cuda_sub_halo_put;
	o.halo_copy = swe_cuda_sub_halo_copy;
	o.halo_dev = swe_cuda_sub_halo_dev;
	o.halo_mark = swe_cuda_sub_halo_mark;
	o.times = sub_times;
	o.concurrent = 1;
	/* a skipped tile is not launched: its cells cost the tile map's update
	 * only (the probe, a few steps of which compute every tile while the map
	 * builds up, would not see it) */
	o.skip_cost = 0.02;
	o.activity = swe_cuda_sub_activity;
	o.rows_bytes = swe_cuda_sub_rows_bytes;
	o.rows_pack = swe_cuda_sub_rows_pack;
	o.rows_resize = swe_cuda_sub_rows_resize;
	o.rows_take = swe_cuda_sub_rows_take;
	o.expand = 1;
	o.products_put = sub_products_put;
	o.set_rain = swe_cuda_sub_set_rain;
	o.dev_link = swe_cuda_sub_link;
	o.dev_dt = swe_cuda_sub_dt;
	o.dev_clock = swe_cuda_sub_clock_set;
	o.dev_read = swe_cuda_sub_clock_get;
	o.dev_graph = swe_cuda_sub_graph;
	o.dev_peers = swe_cuda_sub_peers;
	o.halo_keep = swe_cuda_sub_keep;
	o.guard = swe_cuda_sub_guard;
	return o;
}

/* Initialised before main runs; read only from then on. */
extern "C" const struct swe_sub_ops swe_cuda_sub_ops = cuda_sub_ops();
