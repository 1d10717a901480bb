/* swe_cuda_dev.h: what the kernel files of the CUDA backend share (CUDA C
 * only: cuda/swe_cuda_kern.cu, the stage kernels, cuda/swe_cuda_cells.cu,
 * the passes over cells around a step, and cuda/swe_cuda_dt.cu, the time
 * step of subdomains): the strip's shape, the speeds' bits, the arrays as a
 * view, the boundary values, the ghosts a cell feeds, the no-op step, the
 * tile map's flags and the step's dt.  Indexing and control only: the
 * formulas are swe_kern.h's, through swe_step.h. */
#ifndef SPATE_SWE_CUDA_DEV_H
#define SPATE_SWE_CUDA_DEV_H

#ifndef __CUDACC__
#error "swe_cuda_dev.h is for the CUDA kernel files"
#endif

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_step.h"
#include "swe_guard.h"
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

/* A no-op step: U^{n+1} = U^n on every cell, ghosts included; nothing
 * when the step before was a no-op too (noop > 1: the control block's
 * count of no-op steps in a row up to this one, set_dt), which left
 * U^n in both copies, and nothing wrote either since (kp.noop_skip: no
 * ghost cell expansion, whose exchanges of many rows may come between two
 * steps; the other writers between two steps, halos of SWE_GHOST rows,
 * store the values both copies hold). */
__device__ static inline void copy_all(const kparams_t &kp, int noop, const step_t &a)
{
	if (kp.noop_skip && noop > 1)
		return;
	long n = (long)gridDim.x * gridDim.y * blockDim.x * blockDim.y;
	long k = ((long)blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
		(long)threadIdx.y * blockDim.x + threadIdx.x;
	for (; k < kp.ncell; k += n) {
		a.w1[k] = a.w[k];
		a.hu1[k] = a.hu[k];
		a.hv1[k] = a.hv[k];
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

/* Those flags from the three ballots (bit = lane = column of the strip). */
__device__ static inline unsigned short tile_bands(unsigned m, unsigned ms, unsigned mn)
{
	const unsigned wcols = 3u << HALO, ecols = 3u << (WARP - HALO - 2);
	return (unsigned short)((m ? TILE_ANY : 0) | (m & wcols ? TILE_W : 0) |
		(m & ecols ? TILE_E : 0) | (ms ? TILE_S : 0) | (mn ? TILE_N : 0) |
		(ms & wcols ? TILE_SW : 0) | (ms & ecols ? TILE_SE : 0) |
		(mn & wcols ? TILE_NW : 0) | (mn & ecols ? TILE_NE : 0));
}

/* Whether rain falls on tile t of the map in this step: its cells get
 * water after the step (k_sources), so the map counts the tile as not dry
 * (a.rtile: the flags of a raster; without one the uniform rate). */
__device__ static inline bool tile_rain(const kparams_t &kp, const step_t &a, int t)
{
	return a.rtile ? a.rtile[t] != 0 : kp.rain_u > 0;
}

/* A step's clock: its dt (0: a no-op step), the time after it, the
 * largest stage-1 speed, the error flag and the count of no-op steps in a
 * row up to it. */
struct step_clock {
	double dt, t1, amax;
	int err, noop;
};

/* That clock from the stage-1 speeds (bits bx, by) and their CFL bounds
 * (qx, qy: swe_cfl_q of the speeds), capped at t_stop (swe_cfl_dt), and
 * the clock the step began with (t, err, noop). */
__device__ static inline struct step_clock clock_of(const kparams_t &kp, double t,
	double t_stop, int err, int noop, swe_rbits bx, swe_rbits by, double qx, double qy)
{
	const double ax = (double)bits_speed(bx), ay = (double)bits_speed(by);
	struct step_clock k;
	double cap = 0, dt = 0;
	k.err = err;
	if (!(t >= t_stop || err)) { /* halted */
		cap = t_stop - t;
		if (bx > SWE_RBITS_INF || by > SWE_RBITS_INF) {
			k.err = 1;
		} else {
			dt = swe_cfl_min(qx, qy, kp.max_dt > 0 && kp.max_dt < cap ? kp.max_dt : cap);
			if (!(dt > 0)) {
				k.err = 1;
				dt = 0;
			}
		}
	}
	k.dt = dt;
	k.t1 = !(dt > 0) ? t : dt >= cap ? t_stop : t + dt;
	k.amax = fmax(ax, ay);
	k.noop = dt > 0 ? 0 : noop < 2 ? noop + 1 : 2;
	return k;
}

/* Write clock k into the control block (one thread); the stage-2 maxima
 * start again at a real RK2 step where reset2. */
__device__ static inline void clock_put(ctl_t *q, const struct step_clock &k, bool reset2)
{
	q->err = k.err;
	if (k.dt > 0) {
		q->t = k.t1;
		q->steps++;
		q->last_dt = k.dt;
		q->amax = k.amax;
		if (reset2) {
			q->ax2 = 0;
			q->ay2 = 0;
		}
	}
	q->noop = k.noop;
	q->dt = k.dt;
	q->done = 0;
}

/* The step's dt from the stage-1 speeds, capped at t_stop (clock_of);
 * dt = 0 marks a no-op step.  One thread, after every stage-1 block
 * (swe_cuda_kern.cu), or after every subdomain's (k_dt_peers).  The
 * per-cell kernels' slots of speeds start again from 0. */
__device__ static inline void set_dt(const kparams_t &kp, ctl_t *q)
{
	swe_rbits bx = atomicExch(&q->ax1, (swe_rbits)0), by = atomicExch(&q->ay1, (swe_rbits)0);
	for (int p = 0; p < 2; p++)
		q->sp[p][0] = q->sp[p][1] = q->qp[p][0] = q->qp[p][1] = 0;
	clock_put(q, clock_of(kp, q->t, q->t_stop, q->err, q->noop, bx, by,
		swe_cfl_q((double)bits_speed(bx), kp.dx, kp.cfl),
		swe_cfl_q((double)bits_speed(by), kp.dy, kp.cfl)), kp.integrator == 2);
}

/* The start of a stage kernel, a warp a tile (swe_cuda_kern.cu) or a
 * thread a cell (swe_cuda_tile.cu).  Stage 2 of a no-op step (dt = 0)
 * copies U^n (copy_all) and gives false.  Else *dt is the step's dt
 * (stage 2) and *run whether stage 1 steps (the clock has not stopped),
 * and in stage 1 the thread `lead` of block 0 resets the counters of the
 * next step's list, which k_tiles builds after this step. */
template <bool S2>
__device__ static inline bool stage_start(const kparams_t &kp, const ctl_t *q, const step_t &a,
	bool lead, real *dt, int *run)
{
	if (S2) {
		if (q->dt == 0) {
			copy_all(kp, q->noop, a);
			return false;
		}
		*dt = (real)q->dt;
		*run = 1;
		return true;
	}
	*run = !halted(q);
	if (kp.tiles && blockIdx.x == 0 && lead) {
		a.count1[0] = 0;
		if (a.grab)
			a.count1[2] = a.count1[4] = a.grab[4] = a.grab[5] = 0;
	}
	return true;
}

/* The largest x- and y-face speeds of the block (of at most NW warps, its
 * threads numbered x first) into *ax, *ay (atomicMax on the bits): the
 * stage kernels, a warp a tile (swe_cuda_kern.cu) or a thread a cell
 * (swe_cuda_tile.cu).  Stage 1: the last of the parts blocks that take
 * part (blocks 0 to parts - 1) to arrive then sets dt; with the per-cell
 * kernels' clock (par >= 0, swe_cuda_step.par) the speeds and their CFL
 * bounds (the least of the blocks' is that of the largest speed,
 * swe_cfl_q) go to the step's slots, and stage 2 takes dt from them. */
template <bool S2, int NW>
__device__ static inline void block_speeds(const kparams_t &kp, ctl_t *q, swe_rbits *spd,
	swe_rbits bx, swe_rbits by, int run, unsigned int parts, int par)
{
	__shared__ swe_rbits red[2][NW];
	const int tid = threadIdx.y * blockDim.x + threadIdx.x;
	int lane = tid & (WARP - 1), warp = tid / WARP, nw = blockDim.x * blockDim.y / WARP;
	for (int o = WARP / 2; o > 0; o >>= 1) {
		bx = bits_max(bx, __shfl_xor_sync(FULL_MASK, bx, o));
		by = bits_max(by, __shfl_xor_sync(FULL_MASK, by, o));
	}
	if (lane == 0) {
		red[0][warp] = bx;
		red[1][warp] = by;
	}
	__syncthreads();
	if (tid != 0)
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
	if (par >= 0) {
		if (run) {
			const double qx = swe_cfl_q((double)bits_speed(bx), kp.dx, kp.cfl);
			const double qy = swe_cfl_q((double)bits_speed(by), kp.dy, kp.cfl);
			atomicMax(&q->sp[par][0], bx);
			atomicMax(&q->sp[par][1], by);
			atomicMax(&q->qp[par][0], ~(unsigned long long)__double_as_longlong(qx));
			atomicMax(&q->qp[par][1], ~(unsigned long long)__double_as_longlong(qy));
		}
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

#endif
