/* swe_cuda_cells.cu: the passes over cells around a step of the CUDA
 * backend, and their launch functions (declared in swe_cuda.h; the stage
 * kernels are in swe_cuda_kern.cu):
 *
 *   k_euler      forward Euler instead of the second stage
 *   k_sources    rain and the Manning raster after a step
 *   k_products   the flood products after a step
 *   k_tiles      the tile map: which tiles the next step computes
 *   k_rain_tiles the tiles on which a rain raster falls (for k_tiles)
 *   k_bc         ghosts of an uploaded state (once, before the first step)
 *   k_gather     cells of the gauges
 *   k_gauges     the gauges' maxima and rows after a step
 *
 * One thread per cell (per tile for the map, per ghost cell for k_bc);
 * every formula comes from swe_kern.h through swe_step.h. */
#include "swe_cuda_dev.h"
#include "gauge_kern.h"

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

/* Forward Euler: U^{n+1} = swe_euler_cell(U^n, L, dt) on the interior, and
 * the ghosts of U^{n+1}.  Blocks of 32 x 8 cells. */
__global__ static void k_euler(kparams_t kp, const ctl_t *q, step_t a)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	struct swe_view u, o;
	real nw, nu, nv;
	long k;
	if (q->dt == 0) {
		copy_all(kp, q->noop, a);
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
	swe_guard_note(nw, nu, nv, &a.q->bad);
	each_ghost_of(o, kp, i, j, [&](int side, int layer, int m) {
		swe_bc_put(&o, side, kp.bcd.kind[side], side_value_dev(kp, side, q->t), kp.c.g, layer,
			m, nw, nu, nv);
	});
}

/* Sources after a step (a.w1: the state it made, q: its dt): rain and the
 * Manning raster (swe_sources).  Row j is row j + j0 of the tile map
 * (rows [0, mrows)): a cell of a tile the step skipped is dry, (0, +0, +0),
 * and swe_sources leaves it so where no rain falls (friction acts only
 * above the dry depth), so such tiles are passed over.  Blocks of 32 x 8
 * cells. */
__global__ static void k_sources(kparams_t kp, const ctl_t *q, step_t a, int j0, int mrows)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	long k, c;
	real r;
	if (i >= kp.nx || j >= kp.ny || q->dt == 0)
		return;
	if (kp.tiles && j + j0 >= 0 && j + j0 < mrows) {
		int t = (j + j0) / kp.rows * kp.ntx + i / STRIP_OUT;
		if (!a.act[t] && !tile_rain(kp, a, t))
			return;
	}
	k = (long)(j + SWE_GHOST) * kp.pitch + (i + SWE_GHOST);
	c = (long)j * kp.nx + i;
	r = a.rain ? (real)a.rain[c] : kp.rain_u;
	swe_sources(&a.w1[k], &a.hu1[k], &a.hv1[k], r, a.n2 ? a.n2[c] : 0, (real)q->dt,
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
	/* a tile the step skipped is dry, and stays so unless rain fell on it
	 * after the step: depth 0 changes no product */
	if (kp.tiles && !reset) {
		int t = (j / kp.rows) * kp.ntx + i / STRIP_OUT;
		if (!a.act[t] && !tile_rain(kp, a, t))
			return;
	}
	k = (long)(j + SWE_GHOST) * kp.pitch + (i + SWE_GHOST);
	c = (long)j * kp.nx + i;
	pr = prod[c];
	if (reset)
		swe_prod_reset(&pr);
	swe_prod_update(&pr, a.w1[k], a.hu1[k], a.hv1[k], kp.c.kappa4, thr, q->t,
		reset ? 0.0 : q->dt);
	prod[c] = pr;
}

/* The tile map after a step, one thread per tile: the next step computes a
 * tile unless no cell that is not dry lay in it or within two cells of it
 * (the stencil: its own flags, the facing bands of its four neighbours and
 * the facing corners of the diagonal ones, tile_bands) in the last three
 * states.  Why three: a skipped tile writes nothing, so the
 * state it keeps in both ping-pong copies must be what a step would write
 * (a dry cell becomes (0, +0, +0), and stays so: swe_finish), and so must
 * the rates L it last wrote, which neighbouring tiles read in stage 2
 * ((-0, +0, +0), the rates of a dry cell among dry ones).  Both hold once
 * the tile was computed in a step that began from a state in which it and
 * its surroundings were dry, and began from such a state again since.
 * Tiles are at least 2 cells wide and high, so the bands of the eight
 * neighbours cover the stencil.  Rain: the flags come from the state the
 * stages made, before the sources (k_sources) add the rain, so a tile on
 * which rain falls in this step (tile_rain, the rain the sources of this
 * step used) counts as not dry for itself and its eight neighbours; with
 * rain that changes between steps, a tile skipped in a step that brought
 * its first rain is dry before the sources (it and its surroundings were),
 * and is computed from the next step on.  Tiles on a side whose ghosts
 * change with time (a level or an inflow) are always computed.  In a subdomain, so are the tiles within
 * two rows of an internal edge (a south or north side not in kp.sides):
 * their stencil reaches the ghost rows, which the neighbour fills every
 * step and this map does not see; they are launched on their own, first
 * (their halos travel while the rest computes), and left out of the list.
 * Every other tile's stencil then lies in tiles of this map.  The list's
 * order does not matter: each tile computes its cells from the same values
 * whatever the order.  The streak and the activity flag of an edge tile
 * are those of its own cells (act 2: computed for the edge alone), so that
 * the work measured (swe_cuda_sub_rows.cu) shows where the flood is, not
 * where the subdomains meet. */
__global__ static void k_tiles(kparams_t kp, step_t a)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= kp.ntx * kp.nty)
		return;
	const int ty = t / kp.ntx, tx = t - ty * kp.ntx;
	const int j0 = ty * kp.rows, j1 = min(j0 + kp.rows, kp.ny);
	const bool edge_row = (!(kp.sides >> SWE_SOUTH & 1u) && j0 < SWE_GHOST) ||
		(!(kp.sides >> SWE_NORTH & 1u) && j1 > kp.ny - SWE_GHOST);
	/* the flag of neighbour (dx, dy) that faces this tile */
	const unsigned short facing[3][3] = {
		{ TILE_NE, TILE_N, TILE_NW },   /* dy = -1: the southern row of tiles */
		{ TILE_E, TILE_ANY, TILE_W },
		{ TILE_SE, TILE_S, TILE_SW } }; /* dy = +1 */
	/* Every load before any of their values is used, so that a thread
	 * waits for memory once, not once a neighbour (the loops unrolled over
	 * the nine tiles, a neighbour outside the map read at the nearest tile
	 * and left out after): at Malpasset's 7,192 tiles this kernel was 5 us
	 * of a 42 us step (one H200, doc/bench/kernel.md). */
	const unsigned char streak = a.streak[t];
	const bool by_cost = a.grab && !kp.wet_first; /* the walks' order (below) */
	const unsigned long long cost = by_cost ? a.cost[t] : 0;
	const unsigned long long gsum = by_cost ? a.grab[4] : 0, gn = by_cost ? a.grab[5] : 0;
	unsigned short m[3][3];
	bool rain[3][3];
#pragma unroll
	for (int dy = 0; dy < 3; dy++)
#pragma unroll
		for (int dx = 0; dx < 3; dx++) {
			const int y = min(max(ty + dy - 1, 0), kp.nty - 1);
			const int x = min(max(tx + dx - 1, 0), kp.ntx - 1);
			/* the flags of the tile's parts (k_stage2) */
			const unsigned short *f = a.wet + (size_t)(y * kp.ntx + x) * SWE_CUDA_SPLIT;
			unsigned short o = 0;
#pragma unroll
			for (int r = 0; r < SWE_CUDA_SPLIT; r++)
				o |= f[r];
			m[dy][dx] = o;
			rain[dy][dx] = tile_rain(kp, a, y * kp.ntx + x);
		}
	bool any = false;
#pragma unroll
	for (int dy = 0; dy < 3; dy++)
#pragma unroll
		for (int dx = 0; dx < 3; dx++) {
			const int y = ty + dy - 1, x = tx + dx - 1;
			if (y >= 0 && y < kp.nty && x >= 0 && x < kp.ntx)
				any |= (m[dy][dx] & facing[dy][dx]) != 0 || rain[dy][dx];
		}
	for (int side = 0; side < 4; side++) {
		int k = kp.bcd.kind[side];
		int edge = side == SWE_WEST ? tx == 0 : side == SWE_EAST ? tx == kp.ntx - 1 :
			side == SWE_SOUTH ? ty == 0 : ty == kp.nty - 1;
		if (edge && (k == SWE_BC_LEVEL || k == SWE_BC_INFLOW))
			any = true;
	}
	const int s = any ? 0 : min(streak + 1, 3);
	a.streak[t] = (unsigned char)s;
	a.act[t] = s < 3 ? 1 : edge_row ? 2 : 0;
	/* The next list: the tiles that stay (s < 3), not the edge rows.  With
	 * the queue the long walks first, from the list's start (count[2]),
	 * and the others from its end (count[4]; swe_cuda.h); in the per-cell
	 * kernels' batches the tiles with water first: they take longest, and
	 * the blocks that end early fill in with the dry ones.  One atomic a
	 * warp for each end, the lanes' slots by their rank in the warp: the
	 * counts are the step's most contended addresses (one H200, Malpasset
	 * 10 m: 2.452-2.462 s against 2.459-2.470 s with one a tile). */
	const bool listed = s < 3 && !edge_row;
	const bool crit = by_cost ? cost * gn >= gsum : m[1][1] != 0;
	const bool front = listed && (!a.grab || crit), back = listed && a.grab && !crit;
	const unsigned int mask = __activemask();
	const unsigned int fm = __ballot_sync(mask, front), bm = __ballot_sync(mask, back);
	const int lane = threadIdx.x & (WARP - 1), lead = __ffs(mask) - 1;
	const unsigned int below = (1u << lane) - 1;
	unsigned int fb = 0, bb = 0;
	if (lane == lead) {
		if (fm)
			fb = atomicAdd(a.count1 + (a.grab ? 2 : 0), (unsigned int)__popc(fm));
		if (bm)
			bb = atomicAdd(a.count1 + 4, (unsigned int)__popc(bm));
		if (a.grab && (fm | bm))
			atomicAdd(a.count1, (unsigned int)__popc(fm | bm));
	}
	fb = __shfl_sync(mask, fb, lead);
	bb = __shfl_sync(mask, bb, lead);
	if (front)
		a.list1[fb + __popc(fm & below)] = t;
	if (back)
		a.list1[kp.ntx * kp.nty - 1 - (int)(bb + __popc(bm & below))] = t;
}

/* The flags of the tiles on which rain falls (rtile zeroed before): one
 * thread per cell of the map's rows.  Blocks of 32 x 8 cells. */
__global__ static void k_rain_tiles(kparams_t kp, const float *rain, unsigned char *rtile)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < kp.nx && j < kp.ny && rain[(long)j * kp.nx + i] > 0)
		rtile[(j / kp.rows) * kp.ntx + i / STRIP_OUT] = 1;
}

/* The gauges after a step: a thread per sampled cell (those of other
 * subdomains skipped); block 0 alone
 * reads and writes the clock and records the row (its threads decide from
 * the clock as it was before any of them wrote it). */
__global__ static void k_gauges(struct swe_cuda_gauges g, const ctl_t *q, step_t a)
{
	long ns = (long)g.n * g.per, s = (long)blockIdx.x * blockDim.x + threadIdx.x;
	double t = q->t, next;
	int row;
	if (q->dt == 0)
		return;
	if (s < ns && g.idx[s] >= 0)
		gauge_track_update(&g.tr[s], a.w1[g.idx[s]], a.Bm[g.idx[s]], g.bref, g.thr, t,
			s % g.per == 0);
	if (blockIdx.x != 0)
		return;
	next = g.clk->next;
	row = g.clk->rows;
	if (!(t >= next))
		return;
	for (int k = threadIdx.x; k < g.n && row < g.cap; k += blockDim.x) {
		long c = g.idx[(long)k * g.per];
		if (c < 0)
			continue;
		g.rv[(3L * row) * g.n + k] = a.w1[c];
		g.rv[(3L * row + 1) * g.n + k] = a.hu1[c];
		g.rv[(3L * row + 2) * g.n + k] = a.hv1[c];
	}
	__syncthreads();
	if (threadIdx.x != 0)
		return;
	if (row < g.cap)
		g.rt[row] = t;
	g.clk->rows = row + 1;
	g.clk->next = gauge_next_row(next, t, g.interval);
}

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

void swe_cuda_enqueue_gauges(const struct swe_cuda_gauges *g, const step_t *a, void *stream)
{
	long ns = (long)g->n * g->per;
	k_gauges<<<(unsigned int)((ns + 127) / 128), 128, 0, (cudaStream_t)stream>>>(*g, a->q, *a);
}

void swe_cuda_enqueue_gather(const long *idx, int n, const real *w, const real *hu,
	const real *hv, real *out, void *stream)
{
	k_gather<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(idx, n, w, hu, hv, out);
}

void swe_cuda_enqueue_sources(const kparams_t *kp, const step_t *a, int j0, int mrows,
	void *stream)
{
	dim3 b(32, 8), g((kp->nx + 31) / 32, (kp->ny + 7) / 8);
	step_t o = *a;
	if (!kp->src)
		return;
	k_sources<<<g, b, 0, (cudaStream_t)stream>>>(*kp, a->q, *a, j0, mrows);
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

void swe_cuda_enqueue_rain_tiles(const kparams_t *kp, const float *rain, unsigned char *rtile,
	void *stream)
{
	dim3 b(32, 8), g((kp->nx + 31) / 32, (kp->ny + 7) / 8);
	if (!kp->tiles || kp->ny <= 0)
		return;
	cudaMemsetAsync(rtile, 0, (size_t)kp->ntx * kp->nty, (cudaStream_t)stream);
	k_rain_tiles<<<g, b, 0, (cudaStream_t)stream>>>(*kp, rain, rtile);
}

void swe_cuda_enqueue_bc(const kparams_t *kp, const step_t *a, void *stream)
{
	int nmax = kp->nx > kp->ny ? kp->nx : kp->ny;
	dim3 grid((nmax + 255) / 256, 4, SWE_GHOST);
	k_bc<<<grid, 256, 0, (cudaStream_t)stream>>>(*kp, a->q, *a);
}

void swe_cuda_enqueue_euler(const kparams_t *kp, const step_t *a, void *stream)
{
	dim3 eb(32, 8), eg((kp->nx + 31) / 32, (kp->ny + 7) / 8);
	k_euler<<<eg, eb, 0, (cudaStream_t)stream>>>(*kp, a->q, *a);
}
