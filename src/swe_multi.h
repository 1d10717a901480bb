/* swe_multi.h: the shallow-water step cut into phases, one subdomain at a
 * time, and the backend that drives many subdomains (swe_multi.c).
 *
 * A subdomain owns global rows [row0, row0 + rows) plus SWE_GHOST ghost rows
 * on each side (decomp.h).  Ghost rows at a global south/north edge come from
 * the boundary condition, at an internal edge from the neighbour (halo
 * exchange); west and east ghosts always from the boundary condition.  One
 * step of the decomposed run is
 *   exchange U;  stage1 on every subdomain;  global max of the speeds;
 *   dt;  predict;  [RK2: exchange U*;  correct];  commit
 * and gives the same bits as the single-domain step (swe_cpu.c), which is the
 * same sequence on one subdomain that owns every row. */
#ifndef SPATE_SWE_MULTI_H
#define SPATE_SWE_MULTI_H

#include "swe.h"

struct swe_prod;

/* Which copy of the state a halo operation reads or writes. */
enum swe_stage { SWE_STAGE_U = 0, SWE_STAGE_USTAR = 1 };

/* The step phases of one backend on one subdomain.  Every function returns 0
 * or -SPATE_E*. */
struct swe_sub_ops {
	const char *name;
	/* A subdomain of global rows [row0, row0 + rows) of the global state g
	 * (its own copy of the state and of the bed, ghost rows included);
	 * boundary data are those of the whole domain. */
	int (*init)(struct swe_backend_ctx **sub, const struct swe_state *g,
		const struct swe_params *p, int row0, int rows, int device);
	/* Boundary conditions at time t on the global edges this subdomain
	 * touches, then L = L(U^n) on its interior; the largest face speeds. */
	int (*stage1)(struct swe_backend_ctx *sub, double t, double *ax, double *ay);
	/* Euler: U^{n+1} = finish(U^n + dt L).  RK2: ghost rates on global edges,
	 * then U* = finish(U^n + dt L) on the interior and global-edge ghost rows. */
	int (*predict)(struct swe_backend_ctx *sub, double dt);
	/* RK2: L(U*) and U^{n+1} = finish((U^n + U* + dt L(U*)) / 2) on the
	 * interior; the largest face speeds of this stage. */
	int (*correct)(struct swe_backend_ctx *sub, double dt, double *ax, double *ay);
	/* Make U^{n+1} the current state, reached at time t by a step dt. */
	int (*commit)(struct swe_backend_ctx *sub, double t, double dt);
	/* Copy local rows [j0, j1) (j in [-G, rows + G), whole rows of pitch
	 * cells) of U or U* to / from three arrays of (j1 - j0) * pitch cells. */
	int (*rows_get)(struct swe_backend_ctx *sub, int stage, int j0, int j1, real *w,
		real *hu, real *hv);
	int (*rows_put)(struct swe_backend_ctx *sub, int stage, int j0, int j1, const real *w,
		const real *hu, const real *hv);
	/* Read (w, hu, hv) of n cells at local state indices idx. */
	int (*sample)(struct swe_backend_ctx *sub, const long *idx, int n, real *w, real *hu,
		real *hv);
	/* Flood products of the subdomain's rows (NULL: not kept). */
	int (*products_start)(struct swe_backend_ctx *sub, real thr);
	int (*products_get)(struct swe_backend_ctx *sub, struct swe_prod *out);
	void (*fini)(struct swe_backend_ctx *sub);
	/* Restart: replace the subdomain's products (NULL: not offered). */
	int (*products_put)(struct swe_backend_ctx *sub, const struct swe_prod *in);
};

extern const struct swe_sub_ops swe_cpu_sub_ops;

/* The decomposed backend (swe_multi.c): many subdomains in this process and
 * across MPI ranks, each run by the sub-operations of one device backend. */
extern const struct spate_backend spate_backend_multi;

/* The backend for a run: the plain one of p->device for one subdomain in one
 * process, else spate_backend_multi.  Returns NULL after a message when the
 * combination is not available. */
const struct spate_backend *swe_backend_for(const struct swe_params *p);

#endif
