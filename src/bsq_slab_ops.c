/* bsq_slab_ops.c: the verbs of a state cut into slabs (struct bsq_ops on the
 * stand-in of bsq_slabset.h): each runs the inner backend's verb on every
 * slab of this rank and moves what the next verb reads across the cuts.
 *
 * Fields: the boundary verbs fill the walls, then exchange the ghost planes
 * (u, v, w, T), so the explicit terms, the divergence and the predictor see
 * their neighbours' planes.  Multigrid: a verb that reads a vector across
 * planes (residual, each smoother colour, Jacobi sweep, prolongation from
 * a split level) exchanges it first, in the order of the overlap strategy
 * (stencil()).  A level too coarse to cut is whole on every rank: the
 * restriction into it gathers the finer level's planes, the prolongation
 * from it runs on the whole finer level and hands each slab its planes.
 * Maxima are exact in any order; sums come from plane sums added in the
 * planes' order (bsq_slab_sum_planes), the order of one domain. */
#include <math.h>

#include "bsq_slabset.h"

#define EACH(S, k) for ((k) = (S)->d[0].first; (k) < (S)->d[0].last; (k)++)

static struct bsq_slabs *of_state(const struct bsq_state *s)
{
	return bsq_slabs_of_grid(&s->g);
}

static int index_of(const struct bsq_slabs *S, const struct bsq_level *l)
{
	return (int)(l - S->proxy.lev);
}

static struct bsq_level *slab_level(struct bsq_slabs *S, int k, int l)
{
	return &S->sub[k].s.lev[l];
}

/* Slab k's work on its own stream from now (overlap = streams, where the
 * memory has streams); k = -1: back to the default. */
static void on(const struct bsq_slabs *S, int k)
{
	if (S->overlap == BSQ_OVERLAP_STREAMS && S->mem->stream)
		S->mem->stream(k);
}

static bsq_real *buf(struct bsq_slabs *S, int k, const bsq_real *tok)
{
	return S->sub[k].buf[bsq_slab_id(S, tok)];
}

/* ---- step verbs */

static void rhs(const struct bsq_state *s, const struct bsq_params *p, bsq_real *F[4])
{
	struct bsq_slabs *S = of_state(s);
	int k, c;
	bsq_slab_sync(S);
	EACH(S, k) {
		struct bsq_params q;
		bsq_real *Fk[4];
		for (c = 0; c < 4; c++)
			Fk[c] = buf(S, k, F[c]);
		bsq_slab_params(S, &S->sub[k], p, &q);
		on(S, k);
		S->inner->rhs(&S->sub[k].s, &q, Fk);
	}
	on(S, -1);
}

static double field_max(const struct bsq_grid *g, const bsq_real *a)
{
	struct bsq_slabs *S = bsq_slabs_of_grid(g);
	double m = 0;
	int k;
	bsq_slab_sync(S);
	EACH(S, k)
		m = fmax(m, S->inner->field_max(&S->sub[k].s.g, buf(S, k, a)));
	return bsq_slab_max(S, m);
}

/* The predictor (corr 0) or the correction (corr 1) of component comp on
 * every slab, each with its own faces. */
static void update(struct bsq_state *s, const struct bsq_params *p, int comp, double dt,
	double r, int corr)
{
	struct bsq_slabs *S = of_state(s);
	int k;
	bsq_slab_sync(S);
	EACH(S, k) {
		struct bsq_params q;
		bsq_slab_params(S, &S->sub[k], p, &q);
		on(S, k);
		if (corr)
			S->inner->correct(&S->sub[k].s, &q, comp, dt);
		else
			S->inner->predict(&S->sub[k].s, &q, comp, dt, r);
	}
	on(S, -1);
}

static void predict(struct bsq_state *s, const struct bsq_params *p, int comp, double dt,
	double r)
{
	update(s, p, comp, dt, r, 0);
}

static void correct(struct bsq_state *s, const struct bsq_params *p, int comp, double dt)
{
	update(s, p, comp, dt, 0, 1);
}

static void div_rhs(struct bsq_state *s, double dt)
{
	struct bsq_slabs *S = of_state(s);
	int k;
	bsq_slab_sync(S);
	EACH(S, k) {
		on(S, k);
		S->inner->div_rhs(&S->sub[k].s, dt);
	}
	on(S, -1);
}

static void bc_velocity(const struct bsq_grid *g, bsq_real *u, bsq_real *v, bsq_real *w,
	const struct bsq_params *p)
{
	struct bsq_slabs *S = bsq_slabs_of_grid(g);
	int k;
	bsq_slab_sync(S);
	EACH(S, k) {
		struct bsq_params q;
		bsq_slab_params(S, &S->sub[k], p, &q);
		S->inner->bc_velocity(&S->sub[k].s.g, buf(S, k, u), buf(S, k, v), buf(S, k, w), &q);
	}
	bsq_slab_exchange(S, 0, bsq_slab_id(S, u));
	bsq_slab_exchange(S, 0, bsq_slab_id(S, v));
	bsq_slab_exchange(S, 0, bsq_slab_id(S, w));
}

static void bc_scalar(const struct bsq_grid *g, bsq_real *a, const int kind[BSQ_NFACE],
	const double *val)
{
	struct bsq_slabs *S = bsq_slabs_of_grid(g);
	int k;
	bsq_slab_sync(S);
	EACH(S, k) {
		int kk[BSQ_NFACE];
		bsq_slab_kinds(S, &S->sub[k], kind, kk);
		S->inner->bc_scalar(&S->sub[k].s.g, buf(S, k, a), kk, val);
	}
	bsq_slab_exchange(S, 0, bsq_slab_id(S, a));
}

static void diag_div(const struct bsq_state *s, double *max, double *l2)
{
	struct bsq_slabs *S = of_state(s);
	double m = 0;
	int k;
	bsq_slab_sync(S);
	EACH(S, k) {
		double mk;
		S->inner->div_planes(&S->sub[k].s, &mk, S->ps + S->sub[k].row0);
		m = fmax(m, mk);
	}
	*l2 = sqrt(bsq_slab_sum_planes(S, 0, S->ps) / bsq_ncells(&s->g));
	*max = bsq_slab_max(S, m);
}

/* ---- multigrid verbs: on the slabs of a split level, or the whole one */

/* The vector verbs without a stencil: zero, shift, ghosts, the warm
 * start's extrapolation. */
enum { VEC_ZERO, VEC_SHIFT, VEC_GHOSTS, VEC_EXTRAPOLATE };

static void vec_one(const struct bsq_ops *o, int verb, struct bsq_level *L, int vec, double by)
{
	if (verb == VEC_ZERO)
		o->zero(L, vec);
	else if (verb == VEC_SHIFT)
		o->shift(L, vec, by);
	else if (verb == VEC_EXTRAPOLATE)
		o->extrapolate(L, by);
	else
		o->ghosts(L, vec);
}

/* verb on the whole level, or on every slab of a split one; ghosts then
 * exchanged. */
static void vec_verb(struct bsq_level *l, int verb, int vec, double by)
{
	struct bsq_slabs *S = l->slabs;
	int li = index_of(S, l), k;
	bsq_slab_sync(S);
	if (li >= S->nsplit) {
		vec_one(S->inner, verb, &S->whole.lev[li], vec, by);
		return;
	}
	EACH(S, k)
		vec_one(S->inner, verb, slab_level(S, k, li), vec, by);
	if (verb == VEC_GHOSTS)
		bsq_slab_exchange(S, li, bsq_slab_id(S, l->v[vec]));
}

static void zero(struct bsq_level *l, int vec)
{
	vec_verb(l, VEC_ZERO, vec, 0);
}

static void shift(struct bsq_level *l, int vec, double by)
{
	vec_verb(l, VEC_SHIFT, vec, by);
}

static void ghosts(struct bsq_level *l, int vec)
{
	vec_verb(l, VEC_GHOSTS, vec, 0);
}

static void extrapolate(struct bsq_level *l, double r)
{
	vec_verb(l, VEC_EXTRAPOLATE, BSQ_PHI, r);
}

static double mean(const struct bsq_level *l, int vec)
{
	struct bsq_slabs *S = l->slabs;
	int li = index_of(S, l), k;
	bsq_slab_sync(S);
	if (li >= S->nsplit)
		return S->inner->mean(&S->whole.lev[li], vec);
	EACH(S, k)
		S->inner->plane_sums(slab_level(S, k, li), vec, S->ps + slab_level(S, k, li)->k0);
	return bsq_slab_sum_planes(S, li, S->ps) / bsq_ncells(&l->g);
}

/* A stencil verb of one slab level: the residual (returns its max), one
 * smoother colour or one Jacobi sweep. */
enum { JOB_RESIDUAL, JOB_RESIDUAL_ONLY, JOB_COLOUR, JOB_JACOBI };
struct job {
	int kind, a, b, c;
};

static double run(const struct bsq_slabs *S, const struct job *j, struct bsq_level *L)
{
	switch (j->kind) {
	case JOB_RESIDUAL:
		return S->inner->residual(L, j->a, j->b, j->c);
	case JOB_RESIDUAL_ONLY:
		if (S->inner->residual_only)
			S->inner->residual_only(L, j->a, j->b, j->c);
		else
			S->inner->residual(L, j->a, j->b, j->c);
		return 0;
	case JOB_COLOUR:
		S->inner->colour(L, j->a, j->b, j->c);
		return 0;
	default:
		S->inner->jacobi_sweep(L);
		return 0;
	}
}

/* Planes [k1, k2] of slab level L as a level of their own: its vectors from
 * plane k1 - 1, its colours counted from the stack's plane, its z faces
 * inside the slab left alone by ghost fills. */
static struct bsq_level view(const struct bsq_level *L, int k1, int k2)
{
	struct bsq_level V = *L;
	size_t off = (size_t)(k1 - 1) * bsq_sz(&L->g);
	int v;
	for (v = 0; v < BSQ_NVEC; v++)
		V.v[v] = L->v[v] ? L->v[v] + off : NULL;   /* PREV may be absent */
	V.g.nz = k2 - k1 + 1;
	V.k0 = L->k0 + k1 - 1;
	if (k1 > 1)
		V.ghost[BSQ_ZM] = BSQ_GHOST_HALO;
	if (k2 < L->g.nz)
		V.ghost[BSQ_ZP] = BSQ_GHOST_HALO;
	return V;
}

/* Job j on every slab of split level li, which reads buffer id across
 * planes.  none: exchange, then every plane.  compute: the exchange
 * started, the planes that need no ghost plane (2..nz-1) computed while it
 * travels, then the two edge planes; streams: the same, each slab's work on
 * its own stream where the memory has streams (the GPU; the CPU has none).
 * Every order gives the same bits: each plane's cells read only what the
 * exchange and the other colour left.  Returns the max over every rank for
 * the residual (JOB_RESIDUAL), else 0 without a reduction: a colour, a
 * sweep or a residual for the restriction has no maximum to share, and a
 * reduction is a synchronisation of every rank. */
static double stencil(struct bsq_slabs *S, int li, int id, const struct job *j)
{
	double m = 0;
	int k;
	if (S->overlap == BSQ_OVERLAP_NONE) {
		bsq_slab_exchange(S, li, id);
		EACH(S, k)
			m = fmax(m, run(S, j, slab_level(S, k, li)));
		return j->kind == JOB_RESIDUAL ? bsq_slab_max(S, m) : 0;
	}
	bsq_slab_exchange_start(S, li, id);
	EACH(S, k) {
		struct bsq_level *L = slab_level(S, k, li), V;
		if (L->g.nz >= 3) {
			V = view(L, 2, L->g.nz - 1);
			on(S, k);
			m = fmax(m, run(S, j, &V));
		}
	}
	on(S, -1);
	bsq_slab_exchange_finish(S);
	EACH(S, k) {
		struct bsq_level *L = slab_level(S, k, li), V;
		on(S, k);
		if (L->g.nz < 3) {
			m = fmax(m, run(S, j, L));
			continue;
		}
		V = view(L, 1, 1);
		m = fmax(m, run(S, j, &V));
		V = view(L, L->g.nz, L->g.nz);
		m = fmax(m, run(S, j, &V));
	}
	on(S, -1);
	return j->kind == JOB_RESIDUAL ? bsq_slab_max(S, m) : 0;
}

/* Job j on level l, which reads its vector vec across planes: on the
 * slabs (stencil), or on the whole level where l is too coarse to cut. */
static double level_job(struct bsq_level *l, const struct job *j, int vec)
{
	struct bsq_slabs *S = l->slabs;
	int li = index_of(S, l);
	bsq_slab_sync(S);
	if (li >= S->nsplit)
		return run(S, j, &S->whole.lev[li]);
	return stencil(S, li, bsq_slab_id(S, l->v[vec]), j);
}

static double residual(struct bsq_level *l, int res, int phi, int rhs_)
{
	struct job j = { JOB_RESIDUAL, res, phi, rhs_ };
	return level_job(l, &j, phi);
}

static void residual_only(struct bsq_level *l, int res, int phi, int rhs_)
{
	struct job j = { JOB_RESIDUAL_ONLY, res, phi, rhs_ };
	level_job(l, &j, phi);
}

static void colour(struct bsq_level *l, int phi, int rhs_, int red)
{
	struct job j = { JOB_COLOUR, phi, rhs_, red };
	level_job(l, &j, phi);
}

static void smooth(struct bsq_level *l, int phi, int rhs_, int sweeps)
{
	int s;
	for (s = 0; s < sweeps; s++) {
		colour(l, phi, rhs_, 0);
		colour(l, phi, rhs_, 1);
	}
}

/* A Jacobi sweep swaps PHI and TMP: the stand-in's tokens swap too. */
static void jacobi_sweep(struct bsq_level *l)
{
	struct bsq_slabs *S = l->slabs;
	struct job j = { JOB_JACOBI, 0, 0, 0 };
	int li = index_of(S, l);
	bsq_real *t;
	bsq_slab_sync(S);
	if (li >= S->nsplit)
		S->inner->jacobi_sweep(&S->whole.lev[li]);
	else
		stencil(S, li, bsq_slab_id(S, l->v[BSQ_PHI]), &j);
	t = l->v[BSQ_PHI];
	l->v[BSQ_PHI] = l->v[BSQ_TMP];
	l->v[BSQ_TMP] = t;
	bsq_slab_sync(S);
}

static void restriction(struct bsq_level *coarse, int cvec, struct bsq_level *fine, int fvec)
{
	struct bsq_slabs *S = fine->slabs;
	int fi = index_of(S, fine), ci = index_of(S, coarse), k;
	bsq_slab_sync(S);
	if (ci < S->nsplit) {
		EACH(S, k)
			S->inner->restriction(slab_level(S, k, ci), cvec, slab_level(S, k, fi), fvec);
		return;
	}
	if (fi < S->nsplit)
		bsq_slab_gather_level(S, fi, bsq_slab_id(S, fine->v[fvec]));
	S->inner->restriction(&S->whole.lev[ci], cvec, &S->whole.lev[fi], fvec);
}

static void interp(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec, int pl)
{
	struct bsq_slabs *S = fine->slabs;
	int fi = index_of(S, fine), ci = index_of(S, coarse), k;
	void (*in)(struct bsq_level *, int, double, struct bsq_level *, int) =
		pl ? S->inner->interp_pl : S->inner->interp_pc;
	int fid = bsq_slab_id(S, fine->v[fvec]);
	bsq_slab_sync(S);
	if (ci < S->nsplit) {
		bsq_slab_exchange(S, ci, bsq_slab_id(S, coarse->v[cvec]));
		EACH(S, k)
			in(slab_level(S, k, fi), fvec, a, slab_level(S, k, ci), cvec);
		return;
	}
	if (fi < S->nsplit)
		bsq_slab_gather_level(S, fi, fid);
	in(&S->whole.lev[fi], fvec, a, &S->whole.lev[ci], cvec);
	if (fi < S->nsplit)
		bsq_slab_scatter_level(S, fi, fid);
}

static void interp_pl(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	interp(fine, fvec, a, coarse, cvec, 1);
}

static void interp_pc(struct bsq_level *fine, int fvec, double a, struct bsq_level *coarse,
	int cvec)
{
	interp(fine, fvec, a, coarse, cvec, 0);
}

/* plane_sums and div_planes: what slabs ask of their inner backend, not of
 * themselves. */
const struct bsq_ops bsq_ops_slab = {
	"slabs",
	rhs, field_max, predict, correct, div_rhs, bc_velocity, bc_scalar, diag_div,
	zero, mean, shift, ghosts, residual, smooth, restriction, interp_pl, interp_pc,
	jacobi_sweep, colour, NULL, NULL, residual_only, NULL, NULL, NULL, extrapolate, NULL,
	NULL, NULL
};
