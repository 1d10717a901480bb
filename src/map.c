/* map.c: the map command: one variable of a results file as a GeoTIFF (for
 * GIS) or a PNG (for people: colour scale over the hillshaded bed, legend,
 * title).  NetCDF reading is in ncout.c, GDAL writing in terrain/map.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spate.h"
#include "swe_run.h"
#include "ncout.h"
#include "mapdraw.h"
#include "terrain.h"

struct map_args {
	const char *in, *var, *out;
	double t;           /* NAN: the last record */
};

/* The value of option name at argv[*i] ("--name V" or "--name=V"), or NULL. */
static const char *value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static int parse(int argc, char **argv, struct map_args *a)
{
	a->in = a->out = NULL;
	a->var = "max_depth";
	a->t = NAN;
	for (int i = 0; i < argc; i++) {
		const char *v;
		char *end;
		if ((v = value(argc, argv, &i, "--var"))) {
			a->var = v;
		} else if ((v = value(argc, argv, &i, "--output")) ||
			(v = value(argc, argv, &i, "-o"))) {
			a->out = v;
		} else if ((v = value(argc, argv, &i, "--time"))) {
			a->t = strtod(v, &end);
			if (end == v || *end || !isfinite(a->t)) {
				spate_log_error("map", "--time %s: not a number of seconds", v);
				return -SPATE_EINVAL;
			}
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			spate_set_quiet(1);
		} else if (argv[i][0] == '-') {
			spate_log_error("map", "unknown option %s (spate map RESULT.nc --var NAME -o "
				"FILE.tif|FILE.png [--time T] [-q]; see spate --help)", argv[i]);
			return -SPATE_EINVAL;
		} else if (a->in) {
			spate_log_error("map", "more than one results file (%s, %s)", a->in, argv[i]);
			return -SPATE_EINVAL;
		} else {
			a->in = argv[i];
		}
	}
	if (!a->in || !a->out) {
		spate_log_error("map", "usage: spate map RESULT.nc [--var NAME] -o FILE.tif|FILE.png "
			"[--time T]");
		return -SPATE_EINVAL;
	}
	return 0;
}

/* 1 for a GeoTIFF name, 2 for a PNG, 0 otherwise. */
static int kind(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return 0;
	if (!strcasecmp(dot, ".tif") || !strcasecmp(dot, ".tiff"))
		return 1;
	return !strcasecmp(dot, ".png") ? 2 : 0;
}

/* Depth below which a snapshot's cell is drawn as dry land, m. */
#define MAP_DRY 1e-3

/* A snapshot variable (h, w, u, v) on the picture: NAN where the depth of
 * the same record is below MAP_DRY, so the land shows. */
static void dry_out(const struct map_args *a, struct terrain_grid *g)
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

static int picture(const struct map_args *a, struct terrain_grid *g, double t,
	const char *units)
{
	struct terrain_grid bed;
	struct spate_image im;
	char title[256], tu[64], bu[64], bl[64];
	double tb;
	int rc, have_bed = 0;
	memset(&bed, 0, sizeof bed);
	if (spate_nc_var_ndims(a->in, "bed") == 2)
		have_bed = spate_nc_read_grid(a->in, "bed", NAN, &bed, &tb, bu, bl, sizeof bu) == 0;
	if (isnan(t) || !strcmp(a->var, "bed"))
		tu[0] = 0;
	else if (spate_nc_var_ndims(a->in, a->var) == 3)
		snprintf(tu, sizeof tu, ", t = %.6g s", t);
	else
		snprintf(tu, sizeof tu, ", 0 to %.6g s", t);
	snprintf(title, sizeof title, "%s (%s)%s", a->var, units[0] ? units : "-", tu);
	dry_out(a, g);
	rc = spate_map_render(g, have_bed ? &bed : NULL, a->var, units, title, &im);
	if (!rc)
		rc = terrain_write_png(a->out, im.w, im.h, im.rgb);
	if (!rc)
		spate_log_info("spate: map: %s: %s, %d x %d pixels\n", a->out, title, im.w, im.h);
	free(im.rgb);
	terrain_free(&bed);
	return rc;
}

int spate_map(int argc, char **argv)
{
	struct map_args a;
	struct terrain_grid g;
	char units[64], long_name[64];
	double t;
	int rc = parse(argc, argv, &a), k;
	if (rc)
		return rc;
	if (!(k = kind(a.out))) {
		spate_log_error("map", "%s: name it .tif (GeoTIFF) or .png (picture)", a.out);
		return -SPATE_EINVAL;
	}
	if ((rc = spate_nc_read_grid(a.in, a.var, a.t, &g, &t, units, long_name, sizeof units)))
		return rc;
	(void)long_name;
	if (k == 1) {
		rc = terrain_write_geotiff(a.out, &g);
		if (!rc)
			spate_log_info("spate: map: %s: %s, %d x %d cells\n", a.out, a.var, g.nx, g.ny);
	} else {
		rc = picture(&a, &g, t, units);
	}
	terrain_free(&g);
	return rc;
}
