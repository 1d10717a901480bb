/* export.c: the export command: a results file's flood products as GIS
 * layers that planners open as they are: one GeoPackage (flood extent and
 * hazard-class polygons, arrival isochrones, gauges; terrain/gpkg.c) and
 * the products as Cloud Optimized GeoTIFFs (terrain/cog.c).  NetCDF
 * reading is in ncread.c; GDAL is only in terrain/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "cftime.h"
#include "ncout.h"
#include "terrain.h"
#include "cog.h"
#include "gpkg.h"
#include "export_cli.h"
#include "usage.h"

static const char *const products[] = { "max_depth", "max_speed", "max_hazard", "arrival_time",
	"time_of_max_depth", "duration_wet", "max_hazard_class" };
enum { NPRODUCTS = 7, MAXCLASS = 15 };

struct export_args {
	const char *in;
	char out[4096];
	int gpkg, cog;
	double threshold, interval;  /* m; s (0: automatic) */
};

/* A number of option opt at least lo (or above it when strict). */
static int number(const char *opt, const char *v, double lo, int strict, double *out)
{
	char *end;
	double d = strtod(v, &end);
	if (end == v || *end || !isfinite(d) || d < lo || (strict && d == lo)) {
		spate_log_error("export", "%s=%s: expected a number %s %g", opt, v, strict ? ">" :
			">=", lo);
		return -SPATE_EINVAL;
	}
	*out = d;
	return 0;
}

/* 1: --help was asked for. */
static int parse(int argc, char **argv, struct export_args *a)
{
	static const char *const valued[] = { "--format", "--out", "--depth-threshold",
		"--interval", NULL };
	const char *v;
	a->in = NULL;
	a->out[0] = 0;
	a->gpkg = a->cog = 1;
	a->threshold = 0.01;
	a->interval = 0;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
		/* "--out --quiet" is a value left out, not a folder "--quiet" */
		if (spate_option_left_out(argc, argv, i, valued, "export"))
			return -SPATE_EINVAL;
		if ((v = spate_option(argc, argv, &i, "--format"))) {
			a->gpkg = !strcmp(v, "gpkg") || !strcmp(v, "all");
			a->cog = !strcmp(v, "cog") || !strcmp(v, "all");
			if (!a->gpkg && !a->cog) {
				spate_log_error("export", "--format=%s: use gpkg, cog or all", v);
				return -SPATE_EINVAL;
			}
		} else if ((v = spate_option(argc, argv, &i, "--out"))) {
			snprintf(a->out, sizeof a->out, "%s", v);
		} else if ((v = spate_option(argc, argv, &i, "--depth-threshold"))) {
			if (number("--depth-threshold", v, 0, 0, &a->threshold))
				return -SPATE_EINVAL;
		} else if ((v = spate_option(argc, argv, &i, "--interval"))) {
			if (number("--interval", v, 0, 1, &a->interval))
				return -SPATE_EINVAL;
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			spate_set_quiet(1);
		} else if (argv[i][0] == '-' || a->in) {
			spate_log_error("export", "%s: unknown option or a second results file (spate "
				"export RESULTS.nc [--format=gpkg|cog|all] [--out=DIR]; see spate export "
				"--help)", argv[i]);
			return -SPATE_EINVAL;
		} else {
			a->in = argv[i];
		}
	}
	if (!a->in) {
		spate_log_error("export", "no results file (spate export RESULTS.nc; see spate "
			"export --help)");
		return -SPATE_EINVAL;
	}
	if (!a->out[0]) {
		const char *s = strrchr(a->in, '/');
		snprintf(a->out, sizeof a->out, "%.*s", s ? (int)(s - a->in) : 1, s ? a->in : ".");
		if (!a->out[0])
			snprintf(a->out, sizeof a->out, "/");
	}
	return 0;
}

/* Variable var as floats (NaN where not wet per depth, when depth) into
 * *f; its grid in g (terrain_free it). */
static int read_field(const char *path, const char *var, const float *wet, float **f,
	struct terrain_grid *g)
{
	char units[128], lname[256];
	double t;
	int rc = spate_nc_read_grid(path, var, NAN, g, &t, units, lname, sizeof units);
	size_t n = (size_t)g->nx * g->ny;
	if (rc)
		return rc;
	if (!(*f = malloc(n * sizeof **f)))
		return -SPATE_ENOMEM;
	for (size_t k = 0; k < n; k++)
		(*f)[k] = wet && isnan(wet[k]) ? NAN : (float)g->v[k];
	return 0;
}

/* A round interval (1, 2 or 5 times a power of ten) near a tenth of the
 * arrival times' range; 1 s when they span none. */
static double auto_interval(const float *arrival, size_t n)
{
	double lo = INFINITY, hi = -INFINITY, x, p, m;
	for (size_t k = 0; k < n; k++)
		if (!isnan(arrival[k])) {
			lo = arrival[k] < lo ? arrival[k] : lo;
			hi = arrival[k] > hi ? arrival[k] : hi;
		}
	if (!(hi > lo))
		return 1;
	x = (hi - lo) / 10;
	p = pow(10, floor(log10(x)));
	m = x / p;
	return p * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
}

/* Every product of the file as a COG in a->out, NaN where not wet. */
static int write_cogs(const struct export_args *a, const float *wet, const struct spate_grid *sg)
{
	char path[4200], units[128];
	int rc = 0, done = 0;
	for (int k = 0; k < NPRODUCTS && !rc; k++) {
		struct terrain_grid g;
		float *f = NULL;
		if (spate_nc_var_ndims(a->in, products[k]) != 2)
			continue;
		spate_nc_var_text(a->in, products[k], "units", units, sizeof units);
		if (!(rc = read_field(a->in, products[k], wet, &f, &g))) {
			/* class 0 (dry) is no class: NODATA too */
			for (size_t c = 0; k == NPRODUCTS - 1 && c < (size_t)g.nx * g.ny; c++)
				f[c] = f[c] >= 1 ? f[c] : NAN;
			snprintf(path, sizeof path, "%s/%s.tif", a->out, products[k]);
			rc = spate_cog_write_field(path, sg, f, -9999, products[k], units,
				k == NPRODUCTS - 1 ? "NEAREST" : "AVERAGE");
			done++;
		}
		free(f);
		terrain_free(&g);
	}
	if (!rc)
		spate_log_info("spate export: %d Cloud Optimized GeoTIFFs in %s/\n", done, a->out);
	return rc;
}

/* The gauges of the file into in (pt holds their values). */
static int read_gauges(const char *path, struct spate_nc_pts *pt, struct spate_gpkg_in *in)
{
	static const char *const vars[3] = { "gauge_max_level", "gauge_time_of_max_level",
		"gauge_arrival_time" };
	int rc = spate_nc_read_points(path, "gauge", vars, 3, pt), n = pt->n;
	double *col = pt->n ? malloc(3 * (size_t)n * sizeof *col) : NULL;
	if (rc || !n)
		return rc;
	if (!col)
		return -SPATE_ENOMEM;
	for (int g = 0; g < n; g++)
		for (int k = 0; k < 3; k++)
			col[(size_t)k * n + g] = pt->v[3 * (size_t)g + k];
	free(pt->v);
	pt->v = col;    /* peak levels, peak times, arrivals: one column each */
	in->ngauge = n;
	in->gauge_name = (const char (*)[64])pt->name;
	in->gauge_x = pt->x;
	in->gauge_y = pt->y;
	in->peak_level = col;
	in->peak_time = col + n;
	in->gauge_arrival = col + 2 * (size_t)n;
	return 0;
}

/* The hazard classes' scheme and names ("dry H1 ...") from the file. */
static int class_names(const char *path, char *scheme, char *meanings, const char **names)
{
	int n = 0;
	spate_nc_var_text(path, "max_hazard_class", "hazard_scheme", scheme, 64);
	spate_nc_var_text(path, "max_hazard_class", "flag_meanings", meanings, 512);
	for (char *s = strtok(meanings, " "); s && n <= MAXCLASS; s = strtok(NULL, " "))
		names[n++] = s;
	return n - 1;
}

/* The GeoPackage a->out/flood.gpkg. */
static int write_gpkg(const struct export_args *a, const float *depth, const float *wet,
	const struct spate_grid *sg, size_t nwet)
{
	struct spate_gpkg_in in;
	struct spate_nc_pts pt;
	struct terrain_grid g1, g2;
	float *cls = NULL, *arr = NULL;
	char path[4200], scheme[64], meanings[512], start[SPATE_TIME_TEXT], iso[SPATE_TIME_TEXT];
	const char *names[MAXCLASS + 2];
	const char *why;
	int rc = 0;
	memset(&in, 0, sizeof in);
	memset(&pt, 0, sizeof pt);
	memset(&g1, 0, sizeof g1);
	memset(&g2, 0, sizeof g2);
	in.grid = *sg;
	in.max_depth = depth;
	in.depth_threshold = a->threshold;
	spate_nc_var_text(a->in, NULL, "time_coverage_start", iso, sizeof iso);
	in.start_time = spate_time_parse(iso, start, &why) ? "" : start;
	if (spate_nc_var_ndims(a->in, "max_hazard_class") == 2 &&
		(in.nclass = class_names(a->in, scheme, meanings, names)) > 0 &&
		!(rc = read_field(a->in, "max_hazard_class", wet, &cls, &g1))) {
		in.hazard_class = cls;
		in.class_names = names;
		in.scheme = scheme;
	}
	if (!rc && spate_nc_var_ndims(a->in, "arrival_time") == 2 &&
		!(rc = read_field(a->in, "arrival_time", wet, &arr, &g2))) {
		in.arrival = arr;
		in.interval = a->interval > 0 ? a->interval : auto_interval(arr, nwet ?
			(size_t)sg->nx * sg->ny : 0);
	}
	if (!rc)
		rc = read_gauges(a->in, &pt, &in);
	snprintf(path, sizeof path, "%s/flood.gpkg", a->out);
	if (!rc && !(rc = spate_gpkg_write(path, &in)))
		spate_log_info("spate export: %s: flood_extent (%zu wet cells, %.6g m2, depth > %g "
			"m)%s%s%s, %d gauges\n", path, nwet, nwet * sg->dx * sg->dy, a->threshold,
			cls ? ", hazard_classes " : "", cls ? scheme : "", arr ?
			", arrival_isochrones" : "", in.ngauge);
	free(cls);
	free(arr);
	terrain_free(&g1);
	terrain_free(&g2);
	spate_nc_pts_free(&pt);
	return rc;
}

/* A file that opens but has no max_depth: not a flood run's results with
 * its products.  -SPATE_EINVAL after a message saying what to do; else 0. */
static int no_products(const char *path)
{
	if (spate_nc_var_ndims(path, "x") != 1 || spate_nc_var_ndims(path, "max_depth") == 2)
		return 0;
	if (spate_nc_var_ndims(path, "flood_probability") == 2)
		spate_log_error("export", "%s: an ensemble's fields, not a run's results: spate "
			"ensemble wrote them as Cloud Optimized GeoTIFFs (NAME.tif) beside it; spate "
			"export reads the results.nc of spate run", path);
	else
		spate_log_error("export", "%s: no flood products (max_depth): spate export reads the "
			"results.nc of spate run with [output] products = yes (the default): run it "
			"again so", path);
	return -SPATE_EINVAL;
}

int spate_export(int argc, char **argv)
{
	struct export_args a;
	struct terrain_grid g;
	struct spate_grid sg;
	float *depth = NULL, *wet = NULL;
	size_t n, nwet = 0;
	int rc = parse(argc, argv, &a);
	if (rc) {
		if (rc > 0)
			fputs(spate_opts_export, stdout);
		return rc > 0 ? 0 : rc;
	}
#ifndef HAVE_GDAL
	spate_log_error("export", "%s: spate export needs GDAL (GeoPackage and COG drivers): this "
		"spate was built without it (install libgdal-dev and run ./configure again)", a.in);
	return -SPATE_EUNSUPPORTED;
#endif
	/* a file that cannot be read is bad input */
	if ((rc = no_products(a.in)) || (rc = read_field(a.in, "max_depth", NULL, &depth, &g))) {
		free(depth);
		return rc == -SPATE_EIO ? -SPATE_EINVAL : rc;
	}
	if ((rc = spate_mkdir_p(a.out))) {
		free(depth);
		terrain_free(&g);
		return rc;
	}
	n = (size_t)g.nx * g.ny;
	sg = (struct spate_grid){ .nx = g.nx, .ny = g.ny, .x0 = g.x0, .y0 = g.y0, .dx = g.dx,
		.dy = g.dy, .crs_wkt = g.crs_wkt[0] ? g.crs_wkt : NULL };
	if (!(wet = malloc(n * sizeof *wet)))
		rc = -SPATE_ENOMEM;
	for (size_t k = 0; wet && k < n; k++) {
		wet[k] = depth[k] > a.threshold ? 1.0f : NAN;
		nwet += depth[k] > a.threshold;
	}
	if (!rc && a.cog)
		rc = write_cogs(&a, wet, &sg);
	if (!rc && a.gpkg)
		rc = write_gpkg(&a, depth, wet, &sg, nwet);
	free(depth);
	free(wet);
	terrain_free(&g);
	return rc;
}
