/* bsq_cuda_mg.cu: the multigrid verbs of the Boussinesq CUDA backend
 * (struct bsq_ops, bsq_impl.h) on device levels: zero, shift, ghosts,
 * residual, red-black Gauss-Seidel and Jacobi sweeps, restriction and
 * prolongation.  One thread per cell; every cell body is a HOSTDEVICE
 * function of bsq_impl.h, every formula bsq_kern.h's.  The launch geometry
 * and the reductions' scratch are bsq_cuda_kern.cu's (bsq_cuda_launch.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "bsq_cuda_dev.h"
}
#include "bsq_cuda_launch.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

/* ---- multigrid verbs */

extern "C" void bsq_cuda_zero(struct bsq_level *l, int vec)
{
	bsq_cuda_note(cudaMemset(l->v[vec], 0, bsq_count(&l->g) * sizeof(bsq_real)), "cudaMemset");
}

__global__ static void k_shift(bsq_real *a, double by, struct box b, struct bsq_grid g)
{
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		a[c] = bsq_shifted(a[c], by);
	}
}

extern "C" void bsq_cuda_shift(struct bsq_level *l, int vec, double by)
{
	struct box b = box_of(&l->g, bsq_interior);
	k_shift<<<LAUNCH(b)>>>(l->v[vec], by, b, l->g);
}

extern "C" void bsq_cuda_ghosts(struct bsq_level *l, int vec)
{
	bsq_cuda_bc_scalar(&l->g, l->v[vec], l->ghost, NULL);
}

__global__ static void k_residual(bsq_real *res, const bsq_real *phi, const bsq_real *rhs,
	struct bsq_h h, struct box b, struct bsq_grid g, unsigned long long *bits)
{
	int i, j, k;
	double m = 0;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		res[c] = bsq_residual_at(phi, rhs, c, bsq_sy(&g), bsq_sz(&g), &h);
		m = fabs((double)res[c]);
	}
	if (bits)
		warp_max(m, bits);
}

extern "C" double bsq_cuda_residual(struct bsq_level *l, int res, int phi, int rhs)
{
	struct box b = box_of(&l->g, bsq_interior);
	bsq_cuda_ghosts(l, phi);
	bsq_cuda_max_begin();
	k_residual<<<LAUNCH(b)>>>(l->v[res], l->v[phi], l->v[rhs], l->h, b, l->g, bsq_cuda_max_bits());
	return bsq_cuda_max_end();
}

extern "C" void bsq_cuda_residual_only(struct bsq_level *l, int res, int phi, int rhs)
{
	struct box b = box_of(&l->g, bsq_interior);
	bsq_cuda_ghosts(l, phi);
	k_residual<<<LAUNCH(b)>>>(l->v[res], l->v[phi], l->v[rhs], l->h, b, l->g, NULL);
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
	k_colour<<<LAUNCH(b)>>>(l->v[phi], l->v[rhs], l->h, red, l->k0, b, l->g);
}

/* ---- both colours of a sweep in one pass (issue 21: a V-cycle at the
 * bandwidth bound).  Two colour launches read phi and b and write phi twice
 * a sweep (48 bytes a cell in double precision); here one launch reads
 * them once and writes the other array (TMP, swapped with PHI after), 24
 * bytes a cell.  A thread takes one cell of an x-y tile of one plane.  The
 * first colour's new values of the tile and of a ring of one cell around it
 * go to shared memory, each computed from the old values (bsq_relax_at,
 * ghosts filled from the old values as the first colour's launch would);
 * a cell of the second colour then relaxes with its four x-y neighbours
 * from there and its two z neighbours computed where it stands.  A ghost's
 * value is that of its source cell after the first colour (periodic: the
 * wrapped cell; otherwise the cell inside, through bsq_ghost_dirichlet on
 * a Dirichlet face), which is what the ghost fill before the second colour
 * writes.  Every value is the one the two launches compute, by the same
 * functions: the same bits (t_bsq_cuda compares them). */

/* Tile of the fused sweep: one warp along x, RB_TY rows. */
#define RB_TY 8

struct rb_sweep {
	const bsq_real *phi, *rhs;
	struct bsq_h h;
	struct bsq_grid g;
	int kind[BSQ_NFACE];
	int k0;
};

/* Interior cell (i, j, k) after the first colour. */
__device__ static inline bsq_real rb_first(const struct rb_sweep &x, int i, int j, int k)
{
	size_t c = bsq_idx(&x.g, i, j, k);
	if (bsq_is_colour(i, j, x.k0 + k, 0))
		return bsq_relax_at(x.phi, x.rhs, c, bsq_sy(&x.g), bsq_sz(&x.g), &x.h);
	return x.phi[c];
}

/* Cell or ghost (i, j, k) after the first colour and the ghost fill that
 * follows it (k_fill_all's rule: a ghost takes its source cell's value). */
__device__ static inline bsq_real rb_value(const struct rb_sweep &x, int i, int j, int k)
{
	const int n[3] = { x.g.nx, x.g.ny, x.g.nz };
	int c[3] = { i, j, k }, d;
	unsigned dir = 0;
	bsq_real v;
	for (d = 0; d < 3; d++) {
		int hi = c[d] > n[d];
		if (c[d] >= 1 && c[d] <= n[d])
			continue;
		if (x.kind[2 * d] == BSQ_GHOST_PERIODIC) {
			c[d] = hi ? 1 : n[d];
		} else {
			if (x.kind[2 * d + hi] == BSQ_GHOST_DIRICHLET)
				dir |= 1u << d;
			c[d] = hi ? n[d] : 1;
		}
	}
	v = rb_first(x, c[0], c[1], c[2]);
	for (d = 0; d < 3; d++)
		if (dir >> d & 1u)
			v = bsq_ghost_dirichlet(0, v);
	return v;
}

__global__ static void __launch_bounds__(TX * RB_TY) k_rb_sweep(bsq_real *out, struct rb_sweep x)
{
	__shared__ bsq_real S[RB_TY + 2][TX + 2];
	const int tx = (int)threadIdx.x, ty = (int)threadIdx.y, t = ty * TX + tx;
	const int bi = (int)blockIdx.x * TX, bj = (int)blockIdx.y * RB_TY, k = (int)blockIdx.z + 1;
	const int i = bi + tx + 1, j = bj + ty + 1;
	const bool in = i <= x.g.nx && j <= x.g.ny;
	if (i <= x.g.nx + 1 && j <= x.g.ny + 1)
		S[ty + 1][tx + 1] = rb_value(x, i, j, k);
	/* the ring: the rows below and above the tile, the columns left and
	 * right of it (the tile's own cells past nx or ny came above) */
	if (t < 2 * (TX + RB_TY)) {
		int si, sj;
		if (t < 2 * TX) {
			si = t % TX + 1;
			sj = t < TX ? 0 : RB_TY + 1;
		} else {
			si = t < 2 * TX + RB_TY ? 0 : TX + 1;
			sj = (t - 2 * TX) % RB_TY + 1;
		}
		if (bi + si <= x.g.nx + 1 && bj + sj <= x.g.ny + 1)
			S[sj][si] = rb_value(x, bi + si, bj + sj, k);
	}
	__syncthreads();
	if (!in)
		return;
	size_t c = bsq_idx(&x.g, i, j, k);
	if (bsq_is_colour(i, j, x.k0 + k, 0)) {
		out[c] = S[ty + 1][tx + 1];
	} else {
		struct bsq_st7 q;
		q.c = S[ty + 1][tx + 1];
		q.xm = S[ty + 1][tx];
		q.xp = S[ty + 1][tx + 2];
		q.ym = S[ty][tx + 1];
		q.yp = S[ty + 2][tx + 1];
		q.zm = rb_value(x, i, j, k - 1);
		q.zp = rb_value(x, i, j, k + 1);
		out[c] = bsq_relax(&q, x.rhs[c], &x.h);
	}
}

/* The fused sweep applies where its ghost rule is the fill's: no slab
 * halo or wall-face ghosts, an even count of cells along a periodic axis
 * (red-black is then a colouring), PHI relaxed against RHS with TMP free;
 * SPATE_BSQ_FUSED=0 turns it off (the two launches: the same bits). */
static bool rb_fusable(const struct bsq_level *l, int phi, int rhs)
{
	const int n[3] = { l->g.nx, l->g.ny, l->g.nz };
	const char *e = getenv("SPATE_BSQ_FUSED");
	int d;
	if (phi != BSQ_PHI || rhs != BSQ_RHS || (e && !strcmp(e, "0")))
		return false;
	for (d = 0; d < BSQ_NFACE; d++)
		if (l->ghost[d] == BSQ_GHOST_HALO || l->ghost[d] == BSQ_GHOST_WALL_FACE)
			return false;
	for (d = 0; d < 3; d++)
		if (l->ghost[2 * d] == BSQ_GHOST_PERIODIC && n[d] % 2)
			return false;
	return true;
}

extern "C" void bsq_cuda_smooth(struct bsq_level *l, int phi, int rhs, int sweeps)
{
	int s, red, d;
	if (!rb_fusable(l, phi, rhs)) {
		for (s = 0; s < sweeps; s++)
			for (red = 0; red < 2; red++)
				bsq_cuda_colour(l, phi, rhs, red);
		return;
	}
	for (s = 0; s < sweeps; s++) {
		struct rb_sweep x;
		bsq_real *y = l->v[BSQ_TMP];
		dim3 grid((unsigned)(l->g.nx + TX - 1) / TX, (unsigned)(l->g.ny + RB_TY - 1) / RB_TY,
			(unsigned)l->g.nz);
		bsq_cuda_ghosts(l, phi);
		x.phi = l->v[phi];
		x.rhs = l->v[rhs];
		x.h = l->h;
		x.g = l->g;
		x.k0 = l->k0;
		for (d = 0; d < BSQ_NFACE; d++)
			x.kind[d] = l->ghost[d];
		k_rb_sweep<<<grid, dim3(TX, RB_TY), 0, bsq_cuda_now>>>(y, x);
		l->v[BSQ_TMP] = l->v[BSQ_PHI];
		l->v[BSQ_PHI] = y;
	}
}

__global__ static void k_jacobi(bsq_real *out, const bsq_real *phi, const bsq_real *rhs,
	struct bsq_h h, struct box b, struct bsq_grid g)
{
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
	k_jacobi<<<LAUNCH(b)>>>(y, l->v[BSQ_PHI], l->v[BSQ_RHS], l->h, b, l->g);
	l->v[BSQ_TMP] = l->v[BSQ_PHI];
	l->v[BSQ_PHI] = y;
}

/* Coarse cells (I, J, K) of box b (grid gc) from the fine grid gf. */
__global__ static void k_restrict(bsq_real *out, const bsq_real *in, struct bsq_grid gf, int cx,
	int cy, int cz, struct box b, struct bsq_grid gc)
{
	int I, J, K;
	if (cell_of(b, &I, &J, &K))
		out[bsq_idx(&gc, I, J, K)] = bsq_restrict_at(in, &gf, cx, cy, cz, I, J, K);
}

extern "C" void bsq_cuda_restrict(struct bsq_level *coarse, int cvec, struct bsq_level *fine,
	int fvec)
{
	struct box b = box_of(&coarse->g, bsq_interior);
	k_restrict<<<LAUNCH(b)>>>(coarse->v[cvec], fine->v[fvec], fine->g, fine->cx, fine->cy,
		fine->cz, b, coarse->g);
}

/* fine = a fine + P coarse; pl: trilinear, else piecewise constant. */
__global__ static void k_interp(bsq_real *out, const bsq_real *in, bsq_real a, int pl,
	struct bsq_grid gc, int cx, int cy, int cz, struct box b, struct bsq_grid g)
{
	int i, j, k;
	if (cell_of(b, &i, &j, &k)) {
		size_t c = bsq_idx(&g, i, j, k);
		out[c] = bsq_prolong_add(a, out[c], bsq_interp_at(in, &gc, cx, cy, cz, i, j, k, pl));
	}
}

static void interp(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec, int pl)
{
	struct box b = box_of(&fine->g, bsq_interior);
	bsq_cuda_ghosts(coarse, cvec);
	k_interp<<<LAUNCH(b)>>>(fine->v[fvec], coarse->v[cvec], (bsq_real)a, pl, coarse->g, fine->cx,
		fine->cy, fine->cz, b, fine->g);
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
