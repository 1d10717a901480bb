/* swe_cuda_rain.cu: a rain raster of the whole grid onto the GPU, for one
 * GPU (swe_cuda_state.cu) and GPU subdomains (swe_cuda_sub_src.cu) alike. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe_cuda.h"
}

#include <cuda_runtime.h>

int swe_cuda_rain_put(float **dev, const float *rate, size_t n)
{
	if (!rate)
		return 0;
	if (!*dev)
		CUDA_ALLOC((void **)dev, n * sizeof **dev);
	CUDA_CHECK(cudaMemcpy(*dev, rate, n * sizeof **dev, cudaMemcpyHostToDevice));
	return 0;
}
