/* swe_cuda_tile.cu: the stage kernels in a second form, a block a tile and
 * a thread a cell (k_tile1, k_tile2), for one GPU without subdomains
 * (swe_cuda_enqueue_step).  They compute what k_stage1 and k_stage2
 * (swe_cuda_kern.cu) compute, to the bit: the same calls of swe_kern.h
 * through swe_step.h on the same values, each face flux once.
 *
 * Why a second form.  A warp of k_stage1/k_stage2 walks up its tile's
 * columns row after row; a tile of 4 rows is a walk of 8 rows, each a
 * chain of several hundred dependent instructions, 10-25 us on an H200.
 * Where few tiles are active (Malpasset: 1,000-3,600 tiles of 28 x 4
 * cells on 2,112 resident warps), a step waits for those walks, not for
 * memory or issue slots (doc/bench/kernel.md).  Here the block of 32 x
 * (rows + 4) threads holds the tile and a ring of two cells in shared
 * memory, and every thread does one cell's part of each phase:
 *
 *   A  load the cell's state (stage 2: U* = swe_euler_vals(U^n, L)), its
 *      inverse depth and beds; state to shared memory
 *   B  reconstruct the cell along x (columns 1..30 of the block, the
 *      tile's rows) and along y (columns 2..29, rows 1..rows+2); the west
 *      and south face states to shared memory, the east and north ones
 *      and the bed sources kept
 *   C  the flux through the cell's east face (columns 1..29) and north
 *      face (rows 1..rows+1); to shared memory, the speeds gathered
 *   D  the tile's cells: swe_rhs from the four fluxes, then the store of
 *      L (stage 1) or of U^{n+1} = swe_rk2_vals (stage 2), the ghosts
 *      they feed, the tile map's flags
 *
 * with a barrier between phases: the chain of a thread is one cell's
 * work, not a column's.  The x- and y-faces counted in the speeds are
 * those the walks count (the tile's x-faces from the west face of its
 * first column, its y-faces from the south face of its first row), so
 * the step's dt is the same.
 *
 * swe_cuda.cu runs them for the batches of steps whose list of tiles is
 * short (CELLS_WAVES there; SPATE_CUDA_CELLS=0 never, 1 always).  On a
 * fully wet grid the walks are faster (1024^2, tiles of 4 rows: 7.26e9
 * cell-steps/s against 6.61e9), and there the lists are long.
 *
 * Tried and left out (one H200, Malpasset 10 m, fp32): a block of
 * 2 rows + 2 warps giving each warp one row of one task a phase (the x and
 * the y reconstructions of a row, then its x and y fluxes, on different
 * warps, the face beds in shared memory too) took 3.78-3.81 s on tiles of
 * 4 rows and 3.59 s on 8 (this form: 3.54 and 3.44 s); launch bounds of
 * 256 threads gave 70 and 64 registers and 3.72-3.74 s, with 4 to 6 blocks
 * asked for a multiprocessor 3.53-3.61 s (this form at 640: 58 and 48
 * registers, 3.54 s). */
#include "swe_cuda_dev.h"
#include "cuda_udiv.h"

/* Most rows of a tile here: blocks of at most 32 x (rows + 4) threads. */
#define TILE_ROWS_MAX 16
#define TILE_THREADS_MAX (WARP * (TILE_ROWS_MAX + 4))
/* Shared arrays of a block, each of 32 x (rows + 4) reals: the state
 * (depth, momenta, inverse depth, centre bed), the west and south face
 * states (depth, normal and tangential momenta), the fluxes through the
 * east and north faces (mass, normal, tangential). */
enum { SH_W, SH_HU, SH_HV, SH_R, SH_B, SH_FWH, SH_FWN, SH_FWT, SH_FSH, SH_FSN, SH_FST,
	SH_XF0, SH_XFN, SH_XFT, SH_YF0, SH_YFN, SH_YFT, SH_N };

/* Dynamic shared memory of a block for tiles of `rows` rows. */
static size_t tile_smem(int rows)
{
	return (size_t)SH_N * WARP * (rows + 4) * sizeof(real);
}

/* The rows of tiles for which the kernels are built with the rows fixed
 * (TILE_ROWS_FIXED: the default of the tile map with these kernels,
 * CELLS_ROWS_MIN in swe_cuda.cu); other rows take the kernels built for
 * any.  With the rows known the shared arrays lie at fixed offsets: in
 * k_tile1 5% of the instructions were their addresses (Nsight Compute's
 * source counters, Malpasset 10 m; doc/bench/kernel.md). */
#define TILE_ROWS_FIXED 8

/* The start of k_tile1 and k_tile2 with their own clock (a.par = p >= 0,
 * RK2), in place of stage_start: no block of stage 1 waits for the others
 * to set dt (set_dt after a fence and a count of the blocks: about the
 * last block's end).  Stage 1: block 0 keeps the clock it finds in the
 * step's slots (tp, errp, noopp of parity p), clears the speeds of the
 * other parity (the next step's stage 1 gathers there: nothing reads them
 * now) and, unless the clock has stopped, the stage-2 maxima (set_dt: at
 * a real step); the blocks gather their speeds in slot p (block_speeds).
 * Stage 2: every block takes the step's clock from slot p (clock_of, the
 * same arithmetic as set_dt), block 0 writes it into the control block,
 * which no block of stage 2 reads; *t1 the time after the step.  A no-op
 * step copies U^n and gives false. */
__device__ static inline void clock_keep(ctl_t *q, int p)
{
	q->tp[p] = q->t;
	q->errp[p] = q->err;
	q->noopp[p] = q->noop;
	q->sp[1 - p][0] = q->sp[1 - p][1] = q->qp[1 - p][0] = q->qp[1 - p][1] = 0;
	if (!halted(q))
		q->ax2 = q->ay2 = 0;
}

__device__ static inline bool clock_start(const kparams_t &kp, ctl_t *q, const step_t &a,
	bool lead, real *dt, double *t1)
{
	const int p = a.par;
	/* the least of the blocks' bounds (0: none, which reads as a NaN) */
	const struct step_clock k = clock_of(kp, q->tp[p], q->t_stop, q->errp[p], q->noopp[p],
		q->sp[p][0], q->sp[p][1], __longlong_as_double((long long)~q->qp[p][0]),
		__longlong_as_double((long long)~q->qp[p][1]));
	if (blockIdx.x == 0 && lead)
		clock_put(q, k, false);
	if (!(k.dt > 0)) {
		copy_all(kp, k.noop, a);
		return false;
	}
	*dt = (real)k.dt;
	if (lead)
		*t1 = k.t1;
	return true;
}

/* R: the tile's rows when fixed at compile time (TILE_ROWS_FIXED), else 0
 * (kp.rows). */
template <bool S2, int R>
__device__ static __forceinline__ void tile_stage(const kparams_t &kp, ctl_t *q, const step_t &a)
{
	extern __shared__ unsigned char tile_sh_raw[];
	real *sh = (real *)tile_sh_raw;
	__shared__ unsigned int masks[3];
	const int rows = R ? R : kp.rows;
	const int x = threadIdx.x, y = threadIdx.y, nt = R ? WARP * (R + 4) : WARP * blockDim.y;
	const int s = y * WARP + x;
	const float inv_ntx = 1.0f / (float)kp.ntx;
	const struct swe_view u = gview(kp, a.w, a.hu, a.hv, a.Bc, a.Bm);
	const struct swe_coef c = kp.c;
	real dt = 0;
	/* stage 2: the time after the step (the sides' values), in shared
	 * memory: kept in registers through the tiles it made k_tile2 spill
	 * 36 bytes more */
	__shared__ double t1s;
	swe_rbits bx = 0, by = 0;
	int run = 0;
#define SH(arr, i) sh[(arr) * nt + (i)]

	/* the list's lengths and the block's first entry (the grid has at
	 * most one block a tile) read with the control block, not after it:
	 * one wait for memory before the tile's loads instead of three */
	const unsigned int n0 = a.count[0], nh0 = a.count[2];
	const int t0 = a.list[blockIdx.x];
	/* With the clock (RK2: both stages run every step) and the work queue
	 * on (a.grab), a block takes its first tile by its index and the next
	 * ones from the stage's count (q->cq), so that the blocks that end
	 * early take the tiles left (the wet ones come first in the list,
	 * k_tiles): each stage zeroes the count of the other, which runs
	 * before or after it, first of all (a no-op step leaves early). */
	__shared__ unsigned int next_i[2];
	const bool queue = a.par >= 0 && a.grab;
	if (queue && blockIdx.x == 0 && s == 0)
		q->cq[S2 ? 0 : 1] = 0;
	if (S2 && a.par >= 0) {
		if (!clock_start(kp, q, a, s == 0, &dt, &t1s))
			return;
		run = 1;
	} else if (!stage_start<S2>(kp, q, a, s == 0, &dt, &run)) {
		return;
	}
	if (S2 && a.par < 0 && s == 0)
		t1s = q->t; /* set_dt's */
	const unsigned int n = run ? n0 : 0;
	const unsigned int nh = a.grab && kp.tiles ? nh0 : n;
	const unsigned int parts = n == 0 ? 1 : min(gridDim.x, n);
	if (blockIdx.x >= parts)
		return;
	if (s == 0)
		masks[0] = masks[1] = masks[2] = 0;
	for (unsigned int i = blockIdx.x, it = 0; i < n; it++) {
		const int t = i >= nh ? a.list[kp.ntx * kp.nty - 1 - (int)(i - nh)] :
			i == blockIdx.x ? t0 : a.list[i];
		/* its column and row of tiles (t % ntx, t / ntx) by idiv (t < 2^24
		 * tiles and quotients below 2^22: swe_cuda_tile_ok); the integer
		 * division was 4% of k_tile1's instructions */
		int tx;
		const int ty = idiv(t, kp.ntx, inv_ntx, &tx);
		const int c0 = tx * STRIP_OUT, tj0 = kp.jlo + ty * rows;
		const int tj1 = min(tj0 + rows, kp.jhi), nr = tj1 - tj0;
		const int col = c0 - HALO + x, row = tj0 - HALO + y;
		const int colc = min(col, kp.nx + SWE_GHOST - 1), rowc = min(row, kp.ny + SWE_GHOST - 1);
		const long k = swe_vidx(&u, colc, rowc);
		/* the tile's rows, and the rows of the y-faces of its cells */
		const bool xrow = y >= HALO && y < HALO + nr;
		const bool upd = xrow && x >= HALO && x < WARP - HALO && col < kp.nx;
		real w, hu, hv, r, bm, Bw, Be, Bs, Bn, sx = 0, sy = 0;
		struct kp07_face fw, fe, fs, fn;

		/* A: the state (U^n, or U* in stage 2), inverse depth and beds */
		if (S2)
			swe_euler_vals(u.w[k], u.hu[k], u.hv[k], a.Lw[k], a.Lhu[k], a.Lhv[k], dt, c,
				&w, &hu, &hv);
		else {
			w = u.w[k];
			hu = u.hu[k];
			hv = u.hv[k];
		}
		r = kp07_cell_inv_depth(w, c.kappa4);
		bm = u.Bm[k];
		swe_face_beds(&u, colc, rowc, &Bw, &Be, &Bs, &Bn);
		SH(SH_W, s) = w;
		SH(SH_HU, s) = hu;
		SH(SH_HV, s) = hv;
		SH(SH_R, s) = r;
		SH(SH_B, s) = bm;
		__syncthreads();

		/* B: reconstructions along x and y */
		if (xrow && x >= 1 && x < WARP - 1) {
			kp07_reconstruct_wd(SH(SH_W, s - 1), w, SH(SH_W, s + 1), SH(SH_HU, s - 1), hu,
				SH(SH_HU, s + 1), SH(SH_HV, s - 1), hv, SH(SH_HV, s + 1),
				SH(SH_B, s - 1), SH(SH_B, s + 1), Bw, Be, Bs, Bn, bm,
				SH(SH_R, s - 1), r, SH(SH_R, s + 1), c.theta, &fw, &fe);
			sx = kp07_bed_source(fw, fe, c.g, kp.inv_dx);
			SH(SH_FWH, s) = fw.h;
			SH(SH_FWN, s) = fw.hn;
			SH(SH_FWT, s) = fw.ht;
		}
		if (y >= 1 && y < HALO + nr + 1 && x >= HALO && x < WARP - HALO) {
			kp07_reconstruct_wd(SH(SH_W, s - WARP), w, SH(SH_W, s + WARP),
				SH(SH_HV, s - WARP), hv, SH(SH_HV, s + WARP), SH(SH_HU, s - WARP), hu,
				SH(SH_HU, s + WARP), SH(SH_B, s - WARP), SH(SH_B, s + WARP), Bs, Bn, Bw, Be,
				bm, SH(SH_R, s - WARP), r, SH(SH_R, s + WARP), c.theta, &fs, &fn);
			sy = kp07_bed_source(fs, fn, c.g, kp.inv_dy);
			SH(SH_FSH, s) = fs.h;
			SH(SH_FSN, s) = fs.hn;
			SH(SH_FST, s) = fs.ht;
		}
		__syncthreads();

		/* C: the fluxes through the east and north faces: from face
		 * state l to the one stored at (arrays from f, index r), into the
		 * flux arrays from o, the speed into *m for the domain's columns */
		auto flux_to = [&](const struct kp07_face &l, int f, int r, int o, swe_rbits *m) {
			struct kp07_face fr;
			struct kp07_flux F;
			fr.h = SH(f, r);
			fr.eta = 0; /* not used by the flux */
			fr.hn = SH(f + 1, r);
			fr.ht = SH(f + 2, r);
			F = kp07_central_upwind(l, fr, c);
			if (col < kp.nx)
				*m = bits_max(*m, speed_bits(F.a));
			SH(o, s) = F.f0;
			SH(o + 1, s) = F.fn;
			SH(o + 2, s) = F.ft;
		};
		/* the block's next tile from the queue, by the first thread of
		 * the ring's outer row (idle in phases C and D: the atomic's wait
		 * holds up no one); read after the tile's last barrier, in slots
		 * by turns, so that it is not overwritten before all have read it */
		if (queue && s == nt - WARP)
			next_i[it & 1] = gridDim.x + atomicAdd(&q->cq[S2], 1u);
		if (xrow && x >= 1 && x < WARP - HALO)
			flux_to(fe, SH_FWH, s + 1, SH_XF0, &bx);
		if (y >= 1 && y < HALO + nr && x >= HALO && x < WARP - HALO)
			flux_to(fn, SH_FSH, s + WARP, SH_YF0, &by);
		__syncthreads();

		/* D: the tile's cells */
		bool wet = false;
		if (upd) {
			struct kp07_flux Fw, Fe, Gs, Gn;
			real Lw, Lhu, Lhv;
			Fw.f0 = SH(SH_XF0, s - 1);
			Fw.fn = SH(SH_XFN, s - 1);
			Fw.ft = SH(SH_XFT, s - 1);
			Fw.a = 0;
			Fe.f0 = SH(SH_XF0, s);
			Fe.fn = SH(SH_XFN, s);
			Fe.ft = SH(SH_XFT, s);
			Fe.a = 0;
			Gs.f0 = SH(SH_YF0, s - WARP);
			Gs.fn = SH(SH_YFN, s - WARP);
			Gs.ft = SH(SH_YFT, s - WARP);
			Gs.a = 0;
			Gn.f0 = SH(SH_YF0, s);
			Gn.fn = SH(SH_YFN, s);
			Gn.ft = SH(SH_YFT, s);
			Gn.a = 0;
			swe_rhs(Fw, Fe, Gs, Gn, sx, sy, kp.inv_dx, kp.inv_dy, &Lw, &Lhu, &Lhv);
			if (!S2) {
				a.Lw[k] = Lw;
				a.Lhu[k] = Lhu;
				a.Lhv[k] = Lhv;
				each_ghost_of(u, kp, col, row, [&](int side, int layer, int m) {
					swe_bc_put_rate(&u, a.Lw, a.Lhu, a.Lhv, side, kp.bcd.kind[side],
						layer, m, Lw, Lhu, Lhv);
				});
			} else {
				struct swe_view o = gview(kp, a.w1, a.hu1, a.hv1, a.Bc, a.Bm);
				real nw, nu, nv;
				swe_rk2_vals(u.w[k], u.hu[k], u.hv[k], w, hu, hv, Lw, Lhu, Lhv, dt, c, &nw,
					&nu, &nv);
				a.w1[k] = nw;
				a.hu1[k] = nu;
				a.hv1[k] = nv;
				swe_guard_note(nw, nu, nv, &a.q->bad);
				wet = !(nw <= 0);
				each_ghost_of(o, kp, col, row, [&](int side, int layer, int m) {
					swe_bc_put(&o, side, kp.bcd.kind[side], side_value_dev(kp, side, t1s),
						c.g, layer, m, nw, nu, nv);
				});
			}
		}
		if (S2 && kp.tiles) {
			/* the tile map's flags: the columns with a cell that is not
			 * dry, in all rows, the two southern ones, the two northern */
			const unsigned int m = __ballot_sync(FULL_MASK, wet);
			if (x == 0 && m) {
				atomicOr(masks, m);
				if (row < tj0 + 2)
					atomicOr(masks + 1, m);
				if (row >= tj1 - 2)
					atomicOr(masks + 2, m);
			}
		}
		__syncthreads();
		if (S2 && kp.tiles && s == 0) {
			unsigned short *f = a.wet + (size_t)t * SWE_CUDA_SPLIT;
			f[0] = tile_bands(masks[0], masks[1], masks[2]);
			for (int p = 1; p < SWE_CUDA_SPLIT; p++)
				f[p] = 0;
			masks[0] = masks[1] = masks[2] = 0;
		}
		i = queue ? next_i[it & 1] : i + gridDim.x;
	}
#undef SH
	if (!S2 && a.par >= 0 && blockIdx.x == 0 && s == 0)
		clock_keep(q, a.par); /* here, where few registers are live */
	block_speeds<S2, TILE_THREADS_MAX / WARP>(kp, q, a.spd, bx, by, run, parts, a.par);
}

/* Registers per thread of k_tile1 and k_tile2 (0: launch bounds, those of
 * TILE_THREADS_MAX threads, or for k_tile1 on tiles of TILE_ROWS_FIXED rows
 * those below).  A block of a tile of 8 rows has 384
 * threads: at 58 registers (k_tile2 under the bounds, single precision) 2
 * fit a multiprocessor, at 56 3 (88 bytes spilled); in double precision
 * (96 and 90 registers) 1, at 80 2.  Thirtieth session, one H200,
 * Malpasset 10 m, `spate bench --case=malpasset`: fp32 3.350, 3.362 s ->
 * 3.293, 3.289 s (k_tile2 at 56; both at 40, 4 blocks: 3.61 s); fp64
 * 7.39 -> 5.57 s (both at 80). */
#ifndef SWE_CUDA_TILE_MAXREG1
#ifdef SPATE_DOUBLE
#define SWE_CUDA_TILE_MAXREG1 80
#else
#define SWE_CUDA_TILE_MAXREG1 0
#endif
#endif
#ifndef SWE_CUDA_TILE_MAXREG2
#ifdef SPATE_DOUBLE
#define SWE_CUDA_TILE_MAXREG2 80
#else
#define SWE_CUDA_TILE_MAXREG2 56
#endif
#endif
/* Without a cap, k_tile1 for tiles of TILE_ROWS_FIXED rows is built for
 * SWE_CUDA_TILE_BLOCKS1 blocks a multiprocessor: in single precision 4 of
 * 384 threads, 40 registers and no spills (48 registers and 3 blocks
 * without; thirty-second session, one H200, Malpasset 10 m: 2.658, 2.661 s
 * -> 2.622, 2.633 s; at 32 registers, 5 blocks and 80 bytes spilled, 2.686,
 * 2.698 s; k_tile2 at 40 too, 2.719, 2.726 s). */
#ifndef SWE_CUDA_TILE_BLOCKS1
#define SWE_CUDA_TILE_BLOCKS1 4
#endif
#if SWE_CUDA_TILE_MAXREG1 > 0
#define TILE1_BOUNDS(R) __maxnreg__(SWE_CUDA_TILE_MAXREG1)
#else
#define TILE1_BOUNDS(R) __launch_bounds__(R ? WARP * (R + 4) : TILE_THREADS_MAX, \
	R ? SWE_CUDA_TILE_BLOCKS1 : 1)
#endif
#if SWE_CUDA_TILE_MAXREG2 > 0
#define TILE2_BOUNDS __maxnreg__(SWE_CUDA_TILE_MAXREG2)
#else
#define TILE2_BOUNDS __launch_bounds__(TILE_THREADS_MAX)
#endif

template <int R>
__global__ static void TILE1_BOUNDS(R) k_tile1(kparams_t kp, ctl_t *q, step_t a)
{
	tile_stage<false, R>(kp, q, a);
}

template <int R>
__global__ static void TILE2_BOUNDS k_tile2(kparams_t kp, ctl_t *q, step_t a)
{
	tile_stage<true, R>(kp, q, a);
}

/* The kernel of stage s2 for tiles of `rows` rows. */
typedef void (*tile_kernel_t)(kparams_t, ctl_t *, step_t);
static tile_kernel_t tile_kernel(int s2, int rows)
{
	if (rows == TILE_ROWS_FIXED)
		return s2 ? k_tile2<TILE_ROWS_FIXED> : k_tile1<TILE_ROWS_FIXED>;
	return s2 ? k_tile2<0> : k_tile1<0>;
}


/* ------------------------------------------------------- launch functions */

int swe_cuda_tile_ok(const kparams_t *kp)
{
	/* idiv's range (the tile coordinates, tile_stage) */
	return kp->rows >= 2 && kp->rows <= TILE_ROWS_MAX &&
		(long)kp->ntx * kp->nty < (1L << 24) && kp->nty < (1 << 22);
}

int swe_cuda_tile_resident(const kparams_t *kp, int dev, int stage)
{
	int sms = 1, b = 1;
	size_t sm = tile_smem(kp->rows);
	tile_kernel_t k = tile_kernel(stage, kp->rows);
	if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm) !=
		cudaSuccess) {
		cudaGetLastError();
		return 0;
	}
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, k, WARP * (kp->rows + 4), sm) !=
		cudaSuccess) {
		cudaGetLastError();
		return 0;
	}
	return b < 1 ? 0 : sms * b;
}

void swe_cuda_enqueue_tile_step(const kparams_t *kp0, const step_t *a, void *stream)
{
	cudaStream_t st = (cudaStream_t)stream;
	kparams_t k = *kp0;
	long nt = (long)k.ntx * k.nty;
	dim3 blk(WARP, k.rows + 4);
	size_t sm = tile_smem(k.rows);
	k.jlo = 0;
	k.jhi = k.ny;
	tile_kernel(0, k.rows)<<<(int)(nt < k.cells[0] ? nt : k.cells[0]), blk, sm, st>>>(k,
		a->q, *a);
	if (k.integrator == 1) {
		swe_cuda_enqueue_euler(&k, a, st);
		return;
	}
	tile_kernel(1, k.rows)<<<(int)(nt < k.cells[1] ? nt : k.cells[1]), blk, sm, st>>>(k,
		a->q, *a);
}
