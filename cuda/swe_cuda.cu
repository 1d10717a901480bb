/* swe_cuda.cu: the CUDA backend of the shallow-water module, host side:
 * devices, memory, CUDA graphs and the time loop.  The kernels and their
 * launch functions are in swe_cuda_kern.cu and swe_cuda_cells.cu (declared in
 * swe_cuda.h); the state's way in and out (download, gauge samples, flood
 * products, rain, restart) in swe_cuda_state.cu.
 *
 * A step is two kernels (see swe_cuda_kern.cu): stage 1 computes L(U^n), the
 * largest face speeds and, in its last block, the time step; the second
 * kernel (RK2 second stage, or the Euler update) makes U^{n+1} and its ghost
 * cells.  The time step never leaves the device: a control block in device
 * memory holds t, dt and the step count, and the host enqueues batches of
 * steps (as CUDA graphs) and reads the control block once per batch.  A step
 * launched after t reached t_stop is a no-op that copies U^n into U^{n+1}, so
 * a batch may overshoot the number of steps needed; near t_stop the batches
 * aim a little short, then go one step at a time. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_bc.h"
#include "swe_backend.h"
#include "setup.h"
#include "forcing.h"
#include "swe_cuda.h"
#include "products_kern.h"
#include "swe_cuda_one.h"
}

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Steps per captured CUDA graph (even: a graph returns to its parity). */
#define GRAPH_STEPS 8
/* Most steps between two reads of the control block. */
#define BATCH_MAX 256
/* Strip height (rows) and warps per block of the stage kernels (measured on
 * an H200, single precision): strips of STRIP_ROWS rows, halved down to
 * STRIP_ROWS_MIN until the grid has STRIP_WARPS_PER_SM warps per
 * multiprocessor (small grids); with the tile map from STRIP_ROWS_TILES down
 * to STRIP_ROWS_MIN_TILES (swe_cuda_strip_rows); SPATE_CUDA_ROWS and
 * SPATE_CUDA_WARPS override them.  Thirteenth session, one H100, 8192^2,
 * fp32: SPATE_CUDA_ROWS=128 gave 1.090e10 cell-steps/s against 1.044e10
 * with 64, but a build with 128 as the default 1.052e10 in a later call:
 * not a clear gain, 64 kept. */
#define STRIP_ROWS 64
#define STRIP_ROWS_MIN 8
#define STRIP_ROWS_MIN_TILES 4
#define STRIP_ROWS_TILES 16
#define STRIP_WARPS_PER_SM 64
#define STRIP_WARPS 4
/* Most blocks of a stage kernel, in waves of resident blocks
 * (SPATE_CUDA_WAVES; 0: one warp per tile, however few are active). */
#define STRIP_WAVES 2
/* A short list's tiles are split between warps (swe_cuda_params.split)
 * while the parts fit in SPLIT_WAVES waves of resident warps
 * (SPATE_CUDA_SPLIT; 0: never). */
#define SPLIT_WAVES 2
/* Fewest rows of a part of a split tile (SPATE_CUDA_PART).  Sixteenth
 * session, one H200, Malpasset 10 m, fp32 (tiles of 4 rows, so parts of 2
 * or 1 row split each tile between 2 or 4 warps): 4.83 s with 4 (no
 * split), 4.95 s with 2, 5.04 s with 1, the same bits: a part still walks
 * the rows around it, and the shorter walk does not pay for the extra
 * warps. */
#define PART_ROWS 4
/* Tiles a walk while every tile is in the list (kparams.stack; why: strip
 * in swe_cuda_kern.cu): at most STACK_MAX, fewer while the stacks would be
 * fewer than STACK_WAVES times the walks' resident warps;
 * SPATE_CUDA_STACK=G sets G (1: a tile a walk).  One H200, 8192^2 dam
 * break, all wet, fp32: stacks of 2, 4, 8 tiles of 16 rows 1.239e10,
 * 1.252e10, 1.243e10 cell-steps/s (the stack kernels capped at 128
 * registers; doc/bench/kernel.md). */
#define STACK_MAX 4
#define STACK_WAVES 4
/* The per-cell stage kernels (swe_cuda_tile.cu) instead of the walks
 * while a step's list holds at most CELLS_WAVES times as many tiles as
 * the walks' resident warps, on tiles of at most CELLS_ROWS rows (the tile
 * map's tiles on grids small for the device).  Twenty-fourth session, one
 * H200, fp32, tiles of 4 rows: Malpasset 10 m (1,000-3,600 tiles a step,
 * 2,112 resident warps) 4.12-4.18 s with the walks, 3.54-3.56 s per cell;
 * a fully wet 1024^2 grid (9,472 tiles) 7.26e9 cell-steps/s with the
 * walks, 6.61e9 per cell. */
#define CELLS_WAVES 2
#define CELLS_ROWS 8
/* With them, the tile map's tiles have at least CELLS_ROWS_MIN rows: per
 * cell, the ring of two rows costs less on 8 rows than on 4 (Malpasset 10
 * m 3.44-3.45 s against 3.54-3.55 s), and the walks that take the long
 * lists gain too (1024^2 all wet: 8.27e9 cell-steps/s against 7.28e9). */
#define CELLS_ROWS_MIN 8


extern "C" {
long swe_cuda_tiles_skipped, swe_cuda_tiles_seen, swe_cuda_stacked;
}



/* Rows per strip for an nx x ny grid on a device with sms multiprocessors.
 * With the tile map, tiles are also the unit of skipping: at most
 * STRIP_ROWS_TILES rows, and aim at twice the warps, down to tiles of 4
 * rows, so that a flood covering a quarter of the domain still fills the
 * device (Malpasset at 10 m, H100: 4.7 s with tiles of 4 rows, 5.5 s with
 * 8, 8.6 s with 16).  Two H200s, sixth session, one GPU, single precision:
 * the 4000^2 dam break over bumps 0.90 s with tiles of 32 rows, 0.68 s with
 * 16, 0.63 s with 8; a fully wet 4096^2 grid 1.12e10 cell updates/s with
 * 32, 1.11e10 with 16, 1.03e10 with 8. */
int swe_cuda_strip_rows(int nx, int ny, int sms, int tiles)
{
	long sx = (nx + SWE_CUDA_STRIP_COLS - 1) / SWE_CUDA_STRIP_COLS;
	long want = (long)sms * STRIP_WARPS_PER_SM * (tiles ? 2 : 1);
	int rows = tiles ? STRIP_ROWS_TILES : STRIP_ROWS;
	int rmin = tiles ? STRIP_ROWS_MIN_TILES : STRIP_ROWS_MIN;
	while (rows > rmin && sx * ((ny + rows - 1) / rows) < want)
		rows /= 2;
	return rows;
}

/* An integer from the environment within [lo, hi], else def. */
static int env_int(const char *name, int def, int lo, int hi)
{
	const char *e = getenv(name);
	int v;
	if (!e || !*e)
		return def;
	v = atoi(e);
	return v >= lo && v <= hi ? v : def;
}

int swe_cuda_strip_cap(const struct swe_cuda_params *kp, int dev)
{
	int waves = env_int("SPATE_CUDA_WAVES", STRIP_WAVES, 0, 1 << 16);
	return waves > 0 ? waves * swe_cuda_strip_resident(kp, dev) : 0;
}

int swe_cuda_strip_split(const struct swe_cuda_params *kp, int dev)
{
	int waves = env_int("SPATE_CUDA_SPLIT", SPLIT_WAVES, 0, 64);
	return waves * swe_cuda_strip_resident(kp, dev) * kp->warps;
}

int swe_cuda_strip_part_rows(void)
{
	return env_int("SPATE_CUDA_PART", PART_ROWS, 1, 16);
}

int swe_cuda_strip_stack(const struct swe_cuda_params *kp, long warps)
{
	int g = env_int("SPATE_CUDA_STACK", 0, 1, 1 << 16);
	if (g > 0)
		return g;
	for (g = STACK_MAX; g > 1; g /= 2)
		if ((long)kp->ntx * ((kp->nty + g - 1) / g) >= STACK_WAVES * warps)
			break;
	return g;
}

static int cuda_count(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError(); /* "no driver" or "no device": not an error */
		return 0;
	}
	return n;
}

static int cuda_describe(int i, char *buf, size_t len)
{
	struct cudaDeviceProp pr;
	CUDA_CHECK(cudaGetDeviceProperties(&pr, i));
	snprintf(buf, len, "%s, %.1f GiB, %d SMs, compute capability %d.%d", pr.name,
		pr.totalGlobalMem / 1073741824.0, pr.multiProcessorCount, pr.major, pr.minor);
	return 0;
}

static void cuda_fini(struct swe_backend_ctx *x)
{
	if (!x)
		return;
	cudaSetDevice(x->device);
	if (x->stream)
		cudaStreamSynchronize(x->stream);
	for (int p = 0; p < (int)(sizeof x->graph / sizeof *x->graph); p++)
		if (x->have_graph[p])
			cudaGraphExecDestroy(x->graph[p]);
	for (int p = 0; p < 2; p++) {
		cudaFree(x->w[p]);
		cudaFree(x->hu[p]);
		cudaFree(x->hv[p]);
	}
	cudaFree(x->Lw);
	cudaFree(x->Lhu);
	cudaFree(x->Lhv);
	cudaFree(x->Bc);
	cudaFree(x->Bm);
	cudaFree(x->bc);
	cudaFree(x->list[0]);
	cudaFree(x->list[1]);
	cudaFree(x->count);
	cudaFree(x->grab);
	cudaFree(x->cost);
	cudaFree(x->wet);
	cudaFree(x->act);
	cudaFree(x->streak);
	cudaFree(x->n2);
	cudaFree(x->rain);
	cudaFree(x->rtile);
	cudaFree(x->dctl);
	cudaFree(x->prod);
	cudaFree(x->good);
	cudaFree(x->good_prod);
	swe_cuda_samples_free(&x->smp);
	swe_cuda_one_gauges_free(x);
	if (x->hstage)
		cudaFreeHost(x->hstage);
	if (x->hctl)
		cudaFreeHost(x->hctl);
	if (x->hcnt)
		cudaFreeHost(x->hcnt);
	if (x->stream)
		cudaStreamDestroy(x->stream);
	free(x);
}

/* The tile map before the first step: every tile in both lists, every tile
 * wet (the first steps compute everything); 0 or -SPATE_E*. */
static int upload_tiles(struct swe_backend_ctx *x)
{
	int n = x->kp.ntx * x->kp.nty;
	unsigned int cnt[6] = { (unsigned int)n, (unsigned int)n, (unsigned int)n,
		(unsigned int)n, 0, 0 };
	int *ids = (int *)malloc((size_t)n * sizeof(int));
	if (!ids)
		return -SPATE_ENOMEM;
	for (int t = 0; t < n; t++)
		ids[t] = t;
	for (int p = 0; p < 2; p++) {
		int rc = spate_cuda_alloc((void **)&x->list[p], (size_t)n * sizeof(int));
		cudaError_t e = cudaSuccess;
		if (rc) {
			free(ids);
			return rc;
		}
		e = cudaMemcpy(x->list[p], ids, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
		if (e != cudaSuccess) {
			free(ids);
			CUDA_CHECK(e);
		}
	}
	free(ids);
	CUDA_ALLOC((void **)&x->count, sizeof cnt);
	CUDA_CHECK(cudaMemcpy(x->count, cnt, sizeof cnt, cudaMemcpyHostToDevice));
	CUDA_ALLOC((void **)&x->grab, 6 * sizeof *x->grab);
	CUDA_CHECK(cudaMemset(x->grab, 0, 6 * sizeof *x->grab));
	CUDA_ALLOC((void **)&x->cost, (size_t)n * sizeof *x->cost);
	CUDA_CHECK(cudaMemset(x->cost, 0, (size_t)n * sizeof *x->cost));
	CUDA_ALLOC((void **)&x->wet, (size_t)n * SWE_CUDA_SPLIT * sizeof *x->wet);
	CUDA_CHECK(cudaMemset(x->wet, 0xff, (size_t)n * SWE_CUDA_SPLIT * sizeof *x->wet));
	CUDA_ALLOC((void **)&x->act, (size_t)n);
	CUDA_CHECK(cudaMemset(x->act, 1, (size_t)n));
	CUDA_ALLOC((void **)&x->streak, (size_t)n);
	CUDA_CHECK(cudaMemset(x->streak, 0, (size_t)n));
	CUDA_ALLOC((void **)&x->rtile, (size_t)n);
	CUDA_CHECK(cudaMemset(x->rtile, 0, (size_t)n));
	return 0;
}

/* Allocate the device arrays and upload the state; 0 or -SPATE_E*. */
static int upload(struct swe_backend_ctx *x, const struct swe_state *s0,
	const struct swe_params *p)
{
	size_t n = (size_t)x->kp.ncell * sizeof(real);
	size_t nc = (size_t)(s0->ny + 2 * SWE_GHOST + 1) * s0->cpitch * sizeof(real);
	real **arr[] = { &x->w[0], &x->hu[0], &x->hv[0], &x->w[1], &x->hu[1], &x->hv[1],
		&x->Lw, &x->Lhu, &x->Lhv, &x->Bm };
	for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++) {
		CUDA_ALLOC((void **)arr[a], n);
		CUDA_CHECK(cudaMemset(*arr[a], 0, n));
	}
	CUDA_ALLOC((void **)&x->Bc, nc);
	CUDA_ALLOC((void **)&x->bc, sizeof p->bc);
	CUDA_ALLOC((void **)&x->dctl, sizeof *x->dctl);
	CUDA_CHECK(cudaMallocHost((void **)&x->hctl, sizeof *x->hctl));
	CUDA_CHECK(cudaMallocHost((void **)&x->hcnt, sizeof *x->hcnt));
	CUDA_CHECK(cudaMemcpy(x->w[0], s0->w, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->hu[0], s0->hu, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->hv[0], s0->hv, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->Bm, s0->Bm, n, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->Bc, s0->Bc, nc, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(x->bc, p->bc, sizeof p->bc, cudaMemcpyHostToDevice));
	if (s0->n2) {
		size_t nn = (size_t)s0->nx * s0->ny * sizeof(real);
		CUDA_ALLOC((void **)&x->n2, nn);
		CUDA_CHECK(cudaMemcpy(x->n2, s0->n2, nn, cudaMemcpyHostToDevice));
	}
	memset(x->hctl, 0, sizeof *x->hctl);
	CUDA_CHECK(cudaMemcpy(x->dctl, x->hctl, sizeof *x->dctl, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaDeviceSynchronize());
	return upload_tiles(x);
}

void swe_cuda_params_fill(struct swe_cuda_params *k, const struct swe_state *g,
	const struct swe_params *p, int ny)
{
	k->integrator = p->integrator;
	k->warps = env_int("SPATE_CUDA_WARPS", STRIP_WARPS, 1, 8);
	k->c = swe_coef_of(p);
	k->early = p->early_exit && k->c.kappa4 > 0;
	k->nx = g->nx;
	k->ny = ny;
	k->pitch = g->pitch;
	k->cpitch = g->cpitch;
	k->inv_dx = (real)(1.0 / g->dx);
	k->inv_dy = (real)(1.0 / g->dy);
	k->dx = g->dx;
	k->dy = g->dy;
	k->cfl = p->cfl;
	k->ncell = (long)(ny + 2 * SWE_GHOST) * g->pitch;
	k->max_dt = swe_max_dt(g, p);
	swe_bcdev_fill(&k->bcd, g, p);
	/* sources after each step (rain, Manning raster: friction then leaves
	 * the stages); the tile map keeps the tiles on which rain falls
	 * computed (k_tiles), and a Manning raster changes nothing on a dry
	 * tile */
	k->src = swe_has_sources(g, p);
	if (g->n2)
		k->c.n2 = 0;
	/* the tile map needs the second stage (it marks the tiles) and tiles
	 * of at least the stencil's two rows; SPATE_CUDA_TILES=0 turns it off */
	k->tiles = k->early && k->integrator == 2 && env_int("SPATE_CUDA_TILES", 1, 0, 1);
	k->ntx = (g->nx + SWE_CUDA_STRIP_COLS - 1) / SWE_CUDA_STRIP_COLS;
	k->noop_skip = 1; /* a subdomain's: swe_cuda_sub_mem.cu */
	k->fill = 0;      /* one GPU's: cuda_init */
	k->tail = 0;
	k->stack = 1;     /* one GPU's: cuda_init */
}


int swe_cuda_params_device(struct swe_cuda_params *k, int device)
{
	int sms = 1;
	if (cudaSetDevice(device) != cudaSuccess) {
		spate_log_error("cuda", "cannot use device %d: %s", device,
			cudaGetErrorString(cudaGetLastError()));
		return -SPATE_ENODEV;
	}
	if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
		sms = 1;
	k->rows = env_int("SPATE_CUDA_ROWS", swe_cuda_strip_rows(k->nx, k->ny, sms, k->tiles), 1,
		1 << 20);
	if (k->rows < 2)
		k->tiles = 0; /* the map's bands are two rows */
	k->nty = (k->ny + k->rows - 1) / k->rows;
	return 0;
}

static int cuda_init(struct swe_backend_ctx **out, const struct swe_state *s0,
	const struct swe_params *p, int device)
{
	struct swe_backend_ctx *x = (struct swe_backend_ctx *)calloc(1, sizeof *x);
	int rc;
	if (!x)
		return -SPATE_ENOMEM;
	x->device = device;
	swe_cuda_params_fill(&x->kp, s0, p, s0->ny);
	x->kp.sides = 0xFu; /* every side is a boundary of the domain */
	if ((rc = swe_cuda_params_device(&x->kp, device))) {
		free(x);
		return rc;
	}
	/* the per-cell stage kernels (swe_cuda_tile.cu): never (0), always (1)
	 * or by the list's length (2); with them, tiles of at least
	 * CELLS_ROWS_MIN rows (the walks' rule goes down to 4) */
	x->cells_mode = env_int("SPATE_CUDA_CELLS", 2, 0, 2);
	if (x->cells_mode != 0 && x->kp.tiles &&
		x->kp.rows < CELLS_ROWS_MIN && env_int("SPATE_CUDA_ROWS", 0, 1, 1 << 20) == 0) {
		x->kp.rows = CELLS_ROWS_MIN;
		x->kp.nty = (x->kp.ny + x->kp.rows - 1) / x->kp.rows;
	}
	rc = upload(x, s0, p);
	if (rc == 0)
		rc = swe_cuda_kernels_init();
	if (rc == 0)
		x->kp.maxblocks = swe_cuda_strip_cap(&x->kp, device);
	if (rc == 0)
		x->kp.split = swe_cuda_strip_split(&x->kp, device);
	/* one stream: the stage kernels share out their tiles through a work
	 * queue, in grids of one wave (SPATE_CUDA_QUEUE=0: fixed strides) */
	if (rc == 0 && env_int("SPATE_CUDA_QUEUE", 1, 0, 1))
		for (int s = 0; s < 2; s++) {
			x->kp.qblocks[s] = swe_cuda_strip_resident_of(&x->kp, device, s);
			x->kp.sblocks[s] = swe_cuda_strip_resident_of(&x->kp, device, 2 + s);
		}
	/* the per-cell kernels' grids; by the list's length only with the
	 * tile map on tiles of up to CELLS_ROWS rows */
	if (rc == 0 && x->cells_mode && swe_cuda_tile_ok(&x->kp) &&
		(x->cells_mode == 1 || (x->kp.tiles && x->kp.rows <= CELLS_ROWS)))
		for (int s = 0; s < 2; s++)
			x->cells[s] = swe_cuda_tile_resident(&x->kp, device, s);
	if (x->cells[0] <= 0 || x->cells[1] <= 0)
		x->cells_mode = 0;
	x->cells_now = x->cells_mode == 1;
	x->cell_clock = env_int("SPATE_CUDA_CLOCK", 1, 0, 1);
	x->walk_warps = (long)swe_cuda_strip_resident(&x->kp, device) * x->kp.warps;
	x->kp.part_rows = swe_cuda_strip_part_rows();
	x->kp.fill = env_int("SPATE_CUDA_FILL", 1, 0, 1);
	x->kp.tail = env_int("SPATE_CUDA_TAIL", 25, 0, 100);
	x->kp.stack = x->kp.qblocks[0] > 0 && x->kp.tiles ?
		swe_cuda_strip_stack(&x->kp, x->walk_warps) : 1;
	if (rc == 0 && cudaStreamCreateWithFlags(&x->stream, cudaStreamNonBlocking) != cudaSuccess)
		rc = -SPATE_EDEVICE;
	if (rc) {
		spate_log_error("cuda", "cannot set up a %d x %d grid on device %d", s0->nx,
			s0->ny, device);
		cuda_fini(x);
		return rc;
	}
	x->kp.bc = x->bc;
	/* the ghosts of U^0; every step then writes those of the state it makes */
	{
		struct swe_cuda_step a = swe_cuda_one_arrays(x, 0);
		swe_cuda_enqueue_bc(&x->kp, &a, x->stream);
	}
	if (cudaGetLastError() != cudaSuccess) {
		spate_log_error("cuda", "cannot fill the ghost cells on device %d", device);
		cuda_fini(x);
		return -SPATE_EDEVICE;
	}
	*out = x;
	return 0;
}

/* Enqueue one step from parity p (state p -> state 1-p), its stages by
 * the walks, by the per-cell kernels (x->cells_now; with RK2 on their own
 * clock, swe_cuda_step.par, unless SPATE_CUDA_CLOCK=0) or by the walks of
 * stacks (x->stack_now). */
static void enqueue_step(struct swe_backend_ctx *x, int p)
{
	struct swe_cuda_step a = swe_cuda_one_arrays(x, p);
	struct swe_cuda_params k = x->kp;
	if (x->cells_now && x->kp.integrator == 2 && x->cell_clock)
		a.par = p;
	k.cells[0] = x->cells_now ? x->cells[0] : 0;
	k.cells[1] = x->cells_now ? x->cells[1] : 0;
	k.stack = x->stack_now && !x->cells_now ? x->kp.stack : 1;
	swe_cuda_enqueue_step(&k, &a, x->stream);
	swe_cuda_enqueue_sources(&x->kp, &a, 0, x->kp.ny, x->stream);
	if (x->prod)
		swe_cuda_enqueue_products(&x->kp, &a, x->prod, x->prod_thr, 0, x->stream);
	if (x->gg.n)
		swe_cuda_enqueue_gauges(&x->gg, &a, x->stream);
	k = x->kp;
	k.wet_first = x->cells_now;
	swe_cuda_enqueue_tiles(&k, &a, x->stream);
}

/* Capture GRAPH_STEPS steps from parity p into x->graph[g] (g = p, 2 + p
 * with the per-cell kernels, 4 + p with stacks); 0 or -SPATE_E*. */
static int make_graph(struct swe_backend_ctx *x, int p, int g)
{
	cudaGraph_t gr;
	CUDA_CHECK(cudaStreamBeginCapture(x->stream, cudaStreamCaptureModeThreadLocal));
	for (int n = 0; n < GRAPH_STEPS; n++)
		enqueue_step(x, (p + n) & 1);
	CUDA_CHECK(cudaStreamEndCapture(x->stream, &gr));
	CUDA_CHECK(cudaGraphInstantiate(&x->graph[g], gr, 0));
	cudaGraphDestroy(gr);
	x->have_graph[g] = 1;
	return 0;
}

/* Enqueue n steps: whole graphs, then single steps. */
static int enqueue_steps(struct swe_backend_ctx *x, long n)
{
	for (; n >= GRAPH_STEPS; n -= GRAPH_STEPS) {
		const int g = (x->cells_now ? 2 : x->stack_now ? 4 : 0) + x->cur;
		if (!x->have_graph[g]) {
			int rc = make_graph(x, x->cur, g);
			if (rc)
				return rc;
		}
		CUDA_CHECK(cudaGraphLaunch(x->graph[g], x->stream));
	}
	for (; n > 0; n--) {
		enqueue_step(x, x->cur);
		x->cur ^= 1;
	}
	CUDA_CHECK(cudaGetLastError());
	return 0;
}

/* How many steps to enqueue before the next look at the control block. */
static long batch_size(const ctl_t *h, double t_stop, long left)
{
	long n = BATCH_MAX;
	if (h->last_dt > 0) {
		double need = (t_stop - h->t) / h->last_dt;
		if (need < BATCH_MAX)
			n = swe_steps_short(need);
	} else {
		n = 1; /* first step: no estimate yet */
	}
	if (left > 0 && n > left)
		n = left;
	return n < 1 ? 1 : n;
}

static int cuda_advance(struct swe_backend_ctx *x, double t_stop, long max_steps,
	struct swe_stats *st)
{
	ctl_t *h = x->hctl;
	long steps0 = (long)h->steps;
	CUDA_CHECK(cudaSetDevice(x->device));
	if (x->t_stop_dev != t_stop || h->steps == 0) {
		x->t_stop_dev = t_stop;
		CUDA_CHECK(cudaMemcpyAsync(&x->dctl->t_stop, &x->t_stop_dev, sizeof(double),
			cudaMemcpyHostToDevice, x->stream));
	}
	while (h->t < t_stop && !h->err) {
		long done = (long)h->steps - steps0, left = 0, n;
		int rc;
		if (max_steps > 0) {
			left = max_steps - done;
			if (left <= 0)
				break;
		}
		n = batch_size(h, t_stop, left);
		rc = enqueue_steps(x, n);
		if (rc)
			return rc;
		/* the clock and the next list's length in one wait (the length
		 * came from a second, synchronous copy before) */
		CUDA_CHECK(cudaMemcpyAsync(h, x->dctl, sizeof *h, cudaMemcpyDeviceToHost,
			x->stream));
		if (x->kp.tiles)
			CUDA_CHECK(cudaMemcpyAsync(x->hcnt, x->count + x->cur, sizeof *x->hcnt,
				cudaMemcpyDeviceToHost, x->stream));
		CUDA_CHECK(cudaStreamSynchronize(x->stream));
		if (x->kp.tiles) {
			const unsigned int cnt = *x->hcnt;
			swe_cuda_tiles_skipped += (long)x->kp.ntx * x->kp.nty - (long)cnt;
			swe_cuda_tiles_seen += (long)x->kp.ntx * x->kp.nty;
			/* the next batch: the per-cell kernels while the list is
			 * short (cells_mode 2), stacks while it holds every tile */
			if (x->cells_mode == 2)
				x->cells_now = (long)cnt <= (long)CELLS_WAVES * x->walk_warps;
			x->stack_now = x->kp.stack > 1 && !x->cells_now &&
				(long)cnt == (long)x->kp.ntx * x->kp.nty;
			swe_cuda_stacked += x->stack_now;
		}
	}
	st->steps = (long)h->steps;
	st->t = h->t;
	st->last_dt = h->last_dt;
	st->amax = h->amax;
	if (x->kp.integrator == 2 && h->steps > 0) {
		double ax = swe_bits_real(h->ax2), ay = swe_bits_real(h->ay2);
		st->amax = fmax(ax, ay);
	}
	if (h->err) {
		spate_log_error("cuda", "non-finite wave speed or time step at t = %g s, step %lld",
			h->t, h->steps);
		return -SPATE_ENUMERIC;
	}
	return 0;
}


extern "C" const struct spate_backend spate_backend_cuda = {
	"cuda", cuda_count, cuda_describe, cuda_init, cuda_advance, swe_cuda_one_download,
	cuda_fini, swe_cuda_one_sample, swe_cuda_one_products_start, swe_cuda_one_products_get,
	swe_cuda_one_set_time, swe_cuda_one_products_put, swe_cuda_one_set_rain,
	swe_cuda_one_gauges_start, swe_cuda_one_gauges_rows, swe_cuda_one_gauges_get,
	swe_cuda_one_guard
};
