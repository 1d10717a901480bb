/* bsq_bc.c: ghost cells, one layer, per face (BSQ.md "Boundaries").
 *
 * Velocity: on a wall the normal component on the wall face is 0; a
 * tangential ghost is -interior (no-slip: the average on the wall is 0),
 * 2U - interior (moving lid at U) or +interior (free slip).  Centred fields:
 * fixed value T_w: ghost 2 T_w - interior; insulated and pressure: ghost =
 * interior (homogeneous Neumann).  Periodic: copied from the opposite side
 * (in z, the stand-in for the halo between the first and last slab).
 * Axes are filled in the order x, y, z over the whole extent of the other
 * two (ghosts included), so edges and corners are consistent. */
#include "bsq_impl.h"

/* Internal kind: the normal velocity on the wall face itself is 0. */
#define GHOST_WALL_FACE 3

/* One axis: its stride and size, and those of the two others. */
struct axis {
	size_t s, s1, s2;
	int n, n1, n2;
};

static struct axis axis_of(const struct bsq_grid *g, int d)
{
	const size_t st[3] = { 1, bsq_sy(g), bsq_sz(g) };
	const int n[3] = { g->nx, g->ny, g->nz };
	struct axis a;
	a.s = st[d];
	a.n = n[d];
	a.s1 = st[(d + 1) % 3];
	a.n1 = n[(d + 1) % 3];
	a.s2 = st[(d + 2) % 3];
	a.n2 = n[(d + 2) % 3];
	return a;
}

/* The ghost (or wall face) values of a along axis d, low face of kind klo
 * (wall value vlo), high face khi (vhi). */
static void fill_axis(const struct bsq_grid *g, bsq_real *a, int d, int klo, double vlo, int khi,
	double vhi)
{
	const struct axis x = axis_of(g, d);
	int i1, i2;
	for (i2 = 0; i2 <= x.n2 + 1; i2++)
		for (i1 = 0; i1 <= x.n1 + 1; i1++) {
			size_t b = (size_t)i1 * x.s1 + (size_t)i2 * x.s2;
			size_t lo = b, lo_in = b + x.s, hi_in = b + (size_t)x.n * x.s,
			       hi = b + (size_t)(x.n + 1) * x.s;
			if (klo == BSQ_GHOST_PERIODIC) {
				a[lo] = a[hi_in];
				a[hi] = a[lo_in];
				continue;
			}
			if (klo == GHOST_WALL_FACE)
				a[lo_in] = 0;
			else
				a[lo] = klo == BSQ_GHOST_DIRICHLET ?
					bsq_ghost_dirichlet((bsq_real)vlo, a[lo_in]) : a[lo_in];
			if (khi == GHOST_WALL_FACE)
				a[hi] = 0;
			else
				a[hi] = khi == BSQ_GHOST_DIRICHLET ?
					bsq_ghost_dirichlet((bsq_real)vhi, a[hi_in]) : a[hi_in];
		}
}

void bsq_bc_scalar(const struct bsq_grid *g, bsq_real *a, const int kind[BSQ_NFACE],
	const double *val)
{
	int d;
	for (d = 0; d < 3; d++)
		fill_axis(g, a, d, kind[2 * d], val ? val[2 * d] : 0, kind[2 * d + 1],
			val ? val[2 * d + 1] : 0);
}

/* Ghost kind of velocity component c on face f, and its wall value. */
static int vel_kind(const struct bsq_params *p, int f, int c, double *val)
{
	*val = 0;
	if (p->vel_bc[f] == BSQ_PERIODIC)
		return BSQ_GHOST_PERIODIC;
	if (f / 2 == c)
		return GHOST_WALL_FACE;
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
			int klo = vel_kind(p, 2 * d, c, &vlo), khi = vel_kind(p, 2 * d + 1, c, &vhi);
			fill_axis(g, comp[c], d, klo, vlo, khi, vhi);
		}
}

void bsq_bc_kinds_T(const struct bsq_params *p, int kind[BSQ_NFACE])
{
	int f;
	for (f = 0; f < BSQ_NFACE; f++)
		kind[f] = p->vel_bc[f] == BSQ_PERIODIC ? BSQ_GHOST_PERIODIC :
			p->temp_bc[f] == BSQ_T_FIXED ? BSQ_GHOST_DIRICHLET : BSQ_GHOST_NEUMANN;
}

void bsq_bc_kinds_p(const struct bsq_params *p, int kind[BSQ_NFACE])
{
	int f;
	for (f = 0; f < BSQ_NFACE; f++)
		kind[f] = p->vel_bc[f] == BSQ_PERIODIC ? BSQ_GHOST_PERIODIC : BSQ_GHOST_NEUMANN;
}

void bsq_first(const struct bsq_params *p, int comp, int lo[3])
{
	int d;
	for (d = 0; d < 3; d++)
		lo[d] = d == comp && p->vel_bc[2 * d] != BSQ_PERIODIC ? 2 : 1;
}
