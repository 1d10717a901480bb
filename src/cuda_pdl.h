/* cuda_pdl.h: programmatic dependent launch (CUDA C++ only), used by the
 * Boussinesq module's kernels (bsq_cuda_launch.h).  The flood's steps run
 * as CUDA graphs, where it gained nothing on Malpasset (one H200: 3.48 s
 * against 3.46; doc/bench/kernel.md).
 *
 * On compute capability 9.0 and later a kernel launched with it may start
 * while the kernel before it in the stream (or graph) still runs: its
 * blocks are placed once every block of that kernel has started
 * (pdl_start's first instruction) and wait in pdl_start's second until
 * that kernel has finished and its stores are visible.  The launch of each
 * kernel so overlaps the end of the one before.  A kernel launched so must
 * call pdl_start before it touches memory; then it reads what a plain
 * launch would, and the results are the same bits.  Launched plainly,
 * pdl_start costs two instructions and waits for nothing. */
#ifndef SPATE_CUDA_PDL_H
#define SPATE_CUDA_PDL_H

#include <cuda_runtime.h>

__device__ static __forceinline__ void pdl_start(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
	asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* kernel<<<grid, block, shm, stream>>>(args), with programmatic dependent
 * launch if pdl; the launch's error. */
template <typename... P, typename... A>
static inline cudaError_t pdl_launch(bool pdl, void (*kernel)(P...), dim3 grid, dim3 block,
	size_t shm, cudaStream_t stream, A... args)
{
	cudaLaunchConfig_t c = {};
	cudaLaunchAttribute at[1];
	c.gridDim = grid;
	c.blockDim = block;
	c.dynamicSmemBytes = shm;
	c.stream = stream;
	at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
	at[0].val.programmaticStreamSerializationAllowed = 1;
	c.attrs = at;
	c.numAttrs = pdl ? 1 : 0;
	return cudaLaunchKernelEx(&c, kernel, args...);
}

/* Whether the current device has it (compute capability 9.0 or later) and
 * the environment variable name (SPATE_BSQ_PDL) is not "0". */
bool cuda_pdl_wanted(const char *name);

#endif
