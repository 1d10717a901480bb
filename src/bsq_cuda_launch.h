/* bsq_cuda_launch.h: what the Boussinesq CUDA files share (CUDA C++, for
 * cuda/bsq_cuda*.cu only): the launch geometry of a box of cells, the
 * launch itself (bsq_launch), a thread's cell, a scalar's ghost cells, the
 * warp maximum, and the error and maximum helpers of bsq_cuda_kern.cu. */
#ifndef SPATE_BSQ_CUDA_LAUNCH_H
#define SPATE_BSQ_CUDA_LAUNCH_H

#include <cuda_runtime.h>

#include "cuda_pdl.h"

/* Threads of a block: one warp along x, 4 rows, 2 planes. */
#define TX 32
#define TY 4
#define TZ 2
/* Threads of a block of the line and row kernels. */
#define TLINE 128
/* Threads of a warp. */
#define WARP_LANES 32

/* ---- launch geometry: a box of cells (i0..nx, j0..ny, k0..nz). */
struct box {
	int i0, j0, k0, ni, nj, nk;
};

static inline struct box box_of(const struct bsq_grid *g, const int lo[3])
{
	struct box b;
	b.i0 = lo[0];
	b.j0 = lo[1];
	b.k0 = lo[2];
	b.ni = g->nx - lo[0] + 1;
	b.nj = g->ny - lo[1] + 1;
	b.nk = g->nz - lo[2] + 1;
	return b;
}

static inline bool empty(const struct box &b)
{
	return b.ni < 1 || b.nj < 1 || b.nk < 1;
}

static inline dim3 blocks_of(const struct box &b)
{
	return dim3((unsigned)(b.ni + TX - 1) / TX, (unsigned)(b.nj + TY - 1) / TY,
		(unsigned)(b.nk + TZ - 1) / TZ);
}

/* The stream of the cell kernels: 0 (the legacy default stream), or a
 * slab's own (bsq_cuda.cu, slabs with overlap = streams).  The line, row and
 * reduction kernels and every copy run on the default stream, which waits
 * for the slabs' streams and they for it. */
extern cudaStream_t bsq_cuda_now;

#define LAUNCH(b) blocks_of(b), dim3(TX, TY, TZ), 0, bsq_cuda_now

/* ---- programmatic dependent launch (cuda_pdl.h): every kernel of this
 * module calls pdl_start first.  The launch of each kernel of a V-cycle
 * overlaps the end of the one before, where at 32^3 to 64^3 cells a launch
 * costs about as much as its work.  SPATE_BSQ_PDL=0 launches plainly (for
 * comparison); devices before 9.0 always do. */

/* Whether launches ask for it (bsq_cuda_kern.cu): once per process;
 * bsq_cuda_pdl_off after a refusal. */
bool bsq_cuda_pdl(void);
void bsq_cuda_pdl_off(void);

/* ---- the walks of the sweeps (bsq_cuda_walk.cu): blocks of kernel k
 * (threads, dynamic shared bytes) the device holds at once; planes a
 * chunk of a level of nz planes (bsq_wave_planes of bsq_waves.h,
 * remembered; SPATE_BSQ_GS_PLANES=n: n). */
long bsq_cuda_slots(const void *k, int threads, size_t bytes);
int bsq_cuda_wave_planes(int nz, long tiles, long slots, int h, int least, int most);

/* ---- reads across faces at their sources: a kernel of a level whose
 * every face is Neumann or, in x and y, periodic can read the value a fill
 * would copy to a ghost at the cell it copies it from (fill_ghost): the
 * cell itself across a Neumann face, the cell on the opposite side across
 * a periodic one, wx and wy elements from the first cell.  The fill before
 * it goes (cuda/bsq_cuda_kern.cu: bsq_cuda_direct). */
struct wrap2 {
	int wx, wy;
};

/* Whether level l's kernels read across faces so (SPATE_BSQ_GS_DIRECT),
 * and the offsets for it. */
bool bsq_cuda_direct(const struct bsq_level *l);
struct wrap2 bsq_cuda_wrap(const struct bsq_level *l);

/* The offset from cell P (1..n) of an axis (stride s) to its neighbour on
 * side far (-1, 0 or 1), across a face at the neighbour's source (w: from
 * the first cell to the last, 0 unless periodic). */
__device__ static inline int src_off(int P, int n, int far, int s, int w)
{
	return far < 0 ? (P > 1 ? -s : w) : far > 0 ? (P < n ? s : -w) : 0;
}

/* a around interior cell c = (i, j, k) of grid g (strides sy, sz), each
 * neighbour across a face at its source (offsets wx, wy, wz). */
__device__ static inline struct bsq_st7 gather_src(const bsq_real *a, const struct bsq_grid &g,
	int i, int j, int k, int c, int sy, int sz, int wx, int wy, int wz)
{
	struct bsq_st7 q;
	q.c = a[c];
	q.xm = a[i > 1 ? c - 1 : c + wx];
	q.xp = a[i < g.nx ? c + 1 : c - wx];
	q.ym = a[j > 1 ? c - sy : c + wy];
	q.yp = a[j < g.ny ? c + sy : c - wy];
	q.zm = a[k > 1 ? c - sz : c + wz];
	q.zp = a[k < g.nz ? c + sz : c - wz];
	return q;
}

/* kernel<<<grid, block, shm, stream>>>(args), with programmatic dependent
 * launch where bsq_cuda_pdl says so; a launch refused with it is made
 * again without (the error is left for bsq_cuda_error otherwise). */
template <typename... P, typename... A>
static inline void bsq_launch(void (*kernel)(P...), dim3 grid, dim3 block, size_t shm,
	cudaStream_t stream, A... args)
{
	const bool pdl = bsq_cuda_pdl();
	if (pdl_launch(pdl, kernel, grid, block, shm, stream, args...) == cudaSuccess || !pdl)
		return;
	(void)cudaGetLastError();
	bsq_cuda_pdl_off();
	(void)pdl_launch(false, kernel, grid, block, shm, stream, args...);
}

/* This thread's cell; false outside the box. */
__device__ static inline bool cell_of(const struct box &b, int *i, int *j, int *k)
{
	int a = (int)(blockIdx.x * blockDim.x + threadIdx.x);
	int c = (int)(blockIdx.y * blockDim.y + threadIdx.y);
	int d = (int)(blockIdx.z * blockDim.z + threadIdx.z);
	*i = b.i0 + a;
	*j = b.j0 + c;
	*k = b.k0 + d;
	return a < b.ni && c < b.nj && d < b.nk;
}

/* ---- ghosts of a scalar (k_fill_all, the V-cycle's tail). */

/* The faces' kinds and values of a scalar's ghosts. */
struct fill6 {
	int kind[BSQ_NFACE];
	bsq_real val[BSQ_NFACE];
};

/* The ghost cells of a grid: the x faces with their edges and corners, the
 * y faces with their z edges, the z faces. */
__host__ __device__ static inline long ghost_cells(const struct bsq_grid &g)
{
	return 2L * (g.ny + 2) * (g.nz + 2) + 2L * g.nx * (g.nz + 2) + 2L * g.nx * g.ny;
}

/* Every ghost of a scalar in one launch, a thread per ghost cell (the x
 * faces with their edges and corners, then the y faces, then the z faces),
 * the value the three axis passes (fill_axis: x, then y over lines that
 * include the x ghosts, then z) leave there, to the bit: a ghost c takes
 * the value at its source s, each coordinate of c outside the box mapped
 * to its interior source (the neighbour, or the opposite side when
 * periodic; halo faces keep the coordinate), then the Dirichlet maps of
 * those axes in the axes' order.  Not for wall faces (an interior value
 * set to 0): bsq_cuda_bc_scalar keeps the passes there.  On the multigrid
 * levels a fill was three launches, and the coarse levels are bound by
 * launches.  Ghost t of the ghost_cells(g); 32-bit positions (the host's
 * bound): 64-bit divisions made the finest level's fill 14 us at 256^3
 * (one H200). */
__device__ static inline void fill_ghost(bsq_real *a, const struct bsq_grid &g,
	const struct fill6 &f, unsigned t)
{
	const int n[3] = { g.nx, g.ny, g.nz };
	const unsigned n1 = (unsigned)n[1] + 2u, n0 = (unsigned)n[0];
	const unsigned fx = 2u * n1 * ((unsigned)n[2] + 2u), fy = 2u * n0 * ((unsigned)n[2] + 2u),
		fz = 2u * n0 * (unsigned)n[1];
	int c[3], s[3], d;
	unsigned dir = 0, any = 0;
	bsq_real v;
	if (t < fx) {
		c[0] = t & 1u ? n[0] + 1 : 0;
		c[1] = (int)((t >> 1) % n1);
		c[2] = (int)((t >> 1) / n1);
	} else if ((t -= fx) < fy) {
		c[1] = t & 1u ? n[1] + 1 : 0;
		c[0] = 1 + (int)((t >> 1) % n0);
		c[2] = (int)((t >> 1) / n0);
	} else if ((t -= fy) < fz) {
		c[2] = t & 1u ? n[2] + 1 : 0;
		c[0] = 1 + (int)((t >> 1) % n0);
		c[1] = 1 + (int)((t >> 1) / n0);
	} else {
		return;
	}
	for (d = 0; d < 3; d++) {
		int hi = c[d] > n[d], k = f.kind[2 * d + hi];
		s[d] = c[d];
		if (c[d] >= 1 && c[d] <= n[d])
			continue;
		if (f.kind[2 * d] == BSQ_GHOST_PERIODIC) {
			s[d] = hi ? 1 : n[d];
			any = 1;
		} else if (k != BSQ_GHOST_HALO) {
			s[d] = hi ? n[d] : 1;
			any = 1;
			if (k == BSQ_GHOST_DIRICHLET)
				dir |= 1u << d;
		}
	}
	if (!any)
		return;
	v = a[bsq_idx(&g, s[0], s[1], s[2])];
	for (d = 0; d < 3; d++)
		if (dir >> d & 1u)
			v = bsq_ghost_dirichlet(f.val[2 * d + (c[d] > n[d])], v);
	a[bsq_idx(&g, c[0], c[1], c[2])] = v;
}

/* Maxima land in MAX_SLOTS slots of the scratch, MAX_PITCH values apart
 * (one 128-byte line each, so in different L2 slices); the host takes the
 * largest (bsq_cuda_max_end).  With one address, every warp's read of it
 * and its atomics were served one after the other by one L2 slice: on an
 * H200 the maximum of one field of 384 x 384 x 192 took 317 us (0.7 TB/s)
 * and a residual with its maximum 384 us against 188 us without. */
#define MAX_SLOTS 64
#define MAX_PITCH 16

/* The max over the block of m >= 0, into its slot of bits (every thread of
 * the block must call; at most 32 warps).  The bits of doubles >= 0 order
 * as the numbers do, so any order of the atomics gives the same maximum.
 * A block whose maximum is not above the slot's value (read plainly: it
 * can only be lower than the latest, never higher) skips the atomic. */
__device__ static inline void block_max(double m, unsigned long long *bits)
{
	__shared__ double part[32];
	int o, tid = (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
	int warp = tid >> 5, nw = (int)(blockDim.x * blockDim.y * blockDim.z + 31) >> 5;
	for (o = 16; o > 0; o >>= 1)
		m = fmax(m, __shfl_xor_sync(0xffffffffu, m, o));
	if ((tid & 31) == 0)
		part[warp] = m;
	__syncthreads();
	if (tid != 0)
		return;
	for (o = 1; o < nw; o++)
		m = fmax(m, part[o]);
	if (m > 0) {
		unsigned blk = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
		unsigned long long b = (unsigned long long)__double_as_longlong(m);
		unsigned long long *slot = bits + (size_t)(blk % MAX_SLOTS) * MAX_PITCH;
		if (b > *(volatile unsigned long long *)slot)
			atomicMax(slot, b);
	}
}

/* bsq_cuda_kern.cu: the first error of a CUDA call is kept (bsq_cuda_error
 * reports it); the maximum's scratch cleared, read back, and its bits. */
void bsq_cuda_note(cudaError_t e, const char *what);
void bsq_cuda_max_begin(void);
double bsq_cuda_max_end(void);
unsigned long long *bsq_cuda_max_bits(void);

#endif
