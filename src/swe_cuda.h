/* swe_cuda.h: what the two halves of the CUDA backend share: the host side
 * (cuda/swe_cuda.cu: devices, memory, graphs, the time loop) and the kernels
 * (cuda/swe_cuda_kern.cu) with their host-callable launch functions.
 *
 * Declarations only: no formula (those are in swe_kern.h and swe_step.h), no
 * CUDA syntax, so that the header also reads as C.  Included only by the
 * .cu files. */
#ifndef SPATE_SWE_CUDA_H
#define SPATE_SWE_CUDA_H

#include <stddef.h>
#include <string.h>

#include "cuda_check.h"
#include "swe.h"

/* Face speeds are >= 0, so their bit patterns order like unsigned integers:
 * the kernels take maxima with atomicMax on the bits. */
#ifdef SPATE_DOUBLE
typedef unsigned long long swe_rbits;
#define SWE_RBITS_INF 0x7ff0000000000000ULL
#else
typedef unsigned int swe_rbits;
#define SWE_RBITS_INF 0x7f800000U
#endif

/* The speed whose bits are b (host side). */
static inline real swe_bits_real(swe_rbits b)
{
	real r;
	memcpy(&r, &b, sizeof r);
	return r;
}

/* The stage kernels give each warp a strip of 32 columns, of which it
 * updates the inner SWE_CUDA_STRIP_COLS (two on each side are its halo). */
#define SWE_CUDA_STRIP_COLS (32 - 2 * SWE_GHOST)
/* The most warps that share one tile's rows (parts of it, each walking its
 * own rows) when a step's list of tiles is short; the tile map keeps a set
 * of flags per part (swe_cuda_step.wet). */
#define SWE_CUDA_SPLIT 4

/* The control block in device memory: everything a step decides on the
 * device.  The host reads it once per batch of steps. */
struct swe_cuda_ctl {
	double t;          /* simulated time, s */
	double t_stop;     /* steps at t >= t_stop are no-ops */
	double dt;         /* this step's dt (0: no-op) */
	double last_dt;    /* dt of the last real step */
	double amax;       /* Euler: largest stage speed of the last real step */
	long long steps;   /* real steps taken */
	int err;           /* 1: non-finite speeds or dt <= 0; every step is a no-op */
	int noop;          /* no-op steps in a row up to this one (set_dt; at most 2) */
	unsigned int done; /* stage-1 blocks finished (the last one sets dt, resets it) */
	swe_rbits ax1, ay1; /* stage-1 face-speed maxima of this step */
	swe_rbits ax2, ay2; /* stage-2 maxima of the last real RK2 step */
	/* The per-cell kernels' clock (swe_cuda_tile.cu), by the parity p of
	 * the step (swe_cuda_step.par): stage 1's face-speed maxima, and the
	 * clock it found (t, err, noop), from which every block of stage 2
	 * takes the step's dt */
	swe_rbits sp[2][2];
	unsigned long long qp[2][2]; /* the least CFL bounds (swe_cfl_q) of the
	                                blocks, as ~bits (atomicMax; 0: none) */
	double tp[2];
	int errp[2], noopp[2];
	/* the per-cell kernels' work queues (with the clock above and the
	 * queue on): tiles of stage 1 and stage 2 taken past the first wave;
	 * each stage zeroes the other's, which runs before or after it */
	unsigned int cq[2];
	int bad;           /* 1: a step stored a non-finite value (swe_guard_note);
	                      last, so that the host may set the rest and leave it */
};
/* The bytes of a control block the host sets step by step (a GPU
 * subdomain's clock): all but the guard's flag, which only the guard
 * clears (it is sticky from init on). */
#define SWE_CUDA_CTL_SET offsetof(struct swe_cuda_ctl, bad)

/* Constant parameters of the kernels (passed by value). */
struct swe_cuda_params {
	struct swe_coef c;
	int nx, ny, pitch, cpitch;
	real inv_dx, inv_dy;
	double dx, dy, cfl;
	long ncell;          /* (ny + 2G) * pitch */
	int integrator;      /* 1 = forward Euler, 2 = SSP-RK2 */
	int early;           /* skip rows dry across a warp ([parallel] early_exit) */
	int rows;            /* rows of a strip: each warp walks a strip of 32 columns */
	int warps;           /* warps per block, side by side in x */
	int maxblocks;       /* most blocks of a stage kernel (0: one warp per tile
	                        of the range); a capped grid's warps take several
	                        tiles of the list each */
	int split;           /* a stage kernel whose list of tiles is short splits
	                        each tile's rows between 2 or SWE_CUDA_SPLIT warps
	                        (parts of at least part_rows rows), as long as
	                        tiles x parts <= split (warps; 0: never) */
	int part_rows;       /* fewest rows of a part of a split tile */
	int fill;            /* with a work queue: warps left without a tile take
	                        halves of the first tiles of the list, and a long
	                        list ends with halves (halves_of,
	                        swe_cuda_kern.cu) */
	int tail;            /* those last halves: percent of the grid's warps */
	int qblocks[2];      /* with a work queue (swe_cuda_step.grab): the grid of
	                        stage 1 and stage 2, their blocks resident at once
	                        (0: maxblocks) */
	int cells[2];        /* > 0: the stage kernels of one GPU are the per-cell
	                        ones (swe_cuda_tile.cu), grids of cells[0] and
	                        cells[1] blocks at most (one wave); 0: the walks */
	int ntx, nty;        /* tiles: strips of SWE_CUDA_STRIP_COLS x rows cells */
	int tiles;           /* keep the per-tile dry map and launch active tiles
	                        only (early exit, RK2); in a subdomain, the tiles
	                        within SWE_GHOST rows of an internal edge (a
	                        side not in `sides`) are computed every step,
	                        launched on their own (k_tiles) */
	int src;             /* sources after each step (rain, Manning raster) */
	int noop_skip;       /* a no-op step after a no-op step copies nothing
	                        (copy_all, swe_cuda_dev.h); 0 with ghost cell
	                        expansion */
	double max_dt;       /* longest step, s (0: no bound; swe_max_dt) */
	real rain_u;         /* uniform rain rate where the step's rain is NULL, m/s */
	int jlo, jhi;        /* rows [jlo, jhi) of the stage kernels: tile rows start
	                        at jlo (set by the launch functions) */
	int host_dt;         /* 1: stage 1 only gathers the speeds; the host writes t
	                        and dt into the control block (decomposed runs) */
	unsigned sides;      /* bit 1 << side (enum swe_side) for each side whose ghosts
	                        are boundary conditions; the others are halo */
	struct swe_bcdev bcd;
	const struct swe_bc *bc; /* device copy of p->bc[4] (hydrographs) */
	int stack;           /* > 1: the stage kernels of stacks: while every tile
	                        is in the list (all wet), a warp walks a stack of
	                        up to `stack` tiles of a tile column in one walk
	                        (1: a tile a walk; swe_cuda_kern.cu) */
	int sblocks[2];      /* their grids as qblocks */
	int wet_first;       /* with the queue, the next list (k_tiles) holds the
	                        tiles with water first, not the long walks: the
	                        per-cell kernels' batches */
};

/* Device arrays of one step: U^n (w, hu, hv) -> U^{n+1} (w1, hu1, hv1). */
struct swe_cuda_step {
	real *w, *hu, *hv;
	real *w1, *hu1, *hv1;
	real *Lw, *Lhu, *Lhv;  /* right-hand side of stage 1 (ghosts included) */
	const real *Bc, *Bm;   /* corners, cell-centre bed */
	struct swe_cuda_ctl *q;
	/* stage 1 of a subdomain in device-dt mode: where its largest face
	 * speeds {ax, ay} go (NULL: q->ax1, q->ay1) */
	swe_rbits *spd;
	/* the per-cell kernels' clock: the step's parity (0, 1), whose slots
	 * of the control block (sp, tp, errp, noopp) stage 1 fills and every
	 * block of stage 2 takes dt from (swe_cuda_tile.cu); -1: the last
	 * block of stage 1 sets dt (set_dt) */
	int par;
	/* The tile map (see k_tiles in swe_cuda_kern.cu).  list/count: the
	 * tiles this step computes; list1/count1: those of the next step,
	 * written after it.  wet: which parts of the tile (whole, bands of two
	 * cells along its sides, corners) hold a cell that is not dry (or on a
	 * bed that does not reconstruct dry) in the state the step makes; act: the
	 * tile is computed in this step; streak: consecutive states in which
	 * the tile and its eight neighbours were dry. */
	const int *list;
	const unsigned int *count;
	int *list1;
	unsigned int *count1;
	unsigned short *wet;   /* flags of the tile's parts that are not dry:
	                          SWE_CUDA_SPLIT per tile, one per warp that
	                          computed a part of it (the tile's: their OR) */
	unsigned char *act, *streak;
	/* sources (kp.src): Manning n^2 and rain rates (m/s) per interior cell,
	 * nx * ny row-major; NULL: none / kp.rain_u */
	const real *n2;
	const float *rain;
	/* with the tile map and a rain raster in force: per tile of the map, 1
	 * where a cell of it has a rate > 0 (swe_cuda_enqueue_rain_tiles);
	 * NULL: the uniform kp.rain_u falls on every tile or on none */
	const unsigned char *rtile;
	/* work queue of the stage kernels (one stream's launches only): per
	 * stage {next item, warps done}, zero between launches; a warp that
	 * ends its item takes the next free one.  NULL: each warp takes items
	 * at a fixed stride (launches of several streams at once).  With the
	 * queue, a list holds the tiles whose last walk of stage 2 took at
	 * least the mean time first, from its start (count[2] of them), and
	 * the others after them, from its end (count[4]; count[0] is the sum):
	 * the long walks are taken first, the short ones fill in.  grab[4],
	 * grab[5]: the sum and the number of the walk times of stage 2 (a sum
	 * past 2^32 units wraps: the order then is not the best, the bits
	 * are the same). */
	unsigned int *grab;
	/* with the queue: per tile, its last walk of stage 2 in units of 16
	 * clock cycles (of a split tile: part 0's walk times its parts) */
	unsigned short *cost;
};

/* The instability guard's test hook (cuda/swe_cuda_guard.cu): enqueue a
 * NaN depth at state index k of (w, hu, hv) on stream, noted in q->bad as
 * a stage notes what it stores (note = 1) or not. */
void swe_cuda_enqueue_plant(real *w, const real *hu, const real *hv, long k,
	struct swe_cuda_ctl *q, int note, void *stream);

/* Dynamic shared memory and other per-kernel set-up; 0 or -SPATE_EDEVICE. */
int swe_cuda_kernels_init(void);

/* Enqueue the ghost cells of U^n (w, hu, hv) at the control block's time on
 * stream (a cudaStream_t).  A step writes the ghosts of the state it makes,
 * so this is needed once, before the first step from an uploaded state. */
void swe_cuda_enqueue_bc(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	void *stream);

/* Enqueue one step U^n -> U^{n+1} (stage 1 with the time step, then the
 * Euler update or the RK2 second stage) on stream.  Launch errors are left
 * for cudaGetLastError. */
void swe_cuda_enqueue_step(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	void *stream);

/* The per-cell form of the stage kernels (cuda/swe_cuda_tile.cu): whether
 * it takes tiles of kp->rows rows; its blocks resident at once on device
 * dev (stage 0 or 1; 0 if it cannot run there); one step as
 * swe_cuda_enqueue_step does it (kp->cells set). */
int swe_cuda_tile_ok(const struct swe_cuda_params *kp);
int swe_cuda_tile_resident(const struct swe_cuda_params *kp, int dev, int stage);
void swe_cuda_enqueue_tile_step(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	void *stream);

/* Enqueue stage 1 (s2 = 0) or the RK2 second stage (s2 = 1) on rows
 * [jlo, jhi) only, or the forward-Euler update of every row: the pieces of a
 * step for a subdomain whose halos travel in between (cuda/swe_cuda_sub.cu;
 * kp->host_dt set).  a->list and a->count: the tiles of the rows, numbered
 * from row jlo (every one of them, in any order; without the tile map). */
void swe_cuda_enqueue_stage(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	int s2, int jlo, int jhi, void *stream);
/* The same on the tiles of a->list (*a->count of them, at most ntiles),
 * numbered from row 0 as in the tile map: a subdomain's edge rows or the
 * active tiles of its interior. */
void swe_cuda_enqueue_list(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	int s2, int ntiles, void *stream);
/* The same on every tile of rows [jlo, jhi) (whole tile rows, a->wet the
 * tile map's flags from row 0), in stacks of kp->stack tiles (> 1) walked
 * in one, without a work queue: the interior of a subdomain whose list
 * holds every tile (strip in swe_cuda_kern.cu: the same bits as the list's
 * walks). */
void swe_cuda_enqueue_stacks(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	int s2, int jlo, int jhi, void *stream);
void swe_cuda_enqueue_euler(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	void *stream);
/* Decomposed runs on GPUs of one process, dt on the devices: the step's dt
 * from the stage-1 speeds of n subdomains (peers[k][2 slot], [2 slot + 1]:
 * ax, ay of subdomain k, readable from this device) into the control block
 * q, as on one GPU; clears own[2 (slot ^ 1)] and the next.  A real step
 * (dt > 0) adds *cnt (the tiles stage 1 computed; cnt NULL: nothing) to
 * *acc. */
void swe_cuda_enqueue_dt_peers(const struct swe_cuda_params *kp, struct swe_cuda_ctl *q,
	swe_rbits *const *peers, int n, int slot, swe_rbits *own, const unsigned int *cnt,
	unsigned long long *acc, void *stream);

/* The kernel parameters of an nx x ny grid (g's columns, ny rows of it),
 * common to one GPU (swe_cuda.cu) and a subdomain of rows
 * (swe_cuda_sub_mem.cu): the coefficients, the grid, dt's cap, the
 * boundaries, the sources and whether the tile map is on; sides, rows and
 * the caps are left to the caller and swe_cuda_params_device. */
void swe_cuda_params_fill(struct swe_cuda_params *k, const struct swe_state *g,
	const struct swe_params *p, int ny);
/* Device `device` made current, and the tile height for it (SPATE_CUDA_ROWS;
 * the tile map off below two rows); -SPATE_ENODEV with a message if it
 * cannot be used. */
int swe_cuda_params_device(struct swe_cuda_params *k, int device);

/* Rain rates (n cells) into *dev on the current device, allocated on first
 * use; rate NULL: nothing (the uniform rate then stands). */
int swe_cuda_rain_put(float **dev, const float *rate, size_t n);

/* Rows per strip (tile height) of the stage kernels for an nx x ny grid (or
 * subdomain) on a device with sms multiprocessors, with the tile map or not:
 * swe_cuda.cu, where the measurements behind it are. */
int swe_cuda_strip_rows(int nx, int ny, int sms, int tiles);

/* Blocks of the stage kernels resident at once on device dev (one wave):
 * of both (the fewer), or of stage 1 (stage 0) or stage 2 (stage 1). */
int swe_cuda_strip_resident(const struct swe_cuda_params *kp, int dev);
/* Of stage (stage & 1) + 1, the kernels of stacks where stage & 2. */
int swe_cuda_strip_resident_of(const struct swe_cuda_params *kp, int dev, int stage);
/* kp->maxblocks for device dev: STRIP_WAVES waves (SPATE_CUDA_WAVES; 0: no
 * cap), swe_cuda.cu. */
int swe_cuda_strip_cap(const struct swe_cuda_params *kp, int dev);
/* kp->split for device dev: SPLIT_WAVES waves of resident warps
 * (SPATE_CUDA_SPLIT; 0: tiles are never split). */
int swe_cuda_strip_split(const struct swe_cuda_params *kp, int dev);
/* kp->part_rows: PART_ROWS (SPATE_CUDA_PART, 1 to 16), swe_cuda.cu. */
int swe_cuda_strip_part_rows(void);
/* kp->stack for `warps` resident warps of the walks: STACK_MAX tiles, fewer
 * while the stacks would be fewer than STACK_WAVES times the warps
 * (SPATE_CUDA_STACK sets it), swe_cuda.cu. */
int swe_cuda_strip_stack(const struct swe_cuda_params *kp, long warps);

/* Enqueue the tile map's update after a step (the next step's active list,
 * a->list1: the tiles to compute but those next to an internal edge of a
 * subdomain, which are always computed); nothing unless kp->tiles. */
void swe_cuda_enqueue_tiles(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	void *stream);

/* Enqueue the sources split from the step (swe_sources) on the state the
 * step made (a->w1, ...), then its ghost cells again; nothing unless
 * kp->src.  Row 0 of the launch is row j0 of the tile map, which covers
 * rows [0, mrows): with the tile map, the cells of a tile the step skipped
 * (dry) on which no rain falls are left as they are (swe_sources changes
 * nothing there). */
void swe_cuda_enqueue_sources(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	int j0, int mrows, void *stream);
/* Enqueue the flags of the tiles on which rain falls (rtile: kp->ntx x
 * kp->nty bytes) from the rates rain (kp->nx x kp->ny, the map's rows);
 * nothing unless kp->tiles. */
void swe_cuda_enqueue_rain_tiles(const struct swe_cuda_params *kp, const float *rain,
	unsigned char *rtile, void *stream);

struct swe_prod;
/* Enqueue the update of the flood products (products_kern.h) from the state
 * a step made (a->w1, a->hu1, a->hv1) at the control block's t and dt; with
 * reset, start them from that state instead. */
void swe_cuda_enqueue_products(const struct swe_cuda_params *kp, const struct swe_cuda_step *a,
	struct swe_prod *prod, real thr, int reset, void *stream);

/* Gauges kept on the device (gauge_kern.h), every pointer a device one:
 * after every real step, the tracks of the n * per sampled cells idx, and
 * at the first step with t >= clk->next a row of the n centres' w, hu, hv
 * (rv[(3 r + f) n + k]) at rt[r], r = clk->rows < cap; then clk->next
 * moves on by interval (past t; interval <= 0: never again).  A cell whose
 * index is < 0 is another subdomain's: skipped (its row values too). */
struct gauge_track;
struct swe_cuda_gauge_clock {
	double next;        /* time of the next row, s */
	int rows;           /* rows recorded (the host resets it) */
};
struct swe_cuda_gauges {
	int n, per, cap;
	double bref, thr, interval;
	const long *idx;
	struct gauge_track *tr;
	struct swe_cuda_gauge_clock *clk;
	double *rt;
	real *rv;
};

/* swe_cuda_gauges.cu: the arrays of g for n gauges of per cells each at
 * device indices idx (< 0: a cell another subdomain holds) with tracks tr,
 * the next row at `next`; the rows recorded since the last call (up to
 * SWE_GAUGE_ROWS: t[r], v[(3 r + f) n + k]); the tracks and the next row's
 * time back; the arrays freed.  hclk: pinned copy of the clock.  The device
 * set and idle.  0 or -SPATE_E*. */
int swe_cuda_gauges_alloc(struct swe_cuda_gauges *g, struct swe_cuda_gauge_clock **hclk,
	const long *idx, int n, int per, const struct gauge_track *tr, double bref, double thr,
	double next, double interval);
int swe_cuda_gauges_rows(struct swe_cuda_gauges *g, struct swe_cuda_gauge_clock *hclk,
	double *t, real *v, int *nrows);
int swe_cuda_gauges_tracks(const struct swe_cuda_gauges *g, struct swe_cuda_gauge_clock *hclk,
	struct gauge_track *tr, double *next);
void swe_cuda_gauges_free(struct swe_cuda_gauges *g, struct swe_cuda_gauge_clock **hclk);

/* Cells read back (gauge samples, struct spate_backend's sample): device
 * indices and gathered values (device, pinned host) for nsamp cells. */
struct swe_cuda_samples {
	long *didx;
	real *dsamp, *hsamp;
	int nsamp;
	const long *sampled;  /* the host index array last uploaded (cache) */
};
/* swe_cuda_gauges.cu: w, hu, hv of the n cells at indices idx of the
 * arrays w, hu, hv (stream's device) into ow, ohu, ohv, through b; with
 * cache, idx is not uploaded again while it is the array last uploaded (its
 * contents unchanged).  Waits for the stream.  0 or -SPATE_E*. */
int swe_cuda_samples_get(struct swe_cuda_samples *b, const long *idx, int n, int cache,
	const real *w, const real *hu, const real *hv, void *stream, real *ow, real *ohu,
	real *ohv);
void swe_cuda_samples_free(struct swe_cuda_samples *b);

/* Enqueue the gauges' update from the state a step made (a->w1, a->hu1,
 * a->hv1, a->Bm) at the control block's t; nothing after a no-op step. */
void swe_cuda_enqueue_gauges(const struct swe_cuda_gauges *g, const struct swe_cuda_step *a,
	void *stream);

/* Enqueue out[k], out[n+k], out[2n+k] = w, hu, hv at device indices idx[k]. */
void swe_cuda_enqueue_gather(const long *idx, int n, const real *w, const real *hu,
	const real *hv, real *out, void *stream);

#endif
