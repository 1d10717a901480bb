/* t_ncout.c: the NetCDF results file, read back with the NetCDF C API.
 *
 * A small DEM (ESRI ASCII, with a .prj) and a gauge file are written to a
 * scratch folder, `spate run` is run on them with [output] format = both,
 * and results.nc must have: x and y at the cell centres of the DEM's grid,
 * exactly (x = x0 + (i + 1/2) dx); the DEM's CRS; CF attributes; one time
 * record per snapshot; every flood product and the last snapshot equal to
 * the ESRI ASCII grids written beside it (the same "%.7g" text, fill value
 * where they have NODATA); the bed; the gauges.  Skips (77) without NetCDF. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_NETCDF
#include <netcdf.h>

#include "demtest.h"

static int id;

static void nc(int e, const char *what)
{
	if (e != NC_NOERR) {
		fprintf(stderr, "test error: %s: %s\n", what, nc_strerror(e));
		exit(1);
	}
}

/* A text attribute (malloc'd; "" when absent). */
static char *text(int v, const char *name)
{
	size_t len = 0;
	char *s;
	if (nc_inq_attlen(id, v, name, &len))
		len = 0;
	s = calloc(len + 1, 1);
	if (len)
		nc(nc_get_att_text(id, v, name, s), name);
	return s;
}

static int var(const char *name)
{
	int v;
	nc(nc_inq_varid(id, name, &v), name);
	return v;
}

/* Grid name (2D, or record rec of a 3D variable) equals the ESRI ASCII file
 * asc: same "%.7g" text (or within a relative tol, for values the ASCII grid
 * gives from a double), fill value where NODATA; returns cells differing. */
static long same_as_asc(const char *name, int rec, const char *asc, double tol)
{
	char path[512], tok[64], key[64];
	double *g = malloc(NX * NY * sizeof *g);
	size_t start[3] = { (size_t)rec, 0, 0 }, count[3] = { 1, NY, NX };
	long bad = 0;
	FILE *f;
	snprintf(path, sizeof path, "%s/out/%s", dir, asc);
	if (!g || !(f = fopen(path, "r")))
		die("cannot read an ESRI ASCII grid");
	for (int k = 0; k < 6; k++)
		if (fscanf(f, "%63s %63s", key, tok) != 2)
			die("bad ESRI ASCII header");
	if (rec >= 0)
		nc(nc_get_vara_double(id, var(name), start, count, g), name);
	else
		nc(nc_get_var_double(id, var(name), g), name);
	for (int j = NY - 1; j >= 0; j--)
		for (int i = 0; i < NX; i++) {
			char mine[64];
			double v = g[j * NX + i];
			if (fscanf(f, "%63s", tok) != 1)
				die("short ESRI ASCII grid");
			snprintf(mine, sizeof mine, "%.7g", v);
			if (tol > 0)
				bad += fabs(strtod(tok, NULL) - v) > tol * fabs(v);
			else
				bad += strcmp(mine, tok) != 0;
		}
	fclose(f);
	free(g);
	return bad;
}

static void check_grid(void)
{
	double x[NX], y[NY];
	long badx = 0, bady = 0;
	char *wkt, *sref, *gm, *conv, *par, *units, *axis;
	nc(nc_get_var_double(id, var("x"), x), "x");
	nc(nc_get_var_double(id, var("y"), y), "y");
	for (int i = 0; i < NX; i++)
		badx += x[i] != X0 + (i + 0.5) * DX;
	for (int j = 0; j < NY; j++)
		bady += y[j] != Y0 + (j + 0.5) * DX;
	check(!badx && !bady, "x, y = cell centres of the DEM's geotransform, exactly "
		"(%ld, %ld differ; x[0] = %.17g, y[0] = %.17g)", badx, bady, x[0], y[0]);
	units = text(var("x"), "units");
	axis = text(var("y"), "axis");
	check(!strcmp(units, "m") && !strcmp(axis, "Y"), "x units \"%s\", y axis \"%s\"", units,
		axis);
	wkt = text(var("crs"), "crs_wkt");
	sref = text(var("crs"), "spatial_ref");
	gm = text(var("max_depth"), "grid_mapping");
	check(strstr(wkt, "UTM zone 32N") && !strcmp(wkt, sref) && !strcmp(gm, "crs"),
		"crs: the DEM's WKT in crs_wkt and spatial_ref, grid_mapping \"%s\" (%.40s...)", gm,
		wkt);
	conv = text(NC_GLOBAL, "Conventions");
	par = text(NC_GLOBAL, "spate_parameters");
	check(!strcmp(conv, "CF-1.8") && strstr(par, "[physics]\n") &&
		strstr(par, "manning = 0.029999999999999999"), "Conventions \"%s\"; the resolved "
		"parameters as global attribute spate_parameters", conv);
	free(units);
	free(axis);
	free(wkt);
	free(sref);
	free(gm);
	free(conv);
	free(par);
}

static void check_data(void)
{
	static const char *const prod[6] = { "max_depth", "max_speed", "max_hazard",
		"arrival_time", "time_of_max_depth", "duration_wet" };
	double t[8];
	size_t nt = 0, ng = 0;
	int d;
	long bad;
	char *thr;
	nc(nc_inq_dimid(id, "time", &d), "time");
	nc(nc_inq_dimlen(id, d, &nt), "time");
	nc(nc_get_var_double(id, var("time"), t), "time");
	check(nt == 4 && t[0] == 0 && t[1] == 10 && t[2] == 20 && t[3] == 30,
		"4 snapshots at 0, 10, 20, 30 s (%zu)", nt);
	for (int k = 0; k < 6; k++) {
		char asc[64];
		snprintf(asc, sizeof asc, "%s.asc", prod[k]);
		bad = same_as_asc(prod[k], -1, asc, 0);
		check(bad == 0, "%s equals %s (%ld cells differ)", prod[k], asc, bad);
	}
	{
		long bh = same_as_asc("h", 3, "h_0003.asc", 0);
		long bw = same_as_asc("w", 2, "w_0002.asc", 1e-6);
		long bu = same_as_asc("u", 1, "u_0001.asc", 0);
		check(bh + bw + bu == 0, "snapshots h[3], u[1] equal h_0003.asc, u_0001.asc; w[2] "
			"w_0002.asc to float precision (%ld, %ld, %ld cells differ)", bh, bw, bu);
	}
	/* CF time: every time counted from the default start (cftime.h) */
	{
		static const char *const times[4] = { "time", "arrival_time", "time_of_max_depth",
			"gauge_time" };
		for (int k = 0; k < 4; k++) {
			char *u = text(var(times[k]), "units"), *cal = text(var(times[k]), "calendar");
			check(!strcmp(u, "seconds since 2000-01-01 00:00:00") &&
				!strcmp(cal, "standard"), "%s units \"%s\", calendar \"%s\"", times[k], u,
				cal);
			free(u);
			free(cal);
		}
		thr = text(var("duration_wet"), "units");
		check(!strcmp(thr, "s"), "duration_wet units \"%s\" (a duration, not a time)", thr);
		free(thr);
	}
	nc(nc_inq_dimid(id, "gauge", &d), "gauge");
	nc(nc_inq_dimlen(id, d, &ng), "gauge");
	nc(nc_inq_dimid(id, "gauge_time", &d), "gauge_time");
	nc(nc_inq_dimlen(id, d, &nt), "gauge_time");
	{
		char *names[2] = { NULL, NULL };
		float depth[2];
		size_t start[2] = { nt - 1, 0 }, count[2] = { 1, 2 };
		nc(nc_get_var_string(id, var("gauge_name"), names), "gauge_name");
		nc(nc_get_vara_float(id, var("gauge_depth"), start, count, depth), "gauge_depth");
		check(ng == 2 && nt == 16 && !strcmp(names[0], "G1") && !strcmp(names[1], "G2"),
			"gauges G1, G2 with 16 rows (every 2 s from 0 to 30 s): %zu, %zu", ng, nt);
		nc_free_string(2, names);
	}
}
#endif

int main(void)
{
#ifndef HAVE_NETCDF
	printf("SKIP: spate was built without NetCDF\n");
	return 77;
#else
	char cmd[1024], path[512];
	write_inputs("both");
	snprintf(cmd, sizeof cmd, "run '%s/run.conf' -q", dir);
	if (run_spate(cmd) != 0)
		die("spate run failed");
	snprintf(path, sizeof path, "%s/out/results.nc", dir);
	nc(nc_open(path, NC_NOWRITE, &id), path);
	check_grid();
	check_data();
	nc_close(id);
	cleanup();
	printf("t_ncout: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
#endif
}
