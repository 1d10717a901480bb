/* bsq_step.c: one time step (BSQ.md "Time stepping"): the explicit terms,
 * the step size, the Adams-Bashforth 2 predictor, then the projection
 * (Chorin 1968):
 *   lap(phi) = div(u*) / dt  (Neumann at walls, mean of b removed),
 *   u = u* - dt grad(phi),   p = phi.
 * Wall-normal face velocities are never updated: they hold the wall value,
 * which is what makes the Neumann pressure condition consistent.
 *
 * The control flow (bsq_step_on) calls its verbs through a backend table
 * (struct bsq_ops, bsq_impl.h): the CPU's in bsq_cpu.c, the CUDA one in
 * cuda/bsq_cuda.cu. */
#include <math.h>
#include <stdio.h>

#include "bsq_impl.h"
#include "spate.h"

/* What the row functions of a step read and write. */
struct row_ctx {
	bsq_real *q;               /* field updated */
	const bsq_real *a, *b;     /* inputs: F and Fold; phi; u, v, w */
	const bsq_real *v, *w;
	size_t o, sy, sz;          /* component offset, strides */
	bsq_real dt, r, ih;        /* step, AB2 ratio, inverse spacing */
	struct bsq_h h;
};

/* The step: fixed, or the smallest of the advective and diffusive limits.
 * A periodic direction one cell thick has no second derivative. */
static double step_dt(const struct bsq_ops *o, const struct bsq_state *s,
	const struct bsq_params *p)
{
	const struct bsq_grid *g = &s->g;
	struct bsq_h h = bsq_h_of(g->dx, g->dy, g->dz);
	double dt;
	if (p->dt > 0)
		return p->dt;
	if (g->nx == 1 && p->vel_bc[BSQ_XM] == BSQ_PERIODIC)
		h.idx2 = 0;
	if (g->ny == 1 && p->vel_bc[BSQ_YM] == BSQ_PERIODIC)
		h.idy2 = 0;
	if (g->nz == 1 && p->vel_bc[BSQ_ZM] == BSQ_PERIODIC)
		h.idz2 = 0;
	dt = bsq_dt_diff(p->diff, fmax(p->nu, p->thermal ? p->kappa : 0), &h);
	dt = fmin(dt, bsq_dt_cfl(p->cfl, g->dx, o->field_max(g, s->u)));
	dt = fmin(dt, bsq_dt_cfl(p->cfl, g->dy, o->field_max(g, s->v)));
	return fmin(dt, bsq_dt_cfl(p->cfl, g->dz, o->field_max(g, s->w)));
}

/* step_dt found no limit (1e300 from bsq_dt_cfl and bsq_dt_diff): the
 * flow is at rest and nothing diffuses.  -SPATE_EINVAL, saying what to do. */
static int unbounded(const struct bsq_state *s, const struct bsq_params *p)
{
	char why[96];
	if (p->thermal)
		snprintf(why, sizeof why, "nu = %g, kappa = %g", p->nu, p->kappa);
	else
		snprintf(why, sizeof why, "nu = %g, thermal = no", p->nu);
	spate_log_error("bsq", "step %ld: no limit bounds the time step: the flow is at rest "
		"and nothing diffuses (%s): give [run] dt", s->step, why);
	return -SPATE_EINVAL;
}

static double predict_row(void *vctx, size_t c0, int n)
{
	const struct row_ctx *x = vctx;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++)
		x->q[c] = bsq_ab2(x->q[c], x->dt, x->r, x->a[c], x->b[c]);
	return 0;
}

/* q = AB2(q, F, Fold) on the unknowns of field comp. */
void bsq_predict(struct bsq_state *s, const struct bsq_params *p, int comp, double dt, double r)
{
	bsq_real *const field[4] = { s->u, s->v, s->w, s->T };
	struct row_ctx x;
	int lo[3];
	x.q = field[comp];
	x.a = s->F[comp];
	x.b = s->Fold[comp];
	x.dt = (bsq_real)dt;
	x.r = (bsq_real)r;
	bsq_first(p, comp, lo);
	bsq_rows_max(&s->g, lo, predict_row, &x);
}

static double correct_row(void *vctx, size_t c0, int n)
{
	const struct row_ctx *x = vctx;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++)
		x->q[c] = bsq_correct_at(x->q[c], x->a, c, x->o, x->dt, x->ih);
	return 0;
}

/* u -= dt dphi/dn on the unknown faces of component comp. */
void bsq_correct_comp(struct bsq_state *s, const struct bsq_params *p, int comp, double dt)
{
	const struct bsq_grid *g = &s->g;
	bsq_real *const field[3] = { s->u, s->v, s->w };
	const size_t st[3] = { 1, bsq_sy(g), bsq_sz(g) };
	const double ih[3] = { 1 / g->dx, 1 / g->dy, 1 / g->dz };
	struct row_ctx x;
	int lo[3];
	x.q = field[comp];
	x.a = s->p;
	x.o = st[comp];
	x.dt = (bsq_real)dt;
	x.ih = (bsq_real)ih[comp];
	bsq_first(p, comp, lo);
	bsq_rows_max(g, lo, correct_row, &x);
}

static double div_row(void *vctx, size_t c0, int n)
{
	const struct row_ctx *x = vctx;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++)
		x->q[c] = bsq_poisson_b_at(x->a, x->v, x->w, c, x->sy, x->sz, &x->h, x->dt);
	return 0;
}

/* b = div(u*) / dt. */
void bsq_div_rhs(struct bsq_state *s, double dt)
{
	struct bsq_level *L = &s->lev[0];
	const struct bsq_grid *g = &s->g;
	struct row_ctx x;
	x.q = L->v[BSQ_RHS];
	x.a = s->u;
	x.v = s->v;
	x.w = s->w;
	x.sy = bsq_sy(g);
	x.sz = bsq_sz(g);
	x.h = bsq_h_of(g->dx, g->dy, g->dz);
	x.dt = (bsq_real)dt;
	bsq_rows_max(g, bsq_interior, div_row, &x);
}

/* The projection; the pressure solve stops on max |div u| <= tol, that is
 * max |residual| <= tol / dt (div u = dt (b - lap phi)).  b has its mean
 * removed: every pressure face is Neumann or periodic, so lap is singular
 * and b must be compatible. */
static int project(const struct bsq_ops *o, struct bsq_state *s, const struct bsq_params *p,
	double dt, struct bsq_stats *st)
{
	struct bsq_level *L = &s->lev[0];
	int err, comp;
	o->div_rhs(s, dt);
	o->shift(L, BSQ_RHS, o->mean(L, BSQ_RHS));
	/* The first guess: from the third step on (the first two have one
	 * solved pressure before them at most), the last two extrapolated;
	 * every step records the last one in PREV.  Checkpoints keep PREV. */
	if (p->warm == BSQ_WARM_LINEAR)
		o->extrapolate(L, s->step >= 2 ? dt / s->dt_prev : 0);
	err = bsq_poisson_on(o, s, p, p->tol / dt, s->step == 0 && p->fmg, st);
	o->ghosts(L, BSQ_PHI);
	for (comp = 0; comp < 3; comp++)
		o->correct(s, p, comp, dt);
	o->bc_velocity(&s->g, s->u, s->v, s->w, p);
	o->diag_div(s, &st->div_max, &st->div_l2);
	return err;
}

int bsq_step_on(const struct bsq_ops *o, struct bsq_state *s, const struct bsq_params *p,
	struct bsq_stats *st)
{
	struct bsq_stats local = { 0 };
	int Tkind[BSQ_NFACE], comp, err;
	double dt, r;
	if (!st)
		st = &local;
	*st = local;
	bsq_bc_kinds_T(p, Tkind);
	o->rhs(s, p, s->F);
	dt = step_dt(o, s, p);
	if (!(dt > 0) || !isfinite(dt)) {
		spate_log_error("bsq", "step %ld: time step %g: the flow is not finite", s->step, dt);
		return -SPATE_ENUMERIC;
	}
	if (dt >= 1e300)
		return unbounded(s, p);
	/* First step: forward Euler (r = 0). */
	r = s->step > 0 ? dt / s->dt_prev : 0;
	for (comp = 0; comp < (p->thermal ? 4 : 3); comp++) {
		bsq_real *t = s->F[comp];
		o->predict(s, p, comp, dt, r);
		s->F[comp] = s->Fold[comp];
		s->Fold[comp] = t;
	}
	o->bc_velocity(&s->g, s->u, s->v, s->w, p);
	if (p->thermal)
		o->bc_scalar(&s->g, s->T, Tkind, p->wall_T);
	err = project(o, s, p, dt, st);
	s->t += dt;
	s->dt_prev = dt;
	s->step++;
	st->t = s->t;
	st->dt = dt;
	if (!err && !isfinite(st->div_max)) {
		spate_log_error("bsq", "step %ld: divergence not finite", s->step);
		err = -SPATE_ENUMERIC;
	}
	return err;
}
