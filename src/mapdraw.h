/* mapdraw.h: a flood map for people, drawn with Cairo on a printed page
 * (A4 or A3, PNG at a given resolution or PDF): the variable in a colour
 * scale, or its classes in discrete colours, over the hillshaded bed; the
 * flood-extent outline; gauges with their names; a legend with units; a
 * scale bar in round metres or kilometres; a north arrow; a title.
 * Drawing is in mapdraw.c (page, layout, raster), mapdeco.c (legend, scale
 * bar, north arrow, title, gauges) and mapline.c (extent outline); colours
 * and ticks in mapcolour.c.  Built only with Cairo (HAVE_CAIRO). */
#ifndef SPATE_MAPDRAW_H
#define SPATE_MAPDRAW_H

struct terrain_grid;

enum spate_map_format { SPATE_MAP_PNG, SPATE_MAP_PDF };

/* What to draw.  v, and bed and depth when not NULL, share one grid
 * (v->nx x v->ny cells of v->dx x v->dy, row 0 at the south); NAN: no
 * value. */
struct spate_map_spec {
	const struct terrain_grid *v;
	const struct terrain_grid *bed;     /* hillshade; NULL: flat grey */
	const struct terrain_grid *depth;   /* extent outline; NULL: none */
	double extent;                      /* outline at depth = extent, m */
	const char *var, *units, *label;    /* name, units, legend heading */
	const char *title, *subtitle, *footer;
	int nclasses;                       /* 0: a colour scale; else classes */
	const double *class_value;          /* (CF flag_values, flag_meanings) */
	const char (*class_meaning)[48];
	int ngauges;
	const double *gauge_x, *gauge_y;    /* m, in the grid's coordinates */
	const char (*gauge_name)[64];
	enum spate_map_format format;
	double page_w, page_h;              /* mm, portrait (A4: 210 x 297) */
	double dpi;                         /* PNG pixels per inch */
};

/* Where the map went on the page: its frame in pixels (PNG) or points
 * (PDF) from the top left, the picture's size in the same units, and the
 * printed scale 1 : scale. */
struct spate_map_frame {
	double x, y, w, h;
	int width, height;
	double scale;
};

/* Draw spec into the file at path (PNG or PDF, spec->format); fills fr when
 * not NULL.  Returns 0 or -SPATE_EIO / -SPATE_ENOMEM after a message. */
int spate_map_draw(const char *path, const struct spate_map_spec *spec,
	struct spate_map_frame *fr);

/* The colour of class k (0 .. n-1, from the least to the most severe) of a
 * scheme of n classes: green through yellow and orange to dark red. */
void spate_map_class_colour(int k, int n, unsigned char rgb[3]);

/* The colour at t (0 .. 1) of the scale of variable var over [lo, hi]
 * (blues for depths and speeds, yellow to red for hazard and times, blue-
 * white-red for signed values, greens to browns for the bed). */
void spate_map_ramp(const char *var, double lo, double hi, double t, unsigned char rgb[3]);

/* Round ticks in [lo, hi]: the first, the step (1, 2 or 5 x 10^k) and the
 * count, about `about` of them. */
void spate_map_ticks(double lo, double hi, int about, double *first, double *step, int *n);

/* Hillshade of bed at cell (i, j): 0 .. 1 (0.8 where the slope is unknown). */
double spate_map_shade(const struct terrain_grid *bed, int i, int j);

#endif
