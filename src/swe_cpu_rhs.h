/* swe_cpu_rhs.h: the CPU right-hand side L(U) with early exit of dry blocks
 * (swe_cpu_rhs.c), on the backend's context (swe_cpu_ctx.h). */
#ifndef SPATE_SWE_CPU_RHS_H
#define SPATE_SWE_CPU_RHS_H

#include <stddef.h>

#include "swe_cpu_ctx.h"

/* Bytes of one thread's row buffers for rows of nx cells. */
size_t swe_cpu_rowbuf_bytes(int nx);
/* L = L(U of view v) on view rows [j0, j1) into x->Lw, Lhu, Lhv; the largest
 * speeds of the x faces of rows [o0, o1) and of the y faces between rows
 * o0 - 1 and o1 (the owned faces), in *ax, *ay. */
void swe_cpu_rhs(struct swe_backend_ctx *x, struct swe_view v, int j0, int j1, int o0, int o1,
	double *ax, double *ay);
/* Per owned row, the cells the rhs would compute now (those of blocks that
 * are not dry with their neighbours; nx each with early exit off) into
 * work[0..rows) (NULL: skipped); the bounding box of the owned wet cells
 * (depth > 0) in global indices {j_min, j_max, i_min, i_max} (empty:
 * {INT_MAX, -1, INT_MAX, -1}) into box (NULL: skipped). */
void swe_cpu_activity(struct swe_backend_ctx *x, int *work, int box[4]);

#endif
