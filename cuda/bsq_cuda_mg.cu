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

/* Ghost kinds of a level, by value for the kernels. */
struct kinds6 {
	int k[BSQ_NFACE];
};

/* The cell (or ghost) whose value ghost (i, j, k) = c[] takes in a ghost
 * fill (k_fill_all's rule), mapped in place: periodic, the wrapped cell;
 * Neumann and Dirichlet, the cell inside (the Dirichlet axes returned as
 * bits, for bsq_ghost_dirichlet with wall value 0); a slab's halo face,
 * the ghost itself (its plane comes by the exchange).  A cell maps to
 * itself. */
__device__ static inline unsigned ghost_source(const struct bsq_grid &g, const struct kinds6 &f,
	int c[3])
{
	const int n[3] = { g.nx, g.ny, g.nz };
	unsigned dir = 0;
	int d;
	for (d = 0; d < 3; d++) {
		int hi = c[d] > n[d], kind = f.k[2 * d + hi];
		if (c[d] >= 1 && c[d] <= n[d])
			continue;
		if (f.k[2 * d] == BSQ_GHOST_PERIODIC) {
			c[d] = hi ? 1 : n[d];
		} else if (kind != BSQ_GHOST_HALO) {
			if (kind == BSQ_GHOST_DIRICHLET)
				dir |= 1u << d;
			c[d] = hi ? n[d] : 1;
		}
	}
	return dir;
}

/* phi at cell or ghost (i, j, k) as a ghost fill now would leave it. */
__device__ static inline bsq_real filled_at(const bsq_real *phi, const struct bsq_grid &g,
	const struct kinds6 &f, int i, int j, int k)
{
	int c[3] = { i, j, k }, d;
	unsigned dir = ghost_source(g, f, c);
	bsq_real v = phi[bsq_idx(&g, c[0], c[1], c[2])];
	for (d = 0; d < 3; d++)
		if (dir >> d & 1u)
			v = bsq_ghost_dirichlet(0, v);
	return v;
}

/* One colour of red-black Gauss-Seidel: reads only the other colour.  A
 * cell next to a face reads its ghost neighbours as the fill before the
 * colour would have written them (filled_at: a ghost's source is the cell
 * itself or one of the other colour, which no thread of this launch
 * writes), so no fill runs before a colour: the same values, one launch
 * less (the fill was up to half the time of a colour on the coarse
 * levels). */
__global__ static void k_colour(bsq_real *phi, const bsq_real *rhs, struct bsq_h h, int red,
	int k0, struct box b, struct bsq_grid g, struct kinds6 f)
{
	int i, j, k;
	if (cell_of(b, &i, &j, &k) && bsq_is_colour(i, j, k0 + k, red)) {
		size_t c = bsq_idx(&g, i, j, k);
		if (i > 1 && i < g.nx && j > 1 && j < g.ny && k > 1 && k < g.nz) {
			phi[c] = bsq_relax_at(phi, rhs, c, bsq_sy(&g), bsq_sz(&g), &h);
		} else {
			struct bsq_st7 q;
			q.c = phi[c];
			q.xm = filled_at(phi, g, f, i - 1, j, k);
			q.xp = filled_at(phi, g, f, i + 1, j, k);
			q.ym = filled_at(phi, g, f, i, j - 1, k);
			q.yp = filled_at(phi, g, f, i, j + 1, k);
			q.zm = filled_at(phi, g, f, i, j, k - 1);
			q.zp = filled_at(phi, g, f, i, j, k + 1);
			phi[c] = bsq_relax(&q, rhs[c], &h);
		}
	}
}

/* A colour reads its ghosts as the fill would write them where no face is
 * a velocity wall face (not a pressure kind) and every periodic axis has
 * an even count of cells (red-black is then a colouring: the wrapped cell
 * is of the other colour). */
static bool ghosts_read(const struct bsq_level *l)
{
	const int n[3] = { l->g.nx, l->g.ny, l->g.nz };
	int d;
	for (d = 0; d < BSQ_NFACE; d++)
		if (l->ghost[d] == BSQ_GHOST_WALL_FACE)
			return false;
	for (d = 0; d < 3; d++)
		if (l->ghost[2 * d] == BSQ_GHOST_PERIODIC && n[d] % 2)
			return false;
	return true;
}

extern "C" void bsq_cuda_colour(struct bsq_level *l, int phi, int rhs, int red)
{
	struct box b = box_of(&l->g, bsq_interior);
	struct kinds6 f;
	int d;
	for (d = 0; d < BSQ_NFACE; d++)
		f.k[d] = l->ghost[d];
	if (!ghosts_read(l)) {
		/* every ghost from memory, filled now (no kind maps in filled_at) */
		bsq_cuda_ghosts(l, phi);
		for (d = 0; d < BSQ_NFACE; d++)
			f.k[d] = BSQ_GHOST_HALO;
	}
	k_colour<<<LAUNCH(b)>>>(l->v[phi], l->v[rhs], l->h, red, l->k0, b, l->g, f);
}

/* ---- both colours of a sweep in one pass (issue 21: a V-cycle at the
 * bandwidth bound).  Two colour launches read phi and b and write phi twice
 * a sweep (48 bytes a cell in double precision); here one launch reads
 * them once and writes the other array (TMP, swapped with PHI after), 24
 * bytes a cell.  A block takes an x-y tile and walks up RB_KZ planes of it.
 * Plane by plane, the values after the first colour of the tile and of a
 * ring of one cell around it go to a window of three planes in shared
 * memory, each computed once from the old values (bsq_relax_at; ghosts
 * filled from the old values as the first colour's launch would); the
 * second colour of the plane below then relaxes from the window.  A ghost's
 * value is its source cell's after the first colour (periodic: the wrapped
 * cell; otherwise the cell inside, through bsq_ghost_dirichlet on a
 * Dirichlet face), which is what the ghost fill before the second colour
 * writes.  Every value is the one the two launches compute, by the same
 * functions: the same bits (t_bsq_cuda compares them). */

/* Tile of the fused sweep: one warp along x, RB_TY rows, RB_KZ planes. */
#define RB_TY 8
#define RB_KZ 16
/* The fused sweep by default (1), or the two colour launches (0). */
#ifndef RB_FUSED
#define RB_FUSED 0
#endif

struct rb_sweep {
	const bsq_real *__restrict__ phi;
	const bsq_real *__restrict__ rhs;
	struct bsq_h h;
	struct bsq_grid g;
	struct kinds6 kind;
	int k0;
};

/* Cell or ghost (i, j, k) after the first colour and the ghost fill that
 * follows it. */
__device__ static inline bsq_real rb_value(const struct rb_sweep &x, int i, int j, int k)
{
	int c[3] = { i, j, k }, d;
	unsigned dir = ghost_source(x.g, x.kind, c);
	size_t at = bsq_idx(&x.g, c[0], c[1], c[2]);
	bsq_real v = bsq_is_colour(c[0], c[1], x.k0 + c[2], 0) ?
		bsq_relax_at(x.phi, x.rhs, at, bsq_sy(&x.g), bsq_sz(&x.g), &x.h) : x.phi[at];
	for (d = 0; d < 3; d++)
		if (dir >> d & 1u)
			v = bsq_ghost_dirichlet(0, v);
	return v;
}

__global__ static void __launch_bounds__(TX * RB_TY) k_rb_sweep(bsq_real *__restrict__ out,
	struct rb_sweep x)
{
	__shared__ bsq_real R[3][RB_TY + 2][TX + 2];
	const int tx = (int)threadIdx.x, ty = (int)threadIdx.y, t = ty * TX + tx;
	const int bi = (int)blockIdx.x * TX, bj = (int)blockIdx.y * RB_TY;
	const int kb = (int)blockIdx.z * RB_KZ + 1, ke = min(kb + RB_KZ, x.g.nz + 1);
	const int i = bi + tx + 1, j = bj + ty + 1;
	const bool in = i <= x.g.nx && j <= x.g.ny;
	int m, p;
	for (m = kb - 1; m <= ke; m++) {
		bsq_real (*W)[TX + 2] = R[m % 3];
		/* the second colour's b of plane m - 1, loaded before the window's
		 * plane so that the two loads travel together */
		const bool out2 = m >= kb + 1 && in && !bsq_is_colour(i, j, x.k0 + m - 1, 0);
		const bsq_real b2 = out2 ? x.rhs[bsq_idx(&x.g, i, j, m - 1)] : 0;
		/* the window's new plane m: tile and ring (not its corners, which
		 * no stencil reads), as far as the ghosts past nx and ny */
#pragma unroll
		for (p = t; p < (TX + 2) * (RB_TY + 2); p += TX * RB_TY) {
			const int si = p % (TX + 2), sj = p / (TX + 2);
			const int gi = bi + si, gj = bj + sj;
			const bool ring_x = si == 0 || si == TX + 1, ring_y = sj == 0 || sj == RB_TY + 1;
			const bool inside = gi >= 1 && gi <= x.g.nx && gj >= 1 && gj <= x.g.ny &&
				m >= 1 && m <= x.g.nz;
			if ((ring_x && ring_y) || gi > x.g.nx + 1 || gj > x.g.ny + 1)
				continue;
			/* a cell of the second colour is read only as a ghost's source */
			if (inside && !bsq_is_colour(gi, gj, x.k0 + m, 0))
				continue;
			if (inside)
				W[sj][si] = bsq_relax_at(x.phi, x.rhs, bsq_idx(&x.g, gi, gj, m),
					bsq_sy(&x.g), bsq_sz(&x.g), &x.h);
			else
				W[sj][si] = rb_value(x, gi, gj, m);
		}
		__syncthreads();
		if (m >= kb + 1 && in) {
			const int k = m - 1;
			const size_t c = bsq_idx(&x.g, i, j, k);
			bsq_real (*P)[TX + 2] = R[k % 3];
			if (bsq_is_colour(i, j, x.k0 + k, 0)) {
				out[c] = P[ty + 1][tx + 1];
			} else {
				struct bsq_st7 q;
				q.c = 0; /* bsq_relax does not read it */
				q.xm = P[ty + 1][tx];
				q.xp = P[ty + 1][tx + 2];
				q.ym = P[ty][tx + 1];
				q.yp = P[ty + 2][tx + 1];
				q.zm = R[(k - 1) % 3][ty + 1][tx + 1];
				q.zp = W[ty + 1][tx + 1];
				out[c] = bsq_relax(&q, b2, &x.h);
			}
		}
		__syncthreads();
	}
}

/* The fused sweep applies where its ghost rule is the fill's (ghosts_read)
 * and no face is a slab's halo, PHI relaxed against RHS with TMP free;
 * SPATE_BSQ_FUSED=1 or 0 turns it on or off (the same bits either way);
 * RB_FUSED is the default. */
static bool rb_fusable(const struct bsq_level *l, int phi, int rhs)
{
	const char *e = getenv("SPATE_BSQ_FUSED");
	int d;
	if (phi != BSQ_PHI || rhs != BSQ_RHS || !(e ? strcmp(e, "0") != 0 : RB_FUSED))
		return false;
	for (d = 0; d < BSQ_NFACE; d++)
		if (l->ghost[d] == BSQ_GHOST_HALO)
			return false;
	return ghosts_read(l);
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
			(unsigned)(l->g.nz + RB_KZ - 1) / RB_KZ);
		bsq_cuda_ghosts(l, phi);
		x.phi = l->v[phi];
		x.rhs = l->v[rhs];
		x.h = l->h;
		x.g = l->g;
		x.k0 = l->k0;
		for (d = 0; d < BSQ_NFACE; d++)
			x.kind.k[d] = l->ghost[d];
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
