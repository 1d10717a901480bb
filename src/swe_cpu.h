/* swe_cpu.h: the CPU backend's context, shared by its files (swe_cpu.c: the
 * step phases; swe_cpu_rhs.c: the right-hand side with early exit;
 * swe_cpu_sub.c: moving rows and ghost expansion for the decomposition).
 *
 * Rows.  A context holds a band of `rows` owned global rows [row0, row0 +
 * rows).  Its arrays (the view, x->s) hold xlo rows below and xhi rows above
 * them, then SWE_GHOST ghost rows on each side: view row v is owned row
 * v - xlo.  At an internal edge xlo (xhi) = halo - SWE_GHOST, where halo is
 * the depth of ghost rows the decomposition exchanges there (SWE_GHOST, or
 * more with ghost cell expansion); at a global edge 0.  A single domain has
 * xlo = xhi = 0 and the view is the whole grid. */
#ifndef SPATE_SWE_CPU_H
#define SPATE_SWE_CPU_H

#include "swe.h"
#include "swe_backend.h"
#include "swe_step.h"

/* Columns per block of the early-exit dry map. */
#define CPU_BLOCK 32

struct swe_backend_ctx {
	struct swe_state s;        /* current state (owned arrays), the view */
	real *w1, *hu1, *hv1;      /* next state */
	real *ws, *hus, *hvs;      /* RK2 intermediate U* */
	real *Lw, *Lhu, *Lhv;      /* right-hand side */
	void *rowbuf;              /* per thread: struct rowbuf (swe_cpu_rhs.c) */
	int nthreads;
	struct swe_coef c;
	struct swe_bcdev bcd;
	const struct swe_params *p;
	struct swe_prod *prod;     /* flood products of the owned rows, or NULL */
	real prod_thr;
	double t;
	long steps;
	int row0, rows;            /* owned global rows [row0, row0 + rows) */
	int halo;                  /* ghost rows held at internal edges (>= SWE_GHOST) */
	int xlo, xhi;              /* view rows below / above the owned ones */
	int mu[2], ms[2];          /* rows of U / U* valid beyond the owned ones at the
	                              south [0] and north [1] internal edge */
	unsigned sides;            /* bit per side (enum swe_side) that is a global
	                              edge: west and east always */
	int early;                 /* skip dry blocks in the rhs ([parallel] early_exit) */
	int src;                   /* sources after each step (swe_sources) */
	double max_dt;             /* longest step, s (0: no bound; swe_max_dt) */
	const float *rain;         /* rain rates of the global grid (m/s), or NULL */
	real rain_u;               /* uniform rain rate where rain is NULL, m/s */
	real *n2;                  /* Manning n^2 per cell from a raster, laid out as
	                              the cell arrays (view rows), or NULL */
	int nb;                    /* blocks of CPU_BLOCK columns per row */
};

/* swe_cpu.c: a state's arrays as the step functions see them. */
struct swe_view swe_cpu_view(const struct swe_backend_ctx *x, real *w, real *hu, real *hv);
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

/* swe_cpu_rhs.c: bytes of one thread's row buffers for rows of nx cells. */
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
