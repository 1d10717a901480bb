/* bsq_impl.h: what the Boussinesq module's files share inside (not for
 * callers: they use bsq.h): indexing, stencil gathers, ghost fills, the
 * explicit terms and the multigrid verbs (HPGMG style: a level holds its
 * vectors by id, about ten verbs do everything, bsq_mg.c builds the cycles
 * from them alone). */
#ifndef SPATE_BSQ_IMPL_H
#define SPATE_BSQ_IMPL_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "bsq.h"

/* Plane loops run in parallel only on grids of at least this many values:
 * on small (coarse) grids a parallel region costs more than it saves. */
#define BSQ_OMP_MIN ((size_t)1 << 15)

/* The coarsest level's solve (bsq_mg.c, and a backend's tail_cycle): the
 * right-hand side's mean removed, then BSQ_COARSE_SWEEPS sweeps at a time
 * until max |res| <= BSQ_COARSE_RTOL of its first value or after
 * BSQ_COARSE_SWEEPS_MAX sweeps, then the solution's mean removed. */
#define BSQ_COARSE_RTOL 1e-10
#define BSQ_COARSE_SWEEPS 4
#define BSQ_COARSE_SWEEPS_MAX 2000

/* A multigrid solve whose residual has fallen by less than BSQ_STALL_FALL
 * in each of BSQ_STALL_CYCLES V-cycles in a row has met the round-off of its
 * precision (a working V-cycle divides it by 4.5 or more: t_bsq_mg): it
 * stops there and says so, instead of running to max_cycles.  In single
 * precision a heated cavity at Ra 1e5 stops so at its first step
 * (tests/bsq_gpu_valid.sh). */
#define BSQ_STALL_FALL 1.25
#define BSQ_STALL_CYCLES 4

/* Ghost kinds of a centred field per face (bsq_bc.c). */
enum { BSQ_GHOST_NEUMANN = 0, BSQ_GHOST_DIRICHLET, BSQ_GHOST_PERIODIC };
/* Velocity only: the normal component on the wall face itself is 0. */
#define BSQ_GHOST_WALL_FACE 3
/* A slab's face inside the stack: the ghost plane is the neighbour's, moved
 * by the halo exchange (bsq_slab.c); a ghost fill leaves it alone. */
#define BSQ_GHOST_HALO 4

/* Strides of a grid with one ghost layer: +1 in x, sy in y, sz in z. */
HOSTDEVICE static inline size_t bsq_sy(const struct bsq_grid *g) { return (size_t)g->nx + 2; }
HOSTDEVICE static inline size_t bsq_sz(const struct bsq_grid *g)
{
	return ((size_t)g->nx + 2) * ((size_t)g->ny + 2);
}
HOSTDEVICE static inline size_t bsq_idx(const struct bsq_grid *g, int i, int j, int k)
{
	return ((size_t)k * ((size_t)g->ny + 2) + (size_t)j) * ((size_t)g->nx + 2) + (size_t)i;
}
HOSTDEVICE static inline size_t bsq_count(const struct bsq_grid *g)
{
	return bsq_sz(g) * ((size_t)g->nz + 2);
}

/* Interior cells of a grid, as a double (the divisor of means). */
HOSTDEVICE static inline double bsq_ncells(const struct bsq_grid *g)
{
	return (double)g->nx * g->ny * g->nz;
}

/* The value at index c of a and its six neighbours (strides sy, sz), in
 * the caller's index type: the initialiser of a struct bsq_st7. */
#define BSQ_GATHER7(a, c, sy, sz)                                                            \
	{ (a)[c], (a)[(c) - 1], (a)[(c) + 1], (a)[(c) - (sy)], (a)[(c) + (sy)], (a)[(c) - (sz)], \
		(a)[(c) + (sz)] }

HOSTDEVICE static inline struct bsq_st7 bsq_gather7(const bsq_real *a, size_t c, size_t sy, size_t sz)
{
	const struct bsq_st7 q = BSQ_GATHER7(a, c, sy, sz);
	return q;
}

/* The same with indices in 32 bits (fewer than 2^31 values): a GPU forms
 * each address from a 32-bit index in one instruction. */
HOSTDEVICE static inline struct bsq_st7 bsq_gather7i(const bsq_real *a, int c, int sy, int sz)
{
	const struct bsq_st7 q = BSQ_GATHER7(a, c, sy, sz);
	return q;
}

/* Divergence of the face velocities of cell c (BSQ.md "Grid"). */
HOSTDEVICE static inline bsq_real bsq_div_at(const bsq_real *u, const bsq_real *v, const bsq_real *w,
	size_t c, size_t sy, size_t sz, const struct bsq_h *h)
{
	struct bsq_face6 f;
	f.xm = u[c];
	f.xp = u[c + 1];
	f.ym = v[c];
	f.yp = v[c + sy];
	f.zm = w[c];
	f.zp = w[c + sz];
	return bsq_div(&f, h);
}

/* ---- The cell bodies of the stencil loops, shared by the CPU rows
 * (bsq_*.c) and the CUDA kernels (cuda/bsq_cuda*.cu): each does one cell or
 * one line; the formulas themselves are in bsq_kern.h. */

/* Advecting velocities on the six faces of the control volume at c of a
 * component with offset o (1, sy, sz; 0 for T), bsq_rhs.c: the two-point
 * average of the two faces each sits between (for o = 0 the faces
 * themselves). */
HOSTDEVICE static inline struct bsq_face6 bsq_faces_at(const bsq_real *u, const bsq_real *v,
	const bsq_real *w, size_t c, size_t o, size_t sy, size_t sz)
{
	struct bsq_face6 a;
	a.xm = bsq_avg(u[c - o], u[c]);
	a.xp = bsq_avg(u[c - o + 1], u[c + 1]);
	a.ym = bsq_avg(v[c - o], v[c]);
	a.yp = bsq_avg(v[c - o + sy], v[c + sy]);
	a.zm = bsq_avg(w[c - o], w[c]);
	a.zp = bsq_avg(w[c - o + sz], w[c + sz]);
	return a;
}

/* What the explicit terms of one component read (bsq_rhs.c). */
struct bsq_rhs_args {
	const bsq_real *u, *v, *w, *q, *T;
	size_t o, sy, sz;
	struct bsq_h h;
	bsq_real diffusivity, gbeta, T0;
	int buoyant;
};

/* F at c: -advection + diffusion (+ buoyancy on w when buoyant). */
HOSTDEVICE static inline bsq_real bsq_rhs_at(const struct bsq_rhs_args *x, size_t c)
{
	struct bsq_face6 a = bsq_faces_at(x->u, x->v, x->w, c, x->o, x->sy, x->sz);
	struct bsq_st7 q = bsq_gather7(x->q, c, x->sy, x->sz);
	bsq_real f = x->buoyant ? bsq_buoyancy(x->gbeta, x->T[c - x->sz], x->T[c], x->T0) : 0;
	return bsq_explicit(&a, &q, &x->h, x->diffusivity, f);
}

/* The Poisson right-hand side div(u*) / dt at c (BSQ.md "Time stepping"). */
HOSTDEVICE static inline bsq_real bsq_poisson_b_at(const bsq_real *u, const bsq_real *v,
	const bsq_real *w, size_t c, size_t sy, size_t sz, const struct bsq_h *h, bsq_real dt)
{
	return bsq_div_at(u, v, w, c, sy, sz, h) / dt;
}

/* The corrected face velocity q - dt (phi[c] - phi[c - o]) / h at c. */
HOSTDEVICE static inline bsq_real bsq_correct_at(bsq_real q, const bsq_real *phi, size_t c,
	size_t o, bsq_real dt, bsq_real ih)
{
	return bsq_correct(q, dt, bsq_grad(phi[c - o], phi[c], ih));
}

/* The point relaxation at c of lap(phi) = b. */
HOSTDEVICE static inline bsq_real bsq_relax_at(const bsq_real *phi, const bsq_real *b, size_t c,
	size_t sy, size_t sz, const struct bsq_h *h)
{
	struct bsq_st7 q = bsq_gather7(phi, c, sy, sz);
	return bsq_relax(&q, b[c], h);
}

/* The residual b - lap(phi) at c. */
HOSTDEVICE static inline bsq_real bsq_residual_at(const bsq_real *phi, const bsq_real *b,
	size_t c, size_t sy, size_t sz, const struct bsq_h *h)
{
	struct bsq_st7 q = bsq_gather7(phi, c, sy, sz);
	return bsq_residual(&q, b[c], h);
}

/* 1 where cell (i, j, k) has the colour red (0: i + j + k even); k counts
 * the planes of the whole stack (a slab adds its k0). */
HOSTDEVICE static inline int bsq_is_colour(int i, int j, int k, int red)
{
	return ((i + j + k + red) & 1) == 0;
}

/* The pressure's first guess at cell c (bsq_extrapolated; r = 0: the
 * previous pressure kept as it is), and the previous one recorded. */
HOSTDEVICE static inline void bsq_extrapolate_at(bsq_real *phi, bsq_real *prev, size_t c,
	bsq_real r)
{
	bsq_real t = phi[c];
	if (r != 0)
		phi[c] = bsq_extrapolated(t, prev[c], r);
	prev[c] = t;
}

/* q shifted by -by (a mean removed), in double. */
HOSTDEVICE static inline bsq_real bsq_shifted(bsq_real q, double by)
{
	return (bsq_real)(q - by);
}

/* The sum of a[0..n) in order from 0.  Every sum of the module is made of
 * plane sums (each plane's rows in order) added in the order of the planes,
 * so that slabs of whole planes give the same bits (bsq_rows_sum,
 * bsq_slab.c). */
HOSTDEVICE static inline double bsq_sum_ordered(const double *a, int n)
{
	double sum = 0;
	int i;
	for (i = 0; i < n; i++)
		sum += a[i];
	return sum;
}

/* The sum of a row's n values from c0, in order (means). */
HOSTDEVICE static inline double bsq_row_sum(const bsq_real *a, size_t c0, int n)
{
	double sum = 0;
	int i;
	for (i = 0; i < n; i++)
		sum += a[c0 + (size_t)i];
	return sum;
}

/* Sum of div^2 over the row of n cells from c0 (velocities u, v, w); the
 * max of |div| over the row and *max returned in *max (bsq_diag_div). */
HOSTDEVICE static inline double bsq_div_row(const bsq_real *u, const bsq_real *v, const bsq_real *w,
	size_t c0, int n, size_t sy, size_t sz, const struct bsq_h *h, double *max)
{
	double sum = 0;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++) {
		double d = bsq_div_at(u, v, w, c, sy, sz, h);
		*max = fmax(*max, fabs(d));
		sum += d * d;
	}
	return sum;
}

/* One axis of a grid for the ghost fills: its stride and size, and those
 * of the two others. */
struct bsq_axis {
	size_t s, s1, s2;
	int n, n1, n2;
};

HOSTDEVICE static inline struct bsq_axis bsq_axis_of(const struct bsq_grid *g, int d)
{
	const size_t st[3] = { 1, bsq_sy(g), bsq_sz(g) };
	const int n[3] = { g->nx, g->ny, g->nz };
	struct bsq_axis a;
	a.s = st[d];
	a.n = n[d];
	a.s1 = st[(d + 1) % 3];
	a.n1 = n[(d + 1) % 3];
	a.s2 = st[(d + 2) % 3];
	a.n2 = n[(d + 2) % 3];
	return a;
}

/* The ghost (or wall face) values of one line of a along axis x, the line
 * through (i1, i2) of the other two axes: low face of kind klo (BSQ_GHOST_*
 * or BSQ_GHOST_WALL_FACE, wall value vlo), high face khi (vhi). */
HOSTDEVICE static inline void bsq_fill_line(bsq_real *a, const struct bsq_axis *x, int i1, int i2,
	int klo, bsq_real vlo, int khi, bsq_real vhi)
{
	size_t b = (size_t)i1 * x->s1 + (size_t)i2 * x->s2;
	size_t lo = b, lo_in = b + x->s, hi_in = b + (size_t)x->n * x->s,
	       hi = b + (size_t)(x->n + 1) * x->s;
	if (klo == BSQ_GHOST_PERIODIC) {
		a[lo] = a[hi_in];
		a[hi] = a[lo_in];
		return;
	}
	if (klo == BSQ_GHOST_WALL_FACE)
		a[lo_in] = 0;
	else if (klo != BSQ_GHOST_HALO)
		a[lo] = klo == BSQ_GHOST_DIRICHLET ? bsq_ghost_dirichlet(vlo, a[lo_in]) : a[lo_in];
	if (khi == BSQ_GHOST_WALL_FACE)
		a[hi] = 0;
	else if (khi != BSQ_GHOST_HALO)
		a[hi] = khi == BSQ_GHOST_DIRICHLET ? bsq_ghost_dirichlet(vhi, a[hi_in]) : a[hi_in];
}

/* ---- bsq_rows.c: the loops over the rows of cells (x runs) of a grid.
 * A row function handles the n values at c, c + 1, ..., c + n - 1 of one
 * row and returns a number for the row (a max, a sum, or 0). */
typedef double (*bsq_row_fn)(void *ctx, size_t c, int n);
/* Rows (j, k) >= (lo[1], lo[2]) from i = lo[0] to nx, planes in parallel on
 * large grids; returns the max of the rows' numbers (exact in any order). */
double bsq_rows_max(const struct bsq_grid *g, const int lo[3], bsq_row_fn fn, void *ctx);
/* Every interior row, serially in a fixed order; returns the sum of the
 * rows' numbers, plane by plane (bsq_sum_ordered): the same bits on any
 * number of threads and of slabs. */
double bsq_rows_sum(const struct bsq_grid *g, bsq_row_fn fn, void *ctx);
/* ps[k - 1] = the sum of the numbers of the rows of plane k (k = 1..nz),
 * in order. */
void bsq_rows_planes(const struct bsq_grid *g, bsq_row_fn fn, void *ctx, double *ps);
/* The same two with the planes in parallel on large grids (each plane's
 * rows still added in order by one thread, the planes' sums in order: the
 * same bits), for row functions that only read ctx. */
double bsq_rows_sum_pure(const struct bsq_grid *g, bsq_row_fn fn, void *ctx);
void bsq_rows_planes_pure(const struct bsq_grid *g, bsq_row_fn fn, void *ctx, double *ps);
/* (j, k) of the row that starts at c (and i of c itself). */
static inline void bsq_row_jk(const struct bsq_grid *g, size_t c, int *i, int *j, int *k)
{
	*k = (int)(c / bsq_sz(g));
	*j = (int)(c % bsq_sz(g) / bsq_sy(g));
	*i = (int)(c % bsq_sy(g));
}
/* The multigrid row functions' context: level l, out = f(in, in2), a, colour. */
struct bsq_lctx {
	const struct bsq_level *l, *c;  /* the level; its coarser one */
	const struct bsq_grid *g;
	bsq_real *out;
	const bsq_real *in, *in2;
	size_t sy, sz;
	double a;
	int red;
	int pl;                         /* prolongation: 1 trilinear, 0 constant */
};
/* The context of level l: its grid and strides, everything else zero. */
static inline struct bsq_lctx bsq_lctx_of(const struct bsq_level *l)
{
	struct bsq_lctx x;
	memset(&x, 0, sizeof x);
	x.l = l;
	x.g = &l->g;
	x.sy = bsq_sy(&l->g);
	x.sz = bsq_sz(&l->g);
	return x;
}
/* lo = (1, 1, 1): every interior cell. */
extern const int bsq_interior[3];

/* ---- bsq_bc.c: ghosts of u, v, w from p->vel_bc (wall-normal faces 0 too). */
void bsq_bc_velocity(const struct bsq_grid *g, bsq_real *u, bsq_real *v, bsq_real *w,
	const struct bsq_params *p);
/* Ghosts of a centred field: kind[face] BSQ_GHOST_*, val[face] the wall
 * value of a Dirichlet face (NULL: 0). */
void bsq_bc_scalar(const struct bsq_grid *g, bsq_real *a, const int kind[BSQ_NFACE],
	const double *val);
/* Ghost kinds of T and of the pressure from the parameters. */
void bsq_bc_kinds_T(const struct bsq_params *p, int kind[BSQ_NFACE]);
void bsq_bc_kinds_p(const struct bsq_params *p, int kind[BSQ_NFACE]);
/* First unknown (i, j, k) of field comp (0..2: u, v, w; 3: T, p): 1, or 2
 * along its own axis when face 1 is a wall. */
void bsq_first(const struct bsq_params *p, int comp, int lo[3]);

/* ---- bsq_setup.c: the set-up's initial u, v, w, T (interior). */
void bsq_setup_fields(struct bsq_state *s, const struct bsq_params *p);
/* ---- bsq_rhs.c: explicit terms F of u, v, w (and T when thermal). */
void bsq_rhs(const struct bsq_state *s, const struct bsq_params *p, bsq_real *F[4]);

/* ---- multigrid verbs; each reads ghosts it fills itself.  bsq_mg_level.c */
/* The coarsening of p's grid (level 0 first): n[l] the cells of level l.
 * Returns the number of levels (1 for Jacobi). */
int bsq_mg_plan(const struct bsq_params *p, int n[BSQ_MG_MAXLEV][3]);
/* 0, or -SPATE_EINVAL with a message when the coarsest level is too big. */
int bsq_mg_check(const struct bsq_params *p);
/* The levels of s (the plan above), vectors zeroed (arrays 0: shapes only);
 * 0 or -SPATE_ENOMEM. */
int bsq_mg_build(struct bsq_state *s, const struct bsq_params *p, int arrays);
void bsq_mg_free(struct bsq_state *s);
void bsq_mg_zero(struct bsq_level *l, int vec);
double bsq_mg_mean(const struct bsq_level *l, int vec);
/* ps[k - 1] = the sum of vec over plane k of l (k = 1..nz), in order. */
void bsq_mg_plane_sums(const struct bsq_level *l, int vec, double *ps);
void bsq_mg_shift(struct bsq_level *l, int vec, double by);
void bsq_mg_extrapolate(struct bsq_level *l, double r);
double bsq_mg_norm_max(const struct bsq_level *l, int vec);
/* max |a| over the interior values of any field of grid g. */
double bsq_field_max(const struct bsq_grid *g, const bsq_real *a);
/* fine[fvec] = a fine[fvec] + P coarse[cvec], P trilinear when pl, else
 * constant (coarse ghosts filled first); shared by the two prolongations. */
void bsq_mg_interp_rows(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec, int pl);
void bsq_mg_ghosts(struct bsq_level *l, int vec);
/* bsq_mg_residual.c: res = rhs - lap(phi); returns max |res|. */
double bsq_mg_residual(struct bsq_level *l, int res, int phi, int rhs);
/* bsq_mg_gsrb.c: `sweeps` red-black Gauss-Seidel sweeps on phi; one colour
 * (red 0: the cells with i + j + k0 + k even). */
void bsq_mg_smooth(struct bsq_level *l, int phi, int rhs, int sweeps);
void bsq_mg_colour(struct bsq_level *l, int phi, int rhs, int red);
/* bsq_mg_restrict.c: coarse[cvec] = the mean of fine[fvec]'s children (or of rhs - lap(phi)). */
void bsq_mg_restrict(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int fvec);
void bsq_mg_restrict_residual(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int phi,
	int rhs);
/* bsq_mg_interp_pl.c / _pc.c: fine[fvec] = a fine[fvec] + P coarse[cvec]. */
void bsq_mg_interp_pl(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec);
void bsq_mg_interp_pc(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec);
/* bsq_jacobi.c: Jacobi sweeps (o->jacobi_sweep) on level 0 to max |res| <= rtol. */
struct bsq_ops;
int bsq_jacobi(const struct bsq_ops *o, struct bsq_level *l, double rtol, int max_sweeps,
	int *sweeps, double *res);

/* ---- The backend table (HPGMG style): the verbs a step and the pressure
 * solve are made of.  bsq_step_on and bsq_poisson_on (bsq_step.c, bsq_mg.c)
 * run the same control flow on any backend: the CPU's (bsq_ops_cpu, the
 * functions declared above) or CUDA's (cuda/bsq_cuda.cu), whose state and
 * levels hold device pointers in the same structs.  Maxima and sums come
 * back to the host as doubles. */
struct bsq_ops {
	const char *name;
	/* step verbs */
	void (*rhs)(const struct bsq_state *s, const struct bsq_params *p, bsq_real *F[4]);
	double (*field_max)(const struct bsq_grid *g, const bsq_real *a);
	void (*predict)(struct bsq_state *s, const struct bsq_params *p, int comp, double dt,
		double r);
	void (*correct)(struct bsq_state *s, const struct bsq_params *p, int comp, double dt);
	void (*div_rhs)(struct bsq_state *s, double dt);
	void (*bc_velocity)(const struct bsq_grid *g, bsq_real *u, bsq_real *v, bsq_real *w,
		const struct bsq_params *p);
	void (*bc_scalar)(const struct bsq_grid *g, bsq_real *a, const int kind[BSQ_NFACE],
		const double *val);
	void (*diag_div)(const struct bsq_state *s, double *max, double *l2);
	/* multigrid verbs */
	void (*zero)(struct bsq_level *l, int vec);
	double (*mean)(const struct bsq_level *l, int vec);
	void (*shift)(struct bsq_level *l, int vec, double by);
	void (*ghosts)(struct bsq_level *l, int vec);
	double (*residual)(struct bsq_level *l, int res, int phi, int rhs);
	void (*smooth)(struct bsq_level *l, int phi, int rhs, int sweeps);
	void (*restriction)(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int fvec);
	void (*interp_pl)(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
		int cvec);
	void (*interp_pc)(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
		int cvec);
	void (*jacobi_sweep)(struct bsq_level *l);
	/* what slabs of whole planes need (bsq_slab.c): one colour of the
	 * smoother; the sums of vec per plane (ps[k - 1], k = 1..nz); max |div u|
	 * and the sums of div^2 per plane */
	void (*colour)(struct bsq_level *l, int phi, int rhs, int red);
	void (*plane_sums)(const struct bsq_level *l, int vec, double *ps);
	void (*div_planes)(const struct bsq_state *s, double *max, double *ps);
	/* optional (NULL: not offered).  The residual without its maximum
	 * (a V-cycle does not look at it; on a GPU the maximum is a read-back);
	 * a level's vector vec to or from host memory of bsq_count(&l->g)
	 * values: the multigrid solve then runs the small levels on the host
	 * with the CPU's verbs (bsq_mg.c), the same bits as on the device. */
	void (*residual_only)(struct bsq_level *l, int res, int phi, int rhs);
	int (*level_get)(const struct bsq_level *l, int vec, bsq_real *host);
	int (*level_put)(struct bsq_level *l, int vec, const bsq_real *host);
	const struct bsq_ops *host;   /* the verbs on those host copies */
	/* PHI = bsq_extrapolated(PHI, PREV, r) on the interior (r != 0), PREV =
	 * PHI as it was; residual_only then restriction, fused (no res written) */
	void (*extrapolate)(struct bsq_level *l, double r);
	void (*restrict_residual)(struct bsq_level *coarse, int cvec, struct bsq_level *fine,
		int phi, int rhs);
	/* The tail of a V-cycle in one go: tail_from gives the first level
	 * (>= 1) from which the backend can run what vcycle does there (the
	 * cycles of that level and every coarser one, and the coarse solve),
	 * with the same bits as its verbs, or nlev; tail_cycle runs it. */
	int (*tail_from)(const struct bsq_level *lev, int nlev, const struct bsq_params *p);
	void (*tail_cycle)(struct bsq_level *lev, int from, int nlev, const struct bsq_params *p);
};
extern const struct bsq_ops bsq_ops_cpu;
/* bsq_step and bsq_poisson on backend o (bsq.h says what they do). */
int bsq_step_on(const struct bsq_ops *o, struct bsq_state *s, const struct bsq_params *p,
	struct bsq_stats *st);
int bsq_poisson_on(const struct bsq_ops *o, struct bsq_state *s, const struct bsq_params *p,
	double rtol, int fmg, struct bsq_stats *st);
int bsq_vcycles_on(const struct bsq_ops *o, struct bsq_state *s, const struct bsq_params *p,
	int n);
/* max |div u| and the sums of div^2 per plane (bsq_diag.c). */
void bsq_diag_div_planes(const struct bsq_state *s, double *max, double *ps);
/* b = div(u*) / dt on level 0 (bsq_step.c). */
void bsq_div_rhs(struct bsq_state *s, double dt);
/* u = AB2(u, F, Fold), u -= dt dphi/dn on component comp (bsq_step.c). */
void bsq_predict(struct bsq_state *s, const struct bsq_params *p, int comp, double dt, double r);
void bsq_correct_comp(struct bsq_state *s, const struct bsq_params *p, int comp, double dt);
/* The explicit terms' arguments of component comp (bsq_rhs.c). */
struct bsq_rhs_args bsq_rhs_args_of(const struct bsq_state *s, const struct bsq_params *p,
	int comp);
/* The velocity ghost kind of component c on face f, and its wall value
 * (bsq_bc.c). */
int bsq_bc_vel_kind(const struct bsq_params *p, int f, int c, double *val);
/* One Jacobi sweep PHI -> TMP, then the two swap (bsq_jacobi.c). */
void bsq_jacobi_sweep(struct bsq_level *l);

#endif
