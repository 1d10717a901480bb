/* mapdraw_impl.h: what the drawing files of a flood map (mapdraw.c,
 * mapdeco.c, mapline.c, mapcolour.c) share: the page layout, in points
 * (1/72 inch) from the page's top left.  Calls go one way: mapdraw.c ->
 * mapdeco.c, mapline.c -> mapcolour.c. */
#ifndef SPATE_MAPDRAW_IMPL_H
#define SPATE_MAPDRAW_IMPL_H

#include <cairo.h>

#include "mapdraw.h"

/* Type sizes, pt: readable on paper at arm's length. */
#define MAP_PT_TITLE 16.0
#define MAP_PT_TEXT 9.5
#define MAP_PT_SMALL 7.0
#define MAP_FONT "sans-serif"

struct map_layout {
	double W, H;            /* page */
	double mx, my, mw, mh;  /* map frame */
	double px, py, pw;      /* side panel: left, top, width */
	double metres_per_pt;   /* ground metres per point of paper */
	double lo, hi;          /* range of the colour scale */
};

/* mapcolour.c: page coordinates of the ground point (x, y) of grid g. */
void map_to_page(const struct map_layout *L, const struct terrain_grid *g, double x, double y,
	double *px, double *py);

/* mapcolour.c: text at (x, y) (baseline left), size pt, bold or not;
 * returns its width. */
double map_text(cairo_t *cr, double x, double y, double size, int bold, const char *s);

/* mapcolour.c: the rank of class k among the classes that are drawn (those
 * that do not mean "no flood"), -1 for one that is not; *nshown (if not
 * NULL) their number. */
int map_class_rank(const struct spate_map_spec *s, int k, int *nshown);

/* mapdeco.c: the title band; the legend of the panel from its top, returning
 * the y below it; the north arrow and scale bar from y; the gauges. */
void map_title(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s);
double map_legend(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s);
void map_north_and_scale(cairo_t *cr, const struct map_layout *L, double y);
void map_gauges(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s);

/* mapline.c: the outline of depth >= s->extent (marching squares). */
void map_extent(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s);

#endif
