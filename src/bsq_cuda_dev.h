/* bsq_cuda_dev.h: what the two files of the Boussinesq CUDA backend share:
 * the host side (cuda/bsq_cuda.cu: memory, the backend table, the API) and
 * the kernels with their launch functions (cuda/bsq_cuda_kern.cu), which are
 * the verbs of struct bsq_ops on states and levels that hold device
 * pointers.  Declarations only, no CUDA syntax. */
#ifndef SPATE_BSQ_CUDA_DEV_H
#define SPATE_BSQ_CUDA_DEV_H

#include "bsq_impl.h"

/* Device scratch of the reductions for grids of up to `rows` interior rows
 * (ny nz); grown as needed, released with bsq_cuda_scratch(0).  Returns 0 or
 * -SPATE_EDEVICE. */
int bsq_cuda_scratch(size_t rows);
/* The first error a verb met since the last call (0: none), then cleared:
 * the verbs return nothing, the step checks this once. */
int bsq_cuda_error(void);

/* The verbs (struct bsq_ops); arrays are device pointers. */
void bsq_cuda_rhs(const struct bsq_state *s, const struct bsq_params *p, bsq_real *F[4]);
double bsq_cuda_field_max(const struct bsq_grid *g, const bsq_real *a);
void bsq_cuda_predict(struct bsq_state *s, const struct bsq_params *p, int comp, double dt,
	double r);
void bsq_cuda_correct(struct bsq_state *s, const struct bsq_params *p, int comp, double dt);
void bsq_cuda_div_rhs(struct bsq_state *s, double dt);
void bsq_cuda_bc_velocity(const struct bsq_grid *g, bsq_real *u, bsq_real *v, bsq_real *w,
	const struct bsq_params *p);
void bsq_cuda_bc_scalar(const struct bsq_grid *g, bsq_real *a, const int kind[BSQ_NFACE],
	const double *val);
void bsq_cuda_diag_div(const struct bsq_state *s, double *max, double *l2);
void bsq_cuda_div_planes(const struct bsq_state *s, double *max, double *ps);
void bsq_cuda_zero(struct bsq_level *l, int vec);
double bsq_cuda_mean(const struct bsq_level *l, int vec);
void bsq_cuda_plane_sums(const struct bsq_level *l, int vec, double *ps);
void bsq_cuda_shift(struct bsq_level *l, int vec, double by);
void bsq_cuda_extrapolate(struct bsq_level *l, double r);
void bsq_cuda_ghosts(struct bsq_level *l, int vec);
double bsq_cuda_residual(struct bsq_level *l, int res, int phi, int rhs);
void bsq_cuda_residual_only(struct bsq_level *l, int res, int phi, int rhs);
int bsq_cuda_level_get(const struct bsq_level *l, int vec, bsq_real *host);
int bsq_cuda_level_put(struct bsq_level *l, int vec, const bsq_real *host);
void bsq_cuda_smooth(struct bsq_level *l, int phi, int rhs, int sweeps);
void bsq_cuda_colour(struct bsq_level *l, int phi, int rhs, int red);
void bsq_cuda_restrict_residual(struct bsq_level *coarse, int cvec, struct bsq_level *fine,
	int phi, int rhs);
void bsq_cuda_restrict(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int fvec);
void bsq_cuda_interp_pl(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec);
void bsq_cuda_interp_pc(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec);
void bsq_cuda_jacobi_sweep(struct bsq_level *l);
/* cuda/bsq_cuda_tail.cu: a V-cycle from level `from` down in one launch. */
int bsq_cuda_tail_from(const struct bsq_level *lev, int nlev, const struct bsq_params *p);
void bsq_cuda_tail_cycle(struct bsq_level *lev, int from, int nlev, const struct bsq_params *p);

#endif
