/* swe_cpu_sub.h: a CPU subdomain's rows: moved to and from a neighbour,
 * read and written for halos and samples (swe_cpu_sub.c). */
#ifndef SPATE_SWE_CPU_SUB_H
#define SPATE_SWE_CPU_SUB_H

#include <stddef.h>

#include "swe_cpu_ctx.h"

/* Moving rows to and from a neighbour (swe_multi.h). */
size_t swe_cpu_rows_bytes(struct swe_backend_ctx *x, int n);
int swe_cpu_rows_pack(struct swe_backend_ctx *x, int side, int n, void *buf);
int swe_cpu_rows_resize(struct swe_backend_ctx *x, int gain_lo, int gain_hi, const void *lo,
	const void *hi);
/* struct swe_sub_ops' rows_get, rows_put and sample (also
 * the backend's sample). */
int swe_cpu_rows_get(struct swe_backend_ctx *x, int stage, int j0, int j1, real *w,
	real *hu, real *hv);
int swe_cpu_rows_put(struct swe_backend_ctx *x, int stage, int j0, int j1, const real *w,
	const real *hu, const real *hv);
int swe_cpu_sample(struct swe_backend_ctx *x, const long *idx, int n, real *w, real *hu,
	real *hv);

#endif
