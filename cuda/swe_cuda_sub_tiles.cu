/* swe_cuda_sub_tiles.cu: the row ranges and tile lists of a subdomain of
 * rows on one GPU (swe_cuda_sub.cu): the edge ranges and the interior that
 * the stage kernels run on, the device arrays of the tiles, and the tile map
 * reset as after the upload (swe_cuda_sub_mem.cu) and after a move of rows
 * (swe_cuda_sub_rows.cu). */
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
#include <stdlib.h>

#define G SWE_GHOST

/* The row ranges of the stage kernels: the edge rows next to internal
 * edges, the interior between them.  With the tile map the edge ranges are
 * the tile rows that k_tiles computes every step: the first one at an
 * internal south edge, at an internal north edge those from the one that
 * holds row rows - SWE_GHOST. */
static void ranges(struct swe_backend_ctx *x)
{
	int rows = x->rows, R = x->kp.rows;
	int south = !(x->kp.sides & 1u << SWE_SOUTH), north = !(x->kp.sides & 1u << SWE_NORTH);
	if (x->kp.tiles) {
		x->lo = south ? (R < rows ? R : rows) : 0;
		x->hi = north ? (rows - G) / R * R : rows;
	} else {
		x->lo = south ? G : 0;
		x->hi = north ? rows - G : rows;
	}
	x->hi = x->hi > x->lo ? x->hi : x->lo;
	x->rj[0][0] = 0;
	x->rj[0][1] = rows;
	x->rj[1][0] = 0;
	x->rj[1][1] = x->lo;
	x->rj[2][0] = x->lo;
	x->rj[2][1] = x->hi;
	x->rj[3][0] = x->hi;
	x->rj[3][1] = rows;
}

void swe_cuda_sub_tiles_free(struct swe_backend_ctx *x)
{
	cudaFree(x->list);
	cudaFree(x->count);
	for (int p = 0; p < 2; p++)
		cudaFree(x->tl[p]);
	cudaFree(x->tcnt);
	cudaFree(x->wet);
	cudaFree(x->act);
	cudaFree(x->streak);
	cudaFree(x->rtile);
	x->list = x->tl[0] = x->tl[1] = NULL;
	x->count = x->tcnt = NULL;
	x->wet = NULL;
	x->act = x->streak = x->rtile = NULL;
	x->tcap = 0;
}

/* Tile arrays for ne tiles (the list's entries; every other array needs
 * fewer), and for the rows the store can hold when that is more, so that
 * moves of rows seldom allocate. */
static int tiles_alloc(struct swe_backend_ctx *x, long ne)
{
	long n = (long)x->kp.ntx * ((x->st.cap + x->kp.rows - 1) / x->kp.rows + 3);
	n = n > ne ? n : ne;
	if (x->tcap >= ne)
		return 0;
	swe_cuda_sub_tiles_free(x);
	CUDA_ALLOC((void **)&x->list, (size_t)n * sizeof(int));
	CUDA_ALLOC((void **)&x->count, 5 * sizeof(unsigned int));
	for (int p = 0; p < 2; p++)
		CUDA_ALLOC((void **)&x->tl[p], (size_t)n * sizeof(int));
	CUDA_ALLOC((void **)&x->tcnt, 2 * sizeof(unsigned int));
	CUDA_ALLOC((void **)&x->wet, (size_t)n * SWE_CUDA_SPLIT * sizeof *x->wet);
	CUDA_ALLOC((void **)&x->act, (size_t)n);
	CUDA_ALLOC((void **)&x->streak, (size_t)n);
	CUDA_ALLOC((void **)&x->rtile, (size_t)n);
	x->tcap = n;
	return 0;
}

/* The tile map: both lists hold every interior tile, every flag is set and
 * no streak begun (as on one GPU after the upload). */
static int tiles_reset(struct swe_backend_ctx *x, int n)
{
	unsigned int c[2] = { (unsigned int)x->nint, (unsigned int)x->nint };
	const int *first = x->list + (size_t)(x->lo / x->kp.rows) * x->kp.ntx;
	for (int p = 0; p < 2; p++)
		CUDA_CHECK(cudaMemcpy(x->tl[p], first, (size_t)x->nint * sizeof(int),
			cudaMemcpyDeviceToDevice));
	CUDA_CHECK(cudaMemcpy(x->tcnt, c, sizeof c, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemset(x->wet, 0xff, (size_t)n * SWE_CUDA_SPLIT * sizeof *x->wet));
	CUDA_CHECK(cudaMemset(x->act, 1, (size_t)n));
	CUDA_CHECK(cudaMemset(x->streak, 0, (size_t)n));
	return 0;
}

int swe_cuda_sub_tiles(struct swe_backend_ctx *x)
{
	unsigned int cnt[5];
	int R = x->kp.rows, n, *ids, rc = 0, ne;
	cudaError_t e;
	CUDA_CHECK(cudaSetDevice(x->device));
	x->kp.nty = (x->rows + R - 1) / R;
	n = x->kp.ntx * x->kp.nty;
	ranges(x);
	for (int k = 0; k < 4; k++)
		cnt[k] = (unsigned int)(x->kp.ntx * ((x->rj[k][1] - x->rj[k][0] + R - 1) / R));
	x->nint = (int)cnt[2];
	/* tiles 0 .. n-1, then (tile map) those of both edge ranges: one launch */
	cnt[4] = x->kp.tiles ? cnt[1] + cnt[3] : 0;
	ne = n + (int)cnt[4];
	if ((rc = tiles_alloc(x, ne)))
		return rc;
	ids = (int *)malloc((size_t)ne * sizeof *ids);
	if (!ids)
		return -SPATE_ENOMEM;
	for (int t = 0; t < n; t++)
		ids[t] = t;
	for (int t = 0; t < (int)cnt[4]; t++)
		ids[n + t] = t < (int)cnt[1] ? t : x->rj[3][0] / R * x->kp.ntx + t - (int)cnt[1];
	e = cudaMemcpy(x->list, ids, (size_t)ne * sizeof *ids, cudaMemcpyHostToDevice);
	free(ids);
	CUDA_CHECK(e);
	CUDA_CHECK(cudaMemcpy(x->count, cnt, sizeof cnt, cudaMemcpyHostToDevice));
	if (x->kp.tiles)
		rc = tiles_reset(x, n);
	if (!rc)
		rc = swe_cuda_sub_rain_tiles(x);
	/* the copies ran on the default stream: done before the sub's streams
	 * go on */
	CUDA_CHECK(cudaDeviceSynchronize());
	return rc;
}

/* The rain raster's tiles: those of the subdomain's rows of the whole
 * grid's rates (global row row0 is the map's row 0), on the default stream,
 * waited for. */
int swe_cuda_sub_rain_tiles(struct swe_backend_ctx *x)
{
	struct swe_cuda_params k = x->kp;
	if (!x->kp.tiles || !x->have_rain)
		return 0;
	CUDA_CHECK(cudaSetDevice(x->device));
	k.ny = x->rows;
	swe_cuda_enqueue_rain_tiles(&k, x->rain + (size_t)x->row0 * k.nx, x->rtile, NULL);
	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaDeviceSynchronize());
	return 0;
}
