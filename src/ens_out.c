/* ens_out.c: an ensemble's files (ens.h): ensemble.nc (the results writer
 * of ncout.h: the grid, CRS and bed of results.nc, the ensemble's fields,
 * the members' values as a table), ESRI ASCII grids of the same fields,
 * Cloud Optimized GeoTIFFs of them (terrain/cog.h, with GDAL), and
 * members.csv. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spate.h"
#include "swe.h"
#include "swe_state.h"
#include "params.h"
#include "ens.h"
#include "output.h"
#include "ncout.h"
#include "cog.h"

#define FILL (-9999.0)
enum { NFIX = 3, NMAX_FIELDS = NFIX + ENS_PCT_MAX, TEXT = 160 };

/* The fields of f with their names, units and long names (text: room for
 * the percentiles' names); returns their number. */
static int fields(const struct ens_spec *e, const struct ens_fields *f,
	struct spate_field *fl, char (*text)[2][TEXT], const struct spate_attr *thr)
{
	const double *data[NFIX] = { f->prob, f->first, f->mean };
	static const char *const name[NFIX] = { "flood_probability", "arrival_time_min",
		"arrival_time_mean" };
	static const char *const lname[NFIX] = {
		"probability of flooding: fraction of the members whose depth exceeded the wet "
		"threshold", "earliest arrival time over the members", "mean arrival time over "
		"the members that flooded" };
	int n = 0;
	for (int k = 0; k < NFIX + e->npct; k++, n++) {
		memset(&fl[n], 0, sizeof fl[n]);
		if (k < NFIX) {
			fl[n].name = name[k];
			fl[n].long_name = lname[k];
			fl[n].units = k ? swe_prod_units[3] : "1";
			fl[n].is_time = k > 0;   /* ensemble.nc: the time units of results.nc */
			fl[n].data = data[k];
		} else {
			int pc = e->pct[k - NFIX];
			snprintf(text[n][0], TEXT, "max_depth_p%d", pc);
			snprintf(text[n][1], TEXT, "percentile %d of the maximum depth over the members "
				"(nearest rank)", pc);
			fl[n].name = text[n][0];
			fl[n].long_name = text[n][1];
			fl[n].units = swe_prod_units[0];
			fl[n].data = f->pct[k - NFIX];
		}
		fl[n].ndims = 2;
		fl[n].type = SPATE_F64;
		fl[n].store = SPATE_F32;
		fl[n].fill = FILL;
		fl[n].attrs = thr;
		fl[n].nattrs = 1;
	}
	return n;
}

void ens_print_members(const struct ens_spec *e, const double *v, void *file)
{
	FILE *f = file;
	fprintf(f, "member");
	for (int k = 0; k < e->nvary; k++)
		fprintf(f, ",%s.%s", e->vary[k].sec, e->vary[k].key);
	fputc('\n', f);
	for (int m = 0; m < e->members; m++) {
		fprintf(f, "%d", m + 1);
		for (int k = 0; k < e->nvary; k++)
			fprintf(f, ",%.17g", v[(size_t)m * e->nvary + k]);
		fputc('\n', f);
	}
}

static int write_csv(const struct ens_spec *e, const char *dir, const double *v)
{
	char path[SWE_NAME_MAX + 32];
	FILE *f;
	snprintf(path, sizeof path, "%s/members.csv", dir);
	if (!(f = fopen(path, "w"))) {
		spate_log_error("ensemble", "%s: cannot write", path);
		return -SPATE_EIO;
	}
	ens_print_members(e, v, f);
	if (fclose(f)) {
		spate_log_error("ensemble", "%s: cannot write", path);
		return -SPATE_EIO;
	}
	return 0;
}

/* One field as ESRI ASCII at path, with the grid's CRS as a .prj beside it:
 * NaN as FILL; buf holds nx * ny doubles. */
static int put_asc(const char *path, const struct swe_state *s, const struct spate_field *f,
	void *buf)
{
	double *g = buf;
	const double *d = f->data;
	for (size_t c = 0; c < (size_t)s->nx * s->ny; c++)
		g[c] = isnan(d[c]) ? FILL : d[c];
	return spate_write_asc(path, s->nx, s->ny, s->x0, s->y0, s->dx, s->dy, g, FILL, s->crs_wkt);
}

#ifdef HAVE_GDAL
/* One field as a Cloud Optimized GeoTIFF at path (NaN: NODATA FILL). */
static int put_cog(const char *path, const struct swe_state *s, const struct spate_field *f,
	void *buf)
{
	struct spate_grid g = { .nx = s->nx, .ny = s->ny, .x0 = s->x0, .y0 = s->y0, .dx = s->dx,
		.dy = s->dy, .crs_wkt = s->crs_wkt };
	float *v = buf;
	const double *d = f->data;
	for (size_t c = 0; c < (size_t)s->nx * s->ny; c++)
		v[c] = (float)d[c];
	return spate_cog_write_field(path, &g, v, FILL, f->name, f->units, NULL);
}
#endif

/* Each field fl[0 .. n) as <dir>/<name><ext> through put. */
static int write_each(const struct swe_state *s, const char *dir, const struct spate_field *fl,
	int n, const char *ext, int (*put)(const char *, const struct swe_state *,
	const struct spate_field *, void *))
{
	void *buf = malloc((size_t)s->nx * s->ny * sizeof(double));
	int rc = buf ? 0 : -SPATE_ENOMEM;
	for (int k = 0; k < n && !rc; k++) {
		char path[SWE_NAME_MAX + 64];
		snprintf(path, sizeof path, "%s/%s%s", dir, fl[k].name, ext);
		rc = put(path, s, &fl[k], buf);
	}
	free(buf);
	return rc;
}

/* The members' values as a table: a column per key. */
static void table(struct spate_table *t, const struct ens_spec *e, const double *v,
	struct spate_series *col, struct spate_attr *at, char (*text)[3][TEXT])
{
	for (int k = 0; k < e->nvary; k++) {
		const struct ens_vary *y = &e->vary[k];
		snprintf(text[k][0], TEXT, "%s_%s", y->sec, y->key);
		snprintf(text[k][1], TEXT, "[%s] %s of each member", y->sec, y->key);
		snprintf(text[k][2], TEXT, "--vary %s.%s=%.15g:%.15g", y->sec, y->key, y->lo, y->hi);
		col[k] = (struct spate_series){ text[k][0], NULL, text[k][1], 0 };
		at[k] = (struct spate_attr){ "spate_vary", text[k][2], 0 };
	}
	*t = (struct spate_table){ .dim = "member", .long_name = "member number (the rows of "
		"members.csv, the folders member_NNN)", .n = e->members, .ncol = e->nvary,
		.cols = col, .col_attrs = at, .v = v };
}

/* The global attributes into a (12 at most); text: room for three. */
static int global_attrs(struct spate_attr *a, char (*text)[2 * SWE_PATH_MAX],
	const struct ens_spec *e, const struct swe_params *p, const char *params)
{
	static const char *const sampling[] = { "lhs", "grid", "random" };
	char when[32];
	time_t now = time(NULL);
	int n = 0;
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(text[0], sizeof text[0], "%s: spate %s ensemble of %d members of %s", when,
		PACKAGE_VERSION, e->members, e->scenario);
	snprintf(text[1], sizeof text[1], "spate flood ensemble: %d members of %s", e->members,
		e->scenario);
	snprintf(text[2], sizeof text[2], "%llu", (unsigned long long)e->seed);
	a[n++] = (struct spate_attr){ "history", text[0], 0 };
	a[n++] = (struct spate_attr){ "title", text[1], 0 };
	a[n++] = (struct spate_attr){ "source", "spate: 2D shallow-water equations, "
		"Kurganov-Petrova (2007) central-upwind scheme, " SPATE_PRECISION " precision", 0 };
	a[n++] = (struct spate_attr){ "spate_parameters", params ? params : "", 0 };
	a[n++] = (struct spate_attr){ "spate_ensemble_members", NULL, e->members };
	a[n++] = (struct spate_attr){ "spate_ensemble_sampling", sampling[e->sampling], 0 };
	a[n++] = (struct spate_attr){ "spate_ensemble_seed", text[2], 0 };
	a[n++] = (struct spate_attr){ "spate_ensemble_percentiles", "nearest rank", 0 };
	a[n++] = (struct spate_attr){ "spate_wet_threshold", NULL, p->threshold };
	return n;
}

static int write_nc(const struct ens_spec *e, const struct swe_params *p,
	const struct swe_state *s, const double *v, const struct spate_field *fl, int n)
{
	char path[SWE_NAME_MAX + 32], (*text)[3][TEXT] = malloc(ENS_VARY_MAX * sizeof *text);
	char units[SPATE_TIME_TEXT];
	char (*gtext)[2 * SWE_PATH_MAX] = malloc(3 * sizeof *gtext);
	char *params = swe_params_text(p);
	double *b = swe_bed_values(s);
	struct spate_series col[ENS_VARY_MAX];
	struct spate_attr at[ENS_VARY_MAX], attrs[12];
	struct spate_table t;
	struct spate_nc_spec spec;
	struct spate_field bed;
	struct spate_nc *nc = NULL;
	int rc = -SPATE_ENOMEM;
	memset(&spec, 0, sizeof spec);
	if (text && gtext && params && b) {
		snprintf(path, sizeof path, "%s/ensemble.nc", p->out_dir);
		spec.grid = (struct spate_grid){ .nx = s->nx, .ny = s->ny, .x0 = s->x0, .y0 = s->y0,
			.dx = s->dx, .dy = s->dy, .crs_wkt = s->crs_wkt };
		bed = (struct spate_field){ .name = "bed", .units = "m", .standard_name =
			"surface_altitude", .long_name = "bed elevation at the cell centre, as the "
			"solver sees it", .ndims = 2, .type = SPATE_F64, .store = SPATE_F32,
			.fill = FILL, .data = b, .sx = 1, .sy = s->nx };
		spec.fixed = &bed;
		spec.nfixed = 1;
		spec.finals = fl;
		spec.nfinals = n;
		table(&t, e, v, col, at, text);
		spec.table = &t;
		spate_time_units(p->start_time, units);
		spec.time_units = units;
		spec.attrs = attrs;
		spec.nattrs = global_attrs(attrs, gtext, e, p, params);
		rc = spate_nc_create(&nc, path, &spec);
	}
	if (!rc)
		rc = spate_nc_fields(nc, fl, n);
	if (nc) {
		int rc2 = spate_nc_close(nc);
		rc = rc ? rc : rc2;
	}
	free(text);
	free(gtext);
	free(params);
	free(b);
	return rc;
}

int ens_write(const struct ens_spec *e, const struct swe_params *p, const struct swe_state *s,
	const double *v, const struct ens_fields *f)
{
	struct spate_field fl[NMAX_FIELDS];
	struct spate_attr thr = { "wet_threshold", NULL, p->threshold };
	char text[NMAX_FIELDS][2][TEXT];
	int n = fields(e, f, fl, text, &thr), rc;
	for (int k = 0; k < n; k++) {
		fl[k].sx = 1;
		fl[k].sy = s->nx;
	}
	if ((rc = spate_mkdir_p(p->out_dir)) || (rc = write_csv(e, p->out_dir, v)))
		return rc;
	if (p->out_format != SWE_FMT_NETCDF && (rc = write_each(s, p->out_dir, fl, n, ".asc",
		put_asc)))
		return rc;
	if (p->out_format != SWE_FMT_ASCII && (rc = write_nc(e, p, s, v, fl, n)))
		return rc;
#ifdef HAVE_GDAL
	return e->no_cog ? 0 : write_each(s, p->out_dir, fl, n, ".tif", put_cog);
#else
	if (!e->no_cog)
		spate_log_info("spate ensemble: no Cloud Optimized GeoTIFFs: this spate was "
			"built without GDAL\n");
	return 0;
#endif
}
