/* bsq_impl.h: what the Boussinesq module's files share inside (not for
 * callers: they use bsq.h): indexing, stencil gathers, ghost fills, the
 * explicit terms and the multigrid verbs (HPGMG style: a level holds its
 * vectors by id, about ten verbs do everything, bsq_mg.c builds the cycles
 * from them alone). */
#ifndef SPATE_BSQ_IMPL_H
#define SPATE_BSQ_IMPL_H

#include <string.h>

#include "bsq.h"

/* Plane loops run in parallel only on grids of at least this many values:
 * on small (coarse) grids a parallel region costs more than it saves. */
#define BSQ_OMP_MIN ((size_t)1 << 15)

/* Ghost kinds of a centred field per face (bsq_bc.c). */
enum { BSQ_GHOST_NEUMANN = 0, BSQ_GHOST_DIRICHLET, BSQ_GHOST_PERIODIC };

/* Strides of a grid with one ghost layer: +1 in x, sy in y, sz in z. */
static inline size_t bsq_sy(const struct bsq_grid *g) { return (size_t)g->nx + 2; }
static inline size_t bsq_sz(const struct bsq_grid *g)
{
	return ((size_t)g->nx + 2) * ((size_t)g->ny + 2);
}
static inline size_t bsq_idx(const struct bsq_grid *g, int i, int j, int k)
{
	return ((size_t)k * ((size_t)g->ny + 2) + (size_t)j) * ((size_t)g->nx + 2) + (size_t)i;
}
static inline size_t bsq_count(const struct bsq_grid *g)
{
	return bsq_sz(g) * ((size_t)g->nz + 2);
}

/* The value at c and its six neighbours. */
static inline struct bsq_st7 bsq_gather7(const bsq_real *a, size_t c, size_t sy, size_t sz)
{
	struct bsq_st7 q;
	q.c = a[c];
	q.xm = a[c - 1];
	q.xp = a[c + 1];
	q.ym = a[c - sy];
	q.yp = a[c + sy];
	q.zm = a[c - sz];
	q.zp = a[c + sz];
	return q;
}

/* Divergence of the face velocities of cell c (BSQ.md "Grid"). */
static inline bsq_real bsq_div_at(const bsq_real *u, const bsq_real *v, const bsq_real *w,
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

/* Cell-centred coarsening by c (1 or 2) along one direction: the parent of
 * fine cell i, and the side (-1, +1; 0 when not coarsened) of the next
 * coarse cell nearest to it. */
static inline int bsq_parent(int i, int c) { return (i - 1) / c + 1; }
static inline int bsq_far(int i, int c) { return c == 1 ? 0 : ((i - 1) & 1) ? 1 : -1; }

/* ---- bsq_rows.c: the loops over the rows of cells (x runs) of a grid.
 * A row function handles the n values at c, c + 1, ..., c + n - 1 of one
 * row and returns a number for the row (a max, a sum, or 0). */
typedef double (*bsq_row_fn)(void *ctx, size_t c, int n);
/* Rows (j, k) >= (lo[1], lo[2]) from i = lo[0] to nx, planes in parallel on
 * large grids; returns the max of the rows' numbers (exact in any order). */
double bsq_rows_max(const struct bsq_grid *g, const int lo[3], bsq_row_fn fn, void *ctx);
/* Every interior row, serially in a fixed order; returns the sum of the
 * rows' numbers (the same bits on any number of threads). */
double bsq_rows_sum(const struct bsq_grid *g, bsq_row_fn fn, void *ctx);
/* (j, k) of the row that starts at c (and i of c itself). */
static inline void bsq_row_jk(const struct bsq_grid *g, size_t c, int *i, int *j, int *k)
{
	*k = (int)(c / bsq_sz(g));
	*j = (int)(c % bsq_sz(g) / bsq_sy(g));
	*i = (int)(c % bsq_sy(g));
}
/* What the multigrid verbs' row functions use: level l (its grid g,
 * strides sy, sz), out = f(in, in2), a scalar a, and a colour. */
struct bsq_lctx {
	const struct bsq_level *l, *c;  /* the level; its coarser one */
	const struct bsq_grid *g;
	bsq_real *out;
	const bsq_real *in, *in2;
	size_t sy, sz;
	double a;
	int red;
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

/* ---- bsq_bc.c */
/* Ghosts of u, v, w from p->vel_bc (wall-normal faces set to 0 as well). */
void bsq_bc_velocity(const struct bsq_grid *g, bsq_real *u, bsq_real *v, bsq_real *w,
	const struct bsq_params *p);
/* Ghosts of a centred field: kind[face] BSQ_GHOST_*, val[face] the wall
 * value of a Dirichlet face (NULL: 0). */
void bsq_bc_scalar(const struct bsq_grid *g, bsq_real *a, const int kind[BSQ_NFACE],
	const double *val);
/* Ghost kinds of T and of the pressure from the parameters. */
void bsq_bc_kinds_T(const struct bsq_params *p, int kind[BSQ_NFACE]);
void bsq_bc_kinds_p(const struct bsq_params *p, int kind[BSQ_NFACE]);
/* First unknown (i, j, k) of field comp (0..2: u, v, w; 3: T, p): 1, but
 * 2 along the component's own axis when face 1 is a wall. */
void bsq_first(const struct bsq_params *p, int comp, int lo[3]);

/* ---- bsq_setup.c: the set-up's initial u, v, w, T (interior). */
void bsq_setup_fields(struct bsq_state *s, const struct bsq_params *p);

/* ---- bsq_rhs.c: explicit terms F of u, v, w (and T when thermal). */
void bsq_rhs(const struct bsq_state *s, const struct bsq_params *p, bsq_real *F[4]);

/* ---- multigrid verbs; each reads ghosts it fills itself.
 * bsq_mg_level.c */
/* The coarsening of p's grid (level 0 first): n[l] the cells of level l.
 * Returns the number of levels (1 for Jacobi). */
int bsq_mg_plan(const struct bsq_params *p, int n[BSQ_MG_MAXLEV][3]);
/* 0, or -SPATE_EINVAL with a message when the coarsest level is too big. */
int bsq_mg_check(const struct bsq_params *p);
/* The levels of s (the plan above), vectors zeroed; 0 or -SPATE_ENOMEM. */
int bsq_mg_build(struct bsq_state *s, const struct bsq_params *p);
void bsq_mg_free(struct bsq_state *s);
void bsq_mg_zero(struct bsq_level *l, int vec);
double bsq_mg_mean(const struct bsq_level *l, int vec);
void bsq_mg_shift(struct bsq_level *l, int vec, double by);
double bsq_mg_norm_max(const struct bsq_level *l, int vec);
/* max |a| over the interior values of any field of grid g. */
double bsq_field_max(const struct bsq_grid *g, const bsq_real *a);
/* fine[fvec] = a fine[fvec] + P coarse[cvec], P given by its row function
 * (coarse ghosts filled first); shared by the two prolongations. */
void bsq_mg_interp_rows(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec, bsq_row_fn P);
void bsq_mg_ghosts(struct bsq_level *l, int vec);
/* bsq_mg_residual.c: res = rhs - lap(phi); returns max |res|. */
double bsq_mg_residual(struct bsq_level *l, int res, int phi, int rhs);
/* bsq_mg_gsrb.c: `sweeps` red-black Gauss-Seidel sweeps on phi. */
void bsq_mg_smooth(struct bsq_level *l, int phi, int rhs, int sweeps);
/* bsq_mg_restrict.c: coarse[cvec] = mean of the children of fine[fvec]. */
void bsq_mg_restrict(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int fvec);
/* bsq_mg_interp_pl.c / _pc.c: fine[fvec] = a fine[fvec] + P coarse[cvec]
 * (a = 1: V-cycle correction; a = 0: full multigrid start). */
void bsq_mg_interp_pl(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec);
void bsq_mg_interp_pc(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec);
/* bsq_jacobi.c: Jacobi sweeps on level 0 until max |res| <= rtol. */
int bsq_jacobi(struct bsq_level *l, double rtol, int max_sweeps, int *sweeps, double *res);

#endif
