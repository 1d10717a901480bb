/* mapdraw.h: a flood map as an RGB picture for people: the variable in a
 * colour scale over the hillshaded bed, a legend bar with tick labels and a
 * title, drawn with a small built-in bitmap font.  Pure C; written to PNG
 * by terrain/map.c. */
#ifndef SPATE_MAPDRAW_H
#define SPATE_MAPDRAW_H

struct terrain_grid;

struct spate_image {
	int w, h;
	unsigned char *rgb;     /* w * h * 3 bytes, row 0 at the top (north) */
};

/* Size in pixels of the picture of an nx x ny grid of dx x dy cells: the
 * map fitted in 800 x 800 pixels keeping its shape, a title band above and
 * a legend band to the right. */
void spate_map_size(int nx, int ny, double dx, double dy, int *w, int *h);

/* Draw variable v (NAN: no value; the colours depend on its name var and
 * units) over the hillshade of bed (or NULL) into img (free img->rgb), with
 * the title.  Returns 0 or -SPATE_ENOMEM. */
int spate_map_render(const struct terrain_grid *v, const struct terrain_grid *bed,
	const char *var, const char *units, const char *title, struct spate_image *img);

#endif
