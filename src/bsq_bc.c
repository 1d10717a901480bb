/* bsq_bc.c: ghost cells, one layer, per face (BSQ.md "Boundaries").
 *
 * Velocity: on a wall the normal component on the wall face is 0; a
 * tangential ghost is -interior (no-slip: the average on the wall is 0),
 * 2U - interior (moving lid at U) or +interior (free slip).  Centred fields:
 * fixed value T_w: ghost 2 T_w - interior; insulated and pressure: ghost =
 * interior (homogeneous Neumann).  Periodic: copied from the opposite side
 * (in z, the stand-in for the halo between the first and last slab).
 * A slab's face inside the stack (BSQ_SLAB) is no boundary: its ghost plane
 * is the neighbour's, which the halo exchange moves (bsq_slab.c).
 * Axes are filled in the order x, y, z over the whole extent of the other
 * two (ghosts included), so edges and corners are consistent. */
#include "bsq_impl.h"

/* The ghost (or wall face) values of a along axis d, low face of kind klo
 * (wall value vlo), high face khi (vhi): bsq_fill_line on every line. */
static void fill_axis(const struct bsq_grid *g, bsq_real *a, int d, int klo, double vlo, int khi,
	double vhi)
{
	const struct bsq_axis x = bsq_axis_of(g, d);
	int i1, i2;
	for (i2 = 0; i2 <= x.n2 + 1; i2++)
		for (i1 = 0; i1 <= x.n1 + 1; i1++)
			bsq_fill_line(a, &x, i1, i2, klo, (bsq_real)vlo, khi, (bsq_real)vhi);
}

void bsq_bc_scalar(const struct bsq_grid *g, bsq_real *a, const int kind[BSQ_NFACE],
	const double *val)
{
	int d;
	for (d = 0; d < 3; d++)
		fill_axis(g, a, d, kind[2 * d], val ? val[2 * d] : 0, kind[2 * d + 1],
			val ? val[2 * d + 1] : 0);
}

int bsq_bc_vel_kind(const struct bsq_params *p, int f, int c, double *val)
{
	*val = 0;
	if (p->vel_bc[f] == BSQ_PERIODIC)
		return BSQ_GHOST_PERIODIC;
	if (p->vel_bc[f] == BSQ_SLAB)
		return BSQ_GHOST_HALO;
	if (f / 2 == c)
		return BSQ_GHOST_WALL_FACE;
	if (p->vel_bc[f] == BSQ_FREESLIP)
		return BSQ_GHOST_NEUMANN;
	if (p->vel_bc[f] == BSQ_LID)
		*val = p->lid[f][c];
	return BSQ_GHOST_DIRICHLET;
}

void bsq_bc_velocity(const struct bsq_grid *g, bsq_real *u, bsq_real *v, bsq_real *w,
	const struct bsq_params *p)
{
	bsq_real *const comp[3] = { u, v, w };
	int c, d;
	for (c = 0; c < 3; c++)
		for (d = 0; d < 3; d++) {
			double vlo, vhi;
			int klo = bsq_bc_vel_kind(p, 2 * d, c, &vlo), khi = bsq_bc_vel_kind(p, 2 * d + 1, c, &vhi);
			fill_axis(g, comp[c], d, klo, vlo, khi, vhi);
		}
}

void bsq_bc_kinds_T(const struct bsq_params *p, int kind[BSQ_NFACE])
{
	int f;
	for (f = 0; f < BSQ_NFACE; f++)
		kind[f] = p->vel_bc[f] == BSQ_PERIODIC ? BSQ_GHOST_PERIODIC :
			p->vel_bc[f] == BSQ_SLAB ? BSQ_GHOST_HALO :
			p->temp_bc[f] == BSQ_T_FIXED ? BSQ_GHOST_DIRICHLET : BSQ_GHOST_NEUMANN;
}

void bsq_bc_kinds_p(const struct bsq_params *p, int kind[BSQ_NFACE])
{
	int f;
	for (f = 0; f < BSQ_NFACE; f++)
		kind[f] = p->vel_bc[f] == BSQ_PERIODIC ? BSQ_GHOST_PERIODIC :
			p->vel_bc[f] == BSQ_SLAB ? BSQ_GHOST_HALO : BSQ_GHOST_NEUMANN;
}

void bsq_first(const struct bsq_params *p, int comp, int lo[3])
{
	int d;
	for (d = 0; d < 3; d++)
		lo[d] = d == comp && p->vel_bc[2 * d] != BSQ_PERIODIC && p->vel_bc[2 * d] != BSQ_SLAB ?
			2 : 1;
}
