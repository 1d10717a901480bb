/* cuda_check.h: CUDA_CHECK, shared by the host sides of the CUDA backends
 * (swe_cuda.h, cuda/bsq_cuda.cu).  No CUDA syntax: the macro expands only
 * in the .cu files, which include cuda_runtime.h and spate.h. */
#ifndef SPATE_CUDA_CHECK_H
#define SPATE_CUDA_CHECK_H

/* Evaluates a CUDA runtime call (in the .cu files that include this); on
 * failure reports file:line and returns -SPATE_EDEVICE from the calling
 * function. */
#define CUDA_CHECK(expr)                                                                  \
	do {                                                                              \
		cudaError_t cuda_check_err_ = (expr);                                     \
		if (cuda_check_err_ != cudaSuccess) {                                     \
			spate_log_error("cuda", "%s:%d: %s: %s", __FILE__, __LINE__, #expr,  \
				cudaGetErrorString(cuda_check_err_));                     \
			return -SPATE_EDEVICE;                                            \
		}                                                                         \
	} while (0)

/* Device memory for the CUDA backends (cuda/cuda_check.cu): *p = bytes of
 * memory on the current device.  0, or -SPATE_ENOMEM after a message
 * giving the bytes asked for and allocated so far, the device's free and
 * total memory (cudaMemGetInfo), and what to do (more GPUs, a coarser
 * grid, single precision); -SPATE_EDEVICE for another CUDA error.  Test
 * hook (test-only, spate(1)): SPATE_TEST_GPU_MEM_LIMIT=bytes fails every
 * allocation that would take this process's device memory past it. */
#ifdef __cplusplus
extern "C"
#endif
int spate_cuda_alloc(void **p, size_t bytes);

/* spate_cuda_alloc, returning its error from the calling function. */
#define CUDA_ALLOC(pp, bytes)                                                             \
	do {                                                                              \
		int cuda_alloc_rc_ = spate_cuda_alloc((void **)(pp), (bytes));            \
		if (cuda_alloc_rc_)                                                       \
			return cuda_alloc_rc_;                                            \
	} while (0)

#endif
