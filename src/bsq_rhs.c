/* bsq_rhs.c: the explicit terms F = -advection + diffusion + buoyancy of
 * u, v, w and T (BSQ.md "Advection", "Time stepping") at every unknown.
 *
 * A face velocity's control volume is centred on its face; its own faces lie
 * at the neighbouring centres (normal direction) or on the cell edges
 * (tangential), where the advecting velocity is the two-point average of the
 * two faces it sits between (Harlow & Welch 1965).  With the offset o of the
 * component (1, sy, sz; 0 for T at a centre), the velocity on the low face
 * of direction d is avg(vel_d[c - o], vel_d[c]) and on the high face
 * avg(vel_d[c - o + s_d], vel_d[c + s_d]); for T (o = 0) both reduce to the
 * face values themselves (bsq_faces_at, bsq_rhs_at in bsq_impl.h). */
#include "bsq_impl.h"

/* What the rows of one component need. */
struct rhs_ctx {
	struct bsq_rhs_args a;
	bsq_real *F;
};

static double rhs_row(void *vctx, size_t c0, int n)
{
	const struct rhs_ctx *x = vctx;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++)
		x->F[c] = bsq_rhs_at(&x->a, c);
	return 0;
}

struct bsq_rhs_args bsq_rhs_args_of(const struct bsq_state *s, const struct bsq_params *p,
	int comp)
{
	const struct bsq_grid *g = &s->g;
	struct bsq_rhs_args x;
	x.u = s->u;
	x.v = s->v;
	x.w = s->w;
	x.q = comp == 0 ? s->u : comp == 1 ? s->v : comp == 2 ? s->w : s->T;
	x.T = s->T;
	x.sy = bsq_sy(g);
	x.sz = bsq_sz(g);
	x.o = comp == 0 ? 1 : comp == 1 ? x.sy : comp == 2 ? x.sz : 0;
	x.h = bsq_h_of(g->dx, g->dy, g->dz);
	x.diffusivity = (bsq_real)(comp < 3 ? p->nu : p->kappa);
	x.gbeta = (bsq_real)p->gbeta;
	x.T0 = (bsq_real)p->T0;
	x.buoyant = comp == 2 && p->thermal;
	return x;
}

/* F of component comp (0..2 velocity, 3 temperature) on its unknowns. */
static void rhs_one(const struct bsq_state *s, const struct bsq_params *p, int comp, bsq_real *F)
{
	struct rhs_ctx x;
	int lo[3];
	x.a = bsq_rhs_args_of(s, p, comp);
	x.F = F;
	bsq_first(p, comp, lo);
	bsq_rows_max(&s->g, lo, rhs_row, &x);
}

void bsq_rhs(const struct bsq_state *s, const struct bsq_params *p, bsq_real *F[4])
{
	int comp;
	for (comp = 0; comp < (p->thermal ? 4 : 3); comp++)
		rhs_one(s, p, comp, F[comp]);
}
