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

#endif
