/* backend.c: backend selection (--device=auto|cpu|cuda). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "backend.h"

const struct spate_backend *spate_backend_select(const char *name)
{
	if (strcmp(name, "cpu") == 0)
		return &spate_backend_cpu;
#ifdef HAVE_CUDA
	if (strcmp(name, "cuda") == 0 || strcmp(name, "auto") == 0) {
		if (spate_backend_cuda.count() > 0)
			return &spate_backend_cuda;
		if (strcmp(name, "auto") == 0)
			return &spate_backend_cpu;
		spate_log_error("device", "--device=cuda: no usable CUDA GPU found "
			"(run 'spate devices'; use --device=cpu or auto)");
		return NULL;
	}
#else
	if (strcmp(name, "auto") == 0)
		return &spate_backend_cpu;
	if (strcmp(name, "cuda") == 0) {
		spate_log_error("device", "--device=cuda: this spate was built without CUDA "
			"(reconfigure with --with-cuda; use --device=cpu or auto)");
		return NULL;
	}
#endif
	spate_log_error("device", "--device=%s: unknown device; use auto, cpu or cuda", name);
	return NULL;
}
