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
 * face values themselves. */
#include "bsq_impl.h"

static struct bsq_face6 faces(const bsq_real *const vel[3], size_t c, size_t o, size_t sy,
	size_t sz)
{
	struct bsq_face6 a;
	a.xm = bsq_avg(vel[0][c - o], vel[0][c]);
	a.xp = bsq_avg(vel[0][c - o + 1], vel[0][c + 1]);
	a.ym = bsq_avg(vel[1][c - o], vel[1][c]);
	a.yp = bsq_avg(vel[1][c - o + sy], vel[1][c + sy]);
	a.zm = bsq_avg(vel[2][c - o], vel[2][c]);
	a.zp = bsq_avg(vel[2][c - o + sz], vel[2][c + sz]);
	return a;
}

/* What the rows of one component need. */
struct rhs_ctx {
	const bsq_real *vel[3], *q, *T;
	bsq_real *F;
	size_t o, sy, sz;
	struct bsq_h h;
	bsq_real diffusivity, gbeta, T0;
	int buoyant;
};

static double rhs_row(void *vctx, size_t c0, int n)
{
	const struct rhs_ctx *x = vctx;
	size_t c;
	for (c = c0; c < c0 + (size_t)n; c++) {
		struct bsq_face6 a = faces(x->vel, c, x->o, x->sy, x->sz);
		struct bsq_st7 q = bsq_gather7(x->q, c, x->sy, x->sz);
		bsq_real f = x->buoyant ? bsq_buoyancy(x->gbeta, x->T[c - x->sz], x->T[c], x->T0) : 0;
		x->F[c] = bsq_explicit(&a, &q, &x->h, x->diffusivity, f);
	}
	return 0;
}

/* F of component comp (0..2 velocity, 3 temperature) on its unknowns. */
static void rhs_one(const struct bsq_state *s, const struct bsq_params *p, int comp, bsq_real *F)
{
	const struct bsq_grid *g = &s->g;
	struct rhs_ctx x;
	int lo[3];
	x.vel[0] = s->u;
	x.vel[1] = s->v;
	x.vel[2] = s->w;
	x.q = comp < 3 ? x.vel[comp] : s->T;
	x.T = s->T;
	x.F = F;
	x.sy = bsq_sy(g);
	x.sz = bsq_sz(g);
	x.o = comp == 0 ? 1 : comp == 1 ? x.sy : comp == 2 ? x.sz : 0;
	x.h = bsq_h_of(g->dx, g->dy, g->dz);
	x.diffusivity = (bsq_real)(comp < 3 ? p->nu : p->kappa);
	x.gbeta = (bsq_real)p->gbeta;
	x.T0 = (bsq_real)p->T0;
	x.buoyant = comp == 2 && p->thermal;
	bsq_first(p, comp, lo);
	bsq_rows_max(g, lo, rhs_row, &x);
}

void bsq_rhs(const struct bsq_state *s, const struct bsq_params *p, bsq_real *F[4])
{
	int comp;
	for (comp = 0; comp < (p->thermal ? 4 : 3); comp++)
		rhs_one(s, p, comp, F[comp]);
}
