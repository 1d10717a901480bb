/* swe_cuda_sub_activity.cu: where the work is on a GPU subdomain, for
 * dynamic load balancing (swe_cuda_sub.cu; the sub-operation activity of
 * swe_multi.h; the CPU's is in src/swe_cpu_rhs.c; moving rows:
 * swe_cuda_sub_rows.cu).
 *
 * With the tile map, the tiles the next step computes (their activity
 * flags) times their width, spread over the rows of each tile row; without
 * it every cell of every row.  The wet bounding box comes from a reduction
 * kernel: per row the first and last column of a cell of depth > 0, then
 * the box on the host. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_cuda_sub.h"
#include "swe_backend.h"
}

#include <cuda_runtime.h>
#include <limits.h>
#include <stdlib.h>

#define G SWE_GHOST

/* Per row j of w (rows of pitch cells from row 0, the first interior
 * column at G): the first and last column i of a cell with w > 0 (w holds
 * the depth; as the CPU's box) into ext[2 j], ext[2 j + 1]; INT_MAX and -1 for
 * none.  One block of 256 threads per row. */
__global__ static void k_wet_extent(const real *w, int nx, int pitch, int *ext)
{
	__shared__ int lo[8], hi[8];
	const real *rw = w + (size_t)blockIdx.x * pitch + G;
	int a = INT_MAX, b = -1, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
	for (int i = threadIdx.x; i < nx; i += blockDim.x)
		if (rw[i] > 0) {
			a = min(a, i);
			b = max(b, i);
		}
	for (int o = 16; o > 0; o >>= 1) {
		a = min(a, __shfl_xor_sync(0xffffffffu, a, o));
		b = max(b, __shfl_xor_sync(0xffffffffu, b, o));
	}
	if (lane == 0) {
		lo[warp] = a;
		hi[warp] = b;
	}
	__syncthreads();
	if (threadIdx.x != 0)
		return;
	for (int k = 1; k < (int)blockDim.x / 32; k++) {
		a = min(a, lo[k]);
		b = max(b, hi[k]);
	}
	ext[2 * blockIdx.x] = a;
	ext[2 * blockIdx.x + 1] = b;
}

/* The wet bounding box of the owned rows in global indices (swe_multi.h). */
static int wet_box(struct swe_backend_ctx *x, int box[4])
{
	size_t nb = 2 * (size_t)x->rows * sizeof(int);
	int *d = NULL, *h = (int *)malloc(nb);
	cudaError_t e;
	box[0] = INT_MAX;
	box[1] = -1;
	box[2] = INT_MAX;
	box[3] = -1;
	if (!h)
		return -SPATE_ENOMEM;
	e = cudaMalloc((void **)&d, nb);
	if (e == cudaSuccess) {
		k_wet_extent<<<x->rows, 256, 0, x->main>>>(swe_cuda_sub_row(x->w[x->cur], x, 0),
			x->kp.nx, x->kp.pitch, d);
		e = cudaGetLastError();
	}
	if (e == cudaSuccess)
		e = cudaMemcpyAsync(h, d, nb, cudaMemcpyDeviceToHost, x->main);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(x->main);
	cudaFree(d);
	for (int j = 0; j < x->rows && e == cudaSuccess; j++)
		if (h[2 * j + 1] >= 0) {
			box[0] = box[0] == INT_MAX ? x->row0 + j : box[0];
			box[1] = x->row0 + j;
			box[2] = h[2 * j] < box[2] ? h[2 * j] : box[2];
			box[3] = h[2 * j + 1] > box[3] ? h[2 * j + 1] : box[3];
		}
	free(h);
	CUDA_CHECK(e);
	return 0;
}

/* Per owned row the cells the flood makes the next step compute: the
 * active tiles of its tile row (the flags k_tiles left; not the tiles
 * computed only for an internal edge, act 2, which every plan has) times
 * their width; every cell without the tile map. */
static int row_work(struct swe_backend_ctx *x, int *work)
{
	int ntx = x->kp.ntx, nty = x->kp.nty, R = x->kp.rows, nx = x->kp.nx;
	unsigned char *act;
	cudaError_t e;
	if (!x->kp.tiles) {
		for (int j = 0; j < x->rows; j++)
			work[j] = nx;
		return 0;
	}
	act = (unsigned char *)malloc((size_t)ntx * nty);
	if (!act)
		return -SPATE_ENOMEM;
	e = cudaMemcpy(act, x->act, (size_t)ntx * nty, cudaMemcpyDeviceToHost);
	if (e != cudaSuccess) {
		free(act);
		CUDA_CHECK(e);
	}
	for (int ty = 0; ty < nty; ty++) {
		int n = 0;
		for (int tx = 0; tx < ntx; tx++)
			if (act[(size_t)ty * ntx + tx] == 1) {
				int c0 = tx * SWE_CUDA_STRIP_COLS;
				n += nx - c0 < SWE_CUDA_STRIP_COLS ? nx - c0 : SWE_CUDA_STRIP_COLS;
			}
		for (int j = ty * R; j < (ty + 1) * R && j < x->rows; j++)
			work[j] = n;
	}
	free(act);
	return 0;
}

int swe_cuda_sub_activity(struct swe_backend_ctx *x, int *work, int box[4])
{
	int rc = swe_cuda_sub_sync(x);
	if (!rc && work)
		rc = row_work(x, work);
	if (!rc && box)
		rc = wet_box(x, box);
	return rc;
}
