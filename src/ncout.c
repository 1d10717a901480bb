/* ncout.c: every NetCDF call of spate.  The results file follows CF-1.8:
 * x(x), y(y) cell-centre coordinates (x = x0 + (i + 1/2) dx, y = y0 +
 * (j + 1/2) dy, y increasing: row 0 is the southern row), a grid mapping
 * variable "crs" with the DEM's WKT, the bed, snapshots along an unlimited
 * time dimension, the flood products, and the gauges' series along their own
 * unlimited dimension gauge_time.  With ckpt_nc.c (checkpoints) and ncread.c
 * (reading results back for maps), the only code of spate that calls
 * NetCDF.  Built without NetCDF, every entry point says so. */
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
#include "ncout.h"
#include "output.h"
#include "gauge.h"
#include "checkpoint.h"
#include "products_kern.h"
#include "terrain.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

#define FILL (-9999.0)
#ifdef SPATE_DOUBLE
#define NC_REAL NC_DOUBLE
#else
#define NC_REAL NC_FLOAT
#endif

static const char *const gser_names[4] = { "gauge_depth", "gauge_level", "gauge_u", "gauge_v" };
static const char *const gmax_names[SWE_CKPT_GAUGE_VALUES] = { "gauge_max_level",
	"gauge_max_level_neighbourhood", "gauge_max_depth", "gauge_arrival_time",
	"gauge_time_of_max_level" };

struct spate_nc {
	int id;
	char path[SWE_PATH_MAX + 64];
	int nx, ny, ng;
	int v_time, v_snap[4], v_prod[SWE_NPROD], v_gtime, v_gser[4], v_gmax[5];
	double *buf;        /* nx * ny (NetCDF converts to the variables' types) */
};

#define NC(what, call) SPATE_NC("netcdf", what, call)

static int att_text(int id, int v, const char *name, const char *text)
{
	return nc_put_att_text(id, v, name, strlen(text), text);
}

static int att_dbl(int id, int v, const char *name, double d)
{
	return nc_put_att_double(id, v, name, NC_DOUBLE, 1, &d);
}

/* Define variable name with its units, long_name, standard_name (or NULL),
 * fill value FILL when fill, grid mapping "crs" when crs; 2D and 3D ones
 * compressed (shuffle, deflate 1).  Returns a NetCDF status. */
static int def_var(int id, const char *name, nc_type type, int nd, const int *dims,
	const char *units, const char *long_name, const char *std, int fill, int crs, int *v)
{
	int e = nc_def_var(id, name, type, nd, dims, v);
	if (!e && units)
		e = att_text(id, *v, "units", units);
	if (!e && long_name)
		e = att_text(id, *v, "long_name", long_name);
	if (!e && std)
		e = att_text(id, *v, "standard_name", std);
	if (!e && fill && type == NC_FLOAT) {
		float fv = (float)FILL;
		e = nc_def_var_fill(id, *v, 0, &fv);
	} else if (!e && fill) {
		double fv = FILL;
		e = nc_def_var_fill(id, *v, 0, &fv);
	}
	if (!e && crs)
		e = att_text(id, *v, "grid_mapping", "crs");
	if (!e && nd >= 2 && type != NC_STRING)
		e = nc_def_var_deflate(id, *v, 1, 1, 1);
	return e;
}

/* A geographic CRS (degrees) rather than a projected one (metres)? */
static int geographic(const char *wkt)
{
	return wkt && (!strncmp(wkt, "GEOGCS", 6) || !strncmp(wkt, "GEOGCRS", 7) ||
		!strncmp(wkt, "GEODCRS", 7));
}

/* Coordinates, the grid mapping and the global attributes. */
static int def_grid(int id, const struct swe_state *s, const struct swe_params *p,
	const char *params, int dims[2])
{
	int geo = geographic(s->crs_wkt), vx, vy, vc, e;
	char text[2 * SWE_PATH_MAX], when[32];
	time_t now = time(NULL);
	if ((e = nc_def_dim(id, "y", (size_t)s->ny, &dims[0])) ||
		(e = nc_def_dim(id, "x", (size_t)s->nx, &dims[1])) ||
		(e = def_var(id, "x", NC_DOUBLE, 1, &dims[1], geo ? "degrees_east" : "m",
			"x of the cell centre", geo ? "longitude" : "projection_x_coordinate", 0, 0, &vx)) ||
		(e = att_text(id, vx, "axis", "X")) ||
		(e = def_var(id, "y", NC_DOUBLE, 1, &dims[0], geo ? "degrees_north" : "m",
			"y of the cell centre", geo ? "latitude" : "projection_y_coordinate", 0, 0, &vy)) ||
		(e = att_text(id, vy, "axis", "Y")))
		return e;
	if (s->crs_wkt) {
		/* GDAL's georeferencing: top-left corner, north-up */
		snprintf(text, sizeof text, "%.17g %.17g 0 %.17g 0 %.17g", s->x0, s->dx,
			s->y0 + s->ny * s->dy, -s->dy);
		if ((e = nc_def_var(id, "crs", NC_INT, 0, NULL, &vc)) ||
			(e = att_text(id, vc, "crs_wkt", s->crs_wkt)) ||
			(e = att_text(id, vc, "spatial_ref", s->crs_wkt)) ||
			(e = att_text(id, vc, "GeoTransform", text)) ||
			(geo && (e = att_text(id, vc, "grid_mapping_name", "latitude_longitude"))))
			return e;
	}
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(text, sizeof text, "%s: spate %s run, set-up %s%s%s", when, PACKAGE_VERSION,
		p->setup, p->dem[0] ? ", DEM " : "", p->dem[0] ? p->dem : "");
	if ((e = att_text(id, NC_GLOBAL, "Conventions", "CF-1.8")) ||
		(e = att_text(id, NC_GLOBAL, "history", text)))
		return e;
	snprintf(text, sizeof text, "spate flood simulation: %s%s%s", p->setup,
		p->dem[0] ? " on " : "", p->dem[0] ? p->dem : "");
	if ((e = att_text(id, NC_GLOBAL, "title", text)))
		return e;
	snprintf(text, sizeof text, "spate %s: 2D shallow-water equations, Kurganov-Petrova "
		"(2007) central-upwind scheme, %s, %s precision", PACKAGE_VERSION,
		p->integrator == 1 ? "forward Euler" : "SSP-RK2", SPATE_PRECISION);
	if ((e = att_text(id, NC_GLOBAL, "source", text)) ||
		(e = att_text(id, NC_GLOBAL, "references", "A. Kurganov and G. Petrova, Commun. "
			"Math. Sci. 5(1), 133-160 (2007)")) ||
		(e = att_text(id, NC_GLOBAL, "spate_parameters", params ? params : "")) ||
		(e = att_text(id, NC_GLOBAL, "spate_setup", p->setup)) ||
		(p->dem[0] && (e = att_text(id, NC_GLOBAL, "spate_dem", p->dem))) ||
		(e = att_text(id, NC_GLOBAL, "spate_precision", SPATE_PRECISION)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_x0", s->x0)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_y0", s->y0)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_dx", s->dx)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_dy", s->dy)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_bed_reference", s->bref)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_end_time", p->end_time)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_cfl", p->cfl)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_manning", p->manning)) ||
		(e = att_dbl(id, NC_GLOBAL, "spate_wet_threshold", p->threshold)))
		return e;
	return 0;
}

/* Snapshot, product and gauge variables. */
static int def_data(struct spate_nc *f, const struct swe_params *p,
	const struct spate_nc_spec *spec, const int dims[2], int crs)
{
	static const char *const snap_units[4] = { "m", "m", "m s-1", "m s-1" };
	static const char *const snap_long[4] = { "water depth", "water level (absolute)",
		"eastward depth-averaged velocity", "northward depth-averaged velocity" };
	int id = f->id, d3[3], dg[2], e, v;
	if (spec->snapshots) {
		size_t chunk[3] = { 1, (size_t)f->ny < 1024 ? (size_t)f->ny : 1024,
			(size_t)f->nx < 1024 ? (size_t)f->nx : 1024 };
		if ((e = nc_def_dim(id, "time", NC_UNLIMITED, &d3[0])) ||
			(e = def_var(id, "time", NC_DOUBLE, 1, d3, "s", "simulated time since the "
				"start of the run", "time", 0, 0, &f->v_time)) ||
			(e = att_text(id, f->v_time, "axis", "T")))
			return e;
		d3[1] = dims[0];
		d3[2] = dims[1];
		for (int k = 0; k < 4; k++)
			if ((e = def_var(id, swe_snap_names[k], NC_REAL, 3, d3, snap_units[k],
				snap_long[k], NULL, 1, crs, &f->v_snap[k])) ||
				(e = nc_def_var_chunking(id, f->v_snap[k], NC_CHUNKED, chunk)))
				return e;
	}
	for (int k = 0; spec->products && k < SWE_NPROD; k++)
		if ((e = def_var(id, swe_prod_names[k], NC_FLOAT, 2, dims, swe_prod_units[k],
			swe_prod_long_names[k], NULL, 1, crs, &f->v_prod[k])) ||
			(e = att_dbl(id, f->v_prod[k], "wet_threshold", p->threshold)))
			return e;
	if (!f->ng)
		return 0;
	if ((e = nc_def_dim(id, "gauge_time", NC_UNLIMITED, &dg[0])) ||
		(e = nc_def_dim(id, "gauge", (size_t)f->ng, &dg[1])) ||
		(e = def_var(id, "gauge_time", NC_DOUBLE, 1, dg, "s", "simulated time of the gauge "
			"rows", "time", 0, 0, &f->v_gtime)) ||
		(e = def_var(id, "gauge_name", NC_STRING, 1, &dg[1], NULL, "gauge name", NULL, 0, 0,
			&v)) ||
		(e = att_text(id, v, "cf_role", "timeseries_id")) ||
		(e = def_var(id, "gauge_x", NC_DOUBLE, 1, &dg[1], "m", "gauge x",
			"projection_x_coordinate", 0, 0, &v)) ||
		(e = def_var(id, "gauge_y", NC_DOUBLE, 1, &dg[1], "m", "gauge y",
			"projection_y_coordinate", 0, 0, &v)))
		return e;
	for (int k = 0; k < 4; k++) {
		size_t chunk[2] = { 256, (size_t)f->ng };
		if ((e = def_var(id, gser_names[k], NC_FLOAT, 2, dg, k < 2 ? "m" : "m s-1",
			k == 0 ? "depth at the gauge" : k == 1 ? "water level at the gauge" :
			k == 2 ? "eastward velocity at the gauge" : "northward velocity at the gauge",
			NULL, 0, 0, &f->v_gser[k])) ||
			(e = att_text(id, f->v_gser[k], "coordinates", "gauge_x gauge_y gauge_name")) ||
			(e = nc_def_var_chunking(id, f->v_gser[k], NC_CHUNKED, chunk)))
			return e;
	}
	for (int k = 0; k < SWE_CKPT_GAUGE_VALUES; k++)
		if ((e = def_var(id, gmax_names[k], NC_DOUBLE, 1, &dg[1], k < 3 ? "m" : "s",
			gmax_names[k] + 6, NULL, 1, 0, &f->v_gmax[k])))
			return e;
	return 0;
}

/* Coordinates, bed and gauge positions, once after the definitions. */
static int put_static(struct spate_nc *f, const struct swe_state *s, const struct gauge_set *gs)
{
	double *c = malloc((size_t)(f->nx > f->ny ? f->nx : f->ny) * sizeof *c);
	int v, e = NC_ENOMEM;
	if (!c)
		return e;
	for (int i = 0; i < f->nx; i++)
		c[i] = s->x0 + (i + 0.5) * s->dx;
	if ((e = nc_inq_varid(f->id, "x", &v)) || (e = nc_put_var_double(f->id, v, c)))
		goto out;
	for (int j = 0; j < f->ny; j++)
		c[j] = s->y0 + (j + 0.5) * s->dy;
	if ((e = nc_inq_varid(f->id, "y", &v)) || (e = nc_put_var_double(f->id, v, c)))
		goto out;
	for (int j = 0; j < f->ny; j++)
		for (int i = 0; i < f->nx; i++) {
			size_t k = (size_t)j * f->nx + i;
			f->buf[k] = s->mask && s->mask[k] ? FILL : s->Bm[swe_idx(s, i, j)] + s->bref;
		}
	if ((e = nc_inq_varid(f->id, "bed", &v)) || (e = nc_put_var_double(f->id, v, f->buf)))
		goto out;
	for (int k = 0; k < f->ng && !e; k++) {
		size_t at = (size_t)k;
		const char *name = gs->g[k].name;
		if ((e = nc_inq_varid(f->id, "gauge_name", &v)) ||
			(e = nc_put_var1_string(f->id, v, &at, &name)) ||
			(e = nc_inq_varid(f->id, "gauge_x", &v)) ||
			(e = nc_put_var1_double(f->id, v, &at, &gs->g[k].x)) ||
			(e = nc_inq_varid(f->id, "gauge_y", &v)))
			break;
		e = nc_put_var1_double(f->id, v, &at, &gs->g[k].y);
	}
out:
	free(c);
	return e;
}

/* Restart: the existing file at path, if its grid and variables fit. */
static int reopen(struct spate_nc *f, const char *path, const struct spate_nc_spec *spec)
{
	size_t nx = 0, ny = 0, ng = 0;
	int d, nv = 0, e = nc_open(path, NC_WRITE, &f->id);
	if (e)
		return e;
	e = nc_inq_dimid(f->id, "x", &d) || nc_inq_dimlen(f->id, d, &nx) ||
		nc_inq_dimid(f->id, "y", &d) || nc_inq_dimlen(f->id, d, &ny) ||
		nx != (size_t)f->nx || ny != (size_t)f->ny;
	if (!e && f->ng)
		e = nc_inq_dimid(f->id, "gauge", &d) || nc_inq_dimlen(f->id, d, &ng) ||
			ng != (size_t)f->ng || nc_inq_varid(f->id, "gauge_time", &f->v_gtime);
	if (!e && spec->snapshots)
		e = nc_inq_varid(f->id, "time", &f->v_time);
	for (int k = 0; k < 4 && !e; k++)
		e = (spec->snapshots && nc_inq_varid(f->id, swe_snap_names[k], &f->v_snap[k])) ||
			(f->ng && (nc_inq_varid(f->id, gser_names[k], &f->v_gser[k])));
	for (int k = 0; k < SWE_NPROD && !e; k++)
		e = spec->products && nc_inq_varid(f->id, swe_prod_names[k], &f->v_prod[k]);
	for (int k = 0; k < SWE_CKPT_GAUGE_VALUES && !e && f->ng; k++)
		e = nc_inq_varid(f->id, gmax_names[k], &f->v_gmax[k]);
	/* read every variable's metadata now: NetCDF reads it lazily, and the
	 * writer thread's HDF5 error stack would print the misses of its probes */
	if (!e)
		e = nc_inq_nvars(f->id, &nv);
	for (int v = 0; !e && v < nv; v++)
		e = nc_inq_varndims(f->id, v, &d);
	if (e) {
		nc_close(f->id);
		spate_log_info("spate: %s does not fit this run: writing it anew\n", path);
	}
	return e;
}

int spate_nc_create(struct spate_nc **out, const char *path, const struct swe_state *s,
	const struct swe_params *p, const struct spate_nc_spec *spec)
{
	struct spate_nc *f = calloc(1, sizeof *f);
	int rc = 0, dims[2], v, open = 0;
	*out = NULL;
	if (!f || !(f->buf = malloc((size_t)s->nx * s->ny * sizeof *f->buf))) {
		free(f);
		return -SPATE_ENOMEM;
	}
	snprintf(f->path, sizeof f->path, "%s", path);
	f->nx = s->nx;
	f->ny = s->ny;
	f->ng = spec->gauges ? spec->gauges->n : 0;
	if (spec->append && reopen(f, path, spec) == 0) {
		*out = f;
		return 0;
	}
	NC("creating it", nc_create(path, NC_NETCDF4 | NC_CLOBBER, &f->id));
	open = 1;
	NC("defining the grid", def_grid(f->id, s, p, spec->params, dims));
	NC("defining bed", def_var(f->id, "bed", NC_REAL, 2, dims, "m", "bed elevation at "
		"the cell centre, as the solver sees it", "surface_altitude", 1, s->crs_wkt != NULL,
		&v));
	NC("defining the variables", def_data(f, p, spec, dims, s->crs_wkt != NULL));
	NC("ending definitions", nc_enddef(f->id));
	NC("writing coordinates, bed and gauges", put_static(f, s, spec->gauges));
	NC("syncing", nc_sync(f->id));
	*out = f;
	return 0;
out:
	if (open)
		nc_close(f->id);
	free(f->buf);
	free(f);
	return rc;
}

int spate_nc_snapshot(struct spate_nc *f, int rec, double t, const struct swe_state *s,
	double kappa)
{
	const char *path = f->path;
	real k4 = (real)(kappa * kappa * kappa * kappa);
	size_t start[3] = { (size_t)rec, 0, 0 }, count[3] = { 1, (size_t)f->ny, (size_t)f->nx };
	int rc = 0;
	NC("writing time", nc_put_var1_double(f->id, f->v_time, start, &t));
	for (int var = 0; var < 4; var++) {
		for (int j = 0; j < f->ny; j++)
			for (int i = 0; i < f->nx; i++) {
				double v = swe_snap_value(s, var, i, j, k4);
				f->buf[(size_t)j * f->nx + i] = isnan(v) ? FILL : v;
			}
		NC(swe_snap_names[var], nc_put_vara_double(f->id, f->v_snap[var], start, count,
			f->buf));
	}
	NC("syncing", nc_sync(f->id));
out:
	return rc;
}

int spate_nc_gauge_row(struct spate_nc *f, long rec, double t, const double *v)
{
	const char *path = f->path;
	size_t start[2] = { (size_t)rec, 0 }, count[2] = { 1, (size_t)f->ng };
	int rc = 0;
	NC("writing gauge_time", nc_put_var1_double(f->id, f->v_gtime, start, &t));
	for (int k = 0; k < 4; k++) {
		for (int g = 0; g < f->ng; g++)
			f->buf[g] = v[4 * g + k];
		NC(gser_names[k], nc_put_vara_double(f->id, f->v_gser[k], start, count, f->buf));
	}
out:
	return rc;
}

int spate_nc_final(struct spate_nc *f, const struct swe_state *s, const struct swe_prod *pr,
	const struct gauge_set *gs, double t_end)
{
	const char *path = f->path;
	size_t n = (size_t)f->nx * f->ny;
	int rc = 0;
	for (int var = 0; pr && var < SWE_NPROD; var++) {
		for (size_t k = 0; k < n; k++) {
			double v = swe_prod_value(&pr[k], var);
			f->buf[k] = isnan(v) || (s->mask && s->mask[k]) ? FILL : v;
		}
		NC(swe_prod_names[var], nc_put_var_double(f->id, f->v_prod[var], f->buf));
	}
	for (int g = 0; gs && g < f->ng; g++) {
		const struct gauge *q = &gs->g[g];
		double v[SWE_CKPT_GAUGE_VALUES] = { q->max_level, q->max_level_nb, q->max_depth,
			q->arrival, q->t_max };
		size_t at = (size_t)g;
		for (int k = 0; k < SWE_CKPT_GAUGE_VALUES; k++) {
			double x = isnan(v[k]) ? FILL : v[k];
			NC(gmax_names[k], nc_put_var1_double(f->id, f->v_gmax[k], &at, &x));
		}
	}
	NC("writing spate_t_end", nc_redef(f->id));
	NC("writing spate_t_end", att_dbl(f->id, NC_GLOBAL, "spate_t_end", t_end));
	NC("writing spate_t_end", nc_enddef(f->id));
out:
	return rc;
}

int spate_nc_close(struct spate_nc *f)
{
	const char *path;
	int rc = 0;
	if (!f)
		return 0;
	path = f->path;
	NC("closing", nc_close(f->id));
out:
	free(f->buf);
	free(f);
	return rc;
}

#else /* !HAVE_NETCDF */

static int none(const char *path)
{
	spate_log_error("netcdf", "%s: this spate was built without NetCDF: use [output] format "
		"= ascii, or rebuild with NetCDF (libnetcdf-dev)", path);
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_create(struct spate_nc **f, const char *path, const struct swe_state *s,
	const struct swe_params *p, const struct spate_nc_spec *spec)
{
	(void)s; (void)p; (void)spec;
	*f = NULL;
	return none(path);
}

int spate_nc_snapshot(struct spate_nc *f, int rec, double t, const struct swe_state *s,
	double kappa)
{
	(void)f; (void)rec; (void)t; (void)s; (void)kappa;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_gauge_row(struct spate_nc *f, long rec, double t, const double *v)
{
	(void)f; (void)rec; (void)t; (void)v;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_final(struct spate_nc *f, const struct swe_state *s, const struct swe_prod *pr,
	const struct gauge_set *gs, double t_end)
{
	(void)f; (void)s; (void)pr; (void)gs; (void)t_end;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_close(struct spate_nc *f)
{
	(void)f;
	return 0;
}
#endif
