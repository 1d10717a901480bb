/* bsq_cuda_mg.cu: the multigrid verbs of the Boussinesq CUDA backend
 * (struct bsq_ops, bsq_impl.h) on device levels: zero, shift, ghosts,
 * residual, one red-black Gauss-Seidel colour (the sweeps of both colours:
 * bsq_cuda_gs.cu), Jacobi sweeps, restriction and prolongation.  One
 * thread per cell; every cell body is a HOSTDEVICE function of bsq_impl.h,
 * every formula bsq_kern.h's.  The launch geometry and the reductions'
 * scratch are bsq_cuda_kern.cu's (bsq_cuda_launch.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "bsq_cuda_dev.h"
#include "bsq_transfer.h"
}
#include "bsq_cuda_launch.h"

#include <cuda_runtime.h>
#include <limits.h>

/* ---- multigrid verbs */

extern "C" void bsq_cuda_zero(struct bsq_level *l, int vec)
{
	bsq_cuda_note(cudaMemset(l->v[vec], 0, bsq_count(&l->g) * sizeof(bsq_real)), "cudaMemset");
}

__global__ static void k_shift(bsq_real *a, double by, struct box b, struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		a[c] = bsq_shifted(a[c], by);
	}
}

extern "C" void bsq_cuda_shift(struct bsq_level *l, int vec, double by)
{
	struct box b = box_of(&l->g, bsq_interior);
	bsq_launch(k_shift, LAUNCH(b), l->v[vec], by, b, l->g);
}

__global__ static void k_extrapolate(bsq_real *phi, bsq_real *prev, bsq_real r, struct box b,
	struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k))
		bsq_extrapolate_at(phi, prev, bsq_idx(&g, i, j, k), r);
}

extern "C" void bsq_cuda_extrapolate(struct bsq_level *l, double r)
{
	struct box b = box_of(&l->g, bsq_interior);
	bsq_launch(k_extrapolate, LAUNCH(b), l->v[BSQ_PHI], l->v[BSQ_PREV], (bsq_real)r, b, l->g);
}

extern "C" void bsq_cuda_ghosts(struct bsq_level *l, int vec)
{
	bsq_cuda_bc_scalar(&l->g, l->v[vec], l->ghost, NULL);
}

__global__ static void k_residual(bsq_real *res, const bsq_real *phi, const bsq_real *rhs,
	struct bsq_h h, struct box b, struct bsq_grid g, unsigned long long *bits)
{
	pdl_start();
	int i, j, k;
	double m = 0;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		res[c] = bsq_residual_at(phi, rhs, c, bsq_sy(&g), bsq_sz(&g), &h);
		m = fabs((double)res[c]);
	}
	if (bits)
		block_max(m, bits);
}

extern "C" double bsq_cuda_residual(struct bsq_level *l, int res, int phi, int rhs)
{
	struct box b = box_of(&l->g, bsq_interior);
	bsq_cuda_ghosts(l, phi);
	bsq_cuda_max_begin();
	bsq_launch(k_residual, LAUNCH(b), l->v[res], l->v[phi], l->v[rhs], l->h, b, l->g,
		bsq_cuda_max_bits());
	return bsq_cuda_max_end();
}

extern "C" void bsq_cuda_residual_only(struct bsq_level *l, int res, int phi, int rhs)
{
	struct box b = box_of(&l->g, bsq_interior);
	bsq_cuda_ghosts(l, phi);
	bsq_launch(k_residual, LAUNCH(b), l->v[res], l->v[phi], l->v[rhs], l->h, b, l->g,
		(unsigned long long *)NULL);
}

extern "C" int bsq_cuda_level_get(const struct bsq_level *l, int vec, bsq_real *host)
{
	cudaError_t e = cudaMemcpyAsync(host, l->v[vec], bsq_count(&l->g) * sizeof(bsq_real),
		cudaMemcpyDeviceToHost, bsq_cuda_now);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(bsq_cuda_now);
	bsq_cuda_note(e, "cudaMemcpy level");
	return e == cudaSuccess ? 0 : -SPATE_EDEVICE;
}

extern "C" int bsq_cuda_level_put(struct bsq_level *l, int vec, const bsq_real *host)
{
	cudaError_t e = cudaMemcpyAsync(l->v[vec], host, bsq_count(&l->g) * sizeof(bsq_real),
		cudaMemcpyHostToDevice, bsq_cuda_now);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(bsq_cuda_now);
	bsq_cuda_note(e, "cudaMemcpy level");
	return e == cudaSuccess ? 0 : -SPATE_EDEVICE;
}

/* One colour of red-black Gauss-Seidel: reads only the other colour. */
__global__ static void k_colour(bsq_real *phi, const bsq_real *rhs, struct bsq_h h, int red,
	int k0, struct box b, struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k) && bsq_is_colour(i, j, k0 + k, red)) {
		size_t c = bsq_idx(&g, i, j, k);
		phi[c] = bsq_relax_at(phi, rhs, c, bsq_sy(&g), bsq_sz(&g), &h);
	}
}

extern "C" void bsq_cuda_colour(struct bsq_level *l, int phi, int rhs, int red)
{
	struct box b = box_of(&l->g, bsq_interior);
	bsq_cuda_ghosts(l, phi);
	bsq_launch(k_colour, LAUNCH(b), l->v[phi], l->v[rhs], l->h, red, l->k0, b, l->g);
}

__global__ static void k_jacobi(bsq_real *out, const bsq_real *phi, const bsq_real *rhs,
	struct bsq_h h, struct box b, struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		out[c] = bsq_relax_at(phi, rhs, c, bsq_sy(&g), bsq_sz(&g), &h);
	}
}

extern "C" void bsq_cuda_jacobi_sweep(struct bsq_level *l)
{
	struct box b = box_of(&l->g, bsq_interior);
	bsq_real *y = l->v[BSQ_TMP];
	bsq_cuda_ghosts(l, BSQ_PHI);
	bsq_launch(k_jacobi, LAUNCH(b), y, l->v[BSQ_PHI], l->v[BSQ_RHS], l->h, b, l->g);
	l->v[BSQ_TMP] = l->v[BSQ_PHI];
	l->v[BSQ_PHI] = y;
}

/* Coarse cells (I, J, K) of box b (grid gc) from the fine grid gf: the
 * mean of in, or with rhs of the residuals rhs - lap(in) (spacing h). */
__global__ static void k_restrict(bsq_real *out, const bsq_real *in, const bsq_real *rhs,
	struct bsq_h h, struct bsq_grid gf, int cx, int cy, int cz, struct box b, struct bsq_grid gc)
{
	pdl_start();
	int I, J, K;
	if (cell_of(b, &I, &J, &K))
		out[bsq_idx(&gc, I, J, K)] = bsq_restrict_at(in, rhs, &h, &gf, cx, cy, cz, I, J, K);
}

/* Levels coarsened in every direction (cx = cy = cz = 2, a cube's levels)
 * whose arrays have fewer than 2^31 values take the transfers below: the
 * same cell bodies (bsq_restrict_from, bsq_pl_from) with indices in 32
 * bits and the coarsening known to the compiler.  The general kernels spent
 * most of their instructions on 64-bit index arithmetic and were bound by
 * the instructions they issued: one H200, V(2,2) at 512^3 in single
 * precision, the prolongation of the finest level 784 us (223 instructions
 * a cell, the multiprocessors 87% busy issuing them), the restriction of
 * its residual 545 us. */
static bool coarsened_all(const struct bsq_level *fine)
{
	return fine->cx == 2 && fine->cy == 2 && fine->cz == 2 &&
		bsq_count(&fine->g) < (size_t)INT_MAX;
}

/* The residual's restriction to a coarse cell from its eight children
 * (first child c0, strides fy, fz), summed in bsq_restrict_from's order with
 * the same operands: each of the 32 values around and in the 2 x 2 x 2
 * block loaded once, the outer ones at the offsets o from the child on
 * their side (the ghosts, or on a direct level their sources: src_off).
 * A gather per child (bsq_restrict_from, gather_src) loaded 56 values, whose
 * repeats the compiler could not merge, and selected an address per face:
 * 405 warp instructions a coarse cell, 59 us for the finest level of a 256^3
 * fp32 cycle (one H200).  All 40 values (8 children, 24 around them, 8
 * right-hand sides) are loaded before the first sum: the compiler had
 * interleaved loads and sums in 32 registers; with 40, Nsight Compute on one
 * H200, fp32: the finest restriction at 256^3 42 us instead of 49 (3.6 TB/s),
 * the 64^3 and 32^3 ones 4.3 and 3.9 us instead of 6.5-6.9 and 5.8-6.1; V(2,2)
 * 256^3 0.544-0.545 ms against 0.551-0.556, 512^3 3.580-3.585 against
 * 3.640-3.643 (one call). */
/* d, b, a over the 2 x 2 x 2 children of a coarse cell (z, y, x), unrolled. */
#define FOR_CHILD(d, b, a) \
	_Pragma("unroll") for (d = 0; d < 2; d++) \
		_Pragma("unroll") for (b = 0; b < 2; b++) \
			_Pragma("unroll") for (a = 0; a < 2; a++)

/* The 2 x 2 x 2 cells of p from index c0 (strides fy, fz) into B[z][y][x]. */
__device__ static inline void load_block(const bsq_real *p, int c0, int fy, int fz,
	bsq_real B[2][2][2])
{
	int d, b, a;
	FOR_CHILD(d, b, a)
		B[d][b][a] = p[c0 + d * fz + b * fy + a];
}

struct off6 {
	int xm, xp, ym, yp, zm, zp;
};

__device__ static inline bsq_real restrict_block(const bsq_real *__restrict__ in,
	const bsq_real *__restrict__ rhs, const struct bsq_h &h, int c0, int fy, int fz,
	const struct off6 &o)
{
	bsq_real P[2][2][2], X[2][2][2], Y[2][2][2], Z[2][2][2], B[2][2][2], sum = 0;
	int d, b, a;
	load_block(in, c0, fy, fz, P);
	load_block(rhs, c0, fy, fz, B);
	FOR_CHILD(d, b, a) {
		const int c = c0 + d * fz + b * fy + a;
		X[d][b][a] = in[c + (a ? o.xp : o.xm)];
		Y[d][b][a] = in[c + (b ? o.yp : o.ym)];
		Z[d][b][a] = in[c + (d ? o.zp : o.zm)];
	}
	FOR_CHILD(d, b, a) {
		struct bsq_st7 q;
		q.c = P[d][b][a];
		q.xm = a ? P[d][b][0] : X[d][b][a];
		q.xp = a ? X[d][b][a] : P[d][b][1];
		q.ym = b ? P[d][0][a] : Y[d][b][a];
		q.yp = b ? Y[d][b][a] : P[d][1][a];
		q.zm = d ? P[0][b][a] : Z[d][b][a];
		q.zp = d ? Z[d][b][a] : P[1][b][a];
		sum += bsq_residual(&q, B[d][b][a], &h);
	}
	return bsq_restrict(sum, 8);
}

template <bool DIRECT>
__global__ static void k_restrict2(bsq_real *out, const bsq_real *in, const bsq_real *rhs,
	struct bsq_h h, struct bsq_grid gf, struct box b, struct bsq_grid gc, struct wrap2 w)
{
	pdl_start();
	int I, J, K;
	if (cell_of(b, &I, &J, &K)) {
		const int fy = gf.nx + 2, fz = fy * (gf.ny + 2);
		const int cy = gc.nx + 2, cz = cy * (gc.ny + 2);
		const int c0 = (2 * K - 1) * fz + (2 * J - 1) * fy + 2 * I - 1;
		if (rhs) {
			struct off6 o;
			o.xm = DIRECT ? src_off(I, gc.nx, -1, 1, w.wx) : -1;
			o.xp = DIRECT ? src_off(I, gc.nx, 1, 1, w.wx) : 1;
			o.ym = DIRECT ? src_off(J, gc.ny, -1, fy, w.wy) : -fy;
			o.yp = DIRECT ? src_off(J, gc.ny, 1, fy, w.wy) : fy;
			o.zm = DIRECT ? src_off(K, gc.nz, -1, fz, 0) : -fz;
			o.zp = DIRECT ? src_off(K, gc.nz, 1, fz, 0) : fz;
			out[K * cz + J * cy + I] = restrict_block(in, rhs, h, c0, fy, fz, o);
		} else {
			out[K * cz + J * cy + I] = bsq_restrict_from(in, NULL, &h, (size_t)c0,
				(size_t)fy, (size_t)fz, 2, 2, 2);
		}
	}
}

/* direct: the residual's restriction reading across faces at the sources
 * (no fill before it). */
static void restrict_of(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int fvec,
	const bsq_real *rhs, bool direct)
{
	struct box b = box_of(&coarse->g, bsq_interior);
	if (coarsened_all(fine))
		bsq_launch(direct ? k_restrict2<true> : k_restrict2<false>, LAUNCH(b),
			coarse->v[cvec], fine->v[fvec], rhs, fine->h, fine->g, b, coarse->g,
			bsq_cuda_wrap(fine));
	else
		bsq_launch(k_restrict, LAUNCH(b), coarse->v[cvec], fine->v[fvec], rhs, fine->h,
			fine->g, fine->cx, fine->cy, fine->cz, b, coarse->g);
}

extern "C" void bsq_cuda_restrict(struct bsq_level *coarse, int cvec, struct bsq_level *fine,
	int fvec)
{
	restrict_of(coarse, cvec, fine, fvec, NULL, false);
}

/* The residual computed where the restriction reads it: on a 256^3 level
 * (one H200, fp64) the residual then its restriction took 113 + 51 us and
 * moved 33 bytes a fine cell; reading phi and rhs once, 16.  On a direct
 * level (bsq_cuda_direct) without filling phi's ghosts first. */
extern "C" void bsq_cuda_restrict_residual(struct bsq_level *coarse, int cvec,
	struct bsq_level *fine, int phi, int rhs)
{
	const bool direct = coarsened_all(fine) && bsq_cuda_direct(fine);
	if (!direct)
		bsq_cuda_ghosts(fine, phi);
	restrict_of(coarse, cvec, fine, phi, fine->v[rhs], direct);
}

/* fine = a fine + P coarse; pl: trilinear, else piecewise constant. */
__global__ static void k_interp(bsq_real *out, const bsq_real *in, bsq_real a, int pl,
	struct bsq_grid gc, int cx, int cy, int cz, struct box b, struct bsq_grid g)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		out[c] = bsq_prolong_add(a, out[c], bsq_interp_at(in, &gc, cx, cy, cz, i, j, k, pl));
	}
}

/* The offset from coarse cell P (1..n) of an axis (stride s) to its far
 * neighbour on side far (-1 or 1), across a face at its source where
 * DIRECT (src_off; z is never periodic there). */
template <bool DIRECT>
__device__ static inline int far_off(int P, int n, int far, int s, int w)
{
	return DIRECT ? src_off(P, n, far, s, w) : far * s;
}

/* The same, trilinear, for coarsened_all levels (DIRECT: the coarse
 * level's ghosts not filled, read at the sources; w its offsets). */
template <bool DIRECT>
__global__ static void k_interp_pl2(bsq_real *out, const bsq_real *in, bsq_real a,
	struct bsq_grid gc, struct box b, struct bsq_grid g, struct wrap2 w)
{
	pdl_start();
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		const int c = (k * (g.ny + 2) + j) * (g.nx + 2) + i;
		const int cy = gc.nx + 2, cz = cy * (gc.ny + 2);
		const int I = bsq_parent(i, 2), J = bsq_parent(j, 2), K = bsq_parent(k, 2);
		const bsq_real *r = in + (K * cz + J * cy + I);
		out[c] = bsq_prolong_add(a, out[c], bsq_pl_from(r,
			far_off<DIRECT>(I, gc.nx, bsq_far(i, 2), 1, w.wx),
			far_off<DIRECT>(J, gc.ny, bsq_far(j, 2), cy, w.wy),
			far_off<DIRECT>(K, gc.nz, bsq_far(k, 2), cz, 0)));
	}
}

/* Whether k_interp_pl8 is the default (SPATE_BSQ_PL8=0 or 1 chooses): in
 * single precision, where the prolongation is bound by the instructions it
 * issues.  One H200, V(2,2) ms, k_interp_pl8 against k_interp_pl2: fp32
 * 256^3 0.818 against 0.837, 512^3 4.48 against 4.63; fp64 256^3 1.057
 * against 1.047, 512^3 6.43 against 6.39 (an eighth of the threads keep
 * fewer loads in flight). */
#ifndef BSQ_PL8
#ifdef BSQ_SINGLE
#define BSQ_PL8 1
#else
#define BSQ_PL8 0
#endif
#endif

/* The same by coarse cell (I, J, K): its eight children from the 27 coarse
 * values around it.  bsq_pl_from nests z, then y, then x: each z pair of a
 * child is shared by the four children on its side, each y pair by two, so
 * here each is computed once (the same operands in the same order: the
 * same bits as k_interp_pl2, with 38 of bsq_pl's products instead of 56).
 * The block's coarse cells and one around them are staged in shared memory
 * first, each loaded once for the block (on a direct level those across a
 * face from their sources, as far_off maps them), instead of 27 loads a
 * thread: one H200, fp32, V(2,2) at 512^3 3.857-3.859 ms against
 * 3.874-3.880, 256^3 0.593-0.594 against 0.592-0.595.  The eight children
 * are loaded before any store (the compiler cannot move a load of the
 * output across a store to it: loaded first, the finest prolongation at
 * 512^3 fp32 went from 523 to 464 us), and before the block stages the
 * coarse cells, so that their loads are in flight meanwhile (one H200, one
 * call, fp32 V(2,2): 256^3 0.553-0.554 ms against 0.565-0.568, 512^3
 * 3.634-3.637 against 3.733-3.743). */
template <bool DIRECT>
__global__ static void __launch_bounds__(TX * TY * TZ)
	k_interp_pl8(bsq_real *__restrict__ out, const bsq_real *__restrict__ in, bsq_real a,
	struct bsq_grid gc, struct box b, struct bsq_grid g, struct wrap2 w)
{
	pdl_start();
	constexpr int SX = TX + 2, SY = TY + 2, SZ = TZ + 2;
	__shared__ bsq_real S[SZ][SY][SX];
	const int cy = gc.nx + 2, cz = cy * (gc.ny + 2), fy = g.nx + 2, fz = fy * (g.ny + 2);
	const int I0 = b.i0 + (int)(blockIdx.x * TX) - 1, J0 = b.j0 + (int)(blockIdx.y * TY) - 1;
	const int K0 = b.k0 + (int)(blockIdx.z * TZ) - 1;
	const int tx = (int)threadIdx.x, ty = (int)threadIdx.y, tz = (int)threadIdx.z;
	int n, I, J, K, s, t, d, e, Ic, Jc, Kc;
	/* the children first: their loads in flight while the block stages */
	const bool mine = cell_of(b, &Ic, &Jc, &Kc);
	bsq_real *o = out + ((2 * Kc - 1) * fz + (2 * Jc - 1) * fy + 2 * Ic - 1);
	bsq_real F[2][2][2];
	if (mine)
		load_block(o, 0, fy, fz, F);
	for (n = tx + TX * (ty + TY * tz); n < SX * SY * SZ; n += TX * TY * TZ) {
		const int sx = n % SX, sy = n / SX % SY, sz = n / (SX * SY);
		I = min(I0 + sx, gc.nx + 1);
		J = min(J0 + sy, gc.ny + 1);
		K = min(K0 + sz, gc.nz + 1);
		if (DIRECT) {
			I = I < 1 ? (w.wx ? gc.nx : 1) : I > gc.nx ? (w.wx ? 1 : gc.nx) : I;
			J = J < 1 ? (w.wy ? gc.ny : 1) : J > gc.ny ? (w.wy ? 1 : gc.ny) : J;
			K = K < 1 ? 1 : K > gc.nz ? gc.nz : K;
		}
		S[sz][sy][sx] = in[K * cz + J * cy + I];
	}
	__syncthreads();
	if (!mine)
		return;
#pragma unroll
	for (s = 0; s < 2; s++) {
		const int zf = 1 + tz + (s ? 1 : -1);
		bsq_real Z[3][3];
#pragma unroll
		for (d = 0; d < 3; d++)
#pragma unroll
			for (e = 0; e < 3; e++)
				Z[d][e] = bsq_pl(S[1 + tz][ty + d][tx + e], S[zf][ty + d][tx + e]);
#pragma unroll
		for (t = 0; t < 2; t++) {
			bsq_real *q = o + s * fz + t * fy;
			bsq_real Y[3];
#pragma unroll
			for (e = 0; e < 3; e++)
				Y[e] = bsq_pl(Z[1][e], Z[2 * t][e]);
			q[0] = bsq_prolong_add(a, F[s][t][0], bsq_pl(Y[1], Y[0]));
			q[1] = bsq_prolong_add(a, F[s][t][1], bsq_pl(Y[1], Y[2]));
		}
	}
}

static void interp(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec, int pl)
{
	struct box b = box_of(&fine->g, bsq_interior), bc = box_of(&coarse->g, bsq_interior);
	const char *e = getenv("SPATE_BSQ_PL8");
	const bool general = !pl || !coarsened_all(fine), direct = !general &&
		bsq_cuda_direct(coarse);
	const struct wrap2 w = bsq_cuda_wrap(coarse);
	if (!direct)
		bsq_cuda_ghosts(coarse, cvec);
	if (general)
		bsq_launch(k_interp, LAUNCH(b), fine->v[fvec], coarse->v[cvec], (bsq_real)a, pl,
			coarse->g, fine->cx, fine->cy, fine->cz, b, fine->g);
	else if (e && *e ? strcmp(e, "0") != 0 : BSQ_PL8)
		bsq_launch(direct ? k_interp_pl8<true> : k_interp_pl8<false>, LAUNCH(bc),
			fine->v[fvec], coarse->v[cvec], (bsq_real)a, coarse->g, bc, fine->g, w);
	else
		bsq_launch(direct ? k_interp_pl2<true> : k_interp_pl2<false>, LAUNCH(b),
			fine->v[fvec], coarse->v[cvec], (bsq_real)a, coarse->g, b, fine->g, w);
}

extern "C" void bsq_cuda_interp_pl(struct bsq_level *fine, int fvec, double a,
	struct bsq_level *coarse, int cvec)
{
	interp(fine, fvec, a, coarse, cvec, 1);
}

extern "C" void bsq_cuda_interp_pc(struct bsq_level *fine, int fvec, double a,
	struct bsq_level *coarse, int cvec)
{
	interp(fine, fvec, a, coarse, cvec, 0);
}
