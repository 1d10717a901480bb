/* swe_cuda_floor.cu: the arithmetic floor of a KP07 step on the GPU
 * (swe_floor.h; `spate bench --case=floor`). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "cuda_check.h"
}
#include "swe_floor.h"

#include <cuda_runtime.h>

/* Threads a block: the stage kernels' walks run 4 warps a block. */
#define FLOOR_BLOCK 128

template <bool S2, bool INPUTS>
__global__ void __launch_bounds__(FLOOR_BLOCK) k_floor(const struct swe_floor_tab *t,
	struct swe_coef c, real dt, long threads, real *out)
{
	long i = (long)blockIdx.x * FLOOR_BLOCK + threadIdx.x;
	if (i < threads)
		out[i] = swe_floor_cells(t, c, dt, (unsigned)i, S2, INPUTS);
}

/* One kernel: a launch to warm up, then reps timed; seconds a launch. */
static int time_kernel(int k, const struct swe_floor_tab *t, struct swe_coef c, real dt,
	long threads, int reps, real *out, double *sec)
{
	cudaEvent_t e0, e1;
	unsigned blocks = (unsigned)((threads + FLOOR_BLOCK - 1) / FLOOR_BLOCK);
	float ms = 0;
	CUDA_CHECK(cudaEventCreate(&e0));
	CUDA_CHECK(cudaEventCreate(&e1));
	for (int r = 0; r <= reps; r++) {
		if (r == 1)
			CUDA_CHECK(cudaEventRecord(e0));
		if (k == 0)
			k_floor<false, false><<<blocks, FLOOR_BLOCK>>>(t, c, dt, threads, out);
		else if (k == 1)
			k_floor<true, false><<<blocks, FLOOR_BLOCK>>>(t, c, dt, threads, out);
		else if (k == 2)
			k_floor<false, true><<<blocks, FLOOR_BLOCK>>>(t, c, dt, threads, out);
		else
			k_floor<true, true><<<blocks, FLOOR_BLOCK>>>(t, c, dt, threads, out);
		CUDA_CHECK(cudaGetLastError());
	}
	CUDA_CHECK(cudaEventRecord(e1));
	CUDA_CHECK(cudaEventSynchronize(e1));
	CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
	CUDA_CHECK(cudaEventDestroy(e0));
	CUDA_CHECK(cudaEventDestroy(e1));
	*sec = ms * 1e-3 / reps;
	return 0;
}

static int run(const struct swe_floor_tab *t, struct swe_coef c, real dt, long threads,
	int reps, double sec[4], real *res[2], struct swe_floor_tab *dev_tab, real *out)
{
	int rc;
	CUDA_CHECK(cudaMemcpy(dev_tab, t, sizeof *t, cudaMemcpyHostToDevice));
	for (int k = 0; k < 4; k++) {
		if ((rc = time_kernel(k, dev_tab, c, dt, threads, reps, out, &sec[k])))
			return rc;
		if (k < 2) /* the stage's results */
			CUDA_CHECK(cudaMemcpy(res[k], out, threads * sizeof(real),
				cudaMemcpyDeviceToHost));
	}
	return 0;
}

extern "C" int swe_cuda_floor(const struct swe_floor_tab *t, struct swe_coef c, real dt,
	long threads, int reps, double sec[4], real *res[2])
{
	struct swe_floor_tab *d = NULL;
	real *out = NULL;
	int rc;
	if (threads < 1 || reps < 1) {
		spate_log_error("bench", "floor: %ld threads, %d repetitions", threads, reps);
		return -SPATE_EINVAL;
	}
	if (!(rc = spate_cuda_alloc((void **)&d, sizeof *d)) &&
		!(rc = spate_cuda_alloc((void **)&out, threads * sizeof(real))))
		rc = run(t, c, dt, threads, reps, sec, res, d, out);
	cudaFree(out);
	cudaFree(d);
	return rc;
}
