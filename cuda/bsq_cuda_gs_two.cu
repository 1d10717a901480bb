/* bsq_cuda_gs_two.cu: two red-black Gauss-Seidel sweeps of the Boussinesq
 * CUDA backend in one pass over memory (k_gs_two; bsq_cuda_smooth of
 * bsq_cuda_gs.cu calls it for the two sweeps before and after a coarse-grid
 * correction on the levels bsq_cuda_two_rows names). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
extern "C" {
#include "spate.h"
#include "bsq_cuda_dev.h"
}
#include "bsq_cuda_launch.h"
#include "bsq_cuda_gs.h"

#include <cuda_runtime.h>

/* Two sweeps in one pass (k_gs_two): four colour passes, red, black, red,
 * black, as a wavefront of four stages walking the planes upward: at step t
 * stage m relaxes its colour in plane t - m from the values of stage m - 1
 * in planes t - m - 1 to t - m + 1, kept in shared memory (a ring of three
 * planes a stage; stage 0 reads phi).  Each stage needs its predecessor one
 * pair and one row further out, so a block's threads cover its tile of PX
 * pairs by PY rows with TWO_H = 3 more on every side, and stage m runs on
 * the threads at least m from the edge (the last on the tile); the planes
 * below and above a chunk likewise.  On a periodic x or y face a thread
 * outside holds the pair it wraps to and computes it as its owner does;
 * across a Neumann face a cell reads itself, as the ghost a fill would copy
 * there (stage 0 reads the ghosts of phi, filled before).  The second
 * sweep's red cells so see what the fill between two sweeps gives them, and
 * every value is bsq_relax's from the same neighbours as in two sweeps of
 * k_gs_sweep: the same bits, with phi and the right-hand side read once
 * and phi written once for two sweeps.  Only where every face is Neumann
 * or, in x and y, periodic (bsq_cuda_two_rows). */
#define TWO_H 3
#define TWO_TX (PX + 2 * TWO_H)

template <int PY>
__global__ static void __launch_bounds__(32 * ((TWO_TX * (PY + 2 * TWO_H) + 31) / 32), 2)
	k_gs_two(struct gs_args x)
{
	pdl_start();
	extern __shared__ unsigned char two_mem[];
	bsq_real *S = (bsq_real *)two_mem;
	const int NS = TWO_TX * (PY + 2 * TWO_H);
	const struct bsq_grid &g = x.g;
	const int tx = (int)threadIdx.x % TWO_TX, ty = (int)threadIdx.x / TWO_TX;
	const int half = g.nx / 2, o = (int)threadIdx.x;
	const int a0 = (int)blockIdx.x * PX + tx - (TWO_H - 1);
	const int j0 = (int)blockIdx.y * PY + ty - (TWO_H - 1);
	const int d = min(min(tx, TWO_TX - 1 - tx), min(ty, PY + 2 * TWO_H - 1 - ty));
	const int kb = (int)blockIdx.z * x.nzc + 1, ke = min(g.nz, kb + x.nzc - 1);
	const int sy = g.nx + 2, sz = sy * (g.ny + 2);
	/* the pair this thread holds (wrapped on a periodic face), whether it
	 * is one of the grid, whether it is one of this tile's */
	const int a = x.px ? (((a0 - 1) % half) + half) % half + 1 : a0;
	const int j = x.py ? (((j0 - 1) % g.ny) + g.ny) % g.ny + 1 : j0;
	const bool live = o < NS && a >= 1 && a <= half && j >= 1 && j <= g.ny;
	const bool mine = live && d >= TWO_H && a0 <= half && j0 <= g.ny;
	/* faces a cell of this pair reads itself across */
	const bool xlo = !x.px && a == 1, xhi = !x.px && a == half;
	const bool ylo = !x.py && j == 1, yhi = !x.py && j == g.ny;
	int t, m;
	for (t = kb - TWO_H; t <= ke + TWO_H; t++) {
#pragma unroll
		for (m = 0; m <= TWO_H; m++) {
			const int p = t - m;
			if (live && d >= m && p >= max(1, kb - TWO_H + m) &&
				p <= min(g.nz, ke + TWO_H - m) && (m < TWO_H || mine)) {
				/* red: the pair's second cell where j + k0 + p is even */
				const bool right = (((j + x.k0 + p) & 1) == 0) == ((m & 1) == 0);
				const int c = p * sz + j * sy + 2 * a - (right ? 0 : 1);
				bsq_real v;
				if (m == 0) {
					v = bsq_relax_at(x.in, x.rhs, (size_t)c, (size_t)sy,
						(size_t)sz, &x.h);
				} else {
					const bsq_real *P = S + (m - 1) * 3 * NS;
					const bsq_real self =
						m == 1 ? x.in[c] :
						S[((m - 2) * 3 + (p + 3) % 3) * NS + o];
					const int s0 = (p + 3) % 3 * NS, sm = (p + 2) % 3 * NS;
					const int sp = (p + 4) % 3 * NS;
					struct bsq_st7 q;
					q.c = self;
					q.xm = right ? P[s0 + o] : xlo ? self : P[s0 + o - 1];
					q.xp = !right ? P[s0 + o] : xhi ? self : P[s0 + o + 1];
					q.ym = ylo ? self : P[s0 + o - TWO_TX];
					q.yp = yhi ? self : P[s0 + o + TWO_TX];
					q.zm = p == 1 ? self : P[sm + o];
					q.zp = p == g.nz ? self : P[sp + o];
					v = bsq_relax(&q, x.rhs[c], &x.h);
				}
				if (m < TWO_H) {
					S[(m * 3 + (p + 3) % 3) * NS + o] = v;
				} else {
					x.out[c] = v;
					x.out[right ? c - 1 : c + 1] =
						S[((m - 1) * 3 + (p + 3) % 3) * NS + o];
				}
			}
			if (m < TWO_H)
				__syncthreads();
		}
	}
}

/* Levels of at least TWO_LEAST cells take k_gs_two (0: none).  Its walk of
 * a chunk is three barriers a plane: on smaller levels two launches of
 * k_gs_sweep are faster (at 64^3, 15 us against 2 x 5).  In single
 * precision the sweep is bound by the instructions it issues, and the
 * tile's halo of three is more of them.  One H200, V(2,2) ms against
 * k_gs_sweep only: tiles of 16 rows on levels from 2^21 cells, fp64 256^3
 * 1.04-1.05 against 1.20, 512^3 6.38-6.39 against 6.96-7.00; from 2^24
 * cells, fp32 256^3 0.78-0.80 against 0.84, 512^3 4.58-4.73 against
 * 4.48-4.63; tiles of 8 rows on every level, fp64 256^3 1.20 either way,
 * 512^3 7.81 against 6.96. */
#ifndef BSQ_GS_TWO_LEAST
#ifdef BSQ_SINGLE
#define BSQ_GS_TWO_LEAST 0
#else
#define BSQ_GS_TWO_LEAST (1L << 21)
#endif
#endif

/* The rows of a k_gs_two tile for two sweeps of level l, 0 where the level
 * does not take it (its comment): of those k_gs_sweep takes (the caller's
 * fused_ok: no halo, z not periodic), those where no face is a wall's
 * (Dirichlet), of at least
 * SPATE_BSQ_GS_TWO cells (default BSQ_GS_TWO_LEAST; 0: none).  16 rows
 * (SPATE_BSQ_GS_TWO_ROWS=8: 8).  Read at every call: a test runs both
 * kernels in one process. */
int bsq_cuda_two_rows(const struct bsq_level *l)
{
	const char *e = getenv("SPATE_BSQ_GS_TWO"), *r = getenv("SPATE_BSQ_GS_TWO_ROWS");
	long least = e && *e ? atol(e) : BSQ_GS_TWO_LEAST;
	int f;
	if (least <= 0 || bsq_count(&l->g) < (size_t)least)
		return 0;
	for (f = 0; f < BSQ_NFACE; f++)
		if (l->ghost[f] == BSQ_GHOST_DIRICHLET)
			return 0;
	return r && atoi(r) == 8 ? 8 : 16;
}

/* Two sweeps of level l by k_gs_two, PY rows a tile, in chunks of 4 to 64
 * planes (the wavefront recomputes 3 each side; one H200, V(2,2) fp64
 * 512^3: one chunk of 512 planes, 256 blocks in one wave, 6.46-6.47 ms,
 * against 6.39-6.40 in chunks of 64, 8 waves). */
template <int PY>
static void smooth_two(struct bsq_level *l, int phi, struct gs_args &x)
{
	static long slots = 0;
	const int threads = 32 * ((TWO_TX * (PY + 2 * TWO_H) + 31) / 32);
	const size_t bytes = (size_t)9 * TWO_TX * (PY + 2 * TWO_H) * sizeof(bsq_real);
	dim3 grid((unsigned)((l->g.nx / 2 + PX - 1) / PX), (unsigned)((l->g.ny + PY - 1) / PY), 1);
	bsq_real *y = l->v[BSQ_TMP];
	if (slots == 0) {
		cudaFuncSetAttribute(k_gs_two<PY>, cudaFuncAttributeMaxDynamicSharedMemorySize,
			(int)bytes);
		slots = bsq_cuda_slots((const void *)k_gs_two<PY>, threads, bytes);
	}
	x.nzc = bsq_cuda_wave_planes(l->g.nz, (long)grid.x * grid.y, slots, TWO_H, 4, 64);
	grid.z = (unsigned)((l->g.nz + x.nzc - 1) / x.nzc);
	bsq_cuda_ghosts(l, phi);
	x.in = l->v[phi];
	x.out = y;
	bsq_launch(k_gs_two<PY>, grid, threads, bytes, bsq_cuda_now, x);
	l->v[BSQ_TMP] = l->v[phi];
	l->v[phi] = y;
}

void bsq_cuda_smooth_two(struct bsq_level *l, int phi, struct gs_args &x, int rows)
{
	if (rows == 16)
		smooth_two<16>(l, phi, x);
	else
		smooth_two<8>(l, phi, x);
}
