/* swe_cpu_mem.h: the CPU backend's arrays (swe_cpu_mem.c). */
#ifndef SPATE_SWE_CPU_MEM_H
#define SPATE_SWE_CPU_MEM_H

#include "swe_cpu_ctx.h"

/* Allocate a zeroed cell array of the view's size (ghosts included). */
real *swe_cpu_alloc_like(const struct swe_state *s);

/* The work arrays of a context whose view x->s (bed included) is
 * filled: next state, U*, L, the row buffers (when not yet there) and the
 * dry map.  Returns 0 or -SPATE_ENOMEM (what was allocated stays for
 * swe_cpu_free_work). */
int swe_cpu_alloc_work(struct swe_backend_ctx *x);
/* Free the view, its Manning raster and the work arrays (not the row
 * buffers or products). */
void swe_cpu_free_work(struct swe_backend_ctx *x);

#endif
