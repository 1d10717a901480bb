/* cuda_check.cu: device memory for the CUDA backends of both modules, with
 * the out-of-memory message (cuda_check.h); whether programmatic dependent
 * launch is wanted (cuda_pdl.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

extern "C" {
#include "spate.h"
}
#include "cuda_check.h"
#include "cuda_pdl.h"

#include <cuda_runtime.h>

/* Bytes this process took with spate_cuda_alloc, all devices (frees are
 * not counted: a bound for the message and the test hook). */
static size_t taken;

/* SPATE_TEST_GPU_MEM_LIMIT (test-only): 0 when unset. */
static size_t test_limit(void)
{
	const char *e = getenv("SPATE_TEST_GPU_MEM_LIMIT");
	char *end;
	unsigned long long v;
	if (!e || !*e)
		return 0;
	v = strtoull(e, &end, 10);
	return *end ? 0 : (size_t)v;
}

static double mib(size_t b)
{
	return (double)b / (1024.0 * 1024.0);
}

extern "C" int spate_cuda_alloc(void **p, size_t bytes)
{
	size_t lim = test_limit(), avail = 0, total = 0;
	cudaError_t e;
	int dev = -1;
	*p = NULL;
	if (lim && taken + bytes > lim) {
		e = cudaErrorMemoryAllocation;
	} else {
		e = cudaMalloc(p, bytes);
		if (e == cudaSuccess) {
			taken += bytes;
			return 0;
		}
	}
	if (e != cudaErrorMemoryAllocation) {
		spate_log_error("cuda", "cudaMalloc of %zu bytes: %s", bytes, cudaGetErrorString(e));
		return -SPATE_EDEVICE;
	}
	cudaGetLastError(); /* clear the sticky error */
	cudaGetDevice(&dev);
	cudaMemGetInfo(&avail, &total);
	if (lim)
		avail = lim > taken ? lim - taken : 0;
	spate_log_error("cuda", "out of GPU memory on device %d: %zu bytes (%.1f MiB) more "
		"needed, %zu bytes (%.1f MiB) taken so far, %zu bytes (%.1f MiB) free of %.1f MiB%s: "
		"run on more GPUs ([parallel] gpus, or more MPI ranks), on a coarser grid, or in "
		"single precision (flood: a build without --enable-double; Boussinesq: "
		"CPPFLAGS=-DBSQ_SINGLE)", dev, bytes, mib(bytes), taken, mib(taken), avail,
		mib(avail), mib(total), lim ? " (SPATE_TEST_GPU_MEM_LIMIT)" : "");
	return -SPATE_ENOMEM;
}

bool cuda_pdl_wanted(const char *name)
{
	const char *e = getenv(name);
	int dev = 0, major = 0;
	if (e && strcmp(e, "0") == 0)
		return false;
	if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major,
		cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
		(void)cudaGetLastError();
		return false;
	}
	return major >= 9;
}
