/* bsq_device.c: the Boussinesq CUDA backend's entry points (bsq_cuda.h) in a
 * build without CUDA: no device, and every call but bsq_cuda_available
 * fails with a message.  With CUDA they are in cuda/bsq_cuda.cu. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef HAVE_CUDA
#include <stddef.h>

#include "bsq_cuda.h"
#include "spate.h"

int bsq_cuda_available(void)
{
	return 0;
}

static int refuse(void)
{
	spate_log_error("cuda", "bsq: this spate was built without CUDA (reconfigure with "
		"--with-cuda; use --device=cpu or auto)");
	return -SPATE_EDEVICE;
}

int bsq_cuda_init(struct bsq_cuda **ctx, const struct bsq_state *s, const struct bsq_params *p)
{
	(void)s;
	(void)p;
	*ctx = NULL;
	return refuse();
}

int bsq_cuda_step(struct bsq_cuda *ctx, const struct bsq_params *p, struct bsq_stats *st)
{
	(void)ctx;
	(void)p;
	(void)st;
	return refuse();
}

int bsq_cuda_vcycles(struct bsq_cuda *ctx, const struct bsq_params *p, int n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return refuse();
}

int bsq_cuda_download(struct bsq_cuda *ctx, struct bsq_state *s)
{
	(void)ctx;
	(void)s;
	return refuse();
}

int bsq_cuda_download_flow(struct bsq_cuda *ctx, struct bsq_state *s)
{
	(void)ctx;
	(void)s;
	return refuse();
}

void bsq_cuda_free(struct bsq_cuda *ctx)
{
	(void)ctx;
}

int bsq_cuda_slabs_init(struct bsq_slabs **out, const struct bsq_state *w,
	const struct bsq_params *p, int n, int overlap, int transport)
{
	(void)w;
	(void)p;
	(void)n;
	(void)overlap;
	(void)transport;
	*out = NULL;
	return refuse();
}
#else
/* ISO C forbids an empty translation unit. */
typedef int bsq_device_with_cuda;
#endif
