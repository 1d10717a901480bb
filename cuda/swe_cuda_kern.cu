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
 * first and the short ones fill in (the run 4.60 -> 4.43 s).  With
 * early exit (RK2), the list
 * holds only the tiles that are not dry among dry neighbours (k_tiles), so
 * a mostly dry domain costs little; otherwise it holds every tile.  A short
 * list (a small flood, or a subdomain's edge rows) leaves most of the GPU
 * idle while each warp walks its tile's rows one after the other: then 2
 * or 4 warps share each tile, each walking a part of its rows (split_of;
 * two H200s, 4000^2 dam break at the centre: 0.53 -> 0.42 s).
 *
 * The strip walk.  Each warp owns a strip of 32 columns and kp.rows rows,
 * lane = column.  Its two outer columns on each side are halo: the warp
 * updates the 28 inner ones, and strips overlap by four columns.  A lane walks
 * up its column with a sliding window in registers: three rows of the state,
 * the face beds, the north face of the row below and the flux through it, so
 * each cell is reconstructed once per direction and each y-face flux is
 * computed once.  The x-neighbours (states, reconstructed west faces, the
 * flux through the west face) come from the neighbouring lanes by warp
 * shuffles: no shared memory and no barrier in the walk.  The next row is
 * loaded one row ahead.
 *
 * A face flux shared by two strips is computed by both, by the same code
 * from the same values, hence to the same bits: mass is conserved to
 * round-off.  To keep it so, every state, reconstruction and flux comes out
 * of the one loop body (the first rows of a strip run it with the x part
 * switched off), never out of a separate prologue. */
#include "swe_cuda_dev.h"

/* Registers per thread of the stage kernels (SWE_CUDA_MAXREG1 for stage
 * 1, SWE_CUDA_MAXREG2 for stage 2; 0: as many as the compiler likes, 111
 * and 119 with nvcc 13 for sm_90 in single precision): fewer registers let
 * more warps be resident to hide the latency of the loads, at the price of
 * spills to the L1 cache. */
#ifndef SWE_CUDA_MAXREG1
#define SWE_CUDA_MAXREG1 0
#endif
#ifndef SWE_CUDA_MAXREG2
#define SWE_CUDA_MAXREG2 0
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

/* The largest x- and y-face speeds of the block into *ax, *ay (atomicMax on
 * the bits).  Stage 1: the last of the parts blocks that take part (blocks
 * 0 to parts - 1) to arrive then sets dt. */
template <bool S2>
__device__ static inline void block_speeds(const kparams_t &kp, ctl_t *q, swe_rbits *spd,
	swe_rbits bx, swe_rbits by, int run, unsigned int parts)
{
	__shared__ swe_rbits red[2][MAX_WARPS];
	int lane = threadIdx.x & (WARP - 1), warp = threadIdx.x / WARP, nw = blockDim.x / WARP;
	for (int o = WARP / 2; o > 0; o >>= 1) {
		bx = bits_max(bx, __shfl_xor_sync(FULL_MASK, bx, o));
		by = bits_max(by, __shfl_xor_sync(FULL_MASK, by, o));
	}
	if (lane == 0) {
		red[0][warp] = bx;
		red[1][warp] = by;
	}
	__syncthreads();
	if (threadIdx.x != 0)
		return;
	for (int i = 1; i < nw; i++) {
		bx = bits_max(bx, red[0][i]);
		by = bits_max(by, red[1][i]);
	}
	if (S2) {
		atomicMax(&q->ax2, bx);
		atomicMax(&q->ay2, by);
		return;
	}
	if (run) {
		atomicMax(spd ? spd : &q->ax1, bx);
		atomicMax(spd ? spd + 1 : &q->ay1, by);
	}
	if (kp.host_dt)
		return; /* the host reads the speeds and sets dt */
	__threadfence();
	if (atomicAdd(&q->done, 1u) == parts - 1) {
		__threadfence();
		set_dt(kp, q);
	}
}

__device__ static inline unsigned short tile_bands(unsigned m, unsigned ms, unsigned mn)
{
	const unsigned wcols = 3u << HALO, ecols = 3u << (WARP - HALO - 2);
	return (unsigned short)((m ? TILE_ANY : 0) | (m & wcols ? TILE_W : 0) |
		(m & ecols ? TILE_E : 0) | (ms ? TILE_S : 0) | (mn ? TILE_N : 0) |
		(ms & wcols ? TILE_SW : 0) | (ms & ecols ? TILE_SE : 0) |
		(mn & wcols ? TILE_NW : 0) | (mn & ecols ? TILE_NE : 0));
}

/* One tile of a stage, or a part of its rows (see the top of the file):
 * the warp's strip of 32 columns from c0 - HALO and rows [j0, jend) of the
 * tile's [js - 2, jn + 2).  Stage 1 (S2 false) reads U^n and writes L;
 * stage 2 reads U^n and L, makes U* on the fly and writes U^{n+1}.  Returns
 * the tile map's flags of what it wrote (stage 2, tile_bands, with the
 * tile's bands: rows below js, rows from jn; 0 in stage 1).  One long
 * function on purpose: split into inlined helpers (the x rates, the store
 * of a cell) the stage kernels got
 * other register allocations and ran 2-3% longer on H200s (eighth
 * session: bumps 0.684 -> 0.699 s, Malpasset 10 m 4.16 -> 4.27 s). */
template <bool S2>
__device__ static inline unsigned short walk(const kparams_t &kp, const ctl_t *q, const step_t &a,
	const struct swe_view &u, real dt, int c0, int j0, int jend, int js, int jn, swe_rbits &bx,
	swe_rbits &by)
{
	const int lane = threadIdx.x & (WARP - 1);
	const int col = c0 - HALO + lane, colc = min(col, kp.nx + SWE_GHOST - 1);
	/* lanes that update their cell, and lanes whose east face is a face of
	 * the domain next to an updated cell */
	const bool upd = lane >= HALO && lane < WARP - HALO && col < kp.nx;
	const bool xface = lane >= HALO - 1 && lane < WARP - HALO && col < kp.nx;
	const struct swe_coef c = kp.c;
	/* not-dry cells seen by this lane: anywhere, in the tile's two southern
	 * rows, in its two northern rows (the tile map's bands) */
	bool wet = false, wet_s = false, wet_n = false;
	/* row j+2 of the window, loaded one iteration ahead */
	real nw_, nhu, nhv, nLw = 0, nLhu = 0, nLhv = 0, nBm, nc0, nc1;
	/* rows j and j+1 of the state (U^n, or U* in stage 2; w: depth) and their
	 * desingularised inverse depths, computed once per cell as each row
	 * enters the window */
	real w0 = 0, hu0 = 0, hv0 = 0, w1 = 0, hu1 = 0, hv1 = 0, r0 = 0, r1 = 0;
	/* corners at the bottom of row j+1; beds of row j (faces, centre), of
	 * row j+1 (centre) */
	real ca0 = 0, ca1 = 0, bw0 = 0, be0 = 0, bs0 = 0, bn0 = 0, bm0 = 0, bm1 = 0, bmm = 0;
	/* north face of row j, its bed source, the flux below row j */
	struct kp07_face fn0 = { 0, 0, 0, 0 };
	struct kp07_flux g0 = { 0, 0, 0, 0 };
	real sy0 = 0;
	/* early exit: row j-1 of the state (to rebuild fn0 and sy0 after a
	 * skipped row), rows j-1 and j dry, fn0 and sy0 not computed */
	real wm = 0, hum = 0, hvm = 0, rm = 0;
	bool drym = false, dry0 = false, stale = false;
	auto fetch = [&](int r) {
		long k, kc;
		r = min(r, kp.ny + SWE_GHOST - 1);
		k = swe_vidx(&u, colc, r);
		kc = swe_vcidx(&u, colc, r);
		nw_ = u.w[k];
		nhu = u.hu[k];
		nhv = u.hv[k];
		if (S2) {
			nLw = a.Lw[k];
			nLhu = a.Lhu[k];
			nLhv = a.Lhv[k];
		}
		nBm = u.Bm[k];
		nc0 = u.Bc[kc];
		nc1 = u.Bc[kc + 1];
	};

	fetch(j0 - 2);
#pragma unroll 1
	for (int j = j0 - 4; j < jend; j++) {
		real w2, hu2, hv2, r2, cb0 = nc0, cb1 = nc1, bm2 = nBm, bw1, be1, bs1, bn1;
		real sy1 = 0;
		struct kp07_face fs1 = fn0, fn1 = fn0;
		struct kp07_flux g1 = g0;

		if (S2)
			swe_euler_vals(nw_, nhu, nhv, nLw, nLhu, nLhv, dt, c, &w2, &hu2, &hv2);
		else {
			w2 = nw_;
			hu2 = nhu;
			hv2 = nhv;
		}
		r2 = kp07_cell_inv_depth(w2, c.kappa4);
		fetch(j + 3);

		/* y: reconstruct row j+1, flux through its south face */
		bw1 = swe_bed_face(ca0, cb0);
		be1 = swe_bed_face(ca1, cb1);
		bs1 = bn0;
		bn1 = swe_bed_face(cb0, cb1);
		/* Early exit: where rows j-1, j and j+1 are dry (depth exactly
		 * 0, on any bed: kp07_reconstruct_wd) in all 32 lanes, every face of row j and
		 * the faces between rows has depth 0: the fluxes are (0, 0, 0),
		 * the bed sources 0, and L of row j is (-0, +0, +0), the bits
		 * swe_rhs gives.  The y-faces of row j+1 are left stale and
		 * rebuilt (same code, same values) when a row is computed again;
		 * the flux below it is the zero flux.  From row j0 - 2 on: the
		 * first rows of the walk pass on only such faces and fluxes
		 * (row j0 - 3 is never loaded and reads as dry, which changes
		 * only whether row j0 - 1's faces are made now or rebuilt). */
		bool dry1 = kp.early && w1 <= 0;
		bool skip = kp.early && j >= j0 - 2 && __all_sync(FULL_MASK, drym && dry0 && dry1);
		if (skip) {
			fs1.h = fs1.eta = fs1.hn = fs1.ht = 0;
			fn1 = fs1;
			g1.f0 = 0;
			g1.fn = 0;
			g1.ft = 0;
			g1.a = -(real)0;
			sy1 = 0;
			stale = true;
		} else if (j >= j0 - 2) {
			if (stale) {
				struct kp07_face fs0;
				kp07_reconstruct_wd(wm, w0, w1, hvm, hv0, hv1, hum, hu0, hu1, bmm, bm1,
					bs0, bn0, bw0, be0, bm0, rm, r0, r1, c.theta, &fs0, &fn0);
				sy0 = kp07_bed_source(fs0, fn0, c.g, kp.inv_dy);
				stale = false;
			}
			kp07_reconstruct_wd(w0, w1, w2, hv0, hv1, hv2, hu0, hu1, hu2, bm0, bm2, bs1,
				bn1, bw1, be1, bm1, r0, r1, r2, c.theta, &fs1, &fn1);
			/* row j0 - 1 gives only its north face: the flux below it
			 * and its bed source serve no row of the walk */
			if (j >= j0 - 1) {
				sy1 = kp07_bed_source(fs1, fn1, c.g, kp.inv_dy);
				g1 = kp07_central_upwind(fn0, fs1, c);
				if (upd)
					by = bits_max(by, speed_bits(g1.a));
			}
		}

		/* x: reconstruct row j, flux through the east face; the west
		 * face's flux is the west neighbour's east one */
		if (j >= j0) {
			struct kp07_face fw, fe, fr;
			struct kp07_flux fxe, fxw;
			real sx, Lw, Lhu, Lhv;
			if (skip) {
				Lw = -(real)0;
				Lhu = 0;
				Lhv = 0;
			} else {
			kp07_reconstruct_wd(__shfl_up_sync(FULL_MASK, w0, 1), w0,
				__shfl_down_sync(FULL_MASK, w0, 1), __shfl_up_sync(FULL_MASK, hu0, 1),
				hu0, __shfl_down_sync(FULL_MASK, hu0, 1),
				__shfl_up_sync(FULL_MASK, hv0, 1), hv0,
				__shfl_down_sync(FULL_MASK, hv0, 1), __shfl_up_sync(FULL_MASK, bm0, 1),
				__shfl_down_sync(FULL_MASK, bm0, 1), bw0, be0, bs0, bn0, bm0,
				__shfl_up_sync(FULL_MASK, r0, 1), r0,
				__shfl_down_sync(FULL_MASK, r0, 1), c.theta, &fw, &fe);
			sx = kp07_bed_source(fw, fe, c.g, kp.inv_dx);
			fr.h = __shfl_down_sync(FULL_MASK, fw.h, 1);
			fr.eta = 0; /* not used by the flux */
			fr.hn = __shfl_down_sync(FULL_MASK, fw.hn, 1);
			fr.ht = __shfl_down_sync(FULL_MASK, fw.ht, 1);
			fxe = kp07_central_upwind(fe, fr, c);
			fxw.f0 = __shfl_up_sync(FULL_MASK, fxe.f0, 1);
			fxw.fn = __shfl_up_sync(FULL_MASK, fxe.fn, 1);
			fxw.ft = __shfl_up_sync(FULL_MASK, fxe.ft, 1);
			fxw.a = 0;
			if (xface)
				bx = bits_max(bx, speed_bits(fxe.a));
			swe_rhs(fxw, fxe, g0, g1, sx, sy0, kp.inv_dx, kp.inv_dy, &Lw, &Lhu, &Lhv);
			}
			if (upd) {
				long k = swe_vidx(&u, col, j);
				if (!S2) {
					a.Lw[k] = Lw;
					a.Lhu[k] = Lhu;
					a.Lhv[k] = Lhv;
					each_ghost_of(u, kp, col, j, [&](int side, int layer, int m) {
						swe_bc_put_rate(&u, a.Lw, a.Lhu, a.Lhv, side,
							kp.bcd.kind[side], layer, m, Lw, Lhu, Lhv);
					});
				} else {
					struct swe_view o = gview(kp, a.w1, a.hu1, a.hv1, a.Bc, a.Bm);
					real nw, nu, nv;
					swe_rk2_vals(u.w[k], u.hu[k], u.hv[k], w0, hu0, hv0, Lw, Lhu, Lhv,
						dt, c, &nw, &nu, &nv);
					a.w1[k] = nw;
					a.hu1[k] = nu;
					a.hv1[k] = nv;
					swe_guard_note(nw, nu, nv, &a.q->bad);
					/* not dry: the tile map keeps the tile and its
					 * neighbours computed */
					if (!(nw <= 0)) {
						wet = true;
						wet_s = wet_s || j < js;
						wet_n = wet_n || j >= jn;
					}
					each_ghost_of(o, kp, col, j, [&](int side, int layer, int m) {
						swe_bc_put(&o, side, kp.bcd.kind[side],
							side_value_dev(kp, side, q->t), c.g, layer, m, nw,
							nu, nv);
					});
				}
			}
		}

		/* slide the window up one row */
		wm = w0;
		hum = hu0;
		hvm = hv0;
		rm = r0;
		drym = dry0;
		dry0 = dry1;
		w0 = w1;
		hu0 = hu1;
		hv0 = hv1;
		w1 = w2;
		hu1 = hu2;
		hv1 = hv2;
		r0 = r1;
		r1 = r2;
		ca0 = cb0;
		ca1 = cb1;
		bw0 = bw1;
		be0 = be1;
		bs0 = bs1;
		bn0 = bn1;
		bmm = bm0;
		bm0 = bm1;
		bm1 = bm2;
		fn0 = fn1;
		sy0 = sy1;
		g0 = g1;
	}
	if (!S2)
		return 0;
	return tile_bands(__ballot_sync(FULL_MASK, wet), __ballot_sync(FULL_MASK, wet_s),
		__ballot_sync(FULL_MASK, wet_n));
}

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

/* One stage on the tiles of the step's list: each warp takes item e (its
 * global warp number, then e + the number of warps, ... when the grid is
 * capped), part e % sp of tile list[e / sp].  A short list splits its tiles
 * into sp parts of consecutive rows (split_of): each cell is still made by
 * the same loop body from the same values, whichever warp walks it, so the
 * bits are those of whole tiles; each part leaves its own flags of the
 * tile map (the first part clears those of parts it has not).  Without the
 * tile map the list holds every tile and sp is 1. */
template <bool S2>
__device__ static __forceinline__ void strip(const kparams_t &kp, ctl_t *q, const step_t &a)
{
	const int lane = threadIdx.x & (WARP - 1), warp = threadIdx.x / WARP;
	const int nw = blockDim.x / WARP;
	const struct swe_view u = gview(kp, a.w, a.hu, a.hv, a.Bc, a.Bm);
	real dt = 0;
	swe_rbits bx = 0, by = 0;
	int run;

	if (S2) {
		if (q->dt == 0) {
			copy_all(kp, q, a);
			return;
		}
		dt = (real)q->dt;
		run = 1;
	} else {
		run = !halted(q);
		/* the next step's list is built after this step (k_tiles) */
		if (kp.tiles && blockIdx.x == 0 && threadIdx.x == 0) {
			a.count1[0] = 0;
			if (a.grab)
				a.count1[2] = a.count1[4] = a.grab[4] = a.grab[5] = 0;
		}
	}
	/* Blocks with no tile of the list leave at once: the grid covers every
	 * tile of the range, the list often a few of them.  The others (at
	 * least block 0) take part in the speeds' reduction and count
	 * themselves for the last-block rule of stage 1. */
	const unsigned int n = run ? *a.count : 0;
	/* with the queue, tiles [nh, n) of the list stand at its end */
	const unsigned int nh = a.grab && kp.tiles ? a.count[2] : n;
	const unsigned int sp = (unsigned int)split_of(kp, n), items = n * sp;
	const unsigned int parts = items == 0 ? 1 :
		min(gridDim.x, (items + (unsigned int)nw - 1) / (unsigned int)nw);
	if (blockIdx.x >= parts)
		return;
	/* with the work queue: item e = the warp's number first, then the
	 * next one not taken (gq[0] counts those taken after the first ones) */
	unsigned int *gq = a.grab ? a.grab + 2 * (S2 ? 1 : 0) : NULL;
	const unsigned int first = parts * (unsigned int)nw;
	for (unsigned int e = blockIdx.x * nw + warp; e < items;
		e = gq ? __shfl_sync(FULL_MASK, lane ? 0u : atomicAdd(gq, 1u) + first, 0) :
			e + gridDim.x * nw) {
		const unsigned int i = e / sp;
		const int t = i < nh ? a.list[i] : a.list[kp.ntx * kp.nty - 1 - (int)(i - nh)];
		const int p = (int)(e % sp);
		const int len = (kp.rows + (int)sp - 1) / (int)sp;
		const int c0 = (t % kp.ntx) * STRIP_OUT, tj0 = kp.jlo + (t / kp.ntx) * kp.rows;
		const int tj1 = min(tj0 + kp.rows, kp.jhi), j0 = tj0 + p * len;
		const int j1 = min(j0 + len, tj1);
		unsigned short wet = 0;
		const long long clk = S2 && a.cost ? clock64() : 0;
		if (j0 < j1)
			wet = walk<S2>(kp, q, a, u, dt, c0, j0, j1, tj0 + 2, tj1 - 2, bx, by);
		if (S2 && a.cost && lane == 0 && p == 0) {
			/* the walk's time orders the next lists (k_tiles) */
			unsigned int w = (unsigned int)min((clock64() - clk) >> 4, 65535LL);
			a.cost[t] = (unsigned short)w;
			atomicAdd(a.grab + 4, w);
			atomicAdd(a.grab + 5, 1u);
		}
		if (S2 && kp.tiles && lane == 0) {
			unsigned short *f = a.wet + (size_t)t * SWE_CUDA_SPLIT;
			f[p] = wet;
			for (int r = (int)sp; r < SWE_CUDA_SPLIT && p == 0; r++)
				f[r] = 0;
		}
	}
	/* the last warp out empties the queue for the next launch */
	if (gq && lane == 0 && atomicAdd(gq + 1, 1u) == first - 1) {
		gq[0] = 0;
		gq[1] = 0;
	}
	block_speeds<S2>(kp, q, a.spd, bx, by, run, parts);
}

__global__ static void STAGE1_BOUNDS k_stage1(kparams_t kp, ctl_t *q, step_t a)
{
	strip<false>(kp, q, a);
}

__global__ static void STAGE2_BOUNDS k_stage2(kparams_t kp, ctl_t *q, step_t a)
{
	strip<true>(kp, q, a);
}

/* ------------------------------------------------------- launch functions */

int swe_cuda_strip_resident_of(const kparams_t *kp, int dev, int stage)
{
	int sms = 1, b = 1;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, stage ? k_stage2 : k_stage1,
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
	long cap = a->grab && kp->qblocks[s2] > 0 ? kp->qblocks[s2] : kp->maxblocks;
	return (int)(cap > 0 && need > cap ? cap : need);
}

int swe_cuda_kernels_init(void)
{
	/* no shared memory to speak of: all of it to the L1 cache */
	if (cudaFuncSetAttribute(k_stage1, cudaFuncAttributePreferredSharedMemoryCarveout,
		    cudaSharedmemCarveoutMaxL1) != cudaSuccess ||
		cudaFuncSetAttribute(k_stage2, cudaFuncAttributePreferredSharedMemoryCarveout,
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

	k.jlo = 0; /* every row */
	k.jhi = kp->ny;
	k_stage1<<<strip_grid(kp, nt, a, 0), WARP * kp->warps, 0, st>>>(*kp, a->q, *a);
	if (kp->integrator == 1) {
		swe_cuda_enqueue_euler(kp, a, st);
		return;
	}
	k_stage2<<<strip_grid(kp, nt, a, 1), WARP * kp->warps, 0, st>>>(*kp, a->q, *a);
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
