/* swe_results.c: the flood module's results file (swe_results.h): its
 * grid, bed, snapshots, products, gauges and parameters handed to the
 * physics-neutral writer (ncout.h) as fields, points and attributes. */
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
#include "swe_results.h"
#include "output.h"
#include "ncout.h"
#include "gauge.h"
#include "products_kern.h"

#define FILL (-9999.0)
#define REAL_TYPE (sizeof(real) == sizeof(float) ? SPATE_F32 : SPATE_F64)

/* A gauge row: depth, level, u, v (gauge_values); at the end, maxima. */
static const struct spate_series gauge_series[4] = {
	{ "gauge_depth", "m", "depth at the gauge", 0 },
	{ "gauge_level", "m", "water level at the gauge", 0 },
	{ "gauge_u", "m s-1", "eastward velocity at the gauge", 0 },
	{ "gauge_v", "m s-1", "northward velocity at the gauge", 0 } };
enum { NMAX = 5 };
static const struct spate_series gauge_max[NMAX] = {
	{ "gauge_max_level", "m", "max_level", 0 },
	{ "gauge_max_level_neighbourhood", "m", "max_level_neighbourhood", 0 },
	{ "gauge_max_depth", "m", "max_depth", 0 },
	{ "gauge_arrival_time", "s", "arrival_time", 1 },
	{ "gauge_time_of_max_level", "s", "time_of_max_level", 1 } };

/* max_hazard_class: each scheme's values, meanings and source (the
 * thresholds are in hazard_kern.h and spate-scenario(5)). */
static const struct hazard_text {
	const char *name, *values, *meanings, *source;
} hazard_texts[3] = {
	{ "none", "", "", "" },
	{ "arr2019", "0 1 2 3 4 5 6", "dry H1 H2 H3 H4 H5 H6", "Australian Rainfall and Runoff "
		"2019, Book 6 Chapter 7, combined hazard curves (Table 6.7.4)" },
	{ "fd2320", "0 1 2 3 4", "dry low moderate significant extreme", "Defra/Environment "
		"Agency FD2320/TR2 (2006): HR = d (v + 0.5) + DF, DF = 0.5 where d <= 0.25 m, else "
		"1 (precautionary rule of the 2008 supplementary note)" } };

/* A 2D field of the grid: values data of type type, row pitch sy. */
static struct spate_field field(const char *name, const char *units, const char *long_name,
	enum spate_ftype store, const void *data, enum spate_ftype type, ptrdiff_t sy)
{
	return (struct spate_field){ .name = name, .units = units, .long_name = long_name,
		.ndims = 2, .type = type, .store = store, .fill = FILL, .data = data, .sx = 1,
		.sy = sy };
}

/* The global attributes into a (20 at most); text: room for the history,
 * the title and the source.  Returns their number. */
static int global_attrs(struct spate_attr *a, char (*text)[2 * SWE_PATH_MAX + 128],
	const struct swe_params *p, const struct swe_state *s, const char *params)
{
	char when[32];
	time_t now = time(NULL);
	int n = 0;
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(text[0], sizeof text[0], "%s: spate %s run, set-up %s%s%s", when,
		PACKAGE_VERSION, p->setup, p->dem[0] ? ", DEM " : "", p->dem[0] ? p->dem : "");
	a[n++] = (struct spate_attr){ "history", text[0], 0 };
	snprintf(text[1], sizeof text[1], "spate flood simulation: %s%s%s", p->setup,
		p->dem[0] ? " on " : "", p->dem[0] ? p->dem : "");
	a[n++] = (struct spate_attr){ "title", text[1], 0 };
	snprintf(text[2], sizeof text[2], "spate %s: 2D shallow-water equations, "
		"Kurganov-Petrova (2007) central-upwind scheme, %s, %s precision", PACKAGE_VERSION,
		p->integrator == 1 ? "forward Euler" : "SSP-RK2", SPATE_PRECISION);
	a[n++] = (struct spate_attr){ "source", text[2], 0 };
	a[n++] = (struct spate_attr){ "references", "A. Kurganov and G. Petrova, Commun. Math. "
		"Sci. 5(1), 133-160 (2007)", 0 };
	a[n++] = (struct spate_attr){ "spate_parameters", params ? params : "", 0 };
	a[n++] = (struct spate_attr){ "spate_setup", p->setup, 0 };
	if (p->dem[0])
		a[n++] = (struct spate_attr){ "spate_dem", p->dem, 0 };
	a[n++] = (struct spate_attr){ "spate_precision", SPATE_PRECISION, 0 };
	a[n++] = (struct spate_attr){ "spate_x0", NULL, s->x0 };
	a[n++] = (struct spate_attr){ "spate_y0", NULL, s->y0 };
	a[n++] = (struct spate_attr){ "spate_dx", NULL, s->dx };
	a[n++] = (struct spate_attr){ "spate_dy", NULL, s->dy };
	a[n++] = (struct spate_attr){ "spate_bed_reference", NULL, s->bref };
	a[n++] = (struct spate_attr){ "spate_end_time", NULL, p->end_time };
	a[n++] = (struct spate_attr){ "spate_cfl", NULL, p->cfl };
	a[n++] = (struct spate_attr){ "spate_manning", NULL, p->manning };
	a[n++] = (struct spate_attr){ "spate_wet_threshold", NULL, p->threshold };
	a[n++] = (struct spate_attr){ "time_coverage_start", p->start_time, 0 };
	return n;
}

/* The gauges as points: names, x and y in v (3 * n values). */
static void gauge_points(struct spate_points *pt, const struct gauge_set *gs,
	const char **names, double *v)
{
	memset(pt, 0, sizeof *pt);
	for (int k = 0; k < gs->n; k++) {
		names[k] = gs->g[k].name;
		v[k] = gs->g[k].x;
		v[gs->n + k] = gs->g[k].y;
	}
	pt->prefix = "gauge";
	pt->n = gs->n;
	pt->names = names;
	pt->x = v;
	pt->y = v + gs->n;
	pt->series = gauge_series;
	pt->nseries = 4;
	pt->finals = gauge_max;
	pt->nfinal = NMAX;
	pt->fill = FILL;
}

/* max_hazard_class of scheme z: classes as bytes (fill -1 on masked
 * cells), with CF flag values and meanings; a[4] its attributes. */
static struct spate_field class_field(int z, struct spate_attr *a, const void *data,
	ptrdiff_t sy)
{
	struct spate_field f = field("max_hazard_class", NULL, "greatest flood hazard class "
		"of any step while wet (0: never wetter than the wet threshold)", SPATE_I8, data,
		SPATE_F64, sy);
	const struct hazard_text *h = &hazard_texts[z];
	f.fill = -1;
	a[0] = (struct spate_attr){ "flag_values", h->values, 0 };
	a[1] = (struct spate_attr){ "flag_meanings", h->meanings, 0 };
	a[2] = (struct spate_attr){ "hazard_scheme", h->name, 0 };
	a[3] = (struct spate_attr){ "references", h->source, 0 };
	f.attrs = a;
	f.nattrs = 4;
	return f;
}

/* The variables of the file: snapshots in rec[4], products in fin
 * (SWE_NPROD, and max_hazard_class with a scheme; ca its attributes). */
static void variables(struct spate_nc_spec *spec, struct spate_field *rec,
	struct spate_field *fin, struct spate_attr *thr, struct spate_attr *ca,
	const struct swe_params *p)
{
	*thr = (struct spate_attr){ "wet_threshold", NULL, p->threshold };
	for (int k = 0; k < 4; k++)
		rec[k] = field(swe_snap_names[k], swe_snap_units[k], swe_snap_long_names[k],
			REAL_TYPE, NULL, REAL_TYPE, 0);
	for (int k = 0; k < SWE_NPROD; k++) {
		fin[k] = field(swe_prod_names[k], swe_prod_units[k], swe_prod_long_names[k],
			SPATE_F32, NULL, SPATE_F64, 0);
		fin[k].attrs = thr;
		fin[k].nattrs = 1;
		fin[k].is_time = !strcmp(swe_prod_units[k], "s") && strcmp(swe_prod_names[k],
			"duration_wet");
	}
	fin[SWE_NPROD] = class_field(p->hazard_scheme, ca, NULL, 0);
	spec->records = rec;
	spec->nrecords = p->write_grids ? 4 : 0;
	spec->finals = fin;
	spec->nfinals = p->products ? SWE_NPROD + (p->hazard_scheme != SPATE_HAZARD_NONE) : 0;
}

int swe_results_open(struct spate_nc **nc, const char *path, const struct swe_params *p,
	const struct swe_state *s, const struct gauge_set *gs, int append)
{
	struct spate_nc_spec spec;
	struct spate_field bed, rec[4], fin[SWE_NPROD + 1];
	struct spate_attr attrs[20], thr, ca[4];
	char units[SPATE_TIME_TEXT];
	struct spate_points pt;
	char text[3][2 * SWE_PATH_MAX + 128], *params = swe_params_text(p);
	int ng = gs ? gs->n : 0, rc = -SPATE_ENOMEM;
	const char **names = malloc(((size_t)ng + 1) * sizeof *names);
	double *xy = malloc((2 * (size_t)ng + 1) * sizeof *xy), *b = swe_bed_values(s);
	memset(&spec, 0, sizeof spec);
	spec.grid = (struct spate_grid){ .nx = s->nx, .ny = s->ny, .x0 = s->x0, .y0 = s->y0,
		.dx = s->dx, .dy = s->dy, .crs_wkt = s->crs_wkt };
	bed = field("bed", "m", "bed elevation at the cell centre, as the solver sees it",
		REAL_TYPE, b, SPATE_F64, s->nx);
	bed.standard_name = "surface_altitude";
	spec.fixed = &bed;
	spec.nfixed = 1;
	variables(&spec, rec, fin, &thr, ca, p);
	spate_time_units(p->start_time, units);
	spec.time_units = units;
	spec.attrs = attrs;
	spec.nattrs = global_attrs(attrs, text, p, s, params);
	if (ng && names && xy) {
		gauge_points(&pt, gs, names, xy);
		spec.points = &pt;
	}
	spec.append = append;
	if (names && xy && b)
		rc = spate_nc_create(nc, path, &spec);
	free(names);
	free(xy);
	free(b);
	free(params);
	return rc;
}

int swe_results_snapshot(struct spate_nc *nc, long rec, double t, struct swe_state *snap,
	double kappa)
{
	struct spate_field f[4];
	real *h = malloc((size_t)snap->nx * snap->ny * sizeof *h);
	const real *at[4] = { h, snap->w, snap->hu, snap->hv };
	int rc;
	if (!h)
		return -SPATE_ENOMEM;
	swe_snap_fields(snap, h, (real)(kappa * kappa * kappa * kappa));
	for (int k = 0; k < 4; k++) {
		long o = k ? swe_idx(snap, 0, 0) : 0;
		f[k] = field(swe_snap_names[k], swe_snap_units[k], swe_snap_long_names[k], REAL_TYPE,
			at[k] + o, REAL_TYPE, k ? snap->pitch : snap->nx);
	}
	rc = spate_nc_record(nc, rec, t, f, 4);
	free(h);
	return rc;
}

/* The gauges' maxima: NMAX values per gauge. */
static int gauge_final(struct spate_nc *nc, const struct gauge_set *gs)
{
	double *v = malloc((size_t)gs->n * NMAX * sizeof *v);
	int rc;
	if (!v)
		return -SPATE_ENOMEM;
	for (int g = 0; g < gs->n; g++) {
		const struct gauge *q = &gs->g[g];
		double *r = v + (size_t)NMAX * g;
		r[0] = q->max_level;
		r[1] = q->max_level_nb;
		r[2] = q->max_depth;
		r[3] = q->arrival;
		r[4] = q->t_max;
	}
	rc = spate_nc_points_final(nc, v);
	free(v);
	return rc;
}

int swe_results_final(struct spate_nc *nc, const struct swe_state *s, const struct swe_prod *pr,
	const struct gauge_set *gs, double t_end, int scheme)
{
	size_t n = (size_t)s->nx * s->ny;
	double *b = pr ? malloc(n * sizeof *b) : NULL;
	struct spate_attr end = { "spate_t_end", NULL, t_end };
	int rc = pr && !b ? -SPATE_ENOMEM : 0;
	for (int var = 0; b && var < SWE_NPROD && !rc; var++) {
		struct spate_field f = field(swe_prod_names[var], NULL, NULL, SPATE_F32, b,
			SPATE_F64, s->nx);
		for (size_t k = 0; k < n; k++)
			b[k] = s->mask && s->mask[k] ? NAN : swe_prod_value(&pr[k], var);
		rc = spate_nc_fields(nc, &f, 1);
	}
	if (b && !rc && scheme != SPATE_HAZARD_NONE) {
		struct spate_attr ca[4];
		struct spate_field f = class_field(scheme, ca, b, s->nx);
		for (size_t k = 0; k < n; k++)
			b[k] = s->mask && s->mask[k] ? NAN : swe_prod_class(&pr[k], scheme);
		rc = spate_nc_fields(nc, &f, 1);
	}
	free(b);
	if (!rc && gs)
		rc = gauge_final(nc, gs);
	return rc ? rc : spate_nc_attr(nc, &end);
}
