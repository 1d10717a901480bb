/* swe_cuda_kern.cu: the kernels of the CUDA backend and their launch
 * functions (declared in swe_cuda.h; the host side is swe_cuda.cu).
 *
 * Loops, indexing, memory movement and reductions only: every formula comes
 * from swe_kern.h through swe_step.h, so a step here computes what
 * cpu_advance (swe_cpu.c) computes:
 *
 *   k_strip<false>  stage 1: L = L(U^n) on the interior, the ghosts of L
 *                   (swe_bc_put_rate), the largest x- and y-face speeds; the
 *                   last block to finish sets the step's dt (swe_cfl_dt)
 *   k_strip<true>   RK2 second stage: U* = swe_euler_vals(U^n, L) where the
 *                   stencil needs it, L(U*), U^{n+1} = swe_rk2_vals(...), and
 *                   the ghosts of U^{n+1} (swe_bc_put) at the new time
 *   k_euler         forward Euler instead of the second stage
 *   k_tiles         the tile map: which tiles the next step computes
 *   k_bc            ghosts of an uploaded state (once, before the first step)
 *
 * Tiles.  The grid is cut into tiles of SWE_CUDA_STRIP_COLS columns and
 * kp.rows rows.  Each warp of the stage kernels takes a tile of the step's
 * list (several one after the other when the grid is capped at
 * kp.maxblocks); blocks past the list's end return at once.  With
 * early exit (RK2), the list
 * holds only the tiles that are not dry among dry neighbours (k_tiles), so
 * a mostly dry domain costs little; otherwise it holds every tile.
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
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_step.h"
#include "swe_cuda.h"
#include "products_kern.h"
}

#include <cuda_runtime.h>

#define WARP 32
#define FULL_MASK 0xffffffffu
/* Columns a strip borrows on each side, and the columns it updates. */
#define HALO SWE_GHOST
#define STRIP_OUT SWE_CUDA_STRIP_COLS
/* Most warps per block (the block reduction's shared array). */
#define MAX_WARPS 8

typedef struct swe_cuda_ctl ctl_t;
typedef struct swe_cuda_params kparams_t;
typedef struct swe_cuda_step step_t;

/* A speed's bits for an unsigned maximum: -0 becomes +0 (adding zero), NaN
 * keeps its pattern, larger than infinity's, which the time step catches. */
__device__ static inline swe_rbits speed_bits(real a)
{
#ifdef SPATE_DOUBLE
	return (swe_rbits)__double_as_longlong(a + (real)0);
#else
	return (swe_rbits)__float_as_uint(a + (real)0);
#endif
}

__device__ static inline real bits_speed(swe_rbits b)
{
#ifdef SPATE_DOUBLE
	return __longlong_as_double((long long)b);
#else
	return __uint_as_float(b);
#endif
}

__device__ static inline swe_rbits bits_max(swe_rbits a, swe_rbits b)
{
	return a > b ? a : b;
}

/* The global arrays as a view (the stencil layer's indexing). */
__device__ static inline struct swe_view gview(const kparams_t &kp, real *w, real *hu, real *hv,
	const real *Bc, const real *Bm)
{
	struct swe_view v;
	v.w = w;
	v.hu = hu;
	v.hv = hv;
	v.Bc = Bc;
	v.Bm = Bm;
	v.nx = kp.nx;
	v.ny = kp.ny;
	v.pitch = kp.pitch;
	v.cpitch = kp.cpitch;
	v.inv_dx = kp.inv_dx;
	v.inv_dy = kp.inv_dy;
	return v;
}

__device__ static inline int halted(const ctl_t *q)
{
	return q->t >= q->t_stop || q->err;
}

/* Boundary value of one side at time t: level, or inflow per unit width. */
__device__ static inline real side_value_dev(const kparams_t &kp, int side, double t)
{
	const struct swe_bc *b = kp.bc + side;
	if (kp.bcd.kind[side] != SWE_BC_INFLOW)
		return kp.bcd.value[side];
	return (real)(swe_hydrograph(b->t, b->q, kp.bcd.n[side], t) * kp.bcd.scale[side]);
}

/* Call put(side, layer, m) for each ghost cell whose source (swe_bc_cells)
 * is interior cell (i, j): at most a few, and none away from the edges. */
template <class Put>
__device__ static inline void each_ghost_of(const struct swe_view &v, const kparams_t &kp, int i,
	int j, Put put)
{
	long k;
	if (i >= SWE_GHOST && i < v.nx - SWE_GHOST && j >= SWE_GHOST && j < v.ny - SWE_GHOST)
		return;
	k = swe_vidx(&v, i, j);
	for (int side = 0; side < 4; side++) {
		int m = side < 2 ? j : i;
		if (!(kp.sides >> side & 1u))
			continue; /* halo of a subdomain */
		for (int layer = 0; layer < SWE_GHOST; layer++) {
			long g, s;
			swe_bc_cells(&v, side, kp.bcd.kind[side], layer, m, &g, &s);
			if (s == k)
				put(side, layer, m);
		}
	}
}

/* Ghost cells of U: grid (ceil(max(nx,ny)/256), 4 sides, SWE_GHOST layers). */
__global__ static void k_bc(kparams_t kp, const ctl_t *q, step_t a)
{
	int m = blockIdx.x * blockDim.x + threadIdx.x, side = blockIdx.y, layer = blockIdx.z;
	struct swe_view v;
	if (m >= (side < 2 ? kp.ny : kp.nx) || !(kp.sides >> side & 1u))
		return;
	v = gview(kp, a.w, a.hu, a.hv, a.Bc, a.Bm);
	swe_bc_cell(&v, side, kp.bcd.kind[side], side_value_dev(kp, side, q->t), kp.c.g, layer, m);
}

/* The step's dt from the stage-1 speeds (swe_cfl_dt), capped at t_stop;
 * dt = 0 marks a no-op step.  One thread, after every stage-1 block. */
__device__ static void set_dt(const kparams_t &kp, ctl_t *q)
{
	swe_rbits bx = atomicExch(&q->ax1, (swe_rbits)0), by = atomicExch(&q->ay1, (swe_rbits)0);
	double ax = (double)bits_speed(bx), ay = (double)bits_speed(by), cap, dt = 0;
	if (!halted(q)) {
		cap = q->t_stop - q->t;
		if (bx > SWE_RBITS_INF || by > SWE_RBITS_INF) {
			q->err = 1;
		} else {
			dt = swe_cfl_dt(ax, ay, kp.dx, kp.dy, kp.cfl,
				kp.max_dt > 0 && kp.max_dt < cap ? kp.max_dt : cap);
			if (!(dt > 0)) {
				q->err = 1;
				dt = 0;
			}
		}
		if (dt > 0) {
			q->t = dt >= cap ? q->t_stop : q->t + dt;
			q->steps++;
			q->last_dt = dt;
			q->amax = fmax(ax, ay);
			if (kp.integrator == 2) {
				q->ax2 = 0;
				q->ay2 = 0;
			}
		}
	}
	q->dt = dt;
	q->done = 0;
}

/* The time step of a decomposed run on GPUs of one process (device-dt
 * mode): the maxima of the stage-1 speeds of every subdomain (peers[k] + 2
 * slot: {ax, ay} of this step on subdomain k, in device memory that this
 * device can read), then set_dt as on one GPU, so every subdomain takes the
 * same dt as one GPU would.  Also clears this subdomain's slot of the next
 * step (own + 2 (slot ^ 1)): every peer read it a step ago.  One thread. */
__global__ static void k_dt_peers(kparams_t kp, ctl_t *q, swe_rbits *const *peers, int n,
	int slot, swe_rbits *own, const unsigned int *cnt, unsigned long long *acc)
{
	swe_rbits bx = 0, by = 0;
	for (int k = 0; k < n; k++) {
		const volatile swe_rbits *s = peers[k] + 2 * slot;
		bx = bits_max(bx, s[0]);
		by = bits_max(by, s[1]);
	}
	own[2 * (slot ^ 1)] = 0;
	own[2 * (slot ^ 1) + 1] = 0;
	q->ax1 = bx;
	q->ay1 = by;
	set_dt(kp, q);
	if (cnt && q->dt > 0)
		*acc += *cnt;
}

/* A no-op step: U^{n+1} = U^n on every cell, ghosts included. */
__device__ static inline void copy_all(const kparams_t &kp, const step_t &a)
{
	long n = (long)gridDim.x * gridDim.y * blockDim.x * blockDim.y;
	long k = ((long)blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
		(long)threadIdx.y * blockDim.x + threadIdx.x;
	for (; k < kp.ncell; k += n) {
		a.w1[k] = a.w[k];
		a.hu1[k] = a.hu[k];
		a.hv1[k] = a.hv[k];
	}
}

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

/* The tile map's flags of a tile (k_tiles): which parts of it hold a cell
 * that is not dry, from the ballots of its lanes over all its rows (m), its
 * two southern rows (ms) and its two northern rows (mn).  Lanes HALO and
 * HALO+1 hold its two western columns, lanes WARP-HALO-2 and WARP-HALO-1 its
 * two eastern ones. */
enum {
	TILE_ANY = 1, TILE_W = 2, TILE_E = 4, TILE_S = 8, TILE_N = 16,
	TILE_SW = 32, TILE_SE = 64, TILE_NW = 128, TILE_NE = 256
};

__device__ static inline unsigned short tile_bands(unsigned m, unsigned ms, unsigned mn)
{
	const unsigned wcols = 3u << HALO, ecols = 3u << (WARP - HALO - 2);
	return (unsigned short)((m ? TILE_ANY : 0) | (m & wcols ? TILE_W : 0) |
		(m & ecols ? TILE_E : 0) | (ms ? TILE_S : 0) | (mn ? TILE_N : 0) |
		(ms & wcols ? TILE_SW : 0) | (ms & ecols ? TILE_SE : 0) |
		(mn & wcols ? TILE_NW : 0) | (mn & ecols ? TILE_NE : 0));
}

/* One tile of a stage (see the top of the file): the warp's strip of 32
 * columns from c0 - HALO and rows [j0, j0 + kp.rows).  Stage 1 (S2 false)
 * reads U^n and writes L; stage 2 reads U^n and L, makes U* on the fly and
 * writes U^{n+1}.  Returns the tile map's flags of what it wrote (stage 2,
 * tile_bands; 0 in stage 1). */
template <bool S2>
__device__ static inline unsigned short walk(const kparams_t &kp, const ctl_t *q, const step_t &a,
	const struct swe_view &u, real dt, int c0, int j0, swe_rbits &bx, swe_rbits &by)
{
	const int lane = threadIdx.x & (WARP - 1);
	const int col = c0 - HALO + lane, colc = min(col, kp.nx + SWE_GHOST - 1);
	const int jend = min(j0 + kp.rows, kp.jhi);
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
	/* rows j and j+1 of the state (U^n, or U* in stage 2) and their
	 * desingularised inverse depths, computed once per cell as each row
	 * enters the window */
	real w0 = 0, hu0 = 0, hv0 = 0, w1 = 0, hu1 = 0, hv1 = 0, r0 = 0, r1 = 0;
	/* corners at the bottom of row j+1; beds of row j (faces, centre), of
	 * row j+1 (centre) */
	real ca0 = 0, ca1 = 0, bw0 = 0, be0 = 0, bs0 = 0, bn0 = 0, bm0 = 0, bm1 = 0;
	/* north face of row j, its bed source, the flux below row j */
	struct kp07_face fn0 = { 0, 0, 0, 0, 0 };
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
			swe_euler_vals(nw_, nhu, nhv, nLw, nLhu, nLhv, nBm, dt, c, &w2, &hu2, &hv2);
		else {
			w2 = nw_;
			hu2 = nhu;
			hv2 = nhv;
		}
		r2 = kp07_cell_inv_depth(w2, bm2, c.kappa4);
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
		 * the flux below it is the zero flux. */
		bool dry1 = kp.early && w1 <= bm1;
		bool skip = kp.early && j >= j0 && __all_sync(FULL_MASK, drym && dry0 && dry1);
		if (skip) {
			fs1.w = fs1.h = fs1.eta = fs1.hn = fs1.ht = 0;
			fn1 = fs1;
			g1.f0 = 0;
			g1.fn = 0;
			g1.ft = 0;
			g1.a = -(real)0;
			sy1 = 0;
		} else if (j >= j0 - 2) {
			if (stale) {
				struct kp07_face fs0;
				kp07_reconstruct_wd(wm, w0, w1, hvm, hv0, hv1, hum, hu0, hu1, bs0, bn0,
					bw0, be0, bm0, rm, r0, r1, c.theta, &fs0, &fn0);
				sy0 = kp07_bed_source(fs0, fn0, c.g, kp.inv_dy);
				stale = false;
			}
			kp07_reconstruct_wd(w0, w1, w2, hv0, hv1, hv2, hu0, hu1, hu2, bs1, bn1, bw1,
				be1, bm1, r0, r1, r2, c.theta, &fs1, &fn1);
			sy1 = kp07_bed_source(fs1, fn1, c.g, kp.inv_dy);
			g1 = kp07_central_upwind(fn0, fs1, c);
			if (j >= j0 - 1 && upd)
				by = bits_max(by, speed_bits(g1.a));
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
				stale = true;
			} else {
			kp07_reconstruct_wd(__shfl_up_sync(FULL_MASK, w0, 1), w0,
				__shfl_down_sync(FULL_MASK, w0, 1), __shfl_up_sync(FULL_MASK, hu0, 1),
				hu0, __shfl_down_sync(FULL_MASK, hu0, 1),
				__shfl_up_sync(FULL_MASK, hv0, 1), hv0,
				__shfl_down_sync(FULL_MASK, hv0, 1), bw0, be0, bs0, bn0, bm0,
				__shfl_up_sync(FULL_MASK, r0, 1), r0,
				__shfl_down_sync(FULL_MASK, r0, 1), c.theta, &fw, &fe);
			sx = kp07_bed_source(fw, fe, c.g, kp.inv_dx);
			fr.w = __shfl_down_sync(FULL_MASK, fw.w, 1);
			fr.h = __shfl_down_sync(FULL_MASK, fw.h, 1);
			fr.eta = fr.w;
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
						bm0, dt, c, &nw, &nu, &nv);
					a.w1[k] = nw;
					a.hu1[k] = nu;
					a.hv1[k] = nv;
					/* not dry: the tile map keeps the tile and its
					 * neighbours computed */
					if (!(nw <= bm0)) {
						wet = true;
						wet_s = wet_s || j < j0 + 2;
						wet_n = wet_n || j >= jend - 2;
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

/* One stage on the tiles of the step's list: each warp takes tiles
 * list[e], e = its global warp number, then e + the number of warps, ...
 * (when the grid is capped).  Without the tile map the list holds every
 * tile. */
template <bool S2>
__global__ static void __launch_bounds__(WARP * MAX_WARPS) k_strip(kparams_t kp, ctl_t *q, step_t a)
{
	const int lane = threadIdx.x & (WARP - 1), warp = threadIdx.x / WARP;
	const int nw = blockDim.x / WARP;
	const struct swe_view u = gview(kp, a.w, a.hu, a.hv, a.Bc, a.Bm);
	real dt = 0;
	swe_rbits bx = 0, by = 0;
	int run;

	if (S2) {
		if (q->dt == 0) {
			copy_all(kp, a);
			return;
		}
		dt = (real)q->dt;
		run = 1;
	} else {
		run = !halted(q);
		/* the next step's list is built after this step (k_tiles) */
		if (kp.tiles && blockIdx.x == 0 && threadIdx.x == 0)
			*a.count1 = 0;
	}
	/* Blocks with no tile of the list leave at once: the grid covers every
	 * tile of the range, the list often a few of them.  The others (at
	 * least block 0) take part in the speeds' reduction and count
	 * themselves for the last-block rule of stage 1. */
	const unsigned int n = run ? *a.count : 0;
	const unsigned int parts = n == 0 ? 1 :
		min(gridDim.x, (n + (unsigned int)nw - 1) / (unsigned int)nw);
	if (blockIdx.x >= parts)
		return;
	for (unsigned int e = blockIdx.x * nw + warp; e < n; e += gridDim.x * nw) {
		const int t = a.list[e];
		const int c0 = (t % kp.ntx) * STRIP_OUT, j0 = kp.jlo + (t / kp.ntx) * kp.rows;
		const unsigned short wet = walk<S2>(kp, q, a, u, dt, c0, j0, bx, by);
		if (S2 && kp.tiles && lane == 0)
			a.wet[t] = wet;
	}
	block_speeds<S2>(kp, q, a.spd, bx, by, run, parts);
}

/* Forward Euler: U^{n+1} = swe_euler_cell(U^n, L, dt) on the interior, and
 * the ghosts of U^{n+1}.  Blocks of 32 x 8 cells. */
__global__ static void k_euler(kparams_t kp, const ctl_t *q, step_t a)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	struct swe_view u, o;
	real nw, nu, nv;
	long k;
	if (q->dt == 0) {
		copy_all(kp, a);
		return;
	}
	if (i >= kp.nx || j >= kp.ny)
		return;
	u = gview(kp, a.w, a.hu, a.hv, a.Bc, a.Bm);
	o = gview(kp, a.w1, a.hu1, a.hv1, a.Bc, a.Bm);
	k = swe_vidx(&u, i, j);
	swe_euler_cell(&u, a.Lw, a.Lhu, a.Lhv, k, (real)q->dt, kp.c, &nw, &nu, &nv);
	a.w1[k] = nw;
	a.hu1[k] = nu;
	a.hv1[k] = nv;
	each_ghost_of(o, kp, i, j, [&](int side, int layer, int m) {
		swe_bc_put(&o, side, kp.bcd.kind[side], side_value_dev(kp, side, q->t), kp.c.g, layer,
			m, nw, nu, nv);
	});
}

/* Sources after a step (a.w1: the state it made, q: its dt): rain and the
 * Manning raster (swe_sources).  Blocks of 32 x 8 cells. */
__global__ static void k_sources(kparams_t kp, const ctl_t *q, step_t a)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	long k, c;
	real r;
	if (i >= kp.nx || j >= kp.ny || q->dt == 0)
		return;
	k = (long)(j + SWE_GHOST) * kp.pitch + (i + SWE_GHOST);
	c = (long)j * kp.nx + i;
	r = a.rain ? (real)a.rain[c] : kp.rain_u;
	swe_sources(&a.w1[k], &a.hu1[k], &a.hv1[k], a.Bm[k], r, a.n2 ? a.n2[c] : 0, (real)q->dt,
		kp.c);
}

/* Flood products after a step (a.w1: the state it made, q: its t and dt);
 * reset: start them from the state in a.w1 (dt = 0). */
__global__ static void k_products(kparams_t kp, const ctl_t *q, step_t a, struct swe_prod *prod,
	real thr, int reset)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	struct swe_prod pr;
	long k, c;
	if (i >= kp.nx || j >= kp.ny || (!reset && q->dt == 0))
		return;
	/* a tile the step skipped is dry: depth 0 changes no product */
	if (kp.tiles && !reset && !a.act[(j / kp.rows) * kp.ntx + i / STRIP_OUT])
		return;
	k = (long)(j + SWE_GHOST) * kp.pitch + (i + SWE_GHOST);
	c = (long)j * kp.nx + i;
	pr = prod[c];
	if (reset)
		swe_prod_reset(&pr);
	swe_prod_update(&pr, a.w1[k] - a.Bm[k], a.hu1[k], a.hv1[k], kp.c.kappa4, thr, q->t,
		reset ? 0.0 : q->dt);
	prod[c] = pr;
}

/* The tile map after a step, one thread per tile: the next step computes a
 * tile unless no cell that is not dry lay in it or within two cells of it
 * (the stencil: its own flags, the facing bands of its four neighbours and
 * the facing corners of the diagonal ones, tile_bands) in the last three
 * states.  Why three: a skipped tile writes nothing, so the
 * state it keeps in both ping-pong copies must be what a step would write
 * (a dry cell becomes (B, +0, +0), and stays so: swe_finish), and so must
 * the rates L it last wrote, which neighbouring tiles read in stage 2
 * ((-0, +0, +0), the rates of a dry cell among dry ones).  Both hold once
 * the tile was computed in a step that began from a state in which it and
 * its surroundings were dry, and began from such a state again since.
 * Tiles are at least 2 cells wide and high, so the bands of the eight
 * neighbours cover the stencil.  Tiles on a side whose ghosts change with time (a level or
 * an inflow) are always computed.  In a subdomain, so are the tiles within
 * two rows of an internal edge (a south or north side not in kp.sides):
 * their stencil reaches the ghost rows, which the neighbour fills every
 * step and this map does not see; they are launched on their own, first
 * (their halos travel while the rest computes), and left out of the list.
 * Every other tile's stencil then lies in tiles of this map.  The list's
 * order does not matter: each tile computes its cells from the same values
 * whatever the order. */
__global__ static void k_tiles(kparams_t kp, step_t a)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x, tx, ty, any = 0, s, j0, j1;
	bool edge_row;
	if (t >= kp.ntx * kp.nty)
		return;
	tx = t % kp.ntx;
	ty = t / kp.ntx;
	j0 = ty * kp.rows;
	j1 = min(j0 + kp.rows, kp.ny);
	edge_row = (!(kp.sides >> SWE_SOUTH & 1u) && j0 < SWE_GHOST) ||
		(!(kp.sides >> SWE_NORTH & 1u) && j1 > kp.ny - SWE_GHOST);
	any = edge_row;
	/* the flag of neighbour (dx, dy) that faces this tile */
	static const unsigned short facing[3][3] = {
		{ TILE_NE, TILE_N, TILE_NW },   /* dy = -1: the southern row of tiles */
		{ TILE_E, TILE_ANY, TILE_W },
		{ TILE_SE, TILE_S, TILE_SW } }; /* dy = +1 */
	for (int y = max(ty - 1, 0); y <= min(ty + 1, kp.nty - 1); y++)
		for (int x = max(tx - 1, 0); x <= min(tx + 1, kp.ntx - 1); x++)
			any |= (a.wet[y * kp.ntx + x] & facing[y - ty + 1][x - tx + 1]) != 0;
	for (int side = 0; side < 4; side++) {
		int k = kp.bcd.kind[side];
		int edge = side == SWE_WEST ? tx == 0 : side == SWE_EAST ? tx == kp.ntx - 1 :
			side == SWE_SOUTH ? ty == 0 : ty == kp.nty - 1;
		if (edge && (k == SWE_BC_LEVEL || k == SWE_BC_INFLOW))
			any = 1;
	}
	s = any ? 0 : min(a.streak[t] + 1, 3);
	a.streak[t] = (unsigned char)s;
	a.act[t] = s < 3;
	if (s < 3 && !edge_row)
		a.list1[atomicAdd(a.count1, 1u)] = t;
}

/* out[k], out[n + k], out[2n + k] = w, hu, hv at idx[k]. */
__global__ static void k_gather(const long *idx, int n, const real *w, const real *hu,
	const real *hv, real *out)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	if (k >= n)
		return;
	out[k] = w[idx[k]];
	out[n + k] = hu[idx[k]];
	out[2 * n + k] = hv[idx[k]];
}

/* ------------------------------------------------------- launch functions */

void swe_cuda_enqueue_products(const kparams_t *kp, const step_t *a, struct swe_prod *prod,
	real thr, int reset, void *stream)
{
	dim3 b(32, 8), g((kp->nx + 31) / 32, (kp->ny + 7) / 8);
	k_products<<<g, b, 0, (cudaStream_t)stream>>>(*kp, a->q, *a, prod, thr, reset);
}

void swe_cuda_enqueue_gather(const long *idx, int n, const real *w, const real *hu,
	const real *hv, real *out, void *stream)
{
	k_gather<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(idx, n, w, hu, hv, out);
}

void swe_cuda_enqueue_sources(const kparams_t *kp, const step_t *a, void *stream)
{
	dim3 b(32, 8), g((kp->nx + 31) / 32, (kp->ny + 7) / 8);
	step_t o = *a;
	if (!kp->src)
		return;
	k_sources<<<g, b, 0, (cudaStream_t)stream>>>(*kp, a->q, *a);
	/* the ghosts of the new state again, from its updated interior */
	o.w = a->w1;
	o.hu = a->hu1;
	o.hv = a->hv1;
	swe_cuda_enqueue_bc(kp, &o, stream);
}

void swe_cuda_enqueue_tiles(const kparams_t *kp, const step_t *a, void *stream)
{
	int n = kp->ntx * kp->nty;
	if (kp->tiles)
		k_tiles<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(*kp, *a);
}

int swe_cuda_strip_resident(const kparams_t *kp, int dev)
{
	int sms = 1, b1 = 1, b2 = 1, per;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b1, k_strip<false>, WARP * kp->warps, 0);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b2, k_strip<true>, WARP * kp->warps, 0);
	per = b1 < b2 ? b1 : b2;
	return sms * (per < 1 ? 1 : per);
}

/* Blocks for ntiles tiles: one warp each, at most kp->maxblocks (> 0). */
static int strip_grid(const kparams_t *kp, long ntiles)
{
	long need = (ntiles + kp->warps - 1) / kp->warps;
	return (int)(kp->maxblocks > 0 && need > kp->maxblocks ? kp->maxblocks : need);
}

int swe_cuda_kernels_init(void)
{
	/* no shared memory to speak of: all of it to the L1 cache */
	if (cudaFuncSetAttribute(k_strip<false>, cudaFuncAttributePreferredSharedMemoryCarveout,
		    cudaSharedmemCarveoutMaxL1) != cudaSuccess ||
		cudaFuncSetAttribute(k_strip<true>, cudaFuncAttributePreferredSharedMemoryCarveout,
			cudaSharedmemCarveoutMaxL1) != cudaSuccess) {
		spate_log_error("cuda", "cannot set the kernels' attributes: %s",
			cudaGetErrorString(cudaGetLastError()));
		return -SPATE_EDEVICE;
	}
	return 0;
}

void swe_cuda_enqueue_bc(const kparams_t *kp, const step_t *a, void *stream)
{
	int nmax = kp->nx > kp->ny ? kp->nx : kp->ny;
	dim3 grid((nmax + 255) / 256, 4, SWE_GHOST);
	k_bc<<<grid, 256, 0, (cudaStream_t)stream>>>(*kp, a->q, *a);
}

void swe_cuda_enqueue_step(const kparams_t *kp0, const step_t *a, void *stream)
{
	cudaStream_t st = (cudaStream_t)stream;
	kparams_t k = *kp0, *kp = &k;
	int grid = strip_grid(kp, (long)kp->ntx * kp->nty);

	k.jlo = 0; /* every row */
	k.jhi = kp->ny;
	k_strip<false><<<grid, WARP * kp->warps, 0, st>>>(*kp, a->q, *a);
	if (kp->integrator == 1) {
		dim3 eb(32, 8), eg((kp->nx + 31) / 32, (kp->ny + 7) / 8);
		k_euler<<<eg, eb, 0, st>>>(*kp, a->q, *a);
		return;
	}
	k_strip<true><<<grid, WARP * kp->warps, 0, st>>>(*kp, a->q, *a);
}

void swe_cuda_enqueue_stage(const kparams_t *kp, const step_t *a, int s2, int jlo, int jhi,
	void *stream)
{
	kparams_t k = *kp;
	int grid = strip_grid(kp, (long)kp->ntx * ((jhi - jlo + kp->rows - 1) / kp->rows));
	if (jhi <= jlo)
		return;
	k.jlo = jlo;
	k.jhi = jhi;
	if (s2)
		k_strip<true><<<grid, WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, a->q, *a);
	else
		k_strip<false><<<grid, WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, a->q, *a);
}

void swe_cuda_enqueue_list(const kparams_t *kp, const step_t *a, int s2, int ntiles,
	void *stream)
{
	kparams_t k = *kp;
	int grid = strip_grid(kp, ntiles);
	if (ntiles <= 0)
		return;
	k.jlo = 0;
	k.jhi = kp->ny;
	if (s2)
		k_strip<true><<<grid, WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, a->q, *a);
	else
		k_strip<false><<<grid, WARP * kp->warps, 0, (cudaStream_t)stream>>>(k, a->q, *a);
}

void swe_cuda_enqueue_dt_peers(const kparams_t *kp, struct swe_cuda_ctl *q,
	swe_rbits *const *peers, int n, int slot, swe_rbits *own, const unsigned int *cnt,
	unsigned long long *acc, void *stream)
{
	k_dt_peers<<<1, 1, 0, (cudaStream_t)stream>>>(*kp, q, peers, n, slot, own, cnt, acc);
}

void swe_cuda_enqueue_euler(const kparams_t *kp, const step_t *a, void *stream)
{
	dim3 eb(32, 8), eg((kp->nx + 31) / 32, (kp->ny + 7) / 8);
	k_euler<<<eg, eb, 0, (cudaStream_t)stream>>>(*kp, a->q, *a);
}
