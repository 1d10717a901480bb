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

/* F of component comp (0..2 velocity, 3 temperature) on its unknowns. */
static void rhs_one(const struct bsq_state *s, const struct bsq_params *p, int comp, bsq_real *F)
{
	const struct bsq_grid *g = &s->g;
	const bsq_real *const vel[3] = { s->u, s->v, s->w };
	const bsq_real *q = comp < 3 ? vel[comp] : s->T;
	const size_t sy = bsq_sy(g), sz = bsq_sz(g);
	const size_t o = comp == 0 ? 1 : comp == 1 ? sy : comp == 2 ? sz : 0;
	const struct bsq_h h = bsq_h_of(g->dx, g->dy, g->dz);
	const bsq_real diffusivity = (bsq_real)(comp < 3 ? p->nu : p->kappa);
	const int buoyant = comp == 2 && p->thermal;
	int lo[3], k;
	bsq_first(p, comp, lo);
#pragma omp parallel for schedule(static) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (k = lo[2]; k <= g->nz; k++) {
		int i, j;
		for (j = lo[1]; j <= g->ny; j++)
			for (i = lo[0]; i <= g->nx; i++) {
				size_t c = bsq_idx(g, i, j, k);
				struct bsq_face6 a = faces(vel, c, o, sy, sz);
				struct bsq_st7 qs = bsq_gather7(q, c, sy, sz);
				bsq_real f = buoyant ? bsq_buoyancy((bsq_real)p->gbeta, s->T[c - sz],
					s->T[c], (bsq_real)p->T0) : 0;
				F[c] = bsq_explicit(&a, &qs, &h, diffusivity, f);
			}
	}
}

void bsq_rhs(const struct bsq_state *s, const struct bsq_params *p, bsq_real *F[4])
{
	int comp;
	for (comp = 0; comp < (p->thermal ? 4 : 3); comp++)
		rhs_one(s, p, comp, F[comp]);
}
