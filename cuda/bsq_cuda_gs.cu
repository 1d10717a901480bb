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

/* A thread's part of a k_gs_sweep walk: what it does (fixed) and where it
 * is (cr, par, and PRE's inputs of the next red cell). */
struct gs_walk {
	int tx, ty;   /* its place in the ring R */
	int a, j;     /* its pair and row */
	int kb, ke;   /* the chunk's planes */
	int sy, sz;
	bool live;    /* a pair of the grid (halo pairs 0 and nx/2 + 1 hold one cell each) */
	bool inner;   /* a pair of the tile, both cells inside */
	bool fast;    /* both cells of the pair inside the grid */
	/* a direct sweep's fast pairs: whether the red cell's x neighbours can
	 * be across a face (first: pair 1 when the red cell is cell 1, par 1;
	 * last: pair nx / 2 when it is cell nx, par 0), the offsets of those
	 * neighbours then (tiles of 16 rows: oxm1, oxp0; with 8 rows the
	 * kernel has no registers for them), and of its y neighbours */
	bool first, last;
	int oxm1, oxp0, oym, oyp;
	/* par: the parity of j + k0 + t, the red cell of plane t 2a - par at
	 * cr, and the black cell of plane t - 1 below it, at cr - sz (the red
	 * cell's gather reads it: phi there is not loaded again) */
	int cr, par;
	struct bsq_st7 qn; /* PRE: the next red cell's inputs */
	bsq_real bn;
};

/* The inputs of a fast pair's red cell at index cr (the parity of its plane
 * par), plane t: its six neighbours (q.c is not read) and its right-hand
 * side b.  EDGE: t may be the first or last plane, whose neighbour across
 * the face a direct sweep reads at the cell itself; otherwise it is not. */
template <int PY, bool DIRECT, bool EDGE>
__device__ static __forceinline__ void red_inputs(const struct gs_args &x, const struct gs_walk &w,
	int cr, int par, int t, struct bsq_st7 &q, bsq_real &b)
{
	const bool ofs = PY == 16;
	if (!DIRECT) {
		q = bsq_gather7i(x.in, cr, w.sy, w.sz);
	} else {
		q.c = 0;
		q.xm = x.in[ofs ? cr + (par ? w.oxm1 : -1) : w.first && par ? cr + x.wx : cr - 1];
		q.xp = x.in[ofs ? cr + (par ? 1 : w.oxp0) : w.last && !par ? cr - x.wx : cr + 1];
		q.ym = x.in[cr + w.oym];
		q.yp = x.in[cr + w.oyp];
		q.zm = x.in[!EDGE || t > 1 ? cr - w.sz : cr];
		q.zp = x.in[!EDGE || t < x.g.nz ? cr + w.sz : cr];
	}
	b = x.rhs[cr];
}

/* What k_gs_sweep's PRE loads ahead for the red cell at cr of plane t
 * (parity par): 1 all of red_inputs, 2 its neighbour above and its
 * right-hand side. */
template <int PY, bool DIRECT, int PRE, bool EDGE>
__device__ static __forceinline__ void red_ahead(const struct gs_args &x, struct gs_walk &w,
	int cr, int par, int t)
{
	if (PRE == 1) {
		red_inputs<PY, DIRECT, EDGE>(x, w, cr, par, t, w.qn, w.bn);
	} else if (PRE == 2) {
		w.qn.zp = x.in[!DIRECT || !EDGE || t < x.g.nz ? cr + w.sz : cr];
		w.bn = x.rhs[cr];
	}
}

/* One plane of a walk: the red cells of plane t, a barrier, the black
 * cells of plane t - 1 (file's comment).  EDGE false: plane t lies where no
 * test of the chunk's or the grid's ends is needed (3 <= t <= nz - 2, kb +
 * 1 <= t <= ke: both colours, the planes around inside, PRE's next plane
 * inside). */
template <int PY, bool DIRECT, int PRE, bool EDGE>
__device__ static __forceinline__ void gs_plane(const struct gs_args &x,
	bsq_real (*R)[PY + 2][PX + 2], struct gs_walk &w, int t)
{
	const struct bsq_grid &g = x.g;
	const int par = w.par, sz = w.sz, k = t - 1, c = w.cr - sz;
	const int next = w.cr + sz + 2 * par - 1;
	/* the black cell of plane k and its right-hand side, loaded before
	 * the barrier: after it the black cell waits on shared memory only */
	const bool black = w.inner && (!EDGE || (k >= w.kb && k <= w.ke));
	const bsq_real b = black ? x.rhs[c] : (bsq_real)0;
	bsq_real below = 0; /* phi at c, from the red cell's gather */
	if ((!EDGE || (t >= 1 && t <= g.nz)) && w.live) {
		/* the red cell of this pair in plane t */
		bsq_real v;
		if (w.fast) {
			struct bsq_st7 q;
			bsq_real rb;
			if (PRE == 1) {
				q = w.qn;
				rb = w.bn;
			} else {
				red_inputs<PY, DIRECT, EDGE>(x, w, w.cr, par, t, q, rb);
				if (PRE == 2) {
					q.zp = w.qn.zp;
					rb = w.bn;
				}
			}
			below = q.zm;
			v = bsq_relax(&q, rb, &x.h);
		} else {
			/* (cells -1 and nx + 2 of the halo pairs: never read) */
			const int ir = 2 * w.a - par;
			v = ir >= 0 && ir <= g.nx + 1 ?
				red_at<DIRECT>(x, ir, w.j, t, w.cr, w.sy, sz) : 0;
		}
		R[t & 3][w.ty][w.tx] = v;
	}
	if (PRE && w.fast && (!EDGE || (t + 1 <= g.nz && t + 1 <= w.ke + 1)))
		red_ahead<PY, DIRECT, PRE, EDGE>(x, w, next, par ^ 1, t + 1);
	__syncthreads();
	if (black) {
		/* par = 1: the black cell is 2a - 1, its red pair-mate 2a */
		const int s = k & 3, tx = w.tx, ty = w.ty;
		const bsq_real self = R[s][ty][tx], other = R[s][ty][tx + (par ? -1 : 1)];
		struct bsq_st7 q;
		q.c = !EDGE || k < g.nz ? below : x.in[c];
		q.xm = par ? other : self;
		q.xp = par ? self : other;
		q.ym = R[s][ty - 1][tx];
		q.yp = R[s][ty + 1][tx];
		q.zm = !EDGE || k > 1 ? R[(k - 1) & 3][ty][tx] : DIRECT ? q.c : x.in[c - sz];
		q.zp = !EDGE || k < g.nz ? R[(k + 1) & 3][ty][tx] : DIRECT ? q.c : x.in[c + sz];
		x.out[c] = bsq_relax(&q, b, &x.h);
		x.out[c + (par ? 1 : -1)] = self;
	}
	w.cr = next;
	w.par = par ^ 1;
}

/* Blocks a multiprocessor holds: PRE keeps the next red cell's seven
 * inputs in registers, so fewer blocks.  Tiles of 16 rows: 2 (the walk
 * with its planes inside apart takes 42-48 registers; capped at 32 for
 * three blocks it spilled 68-80 bytes); BSQ_GS_MIN_BLOCKS16=N in NVCCFLAGS
 * at configure time sets it for PRE 0 and 2. */
#ifndef BSQ_GS_MIN_BLOCKS16
#define BSQ_GS_MIN_BLOCKS16 2
#endif
#define GS_MIN_BLOCKS(py, pre) \
	((pre) == 1 ? ((py) == 8 ? 4 : 2) : ((py) == 8 ? BSQ_GS_MIN_BLOCKS : BSQ_GS_MIN_BLOCKS16))

/* The walk of a block (GS_THREADS); on tiles of 16 rows the planes inside
 * the chunk and the grid without gs_plane's tests (EDGE false): the same
 * loads and the same arithmetic in fewer instructions. */
template <int PY, bool DIRECT, int PRE>
__global__ static void __launch_bounds__(GS_THREADS(PY), GS_MIN_BLOCKS(PY, PRE))
	k_gs_sweep(struct gs_args x)
{
	pdl_start();
	static_assert(PX == 32 && PY <= 16, "a warp is a row of the tile");
	__shared__ bsq_real R[4][PY + 2][PX + 2];
	const struct bsq_grid &g = x.g;
	const int wp = (int)threadIdx.x / 32, l = (int)threadIdx.x % 32;
	const bool side = wp == PY + 2;
	const int half = g.nx / 2;
	struct gs_walk w;
	int t;
	w.tx = side ? (l < 16 ? 0 : PX + 1) : l + 1;
	w.ty = side ? l % 16 + 1 : wp < PY ? wp + 1 : wp == PY ? 0 : PY + 1;
	w.a = (int)blockIdx.x * PX + w.tx;
	w.j = (int)blockIdx.y * PY + w.ty;
	w.kb = (int)blockIdx.z * x.nzc + 1;
	w.ke = min(g.nz, w.kb + x.nzc - 1);
	/* indices in 32 bits (fused_ok: fewer than 2^31 values) */
	w.sy = g.nx + 2;
	w.sz = w.sy * (g.ny + 2);
	w.live = (!side || w.ty <= PY) && w.a <= half + 1 && w.j <= g.ny + 1 &&
		!((w.a < 1 || w.a > half) && (w.j < 1 || w.j > g.ny));
	w.inner = wp < PY && w.a <= half && w.j <= g.ny;
	w.fast = w.live && w.a >= 1 && w.a <= half && w.j >= 1 && w.j <= g.ny;
	w.first = DIRECT && w.a == 1;
	w.last = DIRECT && w.a == half;
	w.oxm1 = w.first ? x.wx : -1;
	w.oxp0 = w.last ? -x.wx : 1;
	w.oym = !DIRECT || w.j > 1 ? -w.sy : x.wy;
	w.oyp = !DIRECT || w.j < g.ny ? w.sy : -x.wy;
	w.par = (w.j + x.k0 + w.kb - 1) & 1;
	w.cr = (w.kb - 1) * w.sz + w.j * w.sy + 2 * w.a - w.par;
	w.bn = 0;
	/* PRE: the red cell's inputs of the next plane, loaded before the
	 * barrier (Nsight Compute: the sweep waited on these loads in 41% of
	 * its samples, on the barrier in 27%) */
	if (PRE && w.fast && w.kb - 1 >= 1)
		red_ahead<PY, DIRECT, PRE, true>(x, w, w.cr, w.par, w.kb - 1);
	if (PY != 16) {
		/* tiles of 8 rows (capped at 32 registers): one copy of the
		 * plane (two spilled there) */
		for (t = w.kb - 1; t <= w.ke + 1; t++)
			gs_plane<PY, DIRECT, PRE, true>(x, R, w, t);
		return;
	}
	const int lo = max(3, w.kb + 1), hi = min(g.nz - 2, w.ke);
	for (t = w.kb - 1; t <= w.ke + 1 && t < lo; t++)
		gs_plane<PY, DIRECT, PRE, true>(x, R, w, t);
	for (; t <= hi; t++)
		gs_plane<PY, DIRECT, PRE, false>(x, R, w, t);
	for (; t <= w.ke + 1; t++)
		gs_plane<PY, DIRECT, PRE, true>(x, R, w, t);
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

/* The fewest planes a chunk of k_gs_sweep's walk takes
 * (SPATE_BSQ_GS_LEAST=1 or 2, read at every call; default 1).  One H200,
 * V(2,2) ms with 2 and with 1 (the 64^3 and 32^3 levels then walk three
 * planes instead of four): fp32 256^3 0.567, 0.567 against 0.565, 0.566;
 * 512^3 3.732-3.734 against 3.728-3.732; fp64 256^3 0.926-0.927 against
 * 0.925-0.926; later (twenty-ninth session, one call) fp32 256^3
 * 0.546-0.548 against 0.543-0.545, fp64 0.923 against 0.922. */
static int gs_least(void)
{
	const char *e = getenv("SPATE_BSQ_GS_LEAST");
	return e && atoi(e) == 2 ? 2 : 1;
}

/* One sweep of level l by k_gs_sweep, PY rows a tile, in chunks of at
 * least gs_least() planes; direct (bsq_cuda_direct) or after a fill. */
template <int PY, bool DIRECT, int PRE>
static void smooth_one(struct bsq_level *l, int phi, struct gs_args &x)
{
	static long slots = 0;
	dim3 grid((unsigned)((l->g.nx / 2 + PX - 1) / PX), (unsigned)((l->g.ny + PY - 1) / PY), 1);
	bsq_real *y = l->v[BSQ_TMP];
	if (slots == 0)
		slots = bsq_cuda_slots((const void *)k_gs_sweep<PY, DIRECT, PRE>, GS_THREADS(PY), 0);
	x.nzc = bsq_cuda_wave_planes(l->g.nz, (long)grid.x * grid.y, slots, 1, gs_least(), INT_MAX);
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
 * 0 nothing; 1 its seven inputs; 2 the two that come from memory, the
 * neighbour above and the right-hand side (direct levels only, others take
 * 0: with the filled ghosts' reads it spilled).  Default: in single
 * precision 1 on levels of at most 2^24 interior cells, 2 on larger direct
 * ones; 0 in double precision.  One H200, V(2,2) ms, tiles of 16 rows with
 * the planes inside apart (twenty-eighth session): fp32 256^3 0.581 with 2
 * on the finest level, 0.572-0.573 with 1; 512^3 3.779-3.783 with 2,
 * 3.905-3.916 with 1.  Before it (tiles of 16 rows, 0, 1, 2): fp32 256^3
 * 0.596-0.597, 0.580-0.581, 0.592-0.595; 512^3 3.937-3.939, 3.951-3.952,
 * 3.874-3.880; fp64 256^3 0.927, 0.934, 0.938; 512^3 6.254, 6.262, 6.268. */
static int gs_pre(const struct bsq_level *l, bool direct)
{
	const char *e = getenv("SPATE_BSQ_GS_PRE");
	if (e && *e)
		return atoi(e) == 1 || atoi(e) == 2 ? atoi(e) : 0;
	if (sizeof(bsq_real) > 4)
		return 0;
	return (size_t)l->g.nx * (size_t)l->g.ny * (size_t)l->g.nz <= ((size_t)1 << 24) ? 1 :
		direct ? 2 : 0;
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
