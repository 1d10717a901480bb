/* mapdraw.c: flood maps as pictures (mapdraw.h).  The bed is hillshaded
 * (light from the north-west, 45 degrees up: shade = N . L with the surface
 * normal N = (-dz/dx, -dz/dy, 1) / |.|); the variable is coloured over it
 * where it has a value; a legend bar with "nice" ticks (1, 2 or 5 x 10^k)
 * and the title are written with a 5 x 7 bitmap font. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "mapdraw.h"
#include "terrain.h"

#define MAP_BOX 800     /* the map fits in MAP_BOX x MAP_BOX pixels */
#define MARGIN 12
#define TITLE_H 44
#define LEGEND_W 150
#define MIN_H 300

/* The font: 7 rows of 5 columns per glyph, '#' lit.  Upper case is drawn
 * as lower case. */
struct glyph {
	char c;
	const char *rows;   /* 35 characters */
};

static const struct glyph font[] = {
	{ '0', ".###.#...##..###.#.###..##...#.###." },
	{ '1', "..#...##....#....#....#....#...###." },
	{ '2', ".###.#...#....#...#...#...#...#####" },
	{ '3', "####.....#....#.###.....#....#####." },
	{ '4', "...#...##..#.#.#..#.#####...#....#." },
	{ '5', "######....####.....#....##...#.###." },
	{ '6', "..##..#...#....####.#...##...#.###." },
	{ '7', "#####....#...#...#...#....#....#..." },
	{ '8', ".###.#...##...#.###.#...##...#.###." },
	{ '9', ".###.#...##...#.####....#...#..##.." },
	{ '.', "..........................##...##.." },
	{ ',', ".....................##....#...#..." },
	{ '-', "...............#####..............." },
	{ '+', ".......#....#..#####..#....#......." },
	{ '_', "..............................#####" },
	{ '(', "...#...#...#....#....#.....#.....#." },
	{ ')', ".#.....#.....#....#....#...#...#..." },
	{ ':', "......##...##........##...##......." },
	{ '=', "..........#####.....#####.........." },
	{ '/', "....#....#...#...#...#...#....#...." },
	{ 'a', "...........###.....#.#####...#.####" },
	{ 'b', "#....#....####.#...##...##...#####." },
	{ 'c', "...........#####....#....#.....####" },
	{ 'd', "....#....#.#####...##...##...#.####" },
	{ 'e', "...........###.#...#######.....###." },
	{ 'f', "..##..#...####..#....#....#....#..." },
	{ 'g', "......#####...##...#.####....#.###." },
	{ 'h', "#....#....####.#...##...##...##...#" },
	{ 'i', "..#........##....#....#....#...###." },
	{ 'j', "...#........##....#....#.#..#..##.." },
	{ 'k', "#....#....#..#.#.#..##...#.#..#..#." },
	{ 'l', ".##....#....#....#....#....#...###." },
	{ 'm', "..........##.#.#.#.##.#.##.#.##.#.#" },
	{ 'n', "..........####.#...##...##...##...#" },
	{ 'o', "...........###.#...##...##...#.###." },
	{ 'p', ".....####.#...##...#####.#....#...." },
	{ 'q', "......#####...##...#.####....#....#" },
	{ 'r', "..........#.##.##...#....#....#...." },
	{ 's', "...........#####.....###.....#####." },
	{ 't', ".#....#...####..#....#....#..#..##." },
	{ 'u', "..........#...##...##...##...#.####" },
	{ 'v', "..........#...##...##...#.#.#...#.." },
	{ 'w', "..........#...##.#.##.#.##.#.#.#.#." },
	{ 'x', "..........#...#.#.#...#...#.#.#...#" },
	{ 'y', ".....#...##...##...#.####....#.###." },
	{ 'z', "..........#####...#...#...#...#####" },
};

static const char *glyph_rows(char c)
{
	c = (char)tolower((unsigned char)c);
	for (size_t k = 0; k < sizeof font / sizeof font[0]; k++)
		if (font[k].c == c)
			return font[k].rows;
	return NULL;    /* space, or a character the font has not */
}

static void put(struct spate_image *im, int x, int y, const unsigned char *c)
{
	if (x < 0 || y < 0 || x >= im->w || y >= im->h)
		return;
	memcpy(im->rgb + 3 * ((size_t)y * im->w + x), c, 3);
}

/* Text at (x, y) (top left), each font pixel s x s; returns its width. */
static int text(struct spate_image *im, int x, int y, int s, const char *str,
	const unsigned char *c)
{
	int x0 = x;
	for (; *str; str++, x += 6 * s) {
		const char *g = glyph_rows(*str);
		for (int r = 0; g && r < 7; r++)
			for (int q = 0; q < 5; q++)
				if (g[5 * r + q] == '#')
					for (int dy = 0; dy < s; dy++)
						for (int dx = 0; dx < s; dx++)
							put(im, x + q * s + dx, y + r * s + dy, c);
	}
	return x - x0;
}

void spate_map_size(int nx, int ny, double dx, double dy, int *w, int *h)
{
	double sc = fmin(MAP_BOX / (nx * dx), MAP_BOX / (ny * dy));
	int mw = (int)lround(nx * dx * sc), mh = (int)lround(ny * dy * sc);
	mw = mw < 1 ? 1 : mw;
	mh = mh < 1 ? 1 : mh;
	*w = MARGIN + mw + LEGEND_W;
	*h = TITLE_H + mh + MARGIN;
	if (*h < MIN_H)
		*h = MIN_H;
}

/* Colour scales: stops from t = 0 to 1, linear between. */
enum { RAMP_DEPTH, RAMP_TIME, RAMP_HAZARD, RAMP_SIGNED, RAMP_TERRAIN };
static const unsigned char ramps[5][5][3] = {
	{ { 214, 232, 246 }, { 140, 192, 226 }, { 60, 135, 196 }, { 16, 80, 160 }, { 6, 30, 92 } },
	{ { 252, 236, 140 }, { 246, 176, 72 }, { 226, 104, 44 }, { 176, 40, 50 }, { 96, 14, 64 } },
	{ { 250, 224, 150 }, { 244, 150, 80 }, { 214, 60, 50 }, { 150, 16, 40 }, { 70, 0, 30 } },
	{ { 30, 80, 170 }, { 130, 176, 222 }, { 246, 246, 246 }, { 232, 140, 110 }, { 170, 30, 40 } },
	{ { 60, 120, 70 }, { 150, 180, 100 }, { 220, 200, 140 }, { 170, 120, 80 }, { 245, 245, 245 } },
};

static void ramp(int k, double t, unsigned char *c)
{
	double u = fmin(fmax(t, 0), 1) * 4;
	int i = u >= 4 ? 3 : (int)u;
	double f = u - i;
	for (int q = 0; q < 3; q++)
		c[q] = (unsigned char)lround(ramps[k][i][q] * (1 - f) + ramps[k][i + 1][q] * f);
}

static int ramp_of(const char *var, double lo, double hi)
{
	if (!strcmp(var, "bed"))
		return RAMP_TERRAIN;
	if (!strcmp(var, "max_hazard"))
		return RAMP_HAZARD;
	if (strstr(var, "time") || strstr(var, "duration"))
		return RAMP_TIME;
	return lo < 0 && hi > 0 ? RAMP_SIGNED : RAMP_DEPTH;
}

/* Hillshade of the bed at cell (i, j), 0..1 (0.8 without a bed). */
static double shade(const struct terrain_grid *b, int i, int j)
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

/* The range of the values, and nice ticks in it: first, step, count. */
static void ticks(double lo, double hi, double *first, double *step, int *n)
{
	double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;
	*step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
	*first = ceil(lo / *step - 1e-9) * *step;
	*n = (int)floor((hi - *first) / *step + 1e-9) + 1;
}

static void legend(struct spate_image *im, int k, double lo, double hi, const char *units)
{
	static const unsigned char ink[3] = { 20, 20, 20 };
	int x = im->w - LEGEND_W + 16, y0 = TITLE_H + 24, y1 = im->h - MARGIN - 10, n;
	double first, step;
	char lab[32];
	text(im, x, TITLE_H, 2, units, ink);
	for (int y = y0; y <= y1; y++) {
		unsigned char c[3];
		ramp(k, (double)(y1 - y) / (y1 - y0), c);
		for (int q = 0; q < 22; q++)
			put(im, x + q, y, q == 0 || q == 21 ? ink : c);
	}
	for (int q = 0; q < 22; q++) {
		put(im, x + q, y0, ink);
		put(im, x + q, y1, ink);
	}
	if (!(hi > lo))
		return;
	ticks(lo, hi, &first, &step, &n);
	for (int t = 0; t < n; t++) {
		double v = first + t * step;
		int y = y1 - (int)lround((v - lo) / (hi - lo) * (y1 - y0));
		for (int q = 22; q < 28; q++)
			put(im, x + q, y, ink);
		snprintf(lab, sizeof lab, "%.6g", fabs(v) < 1e-12 * step ? 0 : v);
		text(im, x + 32, y - 7, 2, lab, ink);
	}
}

int spate_map_render(const struct terrain_grid *v, const struct terrain_grid *bed,
	const char *var, const char *units, const char *title, struct spate_image *im)
{
	static const unsigned char ink[3] = { 20, 20, 20 };
	double lo = INFINITY, hi = -INFINITY;
	int mw, mh, k;
	size_t n = (size_t)v->nx * v->ny;
	spate_map_size(v->nx, v->ny, v->dx, v->dy, &im->w, &im->h);
	mw = im->w - MARGIN - LEGEND_W;
	mh = (int)lround(mw * (v->ny * v->dy) / (v->nx * v->dx));
	if (mh > im->h - TITLE_H - MARGIN) {
		mh = im->h - TITLE_H - MARGIN;
		mw = (int)lround(mh * (v->nx * v->dx) / (v->ny * v->dy));
	}
	if (!(im->rgb = malloc((size_t)im->w * im->h * 3)))
		return -SPATE_ENOMEM;
	memset(im->rgb, 255, (size_t)im->w * im->h * 3);
	for (size_t c = 0; c < n; c++)
		if (!isnan(v->v[c])) {
			lo = fmin(lo, v->v[c]);
			hi = fmax(hi, v->v[c]);
		}
	if (lo > 0 && strcmp(var, "bed") && strcmp(var, "w"))
		lo = 0;
	if (lo < 0 && hi > 0) {     /* signed: a scale symmetric about 0 */
		hi = fmax(-lo, hi);
		lo = -hi;
	}
	k = ramp_of(var, lo, hi);
	for (int py = 0; py < mh; py++)
		for (int px = 0; px < mw; px++) {
			int i = (int)((px + 0.5) * v->nx / mw), j = v->ny - 1 - (int)((py + 0.5) * v->ny / mh);
			double val = v->v[(size_t)j * v->nx + i];
			double s = bed && bed->nx == v->nx && bed->ny == v->ny ? shade(bed, i, j) : 0.8;
			unsigned char c[3];
			if (isnan(val)) {
				c[0] = c[1] = c[2] = (unsigned char)lround(70 + 170 * s);
			} else {
				ramp(k, hi > lo ? (val - lo) / (hi - lo) : 1, c);
				for (int q = 0; q < 3; q++)
					c[q] = (unsigned char)lround(c[q] * (0.72 + 0.28 * s));
			}
			put(im, MARGIN + px, TITLE_H + py, c);
		}
	text(im, MARGIN, 14, (int)strlen(title) * 12 < im->w - 2 * MARGIN ? 2 : 1, title, ink);
	legend(im, k, lo, hi, units);
	return 0;
}
