/* swe_cuda_guard.cu: the instability guard of the single-GPU backend
 * (struct spate_backend's guard, swe_watch.h): the flag the stage kernels
 * set in the control block (swe_guard_note), which the host reads back
 * with the rest of the block after every batch of steps; the last good
 * state and its flood products kept on the device (a device-to-device copy
 * per check); the test hook's NaN; the test hook of the reciprocals and
 * zero-safe forms of swe_kern.h.  Context: swe_cuda_one.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda.h"
#include "swe_cuda_one.h"
}
#include "swe_guard.h"
#include "swe_kern.h"

#include <cuda_runtime.h>
#include <math.h>

/* The test hook's store: a NaN depth at cell k, noted as a stage notes it
 * (note = 1) or not (swe_cuda_enqueue_plant). */
__global__ static void k_plant(real *w, const real *hu, const real *hv, long k, ctl_t *q,
	int note)
{
	w[k] = (real)NAN;
	if (note)
		swe_guard_note(w[k], hu[k], hv[k], &q->bad);
}

extern "C" void swe_cuda_enqueue_plant(real *w, const real *hu, const real *hv, long k,
	ctl_t *q, int note, void *stream)
{
	k_plant<<<1, 1, 0, (cudaStream_t)stream>>>(w, hu, hv, k, q, note);
}

/* The test hook of the GPU's reciprocals and zero-safe forms (swe_kern.h):
 * r[i] = kp07_inv_depth(x[i], kappa4), r[n + i] = swe_recip(x[i]),
 * r[2n + i] = swe_sqrt0(x[i]), r[3n + i] = swe_div0(x[i], 0.7),
 * r[4n + i] = kp07_speed_ratio(-x[i], 1.75 x[i]), r[5n + i] = kp07_speed_ratio(-0.7, x[i]). */
__global__ static void k_recip(const real *x, real *r, int n, real kappa4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	r[i] = kp07_inv_depth(x[i], kappa4);
	r[n + i] = swe_recip(x[i]);
	r[2 * n + i] = swe_sqrt0(x[i]);
	r[3 * n + i] = swe_div0(x[i], (real)0.7);
	r[4 * n + i] = kp07_speed_ratio(-x[i], (real)1.75 * x[i]);
	r[5 * n + i] = kp07_speed_ratio(-(real)0.7, x[i]);
}

extern "C" int swe_cuda_recip_values(const real *x, real *r, int n, real kappa4)
{
	real *dx = NULL, *dr = NULL;
	int rc = -SPATE_EDEVICE;
	if (n <= 0)
		return 0;
	if (cudaSetDevice(0) == cudaSuccess &&
		cudaMalloc((void **)&dx, (size_t)n * sizeof *dx) == cudaSuccess &&
		cudaMalloc((void **)&dr, SWE_RECIP_HOOK * (size_t)n * sizeof *dr) == cudaSuccess &&
		cudaMemcpy(dx, x, (size_t)n * sizeof *dx, cudaMemcpyHostToDevice) == cudaSuccess) {
		k_recip<<<(n + 255) / 256, 256>>>(dx, dr, n, kappa4);
		if (cudaMemcpy(r, dr, SWE_RECIP_HOOK * (size_t)n * sizeof *r, cudaMemcpyDeviceToHost) ==
			cudaSuccess)
			rc = 0;
	}
	cudaGetLastError();
	cudaFree(dx);
	cudaFree(dr);
	return rc;
}

extern "C" int swe_cuda_one_guard(struct swe_backend_ctx *x, int op, long cell, int *bad)
{
	size_t n = (size_t)x->kp.ncell, np = (size_t)x->kp.nx * x->kp.ny * sizeof *x->prod;
	real *s[3] = { x->w[x->cur], x->hu[x->cur], x->hv[x->cur] };
	cudaMemcpyKind d2d = cudaMemcpyDeviceToDevice;
	CUDA_CHECK(cudaSetDevice(x->device));
	switch (op) {
	case SWE_GUARD_CHECK:
		*bad = x->hctl->bad;  /* read back after the last batch */
		return 0;
	case SWE_GUARD_KEEP:
		if (!x->good)
			CUDA_ALLOC(&x->good, 3 * n * sizeof(real));
		for (int f = 0; f < 3; f++)
			CUDA_CHECK(cudaMemcpyAsync(x->good + f * n, s[f], n * sizeof(real), d2d,
				x->stream));
		if (x->prod && !x->good_prod)
			CUDA_ALLOC(&x->good_prod, np);
		if (x->prod)
			CUDA_CHECK(cudaMemcpyAsync(x->good_prod, x->prod, np, d2d, x->stream));
		return 0;
	case SWE_GUARD_REWIND:
		if (!x->good)
			return -SPATE_EINVAL;
		for (int f = 0; f < 3; f++)
			CUDA_CHECK(cudaMemcpyAsync(s[f], x->good + f * n, n * sizeof(real), d2d,
				x->stream));
		if (x->prod && x->good_prod)
			CUDA_CHECK(cudaMemcpyAsync(x->prod, x->good_prod, np, d2d, x->stream));
		CUDA_CHECK(cudaStreamSynchronize(x->stream));
		return 0;
	case SWE_GUARD_PLANT:
	case SWE_GUARD_PLANT_SILENT:
		if (cell < 0 || (size_t)cell >= n)
			return -SPATE_EINVAL;
		swe_cuda_enqueue_plant(s[0], s[1], s[2], cell, x->dctl, op == SWE_GUARD_PLANT,
			x->stream);
		CUDA_CHECK(cudaGetLastError());
		CUDA_CHECK(cudaMemcpyAsync(&x->hctl->bad, &x->dctl->bad, sizeof(int),
			cudaMemcpyDeviceToHost, x->stream));
		CUDA_CHECK(cudaStreamSynchronize(x->stream));
		return 0;
	default:
		return -SPATE_EINVAL;
	}
}
