/* mapcolour.c: what every drawing file of a flood map uses (mapdraw.h,
 * mapdraw_impl.h): colour scales, class colours, round ticks, the
 * hillshade, ground to page coordinates and text. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <string.h>
#include <cairo.h>

#include "mapdraw_impl.h"
#include "terrain.h"

/* Colour scales: five stops from t = 0 to 1, linear between. */
enum { RAMP_DEPTH, RAMP_TIME, RAMP_HAZARD, RAMP_SIGNED, RAMP_TERRAIN, NRAMP };
static const unsigned char ramps[NRAMP][5][3] = {
	{ { 198, 224, 246 }, { 120, 180, 226 }, { 48, 124, 196 }, { 16, 74, 160 }, { 8, 30, 100 } },
	{ { 252, 236, 140 }, { 246, 176, 72 }, { 226, 104, 44 }, { 176, 40, 50 }, { 96, 14, 64 } },
	{ { 250, 224, 150 }, { 244, 150, 80 }, { 214, 60, 50 }, { 150, 16, 40 }, { 70, 0, 30 } },
	{ { 30, 80, 170 }, { 130, 176, 222 }, { 246, 246, 246 }, { 232, 140, 110 }, { 170, 30, 40 } },
	{ { 60, 120, 70 }, { 150, 180, 100 }, { 220, 200, 140 }, { 170, 120, 80 }, { 245, 245, 245 } },
};

/* Classes, least to most severe: green, yellow-green, yellow, orange, red,
 * dark red; a scheme of n classes takes n colours spread over these. */
static const unsigned char class_stops[6][3] = {
	{ 40, 160, 70 }, { 166, 217, 106 }, { 255, 224, 70 }, { 253, 150, 40 }, { 215, 40, 35 },
	{ 110, 0, 40 } };

static void blend(const unsigned char (*stops)[3], int nstop, double t, unsigned char *c)
{
	double u = fmin(fmax(t, 0), 1) * (nstop - 1);
	int i = u >= nstop - 1 ? nstop - 2 : (int)u;
	double f = u - i;
	for (int q = 0; q < 3; q++)
		c[q] = (unsigned char)lround(stops[i][q] * (1 - f) + stops[i + 1][q] * f);
}

void spate_map_class_colour(int k, int n, unsigned char rgb[3])
{
	blend(class_stops, 6, n > 1 ? (double)k / (n - 1) : 0.5, rgb);
}

void spate_map_ramp(const char *var, double lo, double hi, double t, unsigned char rgb[3])
{
	int k;
	if (!strcmp(var, "bed"))
		k = RAMP_TERRAIN;
	else if (strstr(var, "hazard"))
		k = RAMP_HAZARD;
	else if (strstr(var, "time") || strstr(var, "duration"))
		k = RAMP_TIME;
	else
		k = lo < 0 && hi > 0 ? RAMP_SIGNED : RAMP_DEPTH;
	blend(ramps[k], 5, t, rgb);
}

void spate_map_ticks(double lo, double hi, int about, double *first, double *step, int *n)
{
	double raw = (hi - lo) / (about > 1 ? about : 1), mag, f;
	if (!(raw > 0) || !isfinite(raw)) {
		*first = lo;
		*step = 1;
		*n = 1;
		return;
	}
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	*step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
	*first = ceil(lo / *step - 1e-9) * *step;
	*n = (int)floor((hi - *first) / *step + 1e-9) + 1;
}

/* Lambert shading with light from the north-west, 45 degrees up:
 * shade = N . L, N = (-dz/dx, -dz/dy, 1) / |.| by central differences. */
double spate_map_shade(const struct terrain_grid *b, int i, int j)
{
	const double az = 315 * M_PI / 180, alt = 45 * M_PI / 180;
	double L[3] = { sin(az) * cos(alt), cos(az) * cos(alt), sin(alt) }, p, q, n;
	int i0 = i > 0 ? i - 1 : i, i1 = i + 1 < b->nx ? i + 1 : i;
	int j0 = j > 0 ? j - 1 : j, j1 = j + 1 < b->ny ? j + 1 : j;
	const double *v = b->v;
	if (isnan(v[(size_t)j * b->nx + i0]) || isnan(v[(size_t)j * b->nx + i1]) ||
		isnan(v[(size_t)j0 * b->nx + i]) || isnan(v[(size_t)j1 * b->nx + i]) || i0 == i1 ||
		j0 == j1)
		return 0.8;
	p = (v[(size_t)j * b->nx + i1] - v[(size_t)j * b->nx + i0]) / ((i1 - i0) * b->dx);
	q = (v[(size_t)j1 * b->nx + i] - v[(size_t)j0 * b->nx + i]) / ((j1 - j0) * b->dy);
	n = sqrt(1 + p * p + q * q);
	return fmax(0, (-p * L[0] - q * L[1] + L[2]) / n);
}

/* A class that means no flood ("dry", "none", "no_hazard", "not_flooded"):
 * drawn as land and left out of the legend. */
static int no_flood(const char *m)
{
	return !strcmp(m, "no") || !strncmp(m, "no_", 3) || !strncmp(m, "not_", 4) ||
		strstr(m, "dry") || strstr(m, "none");
}

int map_class_rank(const struct spate_map_spec *s, int k, int *nshown)
{
	int r = -1, n = 0;
	for (int q = 0; q < s->nclasses; q++)
		if (!no_flood(s->class_meaning[q])) {
			if (q == k)
				r = n;
			n++;
		}
	if (nshown)
		*nshown = n;
	return r;
}

void map_to_page(const struct map_layout *L, const struct terrain_grid *g, double x, double y,
	double *px, double *py)
{
	*px = L->mx + (x - g->x0) / (g->nx * g->dx) * L->mw;
	*py = L->my + (g->y0 + g->ny * g->dy - y) / (g->ny * g->dy) * L->mh;
}

double map_text(cairo_t *cr, double x, double y, double size, int bold, const char *s)
{
	cairo_text_extents_t e;
	cairo_select_font_face(cr, MAP_FONT, CAIRO_FONT_SLANT_NORMAL,
		bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}
