/* ncread.c: a variable of a results file (ncout.c) read back as a grid,
 * for maps: its grid (spate's exact attributes, else the cell centres), the
 * CRS of its grid mapping, the record of a time nearest to the one asked for,
 * NAN for the fill value.  With ncout.c, ncpoints.c, ncutil.c and ckpt_nc.c,
 * the only code of spate that calls NetCDF. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "ncout.h"
#include "terrain.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

#define FILL (-9999.0)

#define NC(what, call) SPATE_NC("netcdf", what, call)

/* The grid of a results file: spate's exact attributes, else the centres. */
static int read_georef(int id, struct terrain_grid *g)
{
	double a[4], *c;
	int vx, vy, e;
	if (!nc_get_att_double(id, NC_GLOBAL, "spate_x0", &a[0]) &&
		!nc_get_att_double(id, NC_GLOBAL, "spate_y0", &a[1]) &&
		!nc_get_att_double(id, NC_GLOBAL, "spate_dx", &a[2]) &&
		!nc_get_att_double(id, NC_GLOBAL, "spate_dy", &a[3])) {
		g->x0 = a[0];
		g->y0 = a[1];
		g->dx = a[2];
		g->dy = a[3];
		return 0;
	}
	if (g->nx < 2 || g->ny < 2)
		return NC_ENOTVAR;
	c = malloc((size_t)(g->nx > g->ny ? g->nx : g->ny) * sizeof *c);
	if (!c)
		return NC_ENOMEM;
	if (!(e = nc_inq_varid(id, "x", &vx)) && !(e = nc_get_var_double(id, vx, c))) {
		g->dx = (c[g->nx - 1] - c[0]) / (g->nx - 1);
		g->x0 = c[0] - 0.5 * g->dx;
	}
	if (!e && !(e = nc_inq_varid(id, "y", &vy)) && !(e = nc_get_var_double(id, vy, c))) {
		g->dy = (c[g->ny - 1] - c[0]) / (g->ny - 1);
		g->y0 = c[0] - 0.5 * g->dy;
	}
	free(c);
	return e ? e : g->dx > 0 && g->dy > 0 ? 0 : NC_EINVALCOORDS;
}

/* The record of the time dimension nearest to t (NAN: the last). */
static int pick_record(int id, int tdim, double t, size_t *rec, double *t_rec)
{
	size_t nt = 0;
	char name[NC_MAX_NAME + 1];
	double *tv;
	int vt, e = nc_inq_dim(id, tdim, name, &nt);
	if (e)
		return e;
	if (nt == 0)
		return NC_EINVALCOORDS;
	if (!(tv = malloc(nt * sizeof *tv)))
		return NC_ENOMEM;
	if (!(e = nc_inq_varid(id, name, &vt)) && !(e = nc_get_var_double(id, vt, tv))) {
		*rec = nt - 1;
		for (size_t k = 0; !isnan(t) && k < nt; k++)
			if (fabs(tv[k] - t) < fabs(tv[*rec] - t))
				*rec = k;
		*t_rec = tv[*rec];
	}
	free(tv);
	return e;
}

/* Whether variable v of file id is a map: dimensions (y, x) or (time, y, x). */
static int is_map(int id, int v)
{
	int nd, dim[NC_MAX_VAR_DIMS];
	char y[NC_MAX_NAME + 1], x[NC_MAX_NAME + 1];
	return !nc_inq_varndims(id, v, &nd) && (nd == 2 || nd == 3) &&
		!nc_inq_vardimid(id, v, dim) && !nc_inq_dimname(id, dim[nd - 2], y) &&
		!nc_inq_dimname(id, dim[nd - 1], x) && !strcmp(y, "y") && !strcmp(x, "x");
}

/* The names of the maps of file id, ", " between them, into s (n bytes). */
static void map_names(int id, char *s, size_t n)
{
	char name[NC_MAX_NAME + 1];
	size_t len = 0;
	int nv = 0;
	s[0] = 0;
	nc_inq_nvars(id, &nv);
	for (int v = 0; v < nv && len < n; v++)
		if (is_map(id, v) && !nc_inq_varname(id, v, name))
			len += (size_t)snprintf(s + len, n - len, "%s%s", len ? ", " : "", name);
}

int spate_nc_read_grid(const char *path, const char *var, double t, struct terrain_grid *g,
	double *t_out, char *units, char *long_name, size_t n)
{
	int id, v, nd, dim[NC_MAX_VAR_DIMS], rc = 0, open = 0, nofill = 1;
	size_t len[2], start[3] = { 0, 0, 0 }, count[3] = { 1, 1, 1 };
	char name[NC_MAX_NAME + 1];
	double fill = FILL;
	memset(g, 0, sizeof *g);
	*t_out = NAN;
	NC("opening it", nc_open(path, NC_NOWRITE, &id));
	open = 1;
	if (nc_inq_varid(id, var, &v)) {
		char maps[1024];
		map_names(id, maps, sizeof maps);
		spate_log_error("map", "%s: no variable '%s': %s%s", path, var, maps[0] ?
			"choose one of its maps: " : "it has no map (no variable on y, x): not a "
			"spate results file?", maps);
		rc = -SPATE_EINVAL;
		goto out;
	}
	NC("reading the variable's shape", nc_inq_varndims(id, v, &nd));
	if (nd == 2 || nd == 3)
		NC("reading the variable's shape", nc_inq_vardimid(id, v, dim));
	if ((nd != 2 && nd != 3) || nc_inq_dim(id, dim[nd - 1], name, &len[1]) ||
		strcmp(name, "x") || nc_inq_dim(id, dim[nd - 2], name, &len[0]) || strcmp(name, "y")) {
		spate_log_error("map", "%s: %s is not a map: it needs dimensions (y, x) or (time, "
			"y, x)", path, var);
		rc = -SPATE_EINVAL;
		goto out;
	}
	g->ny = (int)len[0];
	g->nx = (int)len[1];
	NC("reading the grid", read_georef(id, g));
	if (nd == 3)
		NC("reading the time", pick_record(id, dim[0], t, &start[0], t_out));
	else if (nc_get_att_double(id, NC_GLOBAL, "spate_t_end", t_out))
		*t_out = NAN;
	spate_nc_get_text(id, v, "units", units, n);
	spate_nc_get_text(id, v, "long_name", long_name, n);
	spate_nc_get_text(id, v, "grid_mapping", name, sizeof name);
	if (name[0] && !nc_inq_varid(id, name, &dim[0])) {
		spate_nc_get_text(id, dim[0], "crs_wkt", g->crs_wkt, sizeof g->crs_wkt);
		if (!g->crs_wkt[0])
			spate_nc_get_text(id, dim[0], "spatial_ref", g->crs_wkt, sizeof g->crs_wkt);
	}
	if (!(g->v = malloc(len[0] * len[1] * sizeof *g->v))) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	count[nd - 2] = len[0];
	count[nd - 1] = len[1];
	NC("reading the values", nc_get_vara_double(id, v, start, count, g->v));
	NC("reading the fill value", nc_inq_var_fill(id, v, &nofill, NULL));
	if (!nofill && nc_get_att_double(id, v, "_FillValue", &fill))
		fill = FILL;
	g->nodata = FILL;
	g->has_nodata = 1;
	for (size_t k = 0; k < len[0] * len[1]; k++)
		if ((!nofill && g->v[k] == fill) || !isfinite(g->v[k]))
			g->v[k] = NAN;
out:
	if (open)
		nc_close(id);
	if (rc)
		terrain_free(g);
	return rc;
}

/* The names of the n points of variable v (NC_STRING). */
static int read_names(int id, int v, struct spate_nc_pts *pt)
{
	char **s = calloc((size_t)pt->n, sizeof *s);
	int e = s ? nc_get_var_string(id, v, s) : NC_ENOMEM;
	for (int k = 0; !e && k < pt->n; k++)
		snprintf(pt->name[k], sizeof pt->name[k], "%s", s[k] ? s[k] : "");
	if (!e)
		nc_free_string((size_t)pt->n, s);
	free(s);
	return e;
}

/* Values of variable name (one a point) into v[nv * p] (NAN for fill). */
static int read_column(int id, const char *name, struct spate_nc_pts *pt, double *v, int nv)
{
	double *c = malloc((size_t)pt->n * sizeof *c), fill = FILL;
	int vid, nofill = 1, e = c ? nc_inq_varid(id, name, &vid) : NC_ENOMEM;
	if (!e)
		e = nc_get_var_double(id, vid, c);
	if (!e && !nc_inq_var_fill(id, vid, &nofill, NULL) && !nofill)
		nc_get_att_double(id, vid, "_FillValue", &fill);
	for (int k = 0; !e && k < pt->n; k++)
		v[(size_t)nv * k] = (!nofill && c[k] == fill) || !isfinite(c[k]) ? NAN : c[k];
	free(c);
	return e;
}

int spate_nc_read_points(const char *path, const char *prefix, const char *const *vars, int nv,
	struct spate_nc_pts *pt)
{
	char name[NC_MAX_NAME + 1];
	int id, d, v, rc = 0, open = 0;
	size_t n;
	memset(pt, 0, sizeof *pt);
	NC("opening it", nc_open(path, NC_NOWRITE, &id));
	open = 1;
	if (nc_inq_dimid(id, prefix, &d))
		goto out;   /* no points */
	NC("reading the points", nc_inq_dimlen(id, d, &n));
	pt->n = (int)n;
	pt->name = calloc(n + 1, sizeof *pt->name);
	pt->x = malloc((n + 1) * sizeof *pt->x);
	pt->y = malloc((n + 1) * sizeof *pt->y);
	pt->v = malloc((n * (size_t)nv + 1) * sizeof *pt->v);
	if (!pt->name || !pt->x || !pt->y || !pt->v) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	snprintf(name, sizeof name, "%s_name", prefix);
	NC(name, nc_inq_varid(id, name, &v));
	NC(name, read_names(id, v, pt));
	snprintf(name, sizeof name, "%s_x", prefix);
	NC(name, read_column(id, name, pt, pt->x, 1));
	snprintf(name, sizeof name, "%s_y", prefix);
	NC(name, read_column(id, name, pt, pt->y, 1));
	for (int k = 0; k < nv; k++)
		NC(vars[k], read_column(id, vars[k], pt, pt->v + k, nv));
out:
	if (open)
		nc_close(id);
	return rc;
}

void spate_nc_var_text(const char *path, const char *var, const char *att, char *buf,
	size_t n)
{
	int id, v = NC_GLOBAL;
	buf[0] = 0;
	if (nc_open(path, NC_NOWRITE, &id))
		return;
	if (!var || !nc_inq_varid(id, var, &v))
		spate_nc_get_text(id, v, att, buf, n);
	nc_close(id);
}

void spate_nc_pts_free(struct spate_nc_pts *pt)
{
	free(pt->name);
	free(pt->x);
	free(pt->y);
	free(pt->v);
	memset(pt, 0, sizeof *pt);
}

int spate_nc_var_ndims(const char *path, const char *var)
{
	int id, v, nd = 0;
	if (nc_open(path, NC_NOWRITE, &id))
		return 0;
	if (nc_inq_varid(id, var, &v) || nc_inq_varndims(id, v, &nd))
		nd = 0;
	nc_close(id);
	return nd;
}
#else /* !HAVE_NETCDF */

int spate_nc_read_grid(const char *path, const char *var, double t, struct terrain_grid *g,
	double *t_out, char *units, char *long_name, size_t n)
{
	(void)var; (void)t; (void)g; (void)t_out; (void)units; (void)long_name; (void)n;
	spate_log_error("map", "%s: this spate was built without NetCDF: it cannot read results "
		"files (rebuild with libnetcdf-dev)", path);
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_read_points(const char *path, const char *prefix, const char *const *vars, int nv,
	struct spate_nc_pts *pt)
{
	(void)prefix; (void)vars; (void)nv;
	memset(pt, 0, sizeof *pt);
	spate_log_error("export", "%s: this spate was built without NetCDF: it cannot read "
		"results files (rebuild with libnetcdf-dev)", path);
	return -SPATE_EUNSUPPORTED;
}

void spate_nc_pts_free(struct spate_nc_pts *pt)
{
	(void)pt;
}

void spate_nc_var_text(const char *path, const char *var, const char *att, char *buf,
	size_t n)
{
	(void)path; (void)var; (void)att; (void)n;
	buf[0] = 0;
}

int spate_nc_var_ndims(const char *path, const char *var)
{
	(void)path; (void)var;
	return 0;
}
#endif
