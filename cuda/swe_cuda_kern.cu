/* swe_cuda_kern.cu: the stage kernels of the CUDA backend and their launch
 * functions (declared in swe_cuda.h; the host side is swe_cuda.cu).
 *
 * Loops, indexing, memory movement and reductions only: every formula comes
 * from swe_kern.h through swe_step.h, so a step here computes what
 * cpu_advance (swe_cpu.c) computes:
 *
 *   k_stage1        stage 1: L = L(U^n) on the interior, the ghosts of L
 *                   (swe_bc_put_rate), the largest x- and y-face speeds; the
 *                   last block to finish sets the step's dt (swe_cfl_dt)
 *   k_stage2        RK2 second stage: U* = swe_euler_vals(U^n, L) where the
 *                   stencil needs it, L(U*), U^{n+1} = swe_rk2_vals(...), and
 *                   the ghosts of U^{n+1} (swe_bc_put) at the new time
 *   k_stage1s,      the same on every tile, in stacks of kp.stack tiles of a
 *   k_stage2s       tile column walked in one (the batches whose lists hold
 *                   every tile: one GPU, or the interior rows of a GPU
 *                   subdomain: strip<S2, true>)
 *
 * The time step of GPU subdomains of one process (k_dt_peers) is in
 * swe_cuda_dt.cu.  The passes over cells around a step (forward Euler,
 * sources, flood products, the tile map, ghosts of an uploaded state) are in
 * swe_cuda_cells.cu; what the kernel files share (set_dt too) is in
 * swe_cuda_dev.h.
 *
 * Tiles.  The grid is cut into tiles of SWE_CUDA_STRIP_COLS columns and
 * kp.rows rows.  Each warp of the stage kernels takes a tile of the step's
 * list (several one after the other when the grid is capped at
 * kp.maxblocks); blocks past the list's end return at once.  On one GPU
 * (a.grab, one stream) the grid is one wave of resident blocks and a warp
 * that ends a tile takes the next one not yet taken (a work queue): walks
 * differ by 2x in length (fronts, dry rows skipped), and with fixed shares
 * a block held its slot until its longest walk ended while the next wave
 * waited (one H200, Malpasset 10 m at t = 4000 s, 3631 tiles for 2112
 * resident warps: stage 1 41.9 -> 36.7 us, the run 4.84 -> 4.71 s).  The
 * list then holds first the tiles whose last walk of stage 2 took at least
 * the mean time (clock64, a.cost; k_tiles), so that the long walks start
 * first and the short ones fill in (the run 4.60 -> 4.43 s).  While the
 * list is shorter than the grid's warps, the warps that would have no tile
 * walk halves of the first ones (halves_of; the run 4.43 -> 4.20 s).  With
 * early exit (RK2), the list
 * holds only the tiles that are not dry among dry neighbours (k_tiles), so
 * a mostly dry domain costs little; otherwise it holds every tile.  A short
 * list (a small flood, or a subdomain's edge rows) leaves most of the GPU
 * idle while each warp walks its tile's rows one after the other: then 2
 * or 4 warps share each tile, each walking a part of its rows (split_of;
 * two H200s, 4000^2 dam break at the centre: 0.53 -> 0.42 s).
 *
 * The walk of one tile (the numerics of a stage) is swe_cuda_walk.h. */
#include "swe_cuda_dev.h"
#include "swe_cuda_walk.h"

/* Registers per thread of the stage kernels (SWE_CUDA_MAXREG1 for stage
 * 1, SWE_CUDA_MAXREG2 for stage 2; 0: as many as the compiler likes, 126
 * and 126 with nvcc 13 for sm_90 in single precision): fewer registers let
 * more warps be resident to hide the latency of the loads, at the price of
 * spills to the L1 cache.  Double precision: 128 (the compiler would take
 * 183 and 181, 2 blocks of 4 warps a multiprocessor; capped, about 170
 * bytes spilled and 4 blocks).  Thirtieth session, one H200, 8192^2 dam
 * break in tiles (SPATE_CUDA_STACK=1), fp64: 4.49e9 -> 5.12e9
 * cell-steps/s; Malpasset 10 m fp64 7.37 -> 7.38 s (mostly per cell). */
#ifndef SWE_CUDA_MAXREG1
#ifdef SPATE_DOUBLE
#define SWE_CUDA_MAXREG1 128
#else
#define SWE_CUDA_MAXREG1 0
#endif
#endif
#ifndef SWE_CUDA_MAXREG2
#ifdef SPATE_DOUBLE
#define SWE_CUDA_MAXREG2 128
#else
#define SWE_CUDA_MAXREG2 0
#endif
#endif
#if SWE_CUDA_MAXREG1 > 0
#define STAGE1_BOUNDS __maxnreg__(SWE_CUDA_MAXREG1)
#else
#define STAGE1_BOUNDS __launch_bounds__(WARP * MAX_WARPS)
#endif
#if SWE_CUDA_MAXREG2 > 0
#define STAGE2_BOUNDS __maxnreg__(SWE_CUDA_MAXREG2)
#else
#define STAGE2_BOUNDS __launch_bounds__(WARP * MAX_WARPS)
#endif
/* Registers per thread of the kernels of stacks (k_stage1s, k_stage2s).
 * With the bounds above nvcc 13 gave them 80 registers and spills (stage
 * 1) and 101 (stage 2) in single precision.  One H200, 8192^2 dam break,
 * all wet, cell-steps/s: single precision capped at 128 (112 and 110
 * registers, no spills, 4 blocks a multiprocessor) 1.252e10, at 96 (30 and
 * 8 bytes spilled, 5 blocks) 1.32e10; double precision capped at 128 (170
 * bytes spilled, 4 blocks, against 2 for the walks' 183 registers)
 * 5.65e9. */
#ifndef SWE_CUDA_MAXREGS
#ifdef SPATE_DOUBLE
#define SWE_CUDA_MAXREGS 128
#else
#define SWE_CUDA_MAXREGS 96
#endif
#endif

/* Parts per tile of a list of n tiles (kp.split): 4 or 2 while the parts
 * fit the budget and have at least kp.part_rows rows each, else 1. */
__device__ static inline int split_of(const kparams_t &kp, unsigned int n)
{
	unsigned int cap = min((unsigned int)kp.split, gridDim.x * (blockDim.x / WARP));
	if (!kp.tiles || n == 0)
		return 1;
	if (kp.rows >= kp.part_rows * SWE_CUDA_SPLIT && n * SWE_CUDA_SPLIT <= cap)
		return SWE_CUDA_SPLIT;
	return kp.rows >= 2 * kp.part_rows && 2 * n <= cap ? 2 : 1;
}

/* Tiles of a list of n (each in sp parts, split_of) walked in halves of
 * their rows, with the work queue and sp = 1: tiles [*a0, *a0 + h) of the
 * list, h returned.  A half walks the rows around its own as well (a tile
 * of 4 rows: 8 rows walked for the tile, 6 for each half), so halves cost
 * more warp time and shorten the walks that end a stage:
 * - while the n tiles leave W - n of the grid's W warps without one, the
 *   first min(n, W - n) tiles of the list (whose last walks were the
 *   longest: k_tiles), so that the stage ends with the longest half walk
 *   instead of the longest walk;
 * - else the last kp.tail percent of W tiles of the list (the short walks
 *   that the queue hands out last), so that fewer warps wait for the last
 *   walks at the end of the stage.
 * kp.fill = 0 (SPATE_CUDA_FILL=0): never. */
__device__ static inline unsigned int halves_of(const kparams_t &kp, const step_t &a,
	unsigned int n, unsigned int sp, unsigned int *a0)
{
	const unsigned int w = gridDim.x * (blockDim.x / WARP);
	unsigned int h;
	*a0 = 0;
	if (!kp.fill || !a.grab || !kp.tiles || sp != 1 || kp.rows < 4)
		return 0;
	if (n < w)
		return min(n, w - n);
	h = min(n, w * (unsigned int)kp.tail / 100u);
	*a0 = n - h;
	return h;
}

/* The tile map's flags of tile k of a stack of nk tiles, from the flags f
 * of the stack's walk (tile_bands with the stack's first two rows as its
 * southern band, its last two as its northern one): a superset of the
 * tile's own, which is all the map needs (a tile computed where it could
 * be skipped gives the same bits, k_tiles): every tile as wet as the
 * stack, and along its southern (but for the first) and northern (but
 * for the last) edge wherever the stack is. */
__device__ static inline unsigned short stack_bands(unsigned short f, int k, int nk)
{
	const unsigned short s = (f & TILE_ANY ? TILE_S : 0) | (f & TILE_W ? TILE_SW : 0) |
		(f & TILE_E ? TILE_SE : 0);
	const unsigned short n = (f & TILE_ANY ? TILE_N : 0) | (f & TILE_W ? TILE_NW : 0) |
		(f & TILE_E ? TILE_NE : 0);
	return (unsigned short)(f | (k > 0 ? s : 0) | (k < nk - 1 ? n : 0));
}

/* One stage on the tiles of the step's list: each warp takes item e (its
 * global warp number, then e + the number of warps, ... when the grid is
 * capped, or the next one of the queue), part e % sp of tile list[e / sp]
 * (with halves, halves_of: items [a0, a0 + 2 h) halves of tiles
 * [a0, a0 + h), the whole tiles before and after them).  A short list
 * splits its tiles into sp parts of consecutive rows (split_of): each cell
 * is still made by the same loop body from the same values, whichever warp
 * walks it, so the bits are those of whole tiles; each part leaves its own
 * flags of the tile map (the first part clears those of parts it has not).
 * Without the tile map the list holds every tile and sp is 1.
 *
 * STK (the kernels of stacks: one GPU with the work queue, kp.stack > 1,
 * for the batches of steps whose lists hold every tile, a wet domain):
 * every tile, item e the stack of kp.stack tiles of tile column e % ntx
 * from tile row (e / ntx) kp.stack, walked in one.  A walk of a tile of 16
 * rows runs 4 rows of its window before its first update; a stack of 4
 * pays them once for 64 rows (one H200, 8192^2 dam break, all wet, fp32:
 * tiles of 16 rows 1.166e10 cell-steps/s, of 64 rows 1.267e10, but coarser
 * tiles skip dry ground in coarser pieces).  The list is not read: where
 * it no longer holds every tile (the batch began with a full one), the
 * tiles it left out are computed too, which gives the same bits (k_tiles),
 * and their flags (stack_bands) make the next list. */
template <bool S2, bool STK>
__device__ static __forceinline__ void strip(const kparams_t &kp, ctl_t *q, const step_t &a)
{
	const int lane = threadIdx.x & (WARP - 1), warp = threadIdx.x / WARP;
	const int nw = blockDim.x / WARP;
	const struct swe_view u = gview(kp, a.w, a.hu, a.hv, a.Bc, a.Bm);
	real dt = 0;
	swe_rbits bx = 0, by = 0;
	int run;

	if (!stage_start<S2>(kp, q, a, threadIdx.x == 0, &dt, &run))
		return;
	unsigned int parts, first, *gq;
	if constexpr (STK) {
		/* every tile, in stacks (the top of this function) */
		const unsigned int items = run ? (unsigned int)(kp.ntx *
			((kp.nty + kp.stack - 1) / kp.stack)) : 0;
		parts = items == 0 ? 1 :
			min(gridDim.x, (items + (unsigned int)nw - 1) / (unsigned int)nw);
		if (blockIdx.x >= parts)
			return;
		/* with the work queue (one GPU) or without (the interior of a GPU
		 * subdomain, swe_cuda_enqueue_stacks: items e, e + the grid's warps) */
		gq = a.grab ? a.grab + 2 * (S2 ? 1 : 0) : NULL;
		first = parts * (unsigned int)nw;
		for (unsigned int e = blockIdx.x * nw + warp; e < items;
			e = gq ? __shfl_sync(FULL_MASK, lane ? 0u : atomicAdd(gq, 1u) + first, 0) :
				e + gridDim.x * nw) {
			const int tx = (int)(e % kp.ntx), ty = (int)(e / kp.ntx) * kp.stack;
			const int tj0 = kp.jlo + ty * kp.rows;
			const int tj1 = min(tj0 + kp.stack * kp.rows, kp.jhi);
			const unsigned short wet = walk<S2>(kp, q, a, u, dt, tx * STRIP_OUT, tj0,
				tj1, tj0 + 2, tj1 - 2, bx, by);
			for (int k = 0; S2 && kp.tiles && lane == 0 &&
				k < min(kp.stack, kp.nty - ty); k++) {
				unsigned short *f = a.wet +
					(size_t)((ty + k) * kp.ntx + tx) * SWE_CUDA_SPLIT;
				f[0] = stack_bands(wet, k, min(kp.stack, kp.nty - ty));
				for (int r = 1; r < SWE_CUDA_SPLIT; r++)
					f[r] = 0;
			}
		}
	} else {
		/* Blocks with no tile of the list leave at once: the grid covers every
		 * tile of the range, the list often a few of them.  The others (at
		 * least block 0) take part in the speeds' reduction and count
		 * themselves for the last-block rule of stage 1. */
		const unsigned int n = run ? *a.count : 0;
		/* with the queue, tiles [nh, n) of the list stand at its end */
		const unsigned int nh = a.grab && kp.tiles ? a.count[2] : n;
		const unsigned int sp = (unsigned int)split_of(kp, n);
		/* tiles [a0, a0 + h) of the list in halves (halves_of): items
		 * [a0, a0 + 2 h) the halves, the whole tiles before and after */
		unsigned int a0;
		const unsigned int h = halves_of(kp, a, n, sp, &a0);
		const unsigned int items = n * sp + h;
		parts = items == 0 ? 1 :
			min(gridDim.x, (items + (unsigned int)nw - 1) / (unsigned int)nw);
		if (blockIdx.x >= parts)
			return;
		/* with the work queue: item e = the warp's number first, then the
		 * next one not taken (gq[0] counts those taken after the first ones) */
		gq = a.grab ? a.grab + 2 * (S2 ? 1 : 0) : NULL;
		first = parts * (unsigned int)nw;
		for (unsigned int e = blockIdx.x * nw + warp; e < items;
			e = gq ? __shfl_sync(FULL_MASK, lane ? 0u : atomicAdd(gq, 1u) + first, 0) :
				e + gridDim.x * nw) {
			/* tile i of the list, part p of its tsp parts */
			const unsigned int d = e - a0; /* wraps below a0 */
			const bool half = d < 2 * h;
			const unsigned int tsp = half ? 2u : sp, ee = half ? d : e < a0 ? e : e - h;
			const unsigned int q0 = ee / tsp, i = (half ? a0 : 0u) + q0;
			const int t = i < nh ? a.list[i] :
				a.list[kp.ntx * kp.nty - 1 - (int)(i - nh)];
			const int p = (int)(ee - q0 * tsp);
			const int len = (kp.rows + (int)tsp - 1) / (int)tsp;
			const int c0 = (t % kp.ntx) * STRIP_OUT;
			const int tj0 = kp.jlo + (t / kp.ntx) * kp.rows;
			const int tj1 = min(tj0 + kp.rows, kp.jhi), j0 = tj0 + p * len;
			const int j1 = min(j0 + len, tj1);
			unsigned short wet = 0;
			const long long clk = S2 && a.cost ? clock64() : 0;
			if (j0 < j1)
				wet = walk<S2>(kp, q, a, u, dt, c0, j0, j1, tj0 + 2, tj1 - 2, bx,
					by);
			if (S2 && a.cost && lane == 0 && p == 0) {
				/* the walk's time orders the next lists (k_tiles); a part
				 * counts for the tsp parts of its tile */
				unsigned int w = (unsigned int)min(((clock64() - clk) >> 4) * tsp,
					65535LL);
				a.cost[t] = (unsigned short)w;
				atomicAdd(a.grab + 4, w);
				atomicAdd(a.grab + 5, 1u);
			}
			if (S2 && kp.tiles && lane == 0) {
				unsigned short *f = a.wet + (size_t)t * SWE_CUDA_SPLIT;
				f[p] = wet;
				for (int r = (int)tsp; r < SWE_CUDA_SPLIT && p == 0; r++)
					f[r] = 0;
			}
		}
	}
	/* the last warp out empties the queue for the next launch */
	if (gq && lane == 0 && atomicAdd(gq + 1, 1u) == first - 1) {
		gq[0] = 0;
		gq[1] = 0;
	}
	block_speeds<S2, MAX_WARPS>(kp, q, a.spd, bx, by, run, parts, -1);
}

__global__ static void STAGE1_BOUNDS k_stage1(kparams_t kp, ctl_t *q, step_t a)
{
	strip<false, false>(kp, q, a);
}

__global__ static void STAGE2_BOUNDS k_stage2(kparams_t kp, ctl_t *q, step_t a)
{
	strip<true, false>(kp, q, a);
}

__global__ static void __maxnreg__(SWE_CUDA_MAXREGS) k_stage1s(kparams_t kp, ctl_t *q, step_t a)
{
	strip<false, true>(kp, q, a);
}

__global__ static void __maxnreg__(SWE_CUDA_MAXREGS) k_stage2s(kparams_t kp, ctl_t *q, step_t a)
{
	strip<true, true>(kp, q, a);
}

/* Stage s2's kernel, of the stacks when stk is not 0. */
typedef void (*stage_kernel_t)(kparams_t, ctl_t *, step_t);
static stage_kernel_t stage_kernel(int s2, int stk)
{
	return stk ? (s2 ? k_stage2s : k_stage1s) : s2 ? k_stage2 : k_stage1;
}

/* ------------------------------------------------------- launch functions */

int swe_cuda_strip_resident_of(const kparams_t *kp, int dev, int stage)
{
	int sms = 1, b = 1;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, stage_kernel(stage & 1, stage & 2),
		WARP * kp->warps, 0);
	return sms * (b < 1 ? 1 : b);
}

int swe_cuda_strip_resident(const kparams_t *kp, int dev)
{
	int r1 = swe_cuda_strip_resident_of(kp, dev, 0), r2 = swe_cuda_strip_resident_of(kp, dev, 1);
	return r1 < r2 ? r1 : r2;
}

/* Blocks of stage s2 for ntiles tiles: one warp each (with the tile map,
 * each part of a split tile), at most kp->maxblocks (> 0); with a work
 * queue (grab), at most one wave (kp->qblocks). */
static int strip_grid(const kparams_t *kp, long ntiles, const step_t *a, int s2)
{
	long items = kp->tiles && kp->split > 0 ? ntiles * SWE_CUDA_SPLIT : ntiles;
	long need = (items + kp->warps - 1) / kp->warps;
	const int qb = kp->stack > 1 ? kp->sblocks[s2] : kp->qblocks[s2];
	long cap = a->grab && qb > 0 ? qb : kp->maxblocks;
	return (int)(cap > 0 && need > cap ? cap : need);
}

int swe_cuda_kernels_init(void)
{
	/* no shared memory to speak of: all of it to the L1 cache */
	for (int k = 0; k < 4; k++)
		if (cudaFuncSetAttribute(stage_kernel(k & 1, k & 2),
			    cudaFuncAttributePreferredSharedMemoryCarveout,
			    cudaSharedmemCarveoutMaxL1) != cudaSuccess) {
			spate_log_error("cuda", "cannot set the kernels' attributes: %s",
				cudaGetErrorString(cudaGetLastError()));
			return -SPATE_EDEVICE;
		}
	return 0;
}

void swe_cuda_enqueue_step(const kparams_t *kp0, const step_t *a, void *stream)
{
	cudaStream_t st = (cudaStream_t)stream;
	kparams_t k = *kp0, *kp = &k;
	long nt = (long)kp->ntx * kp->nty;

	if (kp0->cells[0] > 0 && kp0->cells[1] > 0) {
		swe_cuda_enqueue_tile_step(kp0, a, stream);
		return;
	}

	k.jlo = 0; /* every row */
	k.jhi = kp->ny;
	stage_kernel(0, kp->stack > 1)<<<strip_grid(kp, nt, a, 0), WARP * kp->warps, 0, st>>>(
		*kp, a->q, *a);
	if (kp->integrator == 1) {
		swe_cuda_enqueue_euler(kp, a, st);
		return;
	}
	stage_kernel(1, kp->stack > 1)<<<strip_grid(kp, nt, a, 1), WARP * kp->warps, 0, st>>>(
		*kp, a->q, *a);
}

void swe_cuda_enqueue_stage(const kparams_t *kp, const step_t *a, int s2, int jlo, int jhi,
	void *stream)
{
	kparams_t k = *kp;
	int grid = strip_grid(kp, (long)kp->ntx * ((jhi - jlo + kp->rows - 1) / kp->rows), a, s2);
	if (jhi <= jlo)
		return;
	k.jlo = jlo;
	k.jhi = jhi;
	if (s2)
		k_stage2<<<grid, WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, a->q, *a);
	else
		k_stage1<<<grid, WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, a->q, *a);
}

void swe_cuda_enqueue_stacks(const kparams_t *kp, const step_t *a, int s2, int jlo, int jhi,
	void *stream)
{
	kparams_t k = *kp;
	step_t b = *a;
	const int t0 = jlo / kp->rows;
	if (jhi <= jlo)
		return;
	k.jlo = jlo;
	k.jhi = jhi;
	k.nty = (jhi - jlo + kp->rows - 1) / kp->rows;
	k.split = 0; /* a grid by the stacks alone (strip_grid) */
	b.grab = NULL;
	if (b.wet)
		b.wet += (size_t)t0 * kp->ntx * SWE_CUDA_SPLIT;
	stage_kernel(s2, 1)<<<strip_grid(&k, (long)k.ntx * ((k.nty + k.stack - 1) / k.stack), &b,
		s2), WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, b.q, b);
}

void swe_cuda_enqueue_list(const kparams_t *kp, const step_t *a, int s2, int ntiles,
	void *stream)
{
	kparams_t k = *kp;
	int grid = strip_grid(kp, ntiles, a, s2);
	if (ntiles <= 0)
		return;
	k.jlo = 0;
	k.jhi = kp->ny;
	if (s2)
		k_stage2<<<grid, WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, a->q, *a);
	else
		k_stage1<<<grid, WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, a->q, *a);
}
