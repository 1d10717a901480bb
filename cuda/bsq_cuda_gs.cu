/* bsq_cuda_gs.cu: red-black Gauss-Seidel sweeps of the Boussinesq CUDA
 * backend (bsq_cuda_smooth), both colours in one pass over memory.
 *
 * Two launches a sweep (bsq_cuda_colour: red, then black) each read the
 * whole of phi and of the right-hand side and write half of phi: 24 bytes
 * a cell a colour in double precision, 48 a sweep, where a sweep needs 24
 * (read phi and b once, write phi once).  Here one launch does a sweep, out
 * of place (phi -> BSQ_TMP, then the two are swapped, as a Jacobi sweep
 * does), with the same arithmetic as the two launches: every red value from
 * the old black ones, every black value from the new red ones, each by
 * bsq_relax of bsq_kern.h; so the result is the same to the bit.
 *
 * A block owns a tile of PX pairs of cells along x (cells 2a - 1 and 2a of
 * pair a: one red and one black in every plane) by PY rows, and a chunk of
 * planes (x.nzc, bsq_cuda_wave_planes), which it walks upward as a
 * wavefront: at plane t it computes the red cell of each of its pairs (from the old
 * phi), keeps it in shared memory (a ring of four planes), and, after one
 * barrier, the black cell of plane t - 1 from the red cells around it (the
 * same plane and the planes t - 2 and t), then writes both cells of plane
 * t - 1.  The red cells a black cell needs outside the tile (one pair on
 * each side, one row above and below, one plane below and above the chunk)
 * are computed again by the block from the old phi: blocks never wait for
 * each other.
 *
 * The ghosts the black colour would read after the red pass: on a periodic
 * x or y face the new red cell across it (computed there); on any other
 * face the ghost filled before the sweep, which mirrors the black cell
 * itself (unchanged by the red pass).  Used only where that holds: nx even
 * and ny even or 1 (a pair is two cells; periodic faces keep the colours; a
 * single cell in y is its own neighbour there), z faces not
 * periodic and not a slab's halo (the level is the whole stack on this
 * device); elsewhere the two launches (bsq_cuda_colour).  A direct sweep
 * (bsq_cuda_direct) runs without the fill: it reads every neighbour across
 * a face at the cell the fill would copy there (old_around). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>
extern "C" {
#include "spate.h"
#include "bsq_cuda_dev.h"
}
#include "bsq_cuda_launch.h"
#include "bsq_cuda_gs.h"

#include <cuda_runtime.h>
#include <limits.h>

/* Rows of a tile (SPATE_BSQ_GS_ROWS=8 or 16): in single precision 16 (one
 * H200, V(2,2) 512^3 4.20-4.21 ms against 4.28-4.29 with 8 in chunks of at
 * most 16 planes; in those of bsq_cuda_wave_planes 4.215-4.221 against
 * 4.205, 256^3 0.735 against 0.734: the same), in double precision 8. */
#ifndef BSQ_GS_ROWS
#ifdef BSQ_SINGLE
#define BSQ_GS_ROWS 16
#else
#define BSQ_GS_ROWS 8
#endif
#endif
/* Blocks of 8 rows a multiprocessor must hold at once: registers capped
 * to fit (when it was set, 32 instead of 46, four bytes spilled; one H200,
 * one call, two runs each, V(2,2) 512^3 fp64: 8.41, 8.56 ms uncapped,
 * 7.74, 7.64 ms with 5; 256^3 1.52, 1.56 against 1.45, 1.42 ms; the kernel
 * now takes 30 without a cap).  Blocks of 16 rows: 3 (30 registers).
 * NVCCFLAGS=-DBSQ_GS_MIN_BLOCKS=N at configure time sets the first (1: no
 * cap). */
#ifndef BSQ_GS_MIN_BLOCKS
#define BSQ_GS_MIN_BLOCKS 5
#endif

/* The old phi around interior cell c = (i, j, k) (strides sy, sz).  A
 * sweep that fills first (DIRECT false) reads the ghosts; a direct one
 * reads a neighbour across a face at its source, the cell whose value the
 * fill would copy there (fill_ghost): the cell itself across a Neumann
 * face, the cell on the opposite side across a periodic one (x.wx, x.wy
 * elements from the first cell; z is never periodic here). */
template <bool DIRECT>
__device__ static __forceinline__ struct bsq_st7 old_around(const struct gs_args &x, int i,
	int j, int k, int c, int sy, int sz)
{
	return DIRECT ? gather_src(x.in, x.g, i, j, k, c, sy, sz, x.wx, x.wy, 0) :
		bsq_gather7i(x.in, c, sy, sz);
}

/* The value a black neighbour reads at cell (i, j, k) of the red colour,
 * 0 <= i <= nx + 1, 0 <= j <= ny + 1, 1 <= k <= nz, not both outside: the
 * new red value inside; across a periodic face the new red value of the
 * cell it wraps to; across another face the filled ghost, or, in a direct
 * sweep, its source (old_around), the black cell itself. */
template <bool DIRECT>
__device__ static bsq_real red_value(const struct gs_args &x, int i, int j, int k)
{
	const struct bsq_grid &g = x.g;
	const int sy = g.nx + 2, sz = sy * (g.ny + 2);
	int oi = i < 1 || i > g.nx, oj = j < 1 || j > g.ny;
	if ((oi && !x.px) || (oj && !x.py)) {
		if (DIRECT) {
			i = i < 1 ? 1 : i > g.nx ? g.nx : i;
			j = j < 1 ? 1 : j > g.ny ? g.ny : j;
		}
		return x.in[i + sy * j + sz * k];
	}
	if (oi)
		i = i < 1 ? g.nx : 1;
	if (oj)
		j = j < 1 ? g.ny : 1;
	const int c = i + sy * j + sz * k;
	const struct bsq_st7 q = old_around<DIRECT>(x, i, j, k, c, sy, sz);
	return bsq_relax(&q, x.rhs[c], &x.h);
}

/* The same at index c of cell (i, j, k) (strides sy, sz), in 32 bits: the
 * cells inside directly, those outside through red_value. */
template <bool DIRECT>
__device__ static __forceinline__ bsq_real red_at(const struct gs_args &x, int i, int j, int k,
	int c, int sy, int sz)
{
	if (i >= 1 && i <= x.g.nx && j >= 1 && j <= x.g.ny) {
		const struct bsq_st7 q = old_around<DIRECT>(x, i, j, k, c, sy, sz);
		return bsq_relax(&q, x.rhs[c], &x.h);
	}
	return red_value<DIRECT>(x, i, j, k);
}

/* Threads of a k_gs_sweep block: warp w < PY relaxes row w + 1 of the
 * ring R (the tile's row w), warps PY and PY + 1 the rows below and above
 * the tile (red cells only), and warp PY + 2 the pairs left (lanes 0 to
 * PY - 1) and right (lanes 16 to 15 + PY) of it.  A warp is one row of 32
 * pairs: its loads and stores of a colour span 64 cells of one row, and
 * the black pass runs on PY warps, every lane busy. */
#define GS_THREADS(py) (32 * ((py) + 3))

/* The inputs of a fast pair's red cell at index cr of plane t (par: the
 * parity of its plane, as in k_gs_sweep): its six neighbours (q.c is not
 * read) and its right-hand side b. */
template <bool DIRECT>
__device__ static __forceinline__ void red_inputs(const struct gs_args &x, int cr, int par, int t,
	bool first, bool last, int oym, int oyp, int sz, struct bsq_st7 &q, bsq_real &b)
{
	if (!DIRECT) {
		q = bsq_gather7i(x.in, cr, x.g.nx + 2, sz);
	} else {
		q.c = 0;
		q.xm = x.in[first && par ? cr + x.wx : cr - 1];
		q.xp = x.in[last && !par ? cr - x.wx : cr + 1];
		q.ym = x.in[cr + oym];
		q.yp = x.in[cr + oyp];
		q.zm = x.in[t > 1 ? cr - sz : cr];
		q.zp = x.in[t < x.g.nz ? cr + sz : cr];
	}
	b = x.rhs[cr];
}

/* What k_gs_sweep's PRE loads ahead for the red cell at cr of plane t:
 * 1 all of red_inputs, 2 its neighbour above and its right-hand side. */
template <bool DIRECT, int PRE>
__device__ static __forceinline__ void red_ahead(const struct gs_args &x, int cr, int par, int t,
	bool first, bool last, int oym, int oyp, int sz, struct bsq_st7 &q, bsq_real &b)
{
	if (PRE == 1) {
		red_inputs<DIRECT>(x, cr, par, t, first, last, oym, oyp, sz, q, b);
	} else if (PRE == 2) {
		q.zp = x.in[!DIRECT || t < x.g.nz ? cr + sz : cr];
		b = x.rhs[cr];
	}
}

/* Blocks a multiprocessor holds: PRE keeps the next red cell's seven
 * inputs in registers, so fewer blocks. */
#define GS_MIN_BLOCKS(py, pre) \
	((pre) == 1 ? ((py) == 8 ? 4 : 2) : ((py) == 8 ? BSQ_GS_MIN_BLOCKS : 3))

template <int PY, bool DIRECT, int PRE>
__global__ static void __launch_bounds__(GS_THREADS(PY), GS_MIN_BLOCKS(PY, PRE))
	k_gs_sweep(struct gs_args x)
{
	pdl_start();
	static_assert(PX == 32 && PY <= 16, "a warp is a row of the tile");
	__shared__ bsq_real R[4][PY + 2][PX + 2];
	const struct bsq_grid &g = x.g;
	const int w = (int)threadIdx.x / 32, l = (int)threadIdx.x % 32;
	const bool side = w == PY + 2;
	const int tx = side ? (l < 16 ? 0 : PX + 1) : l + 1;
	const int ty = side ? l % 16 + 1 : w < PY ? w + 1 : w == PY ? 0 : PY + 1;
	const int a = (int)blockIdx.x * PX + tx, j = (int)blockIdx.y * PY + ty;
	const int kb = (int)blockIdx.z * x.nzc + 1;
	const int ke = min(g.nz, kb + x.nzc - 1);
	const int half = g.nx / 2;
	/* a pair of the grid (halo pairs 0 and nx/2 + 1 hold one cell each) */
	const bool live = (!side || ty <= PY) && a <= half + 1 && j <= g.ny + 1 &&
		!((a < 1 || a > half) && (j < 1 || j > g.ny));
	const bool inner = w < PY && a <= half && j <= g.ny;
	/* both cells of a fast pair are inside the grid */
	const bool fast = live && a >= 1 && a <= half && j >= 1 && j <= g.ny;
	/* indices in 32 bits (fused_ok: fewer than 2^31 values); par: the
	 * parity of j + k0 + t, the red cell of plane t 2a - par at cr, and
	 * the black cell of plane t - 1 below it, at cr - sz (the red cell's
	 * gather reads it: phi there is not loaded again) */
	const int sy = g.nx + 2, sz = sy * (g.ny + 2);
	/* a direct sweep's fast pairs: the offsets of the red cell's y
	 * neighbours, and whether its x neighbours can be across a face (pair
	 * 1 when the red cell is cell 1, pair nx / 2 when it is cell nx) */
	const int oym = !DIRECT || j > 1 ? -sy : x.wy, oyp = !DIRECT || j < g.ny ? sy : -x.wy;
	const bool first = DIRECT && a == 1, last = DIRECT && a == half;
	int t, par = (j + x.k0 + kb - 1) & 1, cr = (kb - 1) * sz + j * sy + 2 * a - par;
	/* PRE: the red cell's inputs of the next plane, loaded before the
	 * barrier (Nsight Compute: the sweep waited on these loads in 41% of
	 * its samples, on the barrier in 27%) */
	struct bsq_st7 qn;
	bsq_real bn = 0;
	if (PRE && fast && kb - 1 >= 1)
		red_ahead<DIRECT, PRE>(x, cr, par, kb - 1, first, last, oym, oyp, sz, qn, bn);
	for (t = kb - 1; t <= ke + 1; t++, cr += sz + 2 * par - 1, par ^= 1) {
		/* the black cell of plane k and its right-hand side, loaded before
		 * the barrier: after it the black cell waits on shared memory only */
		const int k = t - 1, c = cr - sz;
		const bool black = inner && k >= kb && k <= ke;
		const bsq_real b = black ? x.rhs[c] : (bsq_real)0;
		bsq_real below = 0; /* phi at c, from the red cell's gather */
		if (t >= 1 && t <= g.nz && live) {
			/* the red cell of this pair in plane t */
			bsq_real v;
			if (fast) {
				struct bsq_st7 q;
				bsq_real rb;
				if (PRE == 1) {
					q = qn;
					rb = bn;
				} else {
					red_inputs<DIRECT>(x, cr, par, t, first, last, oym, oyp, sz,
						q, rb);
					if (PRE == 2) {
						q.zp = qn.zp;
						rb = bn;
					}
				}
				below = q.zm;
				v = bsq_relax(&q, rb, &x.h);
			} else {
				/* (cells -1 and nx + 2 of the halo pairs: never read) */
				const int ir = 2 * a - par;
				v = ir >= 0 && ir <= g.nx + 1 ?
					red_at<DIRECT>(x, ir, j, t, cr, sy, sz) : 0;
			}
			R[t & 3][ty][tx] = v;
		}
		if (PRE && fast && t + 1 <= g.nz && t + 1 <= ke + 1)
			red_ahead<DIRECT, PRE>(x, cr + sz + 2 * par - 1, par ^ 1, t + 1, first, last,
				oym, oyp, sz, qn, bn);
		__syncthreads();
		if (black) {
			/* par = 1: the black cell is 2a - 1, its red pair-mate 2a */
			const int s = k & 3;
			const bsq_real self = R[s][ty][tx], other = R[s][ty][tx + (par ? -1 : 1)];
			struct bsq_st7 q;
			q.c = k < g.nz ? below : x.in[c];
			q.xm = par ? other : self;
			q.xp = par ? self : other;
			q.ym = R[s][ty - 1][tx];
			q.yp = R[s][ty + 1][tx];
			q.zm = k > 1 ? R[(k - 1) & 3][ty][tx] : DIRECT ? q.c : x.in[c - sz];
			q.zp = k < g.nz ? R[(k + 1) & 3][ty][tx] : DIRECT ? q.c : x.in[c + sz];
			x.out[c] = bsq_relax(&q, b, &x.h);
			x.out[c + (par ? 1 : -1)] = self;
		}
	}
}

/* Whether the one-pass sweeps run (0: the two launches a sweep,
 * SPATE_BSQ_GS=colours, for comparison). */
static int gs_fused(void)
{
	static int fused = -1;
	if (fused < 0) {
		const char *e = getenv("SPATE_BSQ_GS");
		fused = !(e && strcmp(e, "colours") == 0);
	}
	return fused;
}

/* Whether one launch can do a sweep of level l (the file's comment). */
static bool fused_ok(const struct bsq_level *l)
{
	const int *k = l->ghost;
	return gs_fused() && l->g.nx % 2 == 0 && (l->g.ny % 2 == 0 || l->g.ny == 1) &&
		l->g.nz >= 1 && bsq_count(&l->g) < (size_t)INT_MAX &&
		k[BSQ_ZM] != BSQ_GHOST_PERIODIC && k[BSQ_ZM] != BSQ_GHOST_HALO &&
		k[BSQ_ZP] != BSQ_GHOST_PERIODIC && k[BSQ_ZP] != BSQ_GHOST_HALO;
}

/* One sweep of level l by k_gs_sweep, PY rows a tile, in chunks of at
 * least 2 planes; direct (bsq_cuda_direct) or after a fill. */
template <int PY, bool DIRECT, int PRE>
static void smooth_one(struct bsq_level *l, int phi, struct gs_args &x)
{
	static long slots = 0;
	dim3 grid((unsigned)((l->g.nx / 2 + PX - 1) / PX), (unsigned)((l->g.ny + PY - 1) / PY), 1);
	bsq_real *y = l->v[BSQ_TMP];
	if (slots == 0)
		slots = bsq_cuda_slots((const void *)k_gs_sweep<PY, DIRECT, PRE>, GS_THREADS(PY), 0);
	x.nzc = bsq_cuda_wave_planes(l->g.nz, (long)grid.x * grid.y, slots, 1, 2, INT_MAX);
	grid.z = (unsigned)((l->g.nz + x.nzc - 1) / x.nzc);
	if (!DIRECT)
		bsq_cuda_ghosts(l, phi);
	x.in = l->v[phi];
	x.out = y;
	bsq_launch(k_gs_sweep<PY, DIRECT, PRE>, grid, dim3(GS_THREADS(PY)), 0, bsq_cuda_now, x);
	l->v[BSQ_TMP] = l->v[phi];
	l->v[phi] = y;
}

/* One sweep of level l with tiles of PY rows, direct or not, loading ahead
 * as pre says (gs_pre). */
template <int PY>
static void smooth_rows(struct bsq_level *l, int phi, struct gs_args &x, bool direct, int pre)
{
	if (direct && pre == 1)
		smooth_one<PY, true, 1>(l, phi, x);
	else if (direct && pre == 2)
		smooth_one<PY, true, 2>(l, phi, x);
	else if (direct)
		smooth_one<PY, true, 0>(l, phi, x);
	else if (pre == 1)
		smooth_one<PY, false, 1>(l, phi, x);
	else
		smooth_one<PY, false, 0>(l, phi, x);
}

/* Rows of a k_gs_sweep tile (BSQ_GS_ROWS; SPATE_BSQ_GS_ROWS=8 or 16 read
 * at every call: a test runs both). */
static int sweep_rows(void)
{
	const char *e = getenv("SPATE_BSQ_GS_ROWS");
	const int r = e && *e ? atoi(e) : BSQ_GS_ROWS;
	return r == 16 || r == 8 ? r : BSQ_GS_ROWS;
}

/* What k_gs_sweep loads for the next plane's red cell before the barrier
 * (SPATE_BSQ_GS_PRE=0, 1 or 2, read at every call: a test runs all three):
 * 0 nothing; 1 its seven inputs (two blocks of 16 rows a multiprocessor
 * instead of three); 2 the two that come from memory, the neighbour above
 * and the right-hand side (32 registers; direct levels only, others take 0:
 * with the filled ghosts' reads it spilled).  Default: in
 * single precision 1 on levels of at most 2^24 cells, 2 on larger direct
 * ones; 0 in double precision.  One H200, V(2,2) ms with 0, 1, 2: fp32
 * 256^3 0.596-0.597, 0.580-0.581, 0.592-0.595; 512^3 3.937-3.939,
 * 3.951-3.952, 3.874-3.880; fp64 256^3 0.927, 0.934, 0.938; 512^3 6.254,
 * 6.262, 6.268. */
static int gs_pre(const struct bsq_level *l, bool direct)
{
	const char *e = getenv("SPATE_BSQ_GS_PRE");
	if (e && *e)
		return atoi(e) == 1 || atoi(e) == 2 ? atoi(e) : 0;
	if (sizeof(bsq_real) > 4)
		return 0;
	return bsq_count(&l->g) <= ((size_t)1 << 24) ? 1 : direct ? 2 : 0;
}

extern "C" void bsq_cuda_smooth(struct bsq_level *l, int phi, int rhs, int sweeps)
{
	const int rows = sweep_rows();
	const bool direct = bsq_cuda_direct(l);
	const int pre = gs_pre(l, direct);
	const struct wrap2 w = bsq_cuda_wrap(l);
	struct gs_args x;
	int s, red, rows2;
	if (!fused_ok(l) || phi == BSQ_TMP || rhs == BSQ_TMP) {
		for (s = 0; s < sweeps; s++)
			for (red = 0; red < 2; red++)
				bsq_cuda_colour(l, phi, rhs, red);
		return;
	}
	memset(&x, 0, sizeof x);
	x.h = l->h;
	x.g = l->g;
	x.k0 = l->k0;
	x.px = l->ghost[BSQ_XM] == BSQ_GHOST_PERIODIC;
	/* one cell in y: its y ghosts mirror the cell itself, periodic or not */
	x.py = l->ghost[BSQ_YM] == BSQ_GHOST_PERIODIC && l->g.ny > 1;
	x.wx = w.wx;
	x.wy = w.wy;
	x.rhs = l->v[rhs];
	for (rows2 = bsq_cuda_two_rows(l); sweeps >= 2 && rows2 > 0; sweeps -= 2)
		bsq_cuda_smooth_two(l, phi, x, rows2);
	for (s = 0; s < sweeps; s++) {
		if (rows == 16)
			smooth_rows<16>(l, phi, x, direct, pre);
		else
			smooth_rows<8>(l, phi, x, direct, pre);
	}
}
