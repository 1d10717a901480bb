/* bsq_cuda_launch.h: what the Boussinesq CUDA files share (CUDA C++, for
 * cuda/bsq_cuda_kern.cu and cuda/bsq_cuda_mg.cu only): the launch geometry
 * of a box of cells, a thread's cell, the warp maximum, and the error and
 * maximum helpers of bsq_cuda_kern.cu. */
#ifndef SPATE_BSQ_CUDA_LAUNCH_H
#define SPATE_BSQ_CUDA_LAUNCH_H

#include <cuda_runtime.h>

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
