/* bsq_cuda_tail.cu: the tail of a V-cycle in one launch (struct bsq_ops:
 * tail_from, tail_cycle; bsq_mg.c's vcycle from level `from` down).
 *
 * Below about 32^3 cells a level's verbs are launches of a few blocks each,
 * bound by their latency, and the levels of at most 4096 values went to
 * the host and back (a copy down, the CPU's verbs, a copy up, the stream
 * drained twice a cycle): on one H200 at 256^3 the cycle's wall time was
 * 150 us more than its kernels' (doc/bench/boussinesq.md).  Here one block
 * holds the levels from `from` down in shared memory (phi and the
 * right-hand side of each) and runs what vcycle and coarse_solve do there,
 * every step a loop of the block's threads over the cells and a barrier:
 * ghosts (fill_ghost), one colour of Gauss-Seidel at a time (in place, as
 * the CPU's bsq_mg_colour), the residual restricted, the prolongation, the
 * coarse solve with its means summed by one thread in the CPU's order.
 * Every cell body is bsq_impl.h's or bsq_transfer.h's: the same bits as
 * the verbs (t_bsq_cuda: CPU = CUDA).  Levels whose faces are all Neumann
 * or periodic and that are whole on this device; SPATE_BSQ_TAIL=host keeps
 * the copies to the host, for comparison. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "bsq_cuda_dev.h"
#include "bsq_transfer.h"
}
#include "bsq_cuda_launch.h"
#include "cuda_udiv.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#define TAIL_THREADS 1024

/* One level in shared memory: phi at off, the right-hand side at off + n
 * (n = bsq_count(&g) values each). */
struct tail_lev {
	struct bsq_grid g;
	struct bsq_h h;
	int cx, cy, cz;
	unsigned off, n;
	int direct;    /* colours read ghosts at their sources (colour) */
	int sy, sz;    /* strides of j and k */
	int wx, wy, wz; /* from a first cell to its ghost's source (colour) */
	float rx, rh, ry; /* 1 / nx, 1 / ((nx + 1) / 2), 1 / ny (udiv) */
	int lx, lh, ly;   /* their log2 where powers of two (k_tail<true>) */
};

struct tail_args {
	struct tail_lev L[BSQ_MG_MAXLEV];
	struct fill6 f;
	bsq_real *phi;          /* level from's, on the device */
	const bsq_real *rhs;
	int from, nlev, pre, post, pl;
};

/* t / d: a shift by sh = log2 d where P2 (every divisor of the tail's
 * levels a power of two, as on a cube of 2^n cells), else udiv (d, r).  One
 * H200, one call, V(2,2) 256^3: fp32 0.546-0.548 ms against 0.548-0.550 with
 * udiv, fp64 0.923 against 0.930 (SPATE_BSQ_TAIL_P2=0: udiv always, for
 * comparison). */
template <bool P2>
__device__ static inline unsigned quot(unsigned t, unsigned d, float r, int sh)
{
	return P2 ? t >> sh : udiv(t, d, r);
}

/* Interior cell t of level L (x fastest): its index and (i, j, k). */
template <bool P2>
__device__ static inline size_t cell_at(const struct tail_lev &L, unsigned t, int *i, int *j,
	int *k)
{
	const unsigned nx = (unsigned)L.g.nx, ny = (unsigned)L.g.ny;
	const unsigned row = quot<P2>(t, nx, L.rx, L.lx), plane = quot<P2>(row, ny, L.ry, L.ly);
	*i = 1 + (int)(t - row * nx);
	*j = 1 + (int)(row - plane * ny);
	*k = 1 + (int)plane;
	return (size_t)(*i + L.sy * *j + L.sz * *k);
}

__device__ static inline unsigned cells_of(const struct bsq_grid &g)
{
	return (unsigned)g.nx * (unsigned)g.ny * (unsigned)g.nz;
}

__device__ static void ghosts(bsq_real *a, const struct tail_lev &L, const struct fill6 &f)
{
	const unsigned n = (unsigned)ghost_cells(L.g);
	for (unsigned t = threadIdx.x; t < n; t += blockDim.x)
		fill_ghost(a, L.g, f, t);
	__syncthreads();
}

/* One colour in place (bsq_mg_colour): reads only the other colour.  A
 * thread a cell of the colour: t counts the (nx + 1) / 2 slots of a row,
 * the row's first cell of the colour (i = 1 or 2) then every other one.
 * Where L.direct, a neighbour across a face is read at its source, the
 * cell whose value a fill copies there (fill_ghost), instead of filling the
 * ghosts first (a phase and a barrier less): the source is the cell itself
 * across a Neumann face or, across a periodic face of an even number of
 * cells, the cell on the opposite side (L.wx, wy, wz elements from the
 * first cell), of the other colour, which this colour leaves alone: the
 * values the fill would give. */
template <bool P2>
__device__ static void colour(bsq_real *s, const struct tail_lev &L, const struct fill6 &f,
	int red)
{
	bsq_real *phi = s + L.off;
	const bsq_real *rhs = phi + L.n;
	const struct bsq_grid &g = L.g;
	const unsigned hx = ((unsigned)g.nx + 1) / 2, ny = (unsigned)g.ny,
		n = hx * ny * (unsigned)g.nz;
	const int sy = L.sy, sz = L.sz;
	if (!L.direct)
		ghosts(phi, L, f);
	for (unsigned t = threadIdx.x; t < n; t += blockDim.x) {
		const unsigned row = quot<P2>(t, hx, L.rh, L.lh);
		const unsigned plane = quot<P2>(row, ny, L.ry, L.ly);
		const int j = 1 + (int)(row - plane * ny), k = 1 + (int)plane;
		const int i = 1 + ((1 + j + k + red) & 1) + 2 * (int)(t - row * hx);
		const int c = i + sy * j + sz * k;
		struct bsq_st7 q;
		if (i > g.nx)
			continue;
		q = L.direct ? gather_src(phi, g, i, j, k, c, sy, sz, L.wx, L.wy, L.wz) :
			bsq_gather7i(phi, c, sy, sz);
		phi[c] = bsq_relax(&q, rhs[c], &L.h);
	}
	__syncthreads();
}

template <bool P2>
__device__ static void smooth(bsq_real *s, const struct tail_lev &L, const struct fill6 &f,
	int sweeps)
{
	for (int k = 0; k < sweeps; k++) {
		colour<P2>(s, L, f, 0);
		colour<P2>(s, L, f, 1);
	}
}

/* max |rhs - lap(phi)| over the interior, in every thread. */
template <bool P2>
__device__ static double residual(bsq_real *s, const struct tail_lev &L, const struct fill6 &f)
{
	__shared__ double part[TAIL_THREADS / WARP_LANES];
	bsq_real *phi = s + L.off;
	const bsq_real *rhs = phi + L.n;
	const unsigned n = cells_of(L.g);
	double m = 0;
	int o;
	ghosts(phi, L, f);
	for (unsigned t = threadIdx.x; t < n; t += blockDim.x) {
		int i, j, k;
		size_t c = cell_at<P2>(L, t, &i, &j, &k);
		m = fmax(m, fabs((double)bsq_residual_at(phi, rhs, c, bsq_sy(&L.g), bsq_sz(&L.g),
			&L.h)));
	}
	for (o = WARP_LANES / 2; o > 0; o >>= 1)
		m = fmax(m, __shfl_xor_sync(0xffffffffu, m, o));
	if ((threadIdx.x & (WARP_LANES - 1)) == 0)
		part[threadIdx.x / WARP_LANES] = m;
	__syncthreads();
	m = 0;
	for (o = 0; o < (int)(blockDim.x / WARP_LANES); o++)
		m = fmax(m, part[o]);
	__syncthreads();
	return m;
}

/* a minus its mean over the interior, the sum as the CPU's bsq_rows_sum
 * makes it (rows in order, a plane's rows, then the planes), by one thread. */
template <bool P2>
__device__ static void remove_mean(bsq_real *a, const struct tail_lev &L)
{
	__shared__ double by;
	const struct bsq_grid &g = L.g;
	const unsigned n = cells_of(g);
	if (threadIdx.x == 0) {
		double sum = 0;
		for (int k = 1; k <= g.nz; k++) {
			double plane = 0;
			for (int j = 1; j <= g.ny; j++)
				plane += bsq_row_sum(a, bsq_idx(&g, 1, j, k), g.nx);
			sum += plane;
		}
		by = sum / bsq_ncells(&g);
	}
	__syncthreads();
	for (unsigned t = threadIdx.x; t < n; t += blockDim.x) {
		int i, j, k;
		size_t c = cell_at<P2>(L, t, &i, &j, &k);
		a[c] = bsq_shifted(a[c], by);
	}
	__syncthreads();
}

/* bsq_mg.c's coarse_solve. */
template <bool P2>
__device__ static void coarse_solve(bsq_real *s, const struct tail_lev &L, const struct fill6 &f)
{
	double r0, r;
	int sweeps = 0;
	remove_mean<P2>(s + L.off + L.n, L);
	r = r0 = residual<P2>(s, L, f);
	while (r > BSQ_COARSE_RTOL * r0 && sweeps < BSQ_COARSE_SWEEPS_MAX) {
		smooth<P2>(s, L, f, BSQ_COARSE_SWEEPS);
		sweeps += BSQ_COARSE_SWEEPS;
		r = residual<P2>(s, L, f);
	}
	remove_mean<P2>(s + L.off, L);
}

/* C's right-hand side = the restricted residual of F; C's phi = 0 (where
 * F.direct, without filling F's ghosts). */
template <bool P2>
__device__ static void restrict_residual(bsq_real *s, const struct tail_lev &F,
	const struct tail_lev &C, const struct fill6 &f)
{
	bsq_real *fphi = s + F.off, *cphi = s + C.off;
	const bsq_real *frhs = fphi + F.n;
	const unsigned n = cells_of(C.g);
	if (!F.direct)
		ghosts(fphi, F, f);
	for (unsigned t = threadIdx.x; t < n; t += blockDim.x) {
		int I, J, K, a1, b1, d1;
		size_t c = cell_at<P2>(C, t, &I, &J, &K);
		bsq_real sum = 0;
		if (!F.direct) {
			cphi[C.n + c] = bsq_restrict_at(fphi, frhs, &F.h, &F.g, F.cx, F.cy, F.cz,
				I, J, K);
			continue;
		}
		/* bsq_restrict_at's sum, the children's neighbours across faces
		 * at their sources */
		for (d1 = 0; d1 < F.cz; d1++)
			for (b1 = 0; b1 < F.cy; b1++)
				for (a1 = 0; a1 < F.cx; a1++) {
					const int i = (I - 1) * F.cx + 1 + a1;
					const int j = (J - 1) * F.cy + 1 + b1;
					const int k = (K - 1) * F.cz + 1 + d1;
					const int e = i + F.sy * j + F.sz * k;
					const struct bsq_st7 q = gather_src(fphi, F.g, i, j, k, e,
						F.sy, F.sz, F.wx, F.wy, F.wz);
					sum += bsq_residual(&q, frhs[e], &F.h);
				}
		cphi[C.n + c] = bsq_restrict(sum, F.cx * F.cy * F.cz);
	}
	for (unsigned t = threadIdx.x; t < C.n; t += blockDim.x)
		cphi[t] = 0;
	__syncthreads();
}

/* F's phi += P C's phi (where C.direct, without filling C's ghosts). */
template <bool P2>
__device__ static void prolong(bsq_real *s, const struct tail_lev &F, const struct tail_lev &C,
	const struct fill6 &f, int pl)
{
	bsq_real *fphi = s + F.off, *cphi = s + C.off;
	const unsigned n = cells_of(F.g);
	if (!C.direct)
		ghosts(cphi, C, f);
	for (unsigned t = threadIdx.x; t < n; t += blockDim.x) {
		int i, j, k;
		size_t c = cell_at<P2>(F, t, &i, &j, &k);
		if (!C.direct) {
			fphi[c] = bsq_prolong_add((bsq_real)1, fphi[c], bsq_interp_at(cphi, &C.g,
				F.cx, F.cy, F.cz, i, j, k, pl));
			continue;
		}
		/* bsq_interp_at, the far neighbours across faces at their
		 * sources */
		const int I = bsq_parent(i, F.cx), J = bsq_parent(j, F.cy), K = bsq_parent(k, F.cz);
		const bsq_real *r = cphi + (I + C.sy * J + C.sz * K);
		fphi[c] = bsq_prolong_add((bsq_real)1, fphi[c], pl ? bsq_pl_from(r,
			src_off(I, C.g.nx, bsq_far(i, F.cx), 1, C.wx),
			src_off(J, C.g.ny, bsq_far(j, F.cy), C.sy, C.wy),
			src_off(K, C.g.nz, bsq_far(k, F.cz), C.sz, C.wz)) : r[0]);
	}
	__syncthreads();
}

template <bool P2>
__global__ static void __launch_bounds__(TAIL_THREADS, 1) k_tail(const struct tail_args a)
{
	pdl_start();
	extern __shared__ double shm[];
	bsq_real *s = (bsq_real *)shm;
	const struct tail_lev &T = a.L[a.from];
	int l;
	for (unsigned t = threadIdx.x; t < T.n; t += blockDim.x) {
		s[T.off + t] = a.phi[t];
		s[T.off + T.n + t] = a.rhs[t];
	}
	__syncthreads();
	for (l = a.from; l < a.nlev - 1; l++) {
		smooth<P2>(s, a.L[l], a.f, a.pre);
		restrict_residual<P2>(s, a.L[l], a.L[l + 1], a.f);
	}
	coarse_solve<P2>(s, a.L[a.nlev - 1], a.f);
	for (l = a.nlev - 2; l >= a.from; l--) {
		prolong<P2>(s, a.L[l], a.L[l + 1], a.f, a.pl);
		smooth<P2>(s, a.L[l], a.f, a.post);
	}
	for (unsigned t = threadIdx.x; t < T.n; t += blockDim.x)
		a.phi[t] = s[T.off + t];
}

/* The values of shared memory levels from..nlev-1 take. */
static size_t tail_values(const struct bsq_level *lev, int from, int nlev)
{
	size_t v = 0;
	for (int l = from; l < nlev; l++)
		v += 2 * bsq_count(&lev[l].g);
	return v;
}

/* Whether the environment variable name has the value want (the settings
 * for comparisons: SPATE_BSQ_TAIL=host, the host's levels instead of the
 * tail; SPATE_BSQ_TAIL_FILL=1, fills before every colour, no reads at the
 * sources). */
static bool env_is(const char *name, const char *want)
{
	const char *e = getenv(name);
	return e && strcmp(e, want) == 0;
}

/* log2 n where n is a power of two, else -1. */
static int log2_of(int n)
{
	int l = 0;
	if (n < 1 || (n & (n - 1)) != 0)
		return -1;
	while ((1 << l) < n)
		l++;
	return l;
}

/* The most values (ghosts included) of the tail's finest level:
 * SPATE_BSQ_TAIL_CELLS, else no bound but shared memory's. */
static size_t tail_cells(void)
{
	const char *e = getenv("SPATE_BSQ_TAIL_CELLS");
	return e && atol(e) > 0 ? (size_t)atol(e) : (size_t)-1;
}

extern "C" int bsq_cuda_tail_from(const struct bsq_level *lev, int nlev,
	const struct bsq_params *p)
{
	int dev = 0, room = 0, from, l, f;
	(void)p;
	if (env_is("SPATE_BSQ_TAIL", "host") || cudaGetDevice(&dev) != cudaSuccess ||
		cudaDeviceGetAttribute(&room, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
		cudaSuccess) {
		cudaGetLastError();
		return nlev;
	}
	room -= 1024; /* the block's static shared memory */
	for (l = 1; l < nlev; l++) {
		if (lev[l].slabs || lev[l].k0 != 0)
			return nlev;
		for (f = 0; f < BSQ_NFACE; f++)
			if (lev[l].ghost[f] != lev[1].ghost[f] ||
				(lev[l].ghost[f] != BSQ_GHOST_NEUMANN && lev[l].ghost[f] != BSQ_GHOST_PERIODIC))
				return nlev;
	}
	for (from = nlev; from > 1 &&
		tail_values(lev, from - 1, nlev) * sizeof(bsq_real) <= (size_t)room &&
		bsq_count(&lev[from - 1].g) <= tail_cells(); from--)
		;
	return from;
}

extern "C" void bsq_cuda_tail_cycle(struct bsq_level *lev, int from, int nlev,
	const struct bsq_params *p)
{
	static size_t allowed[2];
	struct tail_args a;
	size_t bytes = tail_values(lev, from, nlev) * sizeof(bsq_real);
	unsigned off = 0;
	const bool fills = env_is("SPATE_BSQ_TAIL_FILL", "1");
	bool p2 = !env_is("SPATE_BSQ_TAIL_P2", "0");
	int l, f, d;
	memset(&a, 0, sizeof a);
	for (l = from; l < nlev; l++) {
		struct tail_lev *T = &a.L[l];
		T->g = lev[l].g;
		T->h = lev[l].h;
		T->cx = lev[l].cx;
		T->cy = lev[l].cy;
		T->cz = lev[l].cz;
		T->off = off;
		T->n = (unsigned)bsq_count(&lev[l].g);
		off += 2 * T->n;
		T->sy = (int)bsq_sy(&T->g);
		T->sz = (int)bsq_sz(&T->g);
		T->rx = 1.0f / (float)T->g.nx;
		T->rh = 1.0f / (float)((T->g.nx + 1) / 2);
		T->ry = 1.0f / (float)T->g.ny;
		T->lx = log2_of(T->g.nx);
		T->lh = log2_of((T->g.nx + 1) / 2);
		T->ly = log2_of(T->g.ny);
		p2 &= T->lx >= 0 && T->lh >= 0 && T->ly >= 0;
		T->direct = 1;
		for (d = 0; d < 3; d++) {
			const int n = d == 0 ? T->g.nx : d == 1 ? T->g.ny : T->g.nz;
			const int s = d == 0 ? 1 : d == 1 ? T->sy : T->sz;
			const bool wrap = lev[l].ghost[2 * d] == BSQ_GHOST_PERIODIC;
			T->direct &= !wrap || n % 2 == 0 || n == 1;
			*(d == 0 ? &T->wx : d == 1 ? &T->wy : &T->wz) = wrap ? (n - 1) * s : 0;
		}
		T->direct &= !fills;
	}
	for (f = 0; f < BSQ_NFACE; f++) {
		a.f.kind[f] = lev[from].ghost[f];
		a.f.val[f] = 0;
	}
	a.phi = lev[from].v[BSQ_PHI];
	a.rhs = lev[from].v[BSQ_RHS];
	a.from = from;
	a.nlev = nlev;
	a.pre = p->pre;
	a.post = p->post;
	a.pl = p->interp != BSQ_INTERP_PC;
	void (*k)(const struct tail_args) = p2 ? k_tail<true> : k_tail<false>;
	if (bytes > allowed[p2]) {
		bsq_cuda_note(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
			(int)bytes), "cudaFuncSetAttribute");
		allowed[p2] = bytes;
	}
	bsq_launch(k, dim3(1), dim3(TAIL_THREADS), bytes, bsq_cuda_now, a);
}
