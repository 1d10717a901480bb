/* swe_cpu_ctx.h: the CPU backend's context, at the bottom of its files
 * (swe_cpu_rhs.c: the right-hand side with early exit; swe_cpu.c, swe_cpu_sub.c
 * above it).
 *
 * Rows.  A context holds a band of `rows` owned global rows [row0, row0 +
 * rows).  Its arrays (the view, x->s) hold xlo rows below and xhi rows above
 * them, then SWE_GHOST ghost rows on each side: view row v is owned row
 * v - xlo.  At an internal edge xlo (xhi) = halo - SWE_GHOST, where halo is
 * the depth of ghost rows the decomposition exchanges there (SWE_GHOST, or
 * more with ghost cell expansion); at a global edge 0.  A single domain has
 * xlo = xhi = 0 and the view is the whole grid. */
#ifndef SPATE_SWE_CPU_CTX_H
#define SPATE_SWE_CPU_CTX_H

#include "swe.h"
#include "swe_step.h"

/* Columns per block of the early-exit dry map. */
#define CPU_BLOCK 32

struct swe_cpu_gauges;

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
	int bad;                   /* a step stored a non-finite value (swe_guard.h) */
	real *good;                /* the guard's last good (w, hu, hv), or NULL */
	struct swe_prod *good_prod; /* ... and its flood products, or NULL */
	struct swe_cpu_gauges *gg; /* gauges kept here (swe_cpu_gauges.c), or NULL */
	size_t good_n, good_np;    /* their cells per field and product bytes: those of
	                              the rows held when kept (rows move: swe_cpu_sub.c) */
};

/* The instability guard of the single-domain backend (struct
 * spate_backend's guard; swe_cpu_guard.c). */
int swe_cpu_guard(struct swe_backend_ctx *x, int op, long cell, int *bad);

/* A state's arrays as the step functions see them. */
static inline struct swe_view swe_cpu_view(const struct swe_backend_ctx *x, real *w, real *hu,
	real *hv)
{
	struct swe_view v;
	v.w = w;
	v.hu = hu;
	v.hv = hv;
	v.Bc = x->s.Bc;
	v.Bm = x->s.Bm;
	v.nx = x->s.nx;
	v.ny = x->s.ny;
	v.pitch = x->s.pitch;
	v.cpitch = x->s.cpitch;
	v.inv_dx = (real)(1.0 / x->s.dx);
	v.inv_dy = (real)(1.0 / x->s.dy);
	return v;
}

#endif
