/* ncpoints.c: the named points of a results file (ncpoints.h): dimensions
 * <prefix>_time (unlimited) and <prefix>, the points' names (CF
 * timeseries_id) and positions, a float variable (<prefix>_time, <prefix>)
 * per series and a double variable (<prefix>) per final value. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ncpoints.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

struct spate_ncp {
	int id;
	int n, nseries, nfinal;
	double fill;
	int v_time;
	int shifted;        /* rec_shift known (after the first row) */
	long rec_shift;     /* a row index less this is its place in the file */
	int *v;             /* the series, then the final values */
	double *buf;        /* one value per point */
};

static int alloc(struct spate_ncp **out, int id, const struct spate_points *p)
{
	struct spate_ncp *q = calloc(1, sizeof *q);
	*out = NULL;
	if (!q || !(q->v = calloc((size_t)(p->nseries + p->nfinal) + 1, sizeof *q->v)) ||
		!(q->buf = calloc((size_t)p->n + 1, sizeof *q->buf))) {
		spate_ncp_free(q);
		return NC_ENOMEM;
	}
	q->id = id;
	q->n = p->n;
	q->nseries = p->nseries;
	q->nfinal = p->nfinal;
	q->fill = p->fill;
	*out = q;
	return 0;
}

/* <prefix>_<what> into buf (n bytes). */
static const char *named(char *buf, size_t n, const char *prefix, const char *what)
{
	snprintf(buf, n, "%s_%s", prefix, what);
	return buf;
}

/* The dimensions, the time, the names and the positions. */
static int def_places(struct spate_ncp *q, const struct spate_points *p, int d[2],
	const char *time_units)
{
	char name[128], text[160];
	int id = q->id, v, e;
	if ((e = nc_def_dim(id, named(name, sizeof name, p->prefix, "time"), NC_UNLIMITED,
		&d[0])) || (e = nc_def_dim(id, p->prefix, (size_t)p->n, &d[1])))
		return e;
	snprintf(text, sizeof text, "simulated time of the %s rows", p->prefix);
	if ((e = spate_nc_def_time(id, name, d[0], time_units, text, &q->v_time)))
		return e;
	snprintf(text, sizeof text, "%s name", p->prefix);
	if ((e = spate_nc_def_var(id, named(name, sizeof name, p->prefix, "name"), NC_STRING, 1,
		&d[1], NULL, text, NULL, NULL, 0, &v)) ||
		(e = spate_nc_att_text(id, v, "cf_role", "timeseries_id")))
		return e;
	for (int k = 0; k < 2 && !e; k++) {
		snprintf(text, sizeof text, "%s %s", p->prefix, k ? "y" : "x");
		e = spate_nc_def_var(id, named(name, sizeof name, p->prefix, k ? "y" : "x"),
			NC_DOUBLE, 1, &d[1], "m", text, k ? "projection_y_coordinate" :
			"projection_x_coordinate", NULL, 0, &v);
	}
	return e;
}

int spate_ncp_define(struct spate_ncp **out, int id, const struct spate_points *p,
	const char *time_units)
{
	char coord[400];
	size_t chunk[2] = { 256, (size_t)p->n };
	int d[2], e = alloc(out, id, p);
	struct spate_ncp *q = *out;
	if (e || (e = def_places(q, p, d, time_units)))
		return e;
	snprintf(coord, sizeof coord, "%s_x %s_y %s_name", p->prefix, p->prefix, p->prefix);
	for (int k = 0; k < p->nseries && !e; k++)
		if (!(e = spate_nc_def_var(id, p->series[k].name, NC_FLOAT, 2, d, p->series[k].units,
			p->series[k].long_name, NULL, NULL, 0, &q->v[k])) &&
			!(e = spate_nc_att_text(id, q->v[k], "coordinates", coord)))
			e = nc_def_var_chunking(id, q->v[k], NC_CHUNKED, chunk);
	for (int k = 0; k < p->nfinal && !e; k++) {
		const struct spate_series *s = &p->finals[k];
		e = spate_nc_def_var(id, s->name, NC_DOUBLE, 1, &d[1], s->is_time ? time_units :
			s->units, s->long_name, NULL, &p->fill, 0, &q->v[p->nseries + k]);
		if (!e && s->is_time)
			e = spate_nc_att_text(id, q->v[p->nseries + k], "calendar", "standard");
	}
	return e;
}

int spate_ncp_reopen(struct spate_ncp **out, int id, const struct spate_points *p)
{
	char name[128];
	int ok, e = alloc(out, id, p);
	struct spate_ncp *q = *out;
	if (e)
		return e;
	ok = spate_nc_has_dim(id, p->prefix, (size_t)p->n) && spate_nc_has_var(id,
		named(name, sizeof name, p->prefix, "time"), 1, &q->v_time);
	for (int k = 0; k < p->nseries && ok; k++)
		ok = spate_nc_has_var(id, p->series[k].name, 2, &q->v[k]);
	for (int k = 0; k < p->nfinal && ok; k++)
		ok = spate_nc_has_var(id, p->finals[k].name, 1, &q->v[p->nseries + k]);
	return ok ? 0 : NC_EINVAL;
}

int spate_ncp_places(const struct spate_ncp *q, const struct spate_points *p)
{
	char name[128];
	int v, e;
	if ((e = nc_inq_varid(q->id, named(name, sizeof name, p->prefix, "name"), &v)) ||
		(e = nc_put_var_string(q->id, v, (const char **)p->names)) ||
		(e = nc_inq_varid(q->id, named(name, sizeof name, p->prefix, "x"), &v)) ||
		(e = nc_put_var_double(q->id, v, p->x)) ||
		(e = nc_inq_varid(q->id, named(name, sizeof name, p->prefix, "y"), &v)))
		return e;
	return nc_put_var_double(q->id, v, p->y);
}

int spate_ncp_row(struct spate_ncp *q, int reopened, long rec, double t, const double *v)
{
	size_t start[2] = { 0, 0 }, count[2] = { 1, (size_t)q->n };
	int e = q->shifted ? 0 : spate_nc_rec_shift(q->id, q->v_time, reopened, rec,
		&q->rec_shift);
	q->shifted = 1;
	if (!e && rec < q->rec_shift)
		e = NC_EINVALCOORDS;   /* rows come in order */
	start[0] = (size_t)(rec - q->rec_shift);
	if (!e)
		e = nc_put_var1_double(q->id, q->v_time, start, &t);
	for (int k = 0; k < q->nseries && !e; k++) {
		for (int p = 0; p < q->n; p++)
			q->buf[p] = v[q->nseries * p + k];
		e = nc_put_vara_double(q->id, q->v[k], start, count, q->buf);
	}
	return e;
}

int spate_ncp_final(struct spate_ncp *q, const double *v)
{
	int e = 0;
	for (int k = 0; k < q->nfinal && !e; k++) {
		for (int p = 0; p < q->n; p++) {
			double x = v[q->nfinal * p + k];
			q->buf[p] = isnan(x) ? q->fill : x;
		}
		e = nc_put_var_double(q->id, q->v[q->nseries + k], q->buf);
	}
	return e;
}

void spate_ncp_free(struct spate_ncp *q)
{
	if (q) {
		free(q->v);
		free(q->buf);
	}
	free(q);
}
#endif
