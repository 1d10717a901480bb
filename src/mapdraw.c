/* mapdraw.c: a flood map on a page (mapdraw.h): the page in the orientation
 * that gives the map the most room, the layout (title band above, map frame,
 * side panel with the legend, north arrow and scale bar), and the map
 * itself: one image pixel per cell (or per block of cells on grids too big
 * for the page), the variable's colour over the hillshaded bed, scaled into
 * the frame.  Everything is drawn in points; a PNG is the page at spec->dpi. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>
#include <cairo-pdf.h>

#include "spate.h"
#include "mapdraw_impl.h"
#include "terrain.h"

#define PT_PER_MM (72 / 25.4)
#define MARGIN 10.0         /* page margin, mm */
#define TITLE_BAND 44.0     /* pt */
#define PANEL_W 150.0       /* pt */
#define GAP 12.0            /* pt between map and panel */
#define IMAGE_MAX 4000000.0 /* cells drawn at most; more: blocks of cells */

/* The map frame of a W x H page: the ground's shape fitted in the room left
 * by the margins, the title band and the panel.  Returns its area. */
static double fit(struct map_layout *L, const struct terrain_grid *g, double W, double H)
{
	double m = MARGIN * PT_PER_MM, bw = W - 2 * m - PANEL_W - GAP, bh = H - 2 * m - TITLE_BAND;
	double gw = g->nx * g->dx, gh = g->ny * g->dy, k = fmin(bw / gw, bh / gh);
	L->W = W;
	L->H = H;
	L->mw = gw * k;
	L->mh = gh * k;
	L->mx = m;
	L->my = m + TITLE_BAND + (bh - L->mh) / 2;
	L->px = m + L->mw + GAP;
	L->py = m + TITLE_BAND;
	L->pw = PANEL_W;
	L->metres_per_pt = 1 / k;
	return L->mw * L->mh;
}

/* The range of the colour scale: [0, max] for amounts, symmetric about 0
 * for signed values, [min, max] for levels and the bed. */
static void value_range(const struct spate_map_spec *s, double *lo, double *hi)
{
	const struct terrain_grid *v = s->v;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t c = 0; c < (size_t)v->nx * v->ny; c++)
		if (!isnan(v->v[c])) {
			*lo = fmin(*lo, v->v[c]);
			*hi = fmax(*hi, v->v[c]);
		}
	if (*lo > 0 && strcmp(s->var, "bed") && strcmp(s->var, "w"))
		*lo = 0;
	if (*lo < 0 && *hi > 0) {
		*hi = fmax(-*lo, *hi);
		*lo = -*hi;
	}
	if (!(*lo <= *hi)) {            /* no value at all */
		*lo = 0;
		*hi = 1;
	} else if (*hi == *lo) {        /* one value: at the scale's start */
		*hi = *lo + (*lo ? fabs(*lo) : 1);
	}
}

/* The colour of one cell as 0x00RRGGBB: its class or scale colour (shaded
 * a little by the bed), else the grey of the hillshade. */
static uint32_t cell_colour(const struct spate_map_spec *s, const struct map_layout *L, int i,
	int j)
{
	const struct terrain_grid *v = s->v;
	const struct terrain_grid *b = s->bed && s->bed->nx == v->nx && s->bed->ny == v->ny ?
		s->bed : NULL;
	double val = v->v[(size_t)j * v->nx + i], sh = b ? spate_map_shade(b, i, j) : 0.8, f = 1;
	unsigned char c[3];
	int k = -1, n = 0;
	if (!isnan(val) && s->nclasses) {
		for (int q = 0; q < s->nclasses && k < 0; q++)
			if (fabs(val - s->class_value[q]) < 1e-6)
				k = map_class_rank(s, q, &n);
		if (k >= 0)
			spate_map_class_colour(k, n, c);
	} else if (!isnan(val)) {
		spate_map_ramp(s->var, L->lo, L->hi, L->hi > L->lo ? (val - L->lo) / (L->hi - L->lo) :
			1, c);
		f = 0.78 + 0.22 * sh;
		k = 0;
	}
	if (k < 0)
		c[0] = c[1] = c[2] = (unsigned char)lround(80 + 160 * sh);
	return (uint32_t)lround(c[0] * f) << 16 | (uint32_t)lround(c[1] * f) << 8 |
		(uint32_t)lround(c[2] * f);
}

/* The map as an image, one pixel per block of `step` x `step` cells (the
 * block's centre cell), row 0 at the north; NULL without memory. */
static cairo_surface_t *map_image(const struct spate_map_spec *s, const struct map_layout *L,
	int step)
{
	const struct terrain_grid *v = s->v;
	int w = (v->nx + step - 1) / step, h = (v->ny + step - 1) / step;
	cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	unsigned char *data;
	int stride;
	if (cairo_surface_status(im) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(im);
		return NULL;
	}
	cairo_surface_flush(im);
	data = cairo_image_surface_get_data(im);
	stride = cairo_image_surface_get_stride(im);
	for (int r = 0; r < h; r++) {
		uint32_t *row = (uint32_t *)(data + (size_t)r * stride);
		int j = v->ny - 1 - (r * step + step / 2 < v->ny ? r * step + step / 2 : v->ny - 1);
		for (int q = 0; q < w; q++) {
			int i = q * step + step / 2 < v->nx ? q * step + step / 2 : v->nx - 1;
			row[q] = cell_colour(s, L, i, j);
		}
	}
	cairo_surface_mark_dirty(im);
	return im;
}

/* The map into its frame, with a thin frame line.  Returns 0 or
 * -SPATE_ENOMEM. */
static int draw_map(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s)
{
	double cells = (double)s->v->nx * s->v->ny;
	int step = cells > IMAGE_MAX ? (int)ceil(sqrt(cells / IMAGE_MAX)) : 1;
	cairo_surface_t *im = map_image(s, L, step);
	cairo_pattern_t *p;
	double pix = L->mw / s->v->nx * step * s->dpi / 72;   /* PNG pixels per image pixel */
	if (!im)
		return -SPATE_ENOMEM;
	cairo_save(cr);
	cairo_rectangle(cr, L->mx, L->my, L->mw, L->mh);
	cairo_clip(cr);
	cairo_translate(cr, L->mx, L->my);
	cairo_scale(cr, L->mw / cairo_image_surface_get_width(im),
		L->mh / cairo_image_surface_get_height(im));
	cairo_set_source_surface(cr, im, 0, 0);
	p = cairo_get_source(cr);
	cairo_pattern_set_filter(p, s->format == SPATE_MAP_PDF || pix >= 1 ? CAIRO_FILTER_NEAREST :
		CAIRO_FILTER_GOOD);
	cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD);
	cairo_paint(cr);
	cairo_restore(cr);
	cairo_surface_destroy(im);
	map_extent(cr, L, s);
	map_gauges(cr, L, s);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 0.8);
	cairo_rectangle(cr, L->mx, L->my, L->mw, L->mh);
	cairo_stroke(cr);
	return 0;
}

static int page(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s)
{
	int rc;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	if ((rc = draw_map(cr, L, s)))
		return rc;
	map_title(cr, L, s);
	map_north_and_scale(cr, L, map_legend(cr, L, s));
	if (s->footer) {
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		map_text(cr, L->mx, L->H - MARGIN * PT_PER_MM / 2, MAP_PT_SMALL, 0, s->footer);
	}
	return 0;
}

int spate_map_draw(const char *path, const struct spate_map_spec *s, struct spate_map_frame *fr)
{
	struct map_layout L, land;
	cairo_surface_t *sf;
	cairo_t *cr;
	double k = s->format == SPATE_MAP_PNG ? s->dpi / 72 : 1;
	cairo_status_t st;
	int rc;
	/* portrait, or landscape when that gives the map more room */
	if (fit(&land, s->v, s->page_h * PT_PER_MM, s->page_w * PT_PER_MM) >
		fit(&L, s->v, s->page_w * PT_PER_MM, s->page_h * PT_PER_MM))
		L = land;
	value_range(s, &L.lo, &L.hi);
	if (s->format == SPATE_MAP_PDF)
		sf = cairo_pdf_surface_create(path, L.W, L.H);
	else
		sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)lround(L.W * k),
			(int)lround(L.H * k));
	cr = cairo_create(sf);
	cairo_scale(cr, k, k);
	rc = page(cr, &L, s);
	cairo_destroy(cr);
	if (!rc && s->format == SPATE_MAP_PNG)
		st = cairo_surface_write_to_png(sf, path);
	else {
		cairo_surface_finish(sf);
		st = cairo_surface_status(sf);
	}
	if (fr) {
		*fr = (struct spate_map_frame){ L.mx * k, L.my * k, L.mw * k, L.mh * k,
			(int)lround(L.W * k), (int)lround(L.H * k), L.metres_per_pt * 72 / 0.0254 };
	}
	cairo_surface_destroy(sf);
	if (!rc && st != CAIRO_STATUS_SUCCESS) {
		spate_log_error("map", "%s: cannot write it (%s): check that its folder exists and "
			"can be written", path, cairo_status_to_string(st));
		rc = -SPATE_EIO;
	}
	return rc;
}
