/* swe_bc.c: host loops over the ghost cells (boundary conditions). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "spate.h"
#include "swe.h"
#include "swe_bc.h"
#include "setup.h"
#include "swe_step.h"

void swe_bcdev_fill(struct swe_bcdev *d, const struct swe_state *s, const struct swe_params *p)
{
	int k;
	for (k = 0; k < 4; k++) {
		const struct swe_bc *b = &p->bc[k];
		double width = k < 2 ? s->ny * s->dy : s->nx * s->dx;
		d->kind[k] = b->kind;
		d->value[k] = b->kind == SWE_BC_LEVEL ? (real)(b->level - s->bref) : 0;
		d->n[k] = b->n;
		/* [boundary] inflow_scale multiplies every hydrograph (1: as given) */
		d->scale[k] = (b->total ? 1.0 / width : 1.0) * p->inflow_scale;
	}
}

/* The value a side's kernel needs at time t (level, or inflow per unit width). */
static real side_value(const struct swe_bcdev *b, const struct swe_params *p, int side, double t)
{
	if (b->kind[side] == SWE_BC_INFLOW)
		return (real)(swe_hydrograph(p->bc[side].t, p->bc[side].q, b->n[side], t) *
			b->scale[side]);
	return b->value[side];
}

void swe_bc_fill(struct swe_view *v, const struct swe_bcdev *b, const struct swe_params *p,
	double t)
{
	swe_bc_fill_sides(v, b, p, t, 0xfu);
}

void swe_bc_fill_sides(struct swe_view *v, const struct swe_bcdev *b, const struct swe_params *p,
	double t, unsigned sides)
{
	int side;
	real g = (real)p->g;
	for (side = 0; side < 4; side++) {
		if (!(sides & 1u << side))
			continue;
		int len = side < 2 ? v->ny : v->nx, kind = b->kind[side];
		real value = side_value(b, p, side, t);
		for (int layer = 0; layer < SWE_GHOST; layer++)
			for (int m = 0; m < len; m++)
				swe_bc_cell(v, side, kind, value, g, layer, m);
	}
}

void swe_bc_fill_rate(const struct swe_view *v, const struct swe_bcdev *b, real *Lw, real *Lhu,
	real *Lhv)
{
	swe_bc_fill_rate_sides(v, b, Lw, Lhu, Lhv, 0xfu);
}

void swe_bc_fill_rate_sides(const struct swe_view *v, const struct swe_bcdev *b, real *Lw,
	real *Lhu, real *Lhv, unsigned sides)
{
	int side;
	for (side = 0; side < 4; side++) {
		if (!(sides & 1u << side))
			continue;
		int len = side < 2 ? v->ny : v->nx;
		for (int layer = 0; layer < SWE_GHOST; layer++)
			for (int m = 0; m < len; m++)
				swe_bc_cell_rate(v, Lw, Lhu, Lhv, side, b->kind[side], layer, m);
	}
}
