/* swe_cpu_mem.c: the CPU backend's arrays: the next state, U*, the rate and
 * the per-thread row buffers of a context, and their release.  Below the
 * single domain (swe_cpu.c) and the subdomain's row moves (swe_cpu_sub.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_cpu_mem.h"
#include "swe_cpu_rhs.h"
#include "swe_state.h"
#include "swe_backend.h"

real *swe_cpu_alloc_like(const struct swe_state *s)
{
	size_t n = (size_t)(s->ny + 2 * SWE_GHOST) * s->pitch;
	real *a = spate_alloc(n * sizeof(real));
	if (a)
		memset(a, 0, n * sizeof(real));
	return a;
}

int swe_cpu_alloc_work(struct swe_backend_ctx *x)
{
	x->w1 = swe_cpu_alloc_like(&x->s);
	x->hu1 = swe_cpu_alloc_like(&x->s);
	x->hv1 = swe_cpu_alloc_like(&x->s);
	x->ws = swe_cpu_alloc_like(&x->s);
	x->hus = swe_cpu_alloc_like(&x->s);
	x->hvs = swe_cpu_alloc_like(&x->s);
	x->Lw = swe_cpu_alloc_like(&x->s);
	x->Lhu = swe_cpu_alloc_like(&x->s);
	x->Lhv = swe_cpu_alloc_like(&x->s);
	if (!x->rowbuf)
		x->rowbuf = spate_alloc((size_t)x->nthreads * swe_cpu_rowbuf_bytes(x->s.nx));
	if (!x->w1 || !x->hu1 || !x->hv1 || !x->ws || !x->hus || !x->hvs || !x->Lw ||
		!x->Lhu || !x->Lhv || !x->rowbuf)
		return -SPATE_ENOMEM;
	return 0;
}

void swe_cpu_free_work(struct swe_backend_ctx *x)
{
	swe_state_free(&x->s);
	free(x->w1);
	free(x->hu1);
	free(x->hv1);
	free(x->ws);
	free(x->hus);
	free(x->hvs);
	free(x->Lw);
	free(x->Lhu);
	free(x->Lhv);
	free(x->n2);
	x->w1 = x->hu1 = x->hv1 = x->ws = x->hus = x->hvs = x->Lw = x->Lhu = x->Lhv = NULL;
	x->n2 = NULL;
}
