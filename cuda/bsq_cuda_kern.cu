/* bsq_cuda_kern.cu: the kernels of the Boussinesq CUDA backend and their
 * launch functions, which are the verbs of struct bsq_ops (bsq_impl.h) on
 * device arrays: ghosts, explicit terms, AB2 predictor, Poisson right-hand
 * side, projection correction, Jacobi and red-black Gauss-Seidel sweeps,
 * residual, restriction, prolongation (trilinear and constant), maxima and
 * sums.  One thread per cell (or per ghost line, or per row for sums);
 * every cell body is a HOSTDEVICE function of bsq_impl.h that the CPU rows
 * call too, every formula is bsq_kern.h's.
 *
 * Maxima (exact in any order) combine a warp's values with shuffles, then
 * atomicMax on the bits of the (non-negative) double.  Sums keep the CPU's
 * order: one thread per row sums its row from i = 1 (bsq_row_sum,
 * bsq_div_row), then one thread adds the rows in the CPU's order, so means
 * and norms are the CPU's bits.  Built with -fmad=false (cuda/local.mk): no
 * contraction into fused multiply-adds, so every value rounds as the CPU's
 * does. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "bsq_cuda_dev.h"
}
#include "bsq_cuda_launch.h"

#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The reductions' device scratch (bsq_cuda_scratch): row sums (then the
 * plane sums after them: twice the rows), the maximum's bits. */
static double *rows_sum;
static unsigned long long *out_bits;

unsigned long long *bsq_cuda_max_bits(void)
{
	return out_bits;
}
static size_t rows_cap;
cudaStream_t bsq_cuda_now;
static int first_err;
/* Programmatic dependent launch (bsq_launch): -1 not yet decided, 0 off,
 * 1 on. */
static int pdl = -1;

bool bsq_cuda_pdl(void)
{
	if (pdl < 0)
		pdl = cuda_pdl_wanted("SPATE_BSQ_PDL");
	return pdl == 1;
}

void bsq_cuda_pdl_off(void)
{
	pdl = 0;
}

/* Levels of at most DIRECT_MOST cells read across faces at the sources
 * (bsq_cuda_launch.h; k_gs_sweep of cuda/bsq_cuda_gs.cu with DIRECT, and
 * the transfers of cuda/bsq_cuda_mg.cu: no fill before a sweep, a
 * restriction of the residual or a prolongation; SPATE_BSQ_GS_DIRECT=n:
 * those of at most n cells, 0: none).  Only where every face is Neumann
 * or, in x and y, periodic (z not periodic: the sweep's fused_ok).  Read
 * at every call: a test runs both.  One H200, V(2,2) ms, direct on every
 * level against none: fp32 256^3 0.611-0.614 against 0.657, 512^3
 * 4.04-4.06 against 4.05; fp64 256^3 0.965 against 0.988, 512^3 6.42
 * against 6.38, and 6.35 with the levels of at most 256^3 cells direct
 * (the default there). */
#ifndef BSQ_GS_DIRECT_MOST
#ifdef BSQ_SINGLE
#define BSQ_GS_DIRECT_MOST (1L << 62)
#else
#define BSQ_GS_DIRECT_MOST (1L << 24)
#endif
#endif

bool bsq_cuda_direct(const struct bsq_level *l)
{
	const char *e = getenv("SPATE_BSQ_GS_DIRECT");
	const long most = e && *e ? atol(e) : BSQ_GS_DIRECT_MOST;
	int f;
	if (most <= 0 || (double)l->g.nx * l->g.ny * l->g.nz > (double)most)
		return false;
	for (f = 0; f < BSQ_NFACE; f++)
		if (l->ghost[f] != BSQ_GHOST_NEUMANN &&
			(l->ghost[f] != BSQ_GHOST_PERIODIC || f == BSQ_ZM || f == BSQ_ZP))
			return false;
	return true;
}

struct wrap2 bsq_cuda_wrap(const struct bsq_level *l)
{
	struct wrap2 w;
	w.wx = l->ghost[BSQ_XM] == BSQ_GHOST_PERIODIC ? l->g.nx - 1 : 0;
	w.wy = l->ghost[BSQ_YM] == BSQ_GHOST_PERIODIC ? (l->g.ny - 1) * (l->g.nx + 2) : 0;
	return w;
}

/* Records the first error of a CUDA call in the verbs. */
void bsq_cuda_note(cudaError_t e, const char *what)
{
	if (e != cudaSuccess && !first_err) {
		spate_log_error("cuda", "bsq: %s: %s", what, cudaGetErrorString(e));
		first_err = -SPATE_EDEVICE;
	}
}

extern "C" int bsq_cuda_error(void)
{
	int e = first_err;
	bsq_cuda_note(cudaGetLastError(), "kernel launch");
	e = e ? e : first_err;
	first_err = 0;
	return e;
}

extern "C" int bsq_cuda_scratch(size_t rows)
{
	if (rows <= rows_cap && rows > 0)
		return 0;
	cudaFree(rows_sum);
	cudaFree(out_bits);
	rows_sum = NULL;
	out_bits = NULL;
	rows_cap = 0;
	if (rows == 0)
		return 0;
	if (cudaMalloc(&rows_sum, 2 * rows * sizeof(double)) != cudaSuccess ||
		cudaMalloc(&out_bits, MAX_SLOTS * MAX_PITCH * sizeof(unsigned long long)) !=
			cudaSuccess) {
		spate_log_error("cuda", "bsq: %zu rows of reduction scratch: out of device memory",
			rows);
		bsq_cuda_scratch(0);
		return -SPATE_EDEVICE;
	}
	rows_cap = rows;
	return 0;
}

/* Host: clears the maximum's slots, and reads them back: the largest. */
void bsq_cuda_max_begin(void)
{
	bsq_cuda_note(cudaMemset(out_bits, 0, MAX_SLOTS * MAX_PITCH * sizeof *out_bits),
		"cudaMemset");
}

double bsq_cuda_max_end(void)
{
	unsigned long long b[MAX_SLOTS] = { 0 }, top = 0;
	double m;
	int i;
	bsq_cuda_note(cudaMemcpy2D(b, sizeof b[0], out_bits, MAX_PITCH * sizeof b[0], sizeof b[0],
		MAX_SLOTS, cudaMemcpyDeviceToHost), "cudaMemcpy max");
	for (i = 0; i < MAX_SLOTS; i++)
		top = b[i] > top ? b[i] : top;
	memcpy(&m, &top, sizeof m);
	return m;
}

/* ---- step kernels */

__global__ static void k_rhs(struct bsq_rhs_args a, bsq_real *F, struct box b, struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k))
		F[bsq_idx(&g, i, j, k)] = bsq_rhs_at(&a, bsq_idx(&g, i, j, k));
}

extern "C" void bsq_cuda_rhs(const struct bsq_state *s, const struct bsq_params *p,
	bsq_real *F[4])
{
	int comp, lo[3];
	for (comp = 0; comp < (p->thermal ? 4 : 3); comp++) {
		struct box b;
		bsq_first(p, comp, lo);
		b = box_of(&s->g, lo);
		if (empty(b))
			continue;
		bsq_launch(k_rhs, LAUNCH(b), bsq_rhs_args_of(s, p, comp), F[comp], b, s->g);
	}
}

/* Planes of a thread of k_max: a block reading one value a thread and
 * then reducing spent more time in the reduction's barrier than in its
 * loads (152 us for one field of 384 x 384 x 192 on an H200, 1.5 TB/s). */
#define MAX_PLANES 8

__global__ static void k_max(const bsq_real *a, struct box b, struct bsq_grid g,
	unsigned long long *bits)
{
	pdl_start();
	int i, j, k, s;
	double m = 0;
	bool in = cell_of(b, &i, &j, &k);
	k = b.k0 + (int)(blockIdx.z * blockDim.z * MAX_PLANES + threadIdx.z);
	for (s = 0; s < MAX_PLANES; s++, k += (int)blockDim.z)
		if (in && k < b.k0 + b.nk)
			m = fmax(m, fabs((double)a[bsq_idx(&g, i, j, k)]));
	block_max(m, bits);
}

extern "C" double bsq_cuda_field_max(const struct bsq_grid *g, const bsq_real *a)
{
	struct box b = box_of(g, bsq_interior);
	dim3 grid = blocks_of(b);
	grid.z = (unsigned)(b.nk + TZ * MAX_PLANES - 1) / (TZ * MAX_PLANES);
	bsq_cuda_max_begin();
	bsq_launch(k_max, grid, dim3(TX, TY, TZ), 0, bsq_cuda_now, a, b, *g, out_bits);
	return bsq_cuda_max_end();
}

__global__ static void k_predict(bsq_real *q, const bsq_real *F, const bsq_real *Fold,
	bsq_real dt, bsq_real r, struct box b, struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		q[c] = bsq_ab2(q[c], dt, r, F[c], Fold[c]);
	}
}

extern "C" void bsq_cuda_predict(struct bsq_state *s, const struct bsq_params *p, int comp,
	double dt, double r)
{
	bsq_real *const field[4] = { s->u, s->v, s->w, s->T };
	int lo[3];
	struct box b;
	bsq_first(p, comp, lo);
	b = box_of(&s->g, lo);
	if (empty(b))
		return;
	bsq_launch(k_predict, LAUNCH(b), field[comp], s->F[comp], s->Fold[comp], (bsq_real)dt,
		(bsq_real)r, b, s->g);
}

__global__ static void k_correct(bsq_real *q, const bsq_real *phi, size_t o, bsq_real dt,
	bsq_real ih, struct box b, struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		q[c] = bsq_correct_at(q[c], phi, c, o, dt, ih);
	}
}

extern "C" void bsq_cuda_correct(struct bsq_state *s, const struct bsq_params *p, int comp,
	double dt)
{
	const struct bsq_grid *g = &s->g;
	bsq_real *const field[3] = { s->u, s->v, s->w };
	const size_t st[3] = { 1, bsq_sy(g), bsq_sz(g) };
	const double ih[3] = { 1 / g->dx, 1 / g->dy, 1 / g->dz };
	int lo[3];
	struct box b;
	bsq_first(p, comp, lo);
	b = box_of(g, lo);
	if (empty(b))
		return;
	bsq_launch(k_correct, LAUNCH(b), field[comp], s->p, st[comp], (bsq_real)dt,
		(bsq_real)ih[comp], b, *g);
}

__global__ static void k_div_rhs(bsq_real *q, const bsq_real *u, const bsq_real *v,
	const bsq_real *w, struct bsq_h h, bsq_real dt, struct box b, struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		q[c] = bsq_poisson_b_at(u, v, w, c, bsq_sy(&g), bsq_sz(&g), &h, dt);
	}
}

extern "C" void bsq_cuda_div_rhs(struct bsq_state *s, double dt)
{
	const struct bsq_grid *g = &s->g;
	struct box b = box_of(g, bsq_interior);
	bsq_launch(k_div_rhs, LAUNCH(b), s->lev[0].v[BSQ_RHS], s->u, s->v, s->w,
		bsq_h_of(g->dx, g->dy, g->dz), (bsq_real)dt, b, *g);
}

/* ---- ghosts: one thread per line along the axis (bsq_fill_line); the
 * axes one after the other, as on the CPU, so edges and corners agree. */
__global__ static void k_fill(bsq_real *a, struct bsq_axis x, int klo, bsq_real vlo, int khi,
	bsq_real vhi)
{
	pdl_start();
	int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
	if (t < (x.n1 + 2) * (x.n2 + 2))
		bsq_fill_line(a, &x, t % (x.n1 + 2), t / (x.n1 + 2), klo, vlo, khi, vhi);
}

static void fill_axis(const struct bsq_grid *g, bsq_real *a, int d, int klo, double vlo, int khi,
	double vhi)
{
	struct bsq_axis x = bsq_axis_of(g, d);
	int lines = (x.n1 + 2) * (x.n2 + 2);
	bsq_launch(k_fill, dim3((lines + TLINE - 1) / TLINE), dim3(TLINE), 0, 0, a, x, klo,
		(bsq_real)vlo, khi, (bsq_real)vhi);
}

/* Every ghost of a scalar in one launch, a thread per ghost cell
 * (fill_ghost, bsq_cuda_launch.h). */
__global__ static void k_fill_all(bsq_real *a, struct bsq_grid g, struct fill6 f)
{
	pdl_start();
	fill_ghost(a, g, f, blockIdx.x * blockDim.x + threadIdx.x);
}

extern "C" void bsq_cuda_bc_scalar(const struct bsq_grid *g, bsq_real *a,
	const int kind[BSQ_NFACE], const double *val)
{
	struct fill6 f;
	long cells = ghost_cells(*g);
	int d, wall = 0;
	for (d = 0; d < BSQ_NFACE; d++) {
		f.kind[d] = kind[d];
		f.val[d] = (bsq_real)(val ? val[d] : 0);
		wall |= kind[d] == BSQ_GHOST_WALL_FACE;
	}
	if (!wall && cells < (long)INT_MAX) {
		bsq_launch(k_fill_all, dim3((unsigned)((cells + TLINE - 1) / TLINE)), dim3(TLINE), 0,
			0, a, *g, f);
		return;
	}
	for (d = 0; d < 3; d++)
		fill_axis(g, a, d, kind[2 * d], val ? val[2 * d] : 0, kind[2 * d + 1],
			val ? val[2 * d + 1] : 0);
}

extern "C" void bsq_cuda_bc_velocity(const struct bsq_grid *g, bsq_real *u, bsq_real *v,
	bsq_real *w, const struct bsq_params *p)
{
	bsq_real *const comp[3] = { u, v, w };
	int c, d;
	for (c = 0; c < 3; c++)
		for (d = 0; d < 3; d++) {
			double vlo, vhi;
			int klo = bsq_bc_vel_kind(p, 2 * d, c, &vlo);
			int khi = bsq_bc_vel_kind(p, 2 * d + 1, c, &vhi);
			fill_axis(g, comp[c], d, klo, vlo, khi, vhi);
		}
}

/* ---- sums in the CPU's order.  Row t (t = (k - 1) ny + (j - 1)) is added
 * from i = 1 on, as the CPU's rows are (bsq_row_sum, bsq_div_row); then one
 * thread per plane adds its rows, and the host the planes. */

/* Row (j, k) of thread t: t = (k - 1) ny + (j - 1). */
__device__ static size_t row_start(const struct bsq_grid &g, int t)
{
	return bsq_idx(&g, 1, t % g.ny + 1, t / g.ny + 1);
}

/* Rows per block of the row sums, and its threads. */
#define ROWS_TILE WARP_LANES   /* lane r of warp 0 adds row r */
#define ROWS_THREADS 256

/* sum[t] = the sum over row t of val(c), c its cells in order, for the
 * ROWS_TILE rows of this block.  A thread per row walking its row read
 * lines ROWS_TILE apart in a warp (the maximum and sums of div over 384 x
 * 384 x 192 took 656 us on an H200): here the warps compute 32 columns
 * of the block's rows at a time, lane = column (coalesced), into shared
 * memory, and lane r of warp 0 adds row r's values in order.  Every thread
 * of the block must call. */
template <class F>
__device__ static void rows_tiled(const struct bsq_grid &g, F val, double *sum)
{
	__shared__ double tile[ROWS_TILE][WARP_LANES + 1];
	const int lane = (int)threadIdx.x % WARP_LANES, warp = (int)threadIdx.x / WARP_LANES;
	const int nw = (int)blockDim.x / WARP_LANES, t0 = (int)blockIdx.x * ROWS_TILE;
	const int nrow = g.ny * g.nz;
	double acc = 0;
	for (int i0 = 0; i0 < g.nx; i0 += WARP_LANES) {
		for (int r = warp; r < ROWS_TILE; r += nw)
			if (t0 + r < nrow && i0 + lane < g.nx)
				tile[r][lane] = val(row_start(g, t0 + r) + (size_t)(i0 + lane));
		__syncthreads();
		if (warp == 0)
			for (int q = 0; q < WARP_LANES && i0 + q < g.nx; q++)
				acc += tile[lane][q];
		__syncthreads();
	}
	if (warp == 0 && t0 + lane < nrow)
		sum[t0 + lane] = acc;
}

__global__ static void k_rows_sum(const bsq_real *a, struct bsq_grid g, double *sum)
{
	pdl_start();
	rows_tiled(g, [&](size_t c) { return (double)a[c]; }, sum);
}

/* The rows' sums of div^2 and, into bits, their maximum |div| (a max: any
 * order; block_max). */
__global__ static void k_rows_div(const bsq_real *u, const bsq_real *v, const bsq_real *w,
	struct bsq_h h, struct bsq_grid g, double *sum, unsigned long long *bits)
{
	pdl_start();
	const size_t sy = bsq_sy(&g), sz = bsq_sz(&g);
	double m = 0;
	rows_tiled(g, [&](size_t c) {
		double d = bsq_div_at(u, v, w, c, sy, sz, &h);
		m = fmax(m, fabs(d));
		return d * d;
	}, sum);
	block_max(m, bits);
}

/* The rows' sums of each plane in order (bsq_sum_ordered): one thread per
 * plane, ps[k - 1].  (The maximum over the rows was one thread's loop over
 * every row: 1 ms at 384 x 384 x 192 on an H100.) */
__global__ static void k_rows_planes(double *sum, int ny, int nz)
{
	pdl_start();
	int k = (int)(blockIdx.x * blockDim.x + threadIdx.x);
	if (k < nz)
		sum[ny * nz + k] = bsq_sum_ordered(sum + (size_t)k * ny, ny);
}

/* ps[0..nz) = the sums per plane of the rows of grid g, back on the host,
 * and *max the rows' max (k_rows_div's) when with_max.  The row scratch
 * holds ny nz row sums and then the nz plane sums. */
static void rows_planes(const struct bsq_grid *g, bool with_max, double *ps, double *max)
{
	size_t nrow = (size_t)g->ny * g->nz;
	bsq_launch(k_rows_planes, dim3((unsigned)(g->nz + TLINE - 1) / TLINE), dim3(TLINE), 0, 0,
		rows_sum, g->ny, g->nz);
	bsq_cuda_note(cudaMemcpy(ps, rows_sum + nrow, (size_t)g->nz * sizeof(double),
		cudaMemcpyDeviceToHost), "cudaMemcpy sum");
	if (with_max)
		*max = bsq_cuda_max_end();
}

/* The sum of the rows of grid g in the planes' order (and their max). */
static double rows_total(const struct bsq_grid *g, bool with_max, double *max)
{
	double *ps = (double *)malloc((size_t)g->nz * sizeof *ps), sum;
	if (!ps) {
		spate_log_error("cuda", "bsq: %d plane sums: out of memory", g->nz);
		return NAN;
	}
	rows_planes(g, with_max, ps, max);
	sum = bsq_sum_ordered(ps, g->nz);
	free(ps);
	return sum;
}

static unsigned row_blocks(const struct bsq_grid *g)
{
	return (unsigned)(g->ny * g->nz + ROWS_TILE - 1) / ROWS_TILE;
}

extern "C" double bsq_cuda_mean(const struct bsq_level *l, int vec)
{
	bsq_launch(k_rows_sum, dim3(row_blocks(&l->g)), dim3(ROWS_THREADS), 0, 0, l->v[vec], l->g,
		rows_sum);
	return rows_total(&l->g, false, NULL) / bsq_ncells(&l->g);
}

extern "C" void bsq_cuda_plane_sums(const struct bsq_level *l, int vec, double *ps)
{
	bsq_launch(k_rows_sum, dim3(row_blocks(&l->g)), dim3(ROWS_THREADS), 0, 0, l->v[vec], l->g,
		rows_sum);
	rows_planes(&l->g, false, ps, NULL);
}

static void rows_div(const struct bsq_state *s)
{
	const struct bsq_grid *g = &s->g;
	bsq_cuda_max_begin();
	bsq_launch(k_rows_div, dim3(row_blocks(g)), dim3(ROWS_THREADS), 0, 0, s->u, s->v, s->w,
		bsq_h_of(g->dx, g->dy, g->dz), *g, rows_sum, out_bits);
}

extern "C" void bsq_cuda_diag_div(const struct bsq_state *s, double *max, double *l2)
{
	rows_div(s);
	*l2 = sqrt(rows_total(&s->g, true, max) / bsq_ncells(&s->g));
}

extern "C" void bsq_cuda_div_planes(const struct bsq_state *s, double *max, double *ps)
{
	rows_div(s);
	rows_planes(&s->g, true, ps, max);
}

