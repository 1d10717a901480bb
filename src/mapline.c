/* mapline.c: the flood-extent outline of a map (mapdraw_impl.h): the
 * contour depth = extent by marching squares over the cell centres, each
 * crossing placed by linear interpolation along the square's edge.  Cells
 * outside the grid, masked or without a value count as dry, so the outline
 * closes at the grid's edge.  A saddle (two opposite corners wet) is split
 * by the mean of its four corners: wet mean, the wet corners join. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>

#include "mapdraw_impl.h"
#include "terrain.h"

/* depth - extent at cell (i, j); -extent outside the grid or on no value. */
static double level(const struct terrain_grid *d, double extent, int i, int j)
{
	double v;
	if (i < 0 || j < 0 || i >= d->nx || j >= d->ny)
		return -extent;
	v = d->v[(size_t)j * d->nx + i];
	return isnan(v) ? -extent : v - extent;
}

/* The crossing on edge e (0 south, 1 east, 2 north, 3 west) of the square
 * whose corners (0 SW, 1 SE, 2 NE, 3 NW) hold f, in cell units from the SW
 * corner's cell centre. */
static void crossing(const double *f, int e, double *x, double *y)
{
	static const int a[4] = { 0, 1, 2, 3 }, b[4] = { 1, 2, 3, 0 };
	static const double cx[4] = { 0, 1, 1, 0 }, cy[4] = { 0, 0, 1, 1 };
	double t = f[a[e]] / (f[a[e]] - f[b[e]]);
	*x = cx[a[e]] + t * (cx[b[e]] - cx[a[e]]);
	*y = cy[a[e]] + t * (cy[b[e]] - cy[a[e]]);
}

static void segment(cairo_t *cr, const struct map_layout *L, const struct terrain_grid *d,
	const double *f, int i, int j, int e0, int e1)
{
	double x, y, px, py;
	crossing(f, e0, &x, &y);
	map_to_page(L, d, d->x0 + (i + x + 0.5) * d->dx, d->y0 + (j + y + 0.5) * d->dy, &px, &py);
	cairo_move_to(cr, px, py);
	crossing(f, e1, &x, &y);
	map_to_page(L, d, d->x0 + (i + x + 0.5) * d->dx, d->y0 + (j + y + 0.5) * d->dy, &px, &py);
	cairo_line_to(cr, px, py);
}

/* The segments of the square with SW corner cell (i, j). */
static void square(cairo_t *cr, const struct map_layout *L, const struct terrain_grid *d,
	double extent, int i, int j)
{
	double f[4] = { level(d, extent, i, j), level(d, extent, i + 1, j),
		level(d, extent, i + 1, j + 1), level(d, extent, i, j + 1) };
	int in[4], e[4], n = 0;
	for (int k = 0; k < 4; k++)
		in[k] = f[k] >= 0;
	for (int k = 0; k < 4; k++)
		if (in[k] != in[(k + 1) % 4])
			e[n++] = k;
	if (n == 2) {
		segment(cr, L, d, f, i, j, e[0], e[1]);
	} else if (n == 4) {
		/* a saddle: cut off the two dry corners (wet mean) or the two wet ones;
		 * corner k lies between edges k - 1 and k */
		int wet_mean = f[0] + f[1] + f[2] + f[3] >= 0, c = in[0] == wet_mean ? 1 : 0;
		segment(cr, L, d, f, i, j, (c + 3) % 4, c);
		segment(cr, L, d, f, i, j, (c + 1) % 4, c + 2);
	}
}

void map_extent(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s)
{
	const struct terrain_grid *d = s->depth;
	if (!d || d->nx != s->v->nx || d->ny != s->v->ny || !(s->extent > 0))
		return;
	cairo_save(cr);
	cairo_rectangle(cr, L->mx, L->my, L->mw, L->mh);
	cairo_clip(cr);
	cairo_new_path(cr);
	for (int j = -1; j < d->ny; j++)
		for (int i = -1; i < d->nx; i++)
			square(cr, L, d, s->extent, i, j);
	cairo_set_source_rgb(cr, 0.05, 0.1, 0.4);
	cairo_set_line_width(cr, 1.0);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_stroke(cr);
	cairo_restore(cr);
}
