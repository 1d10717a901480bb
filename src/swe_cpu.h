/* swe_cpu.h: the CPU backend's files (swe_cpu.c: the step phases;
 * swe_cpu_sub.c: moving rows and ghost expansion for the decomposition) on
 * its context (swe_cpu_ctx.h) and right-hand side (swe_cpu_rhs.h). */
#ifndef SPATE_SWE_CPU_H
#define SPATE_SWE_CPU_H

#include "swe_cpu_ctx.h"
#include "swe_cpu_rhs.h"

/* swe_cpu.c: allocate a zeroed cell array of the view's size (ghosts included). */
real *swe_cpu_alloc_like(const struct swe_state *s);

/* swe_cpu.c: the work arrays of a context whose view x->s (bed included) is
 * filled: next state, U*, L, the row buffers (when not yet there) and the
 * dry map.  Returns 0 or -SPATE_ENOMEM (what was allocated stays for
 * swe_cpu_free_work). */
int swe_cpu_alloc_work(struct swe_backend_ctx *x);
/* Free the view, its Manning raster and the work arrays (not the row
 * buffers or products). */
void swe_cpu_free_work(struct swe_backend_ctx *x);

/* swe_cpu_sub.c: moving rows to and from a neighbour (swe_multi.h). */
size_t swe_cpu_rows_bytes(struct swe_backend_ctx *x, int n);
int swe_cpu_rows_pack(struct swe_backend_ctx *x, int side, int n, void *buf);
int swe_cpu_rows_resize(struct swe_backend_ctx *x, int gain_lo, int gain_hi, const void *lo,
	const void *hi);
/* swe_cpu_sub.c: struct swe_sub_ops' rows_get, rows_put and sample (also
 * the backend's sample). */
int swe_cpu_rows_get(struct swe_backend_ctx *x, int stage, int j0, int j1, real *w,
	real *hu, real *hv);
int swe_cpu_rows_put(struct swe_backend_ctx *x, int stage, int j0, int j1, const real *w,
	const real *hu, const real *hv);
int swe_cpu_sample(struct swe_backend_ctx *x, const long *idx, int n, real *w, real *hu,
	real *hv);

#endif
