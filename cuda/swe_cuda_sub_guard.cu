/* swe_cuda_sub_guard.cu: the instability guard of a GPU subdomain (struct
 * swe_sub_ops' guard; the decomposed run's side is swe_multi_guard.c).
 * The flag is the one of the subdomain's control block, which the stage
 * kernels set as on one GPU (swe_guard_note) and which the host's clock
 * leaves alone (SWE_CUDA_CTL_SET); a check reads that one int back.  The
 * last good state of the rows held and their flood products stay on the
 * device (a device-to-device copy per check, as on one GPU). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda.h"
#include "swe_cuda_sub.h"
#include "products_kern.h"
}

#include <cuda_runtime.h>

/* The copies between the current state (and products) and the kept ones,
 * to = 1 into the kept ones; on stream main, waited for. */
static int copy(struct swe_backend_ctx *x, int to, size_t n, size_t np)
{
	real *s[3] = { x->w[x->cur], x->hu[x->cur], x->hv[x->cur] };
	cudaMemcpyKind d2d = cudaMemcpyDeviceToDevice;
	for (int f = 0; f < 3; f++)
		CUDA_CHECK(cudaMemcpyAsync(to ? x->good + f * n : s[f], to ? s[f] : x->good + f * n,
			n * sizeof(real), d2d, x->main));
	if (x->prod)
		CUDA_CHECK(cudaMemcpyAsync(to ? (void *)x->good_prod : (void *)x->prod,
			to ? (const void *)x->prod : (const void *)x->good_prod, np, d2d, x->main));
	CUDA_CHECK(cudaStreamSynchronize(x->main));
	return 0;
}

extern "C" int swe_cuda_sub_guard(struct swe_backend_ctx *x, int op, long cell, int *bad)
{
	/* rows [-G, rows + G) from x->w[cur] (the indices of sample) */
	size_t n = (size_t)(x->rows + 2 * SWE_GHOST) * x->kp.pitch;
	size_t np = (size_t)x->kp.nx * x->rows * sizeof(struct swe_prod);
	real *s[3] = { x->w[x->cur], x->hu[x->cur], x->hv[x->cur] };
	int rc = swe_cuda_sub_sync(x), b = 0;
	if (rc)
		return rc;
	switch (op) {
	case SWE_GUARD_CHECK:
		CUDA_CHECK(cudaMemcpy(&b, &x->dctl->bad, sizeof b, cudaMemcpyDeviceToHost));
		*bad = b;
		return 0;
	case SWE_GUARD_KEEP:
		if (x->good && x->good_rows != x->rows) {   /* rows moved since */
			cudaFree(x->good);
			cudaFree(x->good_prod);
			x->good = NULL;
			x->good_prod = NULL;
		}
		if (!x->good)
			CUDA_ALLOC((void **)&x->good, 3 * n * sizeof(real));
		if (x->prod && !x->good_prod)
			CUDA_ALLOC((void **)&x->good_prod, np);
		x->good_rows = x->rows;
		return copy(x, 1, n, np);
	case SWE_GUARD_REWIND:
		if (!x->good || x->good_rows != x->rows || (x->prod && !x->good_prod))
			return -SPATE_EINVAL;
		return copy(x, 0, n, np);
	case SWE_GUARD_PLANT:
	case SWE_GUARD_PLANT_SILENT:
		if (cell < 0 || (size_t)cell >= n)
			return -SPATE_EINVAL;
		swe_cuda_enqueue_plant(s[0], s[1], s[2], cell, x->dctl, op == SWE_GUARD_PLANT,
			x->main);
		CUDA_CHECK(cudaGetLastError());
		CUDA_CHECK(cudaStreamSynchronize(x->main));
		return 0;
	default:
		return -SPATE_EINVAL;
	}
}
