/* mapdeco.c: what a flood map needs around the map to be read on paper
 * (mapdraw_impl.h): the title band, the legend (a colour bar with round
 * ticks and units, or one swatch per class), the extent and gauge symbols,
 * a north arrow, a scale bar of a round length in m or km with the printed
 * scale, and the gauges with their names on the map. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mapdraw_impl.h"
#include "terrain.h"

#define BAR_W 16.0      /* colour bar, pt */
#define BAR_H 190.0
#define SWATCH 11.0     /* class swatch, pt */
#define ROW 15.0        /* legend row, pt */
#define INK 0.1

/* Text that fits in width w: size shrunk down to 6 pt if need be. */
static double fitted(cairo_t *cr, double x, double y, double size, int bold, const char *s,
	double w)
{
	cairo_text_extents_t e;
	cairo_select_font_face(cr, MAP_FONT, CAIRO_FONT_SLANT_NORMAL,
		bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &e);
	if (e.x_advance > w)
		size = fmax(6, size * w / e.x_advance);
	return map_text(cr, x, y, size, bold, s);
}

/* Text wrapped at blanks into lines of width w (a word longer than w is
 * shrunk to fit), baselines from y down by 1.25 size; returns the baseline
 * after the last line. */
static double wrapped(cairo_t *cr, double x, double y, double size, int bold, const char *s,
	double w)
{
	char line[256] = "", try[256];
	const char *p = s;
	while (*p) {
		cairo_text_extents_t e;
		size_t n = strcspn(p, " ");
		snprintf(try, sizeof try, "%s%s%.*s", line, line[0] ? " " : "", (int)n, p);
		cairo_select_font_face(cr, MAP_FONT, CAIRO_FONT_SLANT_NORMAL,
			bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, size);
		cairo_text_extents(cr, try, &e);
		if (e.x_advance > w && line[0]) {
			fitted(cr, x, y, size, bold, line, w);
			y += 1.25 * size;
			line[0] = 0;
			continue;       /* the word again, on a new line */
		}
		snprintf(line, sizeof line, "%s", try);
		p += n;
		p += strspn(p, " ");
	}
	if (line[0]) {
		fitted(cr, x, y, size, bold, line, w);
		y += 1.25 * size;
	}
	return y;
}

void map_title(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s)
{
	double w = L->W - 2 * L->mx;
	cairo_set_source_rgb(cr, INK, INK, INK);
	fitted(cr, L->mx, L->py - 26, MAP_PT_TITLE, 1, s->title ? s->title : s->var, w);
	if (s->subtitle) {
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		fitted(cr, L->mx, L->py - 10, MAP_PT_TEXT + 0.5, 0, s->subtitle, w);
	}
}

/* A class meaning for people: underscores as spaces. */
static void readable(const char *m, char *out, size_t n)
{
	snprintf(out, n, "%s", m);
	for (char *p = out; *p; p++)
		if (*p == '_')
			*p = ' ';
}

static double class_legend(cairo_t *cr, const struct map_layout *L,
	const struct spate_map_spec *s, double y)
{
	char text[64];
	for (int q = 0; q < s->nclasses; q++) {
		unsigned char rgb[3];
		int n, k = map_class_rank(s, q, &n);
		if (k < 0)
			continue;
		spate_map_class_colour(k, n, rgb);
		cairo_set_source_rgb(cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
		cairo_rectangle(cr, L->px, y, SWATCH * 1.5, SWATCH);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, INK, INK, INK);
		cairo_set_line_width(cr, 0.5);
		cairo_stroke(cr);
		readable(s->class_meaning[q], text, sizeof text);
		fitted(cr, L->px + SWATCH * 1.5 + 6, y + SWATCH - 2, MAP_PT_TEXT, 0, text,
			L->pw - SWATCH * 1.5 - 6);
		y += ROW;
	}
	return y + 4;
}

/* The colour bar: a gradient of 33 stops, round ticks labelled. */
static double colour_bar(cairo_t *cr, const struct map_layout *L,
	const struct spate_map_spec *s, double y)
{
	cairo_pattern_t *g = cairo_pattern_create_linear(0, y + BAR_H, 0, y);
	double first, step;
	int n;
	char lab[32];
	for (int k = 0; k <= 32; k++) {
		unsigned char c[3];
		spate_map_ramp(s->var, L->lo, L->hi, k / 32.0, c);
		cairo_pattern_add_color_stop_rgb(g, k / 32.0, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0);
	}
	cairo_rectangle(cr, L->px, y, BAR_W, BAR_H);
	cairo_set_source(cr, g);
	cairo_fill_preserve(cr);
	cairo_pattern_destroy(g);
	cairo_set_source_rgb(cr, INK, INK, INK);
	cairo_set_line_width(cr, 0.6);
	cairo_stroke(cr);
	if (!(L->hi > L->lo))
		return y + BAR_H + 12;
	spate_map_ticks(L->lo, L->hi, 5, &first, &step, &n);
	for (int t = 0; t < n; t++) {
		double v = first + t * step, ty = y + BAR_H - (v - L->lo) / (L->hi - L->lo) * BAR_H;
		cairo_move_to(cr, L->px + BAR_W, ty);
		cairo_line_to(cr, L->px + BAR_W + 4, ty);
		cairo_stroke(cr);
		snprintf(lab, sizeof lab, "%g", fabs(v) < 1e-9 * step ? 0 : v);
		map_text(cr, L->px + BAR_W + 7, ty + 3.3, MAP_PT_TEXT, 0, lab);
	}
	return y + BAR_H + 14;
}

double map_legend(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s)
{
	double y = L->py + 10;
	char text[160];
	cairo_set_source_rgb(cr, INK, INK, INK);
	y = wrapped(cr, L->px, y, MAP_PT_TEXT + 1, 1, s->label ? s->label : s->var, L->pw);
	if (s->units && s->units[0] && !s->nclasses) {
		snprintf(text, sizeof text, "in %s", s->units);
		fitted(cr, L->px, y, MAP_PT_TEXT, 0, text, L->pw);
		y += 13;
	}
	y = s->nclasses ? class_legend(cr, L, s, y) : colour_bar(cr, L, s, y + 2);
	cairo_set_line_width(cr, 1.2);
	if (s->depth) {
		cairo_set_source_rgb(cr, 0.05, 0.1, 0.4);
		cairo_move_to(cr, L->px, y + SWATCH / 2);
		cairo_line_to(cr, L->px + SWATCH * 1.5, y + SWATCH / 2);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, INK, INK, INK);
		snprintf(text, sizeof text, "flood extent: depth \u2265 %g m", s->extent);
		fitted(cr, L->px + SWATCH * 1.5 + 6, y + SWATCH - 2, MAP_PT_TEXT, 0, text,
			L->pw - SWATCH * 1.5 - 6);
		y += ROW;
	}
	if (s->ngauges > 0) {
		cairo_arc(cr, L->px + SWATCH * 0.75, y + SWATCH / 2, 3, 0, 2 * M_PI);
		cairo_fill(cr);
		map_text(cr, L->px + SWATCH * 1.5 + 6, y + SWATCH - 2, MAP_PT_TEXT, 0, "gauge");
		y += ROW;
	}
	return y;
}

/* The longest round length (1, 2 or 5 x 10^k m) at most max m. */
static double round_length(double max)
{
	double mag = pow(10, floor(log10(max))), f = max / mag;
	return (f >= 5 ? 5 : f >= 2 ? 2 : 1) * mag;
}

/* x rounded to an integer, with thin spaces between groups of three digits
 * ("12 500"). */
static void grouped(double x, char *out, size_t n)
{
	char d[32];
	int len = snprintf(d, sizeof d, "%.0f", fabs(x)), o = 0;
	for (int k = 0; k < len && o + 5 < (int)n; k++) {
		if (k && (len - k) % 3 == 0)
			o += snprintf(out + o, n - (size_t)o, "\u2009");
		out[o++] = d[k];
	}
	out[o] = 0;
}

static void scale_bar(cairo_t *cr, const struct map_layout *L, double y)
{
	double len = round_length((L->pw - 24) * L->metres_per_pt), w = len / L->metres_per_pt;
	int km = len >= 1000;
	char lab[48], sc[80];
	for (int k = 0; k < 4; k++) {
		cairo_rectangle(cr, L->px + k * w / 4, y, w / 4, 5);
		cairo_set_source_rgb(cr, k % 2 ? 1 : INK, k % 2 ? 1 : INK, k % 2 ? 1 : INK);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, INK, INK, INK);
		cairo_set_line_width(cr, 0.5);
		cairo_stroke(cr);
	}
	cairo_select_font_face(cr, MAP_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, MAP_PT_SMALL + 1);
	for (int k = 0; k <= 2; k++) {
		cairo_text_extents_t e;
		snprintf(lab, sizeof lab, k == 2 ? "%g %s" : "%g", len * k / 2 / (km ? 1000 : 1),
			km ? "km" : "m");
		cairo_text_extents(cr, lab, &e);
		map_text(cr, L->px + k * w / 2 - (k == 2 ? 0 : e.x_advance / 2), y + 15, MAP_PT_SMALL + 1,
			0, lab);
	}
	grouped(L->metres_per_pt * 72 / 0.0254, lab, sizeof lab);
	snprintf(sc, sizeof sc, "scale 1:%s as printed", lab);
	map_text(cr, L->px, y + 28, MAP_PT_SMALL + 1, 0, sc);
}

void map_north_and_scale(cairo_t *cr, const struct map_layout *L, double y)
{
	double cx = L->px + 12, top = y + 20, h = 30;
	cairo_set_source_rgb(cr, INK, INK, INK);
	map_text(cr, cx - 4.5, top - 4, MAP_PT_TEXT + 1, 1, "N");
	cairo_set_line_width(cr, 0.8);
	cairo_move_to(cr, cx, top);             /* the arrow: left half open, right half filled */
	cairo_line_to(cr, cx - 8, top + h);
	cairo_line_to(cr, cx, top + h - 8);
	cairo_close_path(cr);
	cairo_stroke(cr);
	cairo_move_to(cr, cx, top);
	cairo_line_to(cr, cx + 8, top + h);
	cairo_line_to(cr, cx, top + h - 8);
	cairo_close_path(cr);
	cairo_fill_preserve(cr);
	cairo_stroke(cr);
	map_text(cr, cx + 16, top + h / 2 + 3, MAP_PT_SMALL, 0, "grid north");
	scale_bar(cr, L, top + h + 16);
}

void map_gauges(cairo_t *cr, const struct map_layout *L, const struct spate_map_spec *s)
{
	const struct terrain_grid *g = s->v;
	for (int k = 0; k < s->ngauges; k++) {
		double x, y;
		map_to_page(L, g, s->gauge_x[k], s->gauge_y[k], &x, &y);
		if (x < L->mx || x > L->mx + L->mw || y < L->my || y > L->my + L->mh)
			continue;
		cairo_arc(cr, x, y, 3.2, 0, 2 * M_PI);
		cairo_set_source_rgb(cr, INK, INK, INK);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_set_line_width(cr, 1);
		cairo_stroke(cr);
		/* the name with a white halo, readable over any colour */
		cairo_select_font_face(cr, MAP_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
		cairo_set_font_size(cr, MAP_PT_TEXT - 1);
		cairo_move_to(cr, x + 5, y - 4);
		cairo_text_path(cr, s->gauge_name[k]);
		cairo_set_line_width(cr, 2.4);
		cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
		cairo_stroke_preserve(cr);
		cairo_set_source_rgb(cr, INK, INK, INK);
		cairo_fill(cr);
	}
}
