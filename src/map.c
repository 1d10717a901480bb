/* map.c: the map command: one variable of a results file as a GeoTIFF (for
 * GIS, terrain/map.c) or as a printed map, PNG or PDF (for people, drawn
 * with Cairo by mapdraw.c: hillshade, colours or classes with a legend,
 * flood-extent outline, gauges, scale bar, north arrow, title).  NetCDF
 * reading is in ncread.c and ncmapinfo.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spate.h"
#include "ncout.h"
#include "map.h"
#include "terrain.h"

/* Depth below which a snapshot's cell is drawn as dry land, m. */
#define MAP_DRY 1e-3

/* The output's kind: by --format, else by the name's extension; -1 when
 * neither says. */
static int out_kind(const struct spate_map_args *a)
{
	static const char *const names[] = { "tif", "png", "pdf" };
	const char *f = a->format, *dot = strrchr(a->out, '.');
	if (!f && dot)
		f = !strcasecmp(dot, ".tiff") ? "tif" : dot + 1;
	for (int k = 0; f && k < 3; k++)
		if (!strcasecmp(f, names[k]))
			return k;
	return -1;
}

#ifdef HAVE_CAIRO
#include "mapdraw.h"

/* A snapshot variable (h, w, u, v) on the picture: NAN where the depth of
 * the same record is below MAP_DRY, so the land shows. */
static void dry_out(const struct spate_map_args *a, struct terrain_grid *g)
{
	struct terrain_grid h;
	char u[64], l[64];
	double th;
	if (spate_nc_var_ndims(a->in, a->var) != 3 || spate_nc_var_ndims(a->in, "h") != 3 ||
		spate_nc_read_grid(a->in, "h", a->t, &h, &th, u, l, sizeof u))
		return;
	if (h.nx == g->nx && h.ny == g->ny)
		for (size_t k = 0; k < (size_t)g->nx * g->ny; k++)
			if (!(h.v[k] >= MAP_DRY))
				g->v[k] = NAN;
	terrain_free(&h);
}

/* The depth grid of the extent outline: max_depth for a product, the
 * snapshot's h for a snapshot variable; 0 or -1 when there is none. */
static int extent_depth(const struct spate_map_args *a, struct terrain_grid *d)
{
	const char *name = spate_nc_var_ndims(a->in, a->var) == 3 ? "h" : "max_depth";
	char u[64], l[64];
	double t;
	if (spate_nc_var_ndims(a->in, name) == 0)
		return -1;
	return spate_nc_read_grid(a->in, name, a->t, d, &t, u, l, sizeof u) ? -1 : 0;
}

/* t seconds as people read a duration: "90 s", "45 min", "2 h 30 min",
 * "3 d 4 h". */
static void duration(double t, char *out, size_t n)
{
	double m = round(t / 60);
	if (fabs(t) < 120)
		snprintf(out, n, "%g s", t);
	else if (fabs(m) < 120)
		snprintf(out, n, "%.0f min", m);
	else if (fabs(m) < 2880)
		snprintf(out, n, "%.0f h %02.0f min", trunc(m / 60), fmod(fabs(m), 60));
	else
		snprintf(out, n, "%.0f d %.0f h", trunc(m / 1440), fmod(fabs(round(m / 60)), 24));
}

/* The title, subtitle and footer of the map of g at time t. */
static void titles(const struct spate_map_args *a, const struct spate_nc_mapinfo *m,
	const char *long_name, const char *units, double t, char (*text)[256])
{
	const char *dem = strrchr(m->dem, '/') ? strrchr(m->dem, '/') + 1 : m->dem;
	char when[128] = "", d[48];
	if (a->title)
		snprintf(text[0], 256, "%s", a->title);
	else
		snprintf(text[0], 256, "%.60s%s%.80s: %.100s", m->setup[0] ? m->setup : "spate run",
			dem[0] ? " on " : "", dem, long_name[0] ? long_name : a->var);
	duration(t, d, sizeof d);
	if (!isnan(t) && strcmp(a->var, "bed"))
		snprintf(when, sizeof when, spate_nc_var_ndims(a->in, a->var) == 3 ?
			"at t = %s" : "over the run, 0 to %s", d);
	snprintf(text[1], 256, "%s%s%s%s %s%s%s", a->var, units[0] ? " in " : "", units,
		when[0] ? "," : "", when, strncmp(m->time_units, "seconds since ", 14) ? "" :
		" from ", strncmp(m->time_units, "seconds since ", 14) ? "" : m->time_units + 14);
	snprintf(text[2], 256, "spate %s  |  %s%s%s", PACKAGE_VERSION, a->in,
		m->crs_name[0] ? "  |  CRS: " : "", m->crs_name);
}

static int picture(const struct spate_map_args *a, struct terrain_grid *g, double t,
	const char *units, const char *long_name, int kind)
{
	struct terrain_grid bed, depth;
	struct spate_nc_mapinfo m;
	struct spate_map_spec s;
	struct spate_map_frame fr;
	char text[3][256], bu[64], bl[64];
	double tb;
	int rc;
	memset(&bed, 0, sizeof bed);
	memset(&depth, 0, sizeof depth);
	if ((rc = spate_nc_mapinfo(a->in, a->var, &m)))
		return rc;
	memset(&s, 0, sizeof s);
	s.v = g;
	if (spate_nc_var_ndims(a->in, "bed") == 2 &&
		!spate_nc_read_grid(a->in, "bed", NAN, &bed, &tb, bu, bl, sizeof bu))
		s.bed = &bed;
	s.extent = isnan(a->extent) ? (isnan(m.wet_threshold) ? 0.05 : m.wet_threshold) :
		a->extent;
	if (s.extent > 0 && !extent_depth(a, &depth) && depth.nx == g->nx && depth.ny == g->ny)
		s.depth = &depth;
	s.nclasses = m.nclasses;
	s.class_value = m.class_value;
	s.class_meaning = (const char (*)[48])m.class_meaning;
	s.ngauges = m.ngauges;
	s.gauge_x = m.gauge_x;
	s.gauge_y = m.gauge_y;
	s.gauge_name = (const char (*)[64])m.gauge_name;
	dry_out(a, g);
	titles(a, &m, long_name, units, t, text);
	s.var = a->var;
	s.units = units;
	s.label = long_name[0] ? long_name : a->var;
	s.title = text[0];
	s.subtitle = text[1];
	s.footer = text[2];
	s.format = kind == 2 ? SPATE_MAP_PDF : SPATE_MAP_PNG;
	s.page_w = a->page_w;
	s.page_h = a->page_h;
	s.dpi = a->dpi;
	rc = spate_map_draw(a->out, &s, &fr);
	if (!rc) {
		const char *u = kind == 2 ? "pt" : "pixels";
		int land = fr.width > fr.height;
		spate_log_info("spate: map: %s: %s; page %.0f x %.0f mm, %d x %d %s; map frame "
			"%.0f x %.0f %s at (%.0f, %.0f); scale 1:%.0f\n", a->out, a->var,
			land ? a->page_h : a->page_w, land ? a->page_w : a->page_h, fr.width, fr.height,
			u, fr.w, fr.h, u, fr.x, fr.y, fr.scale);
	}
	spate_nc_mapinfo_free(&m);
	terrain_free(&bed);
	terrain_free(&depth);
	return rc;
}
#else
static int picture(const struct spate_map_args *a, struct terrain_grid *g, double t,
	const char *units, const char *long_name, int kind)
{
	(void)g; (void)t; (void)units; (void)long_name; (void)kind;
	spate_log_error("map", "%s: drawing a PNG or PDF map needs Cairo, and this spate was "
		"built without it: install libcairo2-dev (tools/setup does), run ./configure and "
		"make again; GeoTIFF output (-o FILE.tif) works without Cairo", a->out);
	return -SPATE_EUNSUPPORTED;
}
#endif

int spate_map(int argc, char **argv)
{
	struct spate_map_args a;
	struct terrain_grid g;
	char units[64], long_name[128];
	double t;
	int rc = spate_map_parse(argc, argv, &a), k;
	if (rc)
		return rc;
	if ((k = out_kind(&a)) < 0) {
		spate_log_error("map", "%s: name it .tif (GeoTIFF), .png or .pdf (printed map), or "
			"give --format=tif|png|pdf", a.out);
		return -SPATE_EINVAL;
	}
#ifndef HAVE_CAIRO
	if (k > 0)
		return picture(&a, NULL, NAN, "", "", k);
#endif
	/* a file that cannot be read is bad input, as in spate export */
	if ((rc = spate_nc_read_grid(a.in, a.var, a.t, &g, &t, units, long_name, sizeof units)))
		return rc == -SPATE_EIO ? -SPATE_EINVAL : rc;
	rc = spate_mkdir_for(a.out);   /* as spate run makes its output folder */
	if (!rc && k == 0) {
		rc = terrain_write_geotiff(a.out, &g, units);
		if (!rc)
			spate_log_info("spate: map: %s: %s, %d x %d cells\n", a.out, a.var, g.nx, g.ny);
	} else if (!rc) {
		rc = picture(&a, &g, t, units, long_name, k);
	}
	terrain_free(&g);
	return rc;
}
