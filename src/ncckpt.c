/* ncckpt.c: checkpoints (checkpoint.h) as NetCDF-4 files; with ncout.c,
 * the only code of spate that calls NetCDF.  A checkpoint holds w, hu, hv
 * with their ghost rows and columns exactly as the state stores them
 * (dimensions row = ny + 2G, col = pitch), the six raw fields of the flood
 * products (prod_*), the gauges' maxima (gauge_state), and the clock and
 * the parameters as global attributes. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "ncout.h"
#include "checkpoint.h"
#include "products_kern.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

#ifdef SPATE_DOUBLE
#define NC_REAL NC_DOUBLE
#define nc_put_var_real nc_put_var_double
#define nc_get_var_real nc_get_var_double
#else
#define NC_REAL NC_FLOAT
#define nc_put_var_real nc_put_var_float
#define nc_get_var_real nc_get_var_float
#endif

/* the state: depth (version 2; version 1 stored the level as "w"), momenta */
static const char *const field_names[3] = { "h", "hu", "hv" };
static const char *const prod_names[6] = { "prod_max_depth", "prod_max_speed",
	"prod_max_hazard", "prod_arrival", "prod_t_max_depth", "prod_wet_duration" };
static const size_t prod_off[6] = { offsetof(struct swe_prod, max_depth),
	offsetof(struct swe_prod, max_speed), offsetof(struct swe_prod, max_hazard),
	offsetof(struct swe_prod, arrival), offsetof(struct swe_prod, t_max_depth),
	offsetof(struct swe_prod, wet_duration) };

/* The clock's double attributes, in the order of the struct's fields. */
#define NDBL 9
static const char *const dbl_names[NDBL] = { "t", "last_dt", "next_out", "next_gauge",
	"next_ckpt", "out_interval", "gauge_interval", "checkpoint_every", "max_depth_run" };

static double *dbl_field(struct swe_ckpt *c, int k)
{
	double *f[NDBL] = { &c->t, &c->last_dt, &c->next_out, &c->next_gauge, &c->next_ckpt,
		&c->out_interval, &c->gauge_interval, &c->checkpoint_every, &c->max_depth_run };
	return f[k];
}

#define NC(what, call) SPATE_NC("checkpoint", what, call)

static int put_int(int id, const char *name, int v)
{
	return nc_put_att_int(id, NC_GLOBAL, name, NC_INT, 1, &v);
}

static int put_ll(int id, const char *name, long v)
{
	long long x = v;
	return nc_put_att_longlong(id, NC_GLOBAL, name, NC_INT64, 1, &x);
}

static int put_text(int id, const char *name, const char *text)
{
	return nc_put_att_text(id, NC_GLOBAL, name, strlen(text), text);
}

/* Definitions and attributes of a checkpoint. */
static int define(int id, const struct swe_ckpt *c, int *v, int *vp, int *vg)
{
	int d[4], dg[2], e;
	char hash[32];
	struct swe_ckpt cc = *c;
	if ((e = nc_def_dim(id, "row", (size_t)(c->ny + 2 * c->ghost), &d[0])) ||
		(e = nc_def_dim(id, "col", (size_t)c->pitch, &d[1])) ||
		(e = nc_def_dim(id, "y", (size_t)c->ny, &d[2])) ||
		(e = nc_def_dim(id, "x", (size_t)c->nx, &d[3])))
		return e;
	for (int f = 0; f < 3; f++)
		if ((e = nc_def_var(id, field_names[f], NC_REAL, 2, d, &v[f])) ||
			(e = nc_def_var_deflate(id, v[f], 1, 1, 1)))
			return e;
	for (int k = 0; c->prod && k < 6; k++)
		if ((e = nc_def_var(id, prod_names[k], NC_FLOAT, 2, d + 2, &vp[k])) ||
			(e = nc_def_var_deflate(id, vp[k], 1, 1, 1)))
			return e;
	if (c->ngauge && ((e = nc_def_dim(id, "gauge", (size_t)c->ngauge, &dg[0])) ||
		(e = nc_def_dim(id, "gauge_value", SWE_CKPT_GAUGE_VALUES, &dg[1])) ||
		(e = nc_def_var(id, "gauge_state", NC_DOUBLE, 2, dg, vg))))
		return e;
	snprintf(hash, sizeof hash, "%016llx", c->bed_hash);
	if ((e = put_text(id, "title", "spate checkpoint: continue with spate run SCENARIO "
		"--restart FILE")) ||
		(e = put_int(id, "spate_checkpoint", SWE_CKPT_VERSION)) ||
		(e = put_text(id, "precision", SPATE_PRECISION)) ||
		(e = put_int(id, "real_bytes", c->real_bytes)) ||
		(e = put_int(id, "ghost", c->ghost)) ||
		(e = put_int(id, "index", c->index)) ||
		(e = put_ll(id, "steps", c->steps)) ||
		(e = put_ll(id, "gauge_rows", c->gauge_rows)) ||
		(e = nc_put_att_double(id, NC_GLOBAL, "volume_initial", NC_DOUBLE, 1,
			&c->volume_initial)) ||
		(e = put_text(id, "bed_hash", hash)) ||
		(e = put_text(id, "spate_parameters", c->params ? c->params : "")))
		return e;
	for (int k = 0; k < NDBL; k++)
		if ((e = nc_put_att_double(id, NC_GLOBAL, dbl_names[k], NC_DOUBLE, 1,
			dbl_field(&cc, k))))
			return e;
	return 0;
}

int spate_nc_ckpt_write(const char *path, const struct swe_ckpt *c)
{
	int id, rc = 0, open = 0, v[3], vp[6], vg;
	size_t n = (size_t)c->nx * c->ny;
	float *buf = NULL;
	const real *arr[3] = { c->w, c->hu, c->hv };
	NC("creating it", nc_create(path, NC_NETCDF4 | NC_CLOBBER, &id));
	open = 1;
	NC("defining it", define(id, c, v, vp, &vg));
	NC("ending definitions", nc_enddef(id));
	for (int f = 0; f < 3; f++)
		NC(field_names[f], nc_put_var_real(id, v[f], arr[f]));
	if (c->prod && !(buf = malloc(n * sizeof *buf))) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	for (int k = 0; c->prod && k < 6; k++) {
		for (size_t q = 0; q < n; q++)
			memcpy(&buf[q], (const char *)&c->prod[q] + prod_off[k], sizeof *buf);
		NC(prod_names[k], nc_put_var_float(id, vp[k], buf));
	}
	if (c->ngauge)
		NC("gauge_state", nc_put_var_double(id, vg, c->gauge));
	open = 0;
	NC("closing it", nc_close(id));
out:
	if (open)
		nc_close(id);
	free(buf);
	return rc;
}

static int get_int(int id, const char *name, int *v)
{
	return nc_get_att_int(id, NC_GLOBAL, name, v);
}

/* A dimension's length, or 0. */
static size_t dimlen(int id, const char *name)
{
	int d;
	size_t n = 0;
	if (nc_inq_dimid(id, name, &d) || nc_inq_dimlen(id, d, &n))
		return 0;
	return n;
}

/* The clock and sizes of an open checkpoint; 0 or a NetCDF status. */
static int read_head(int id, struct swe_ckpt *c)
{
	long long steps = 0, rows = 0;
	char hash[32];
	size_t len = 0;
	int e, version;
	if ((e = get_int(id, "spate_checkpoint", &version)) ||
		(e = get_int(id, "real_bytes", &c->real_bytes)) ||
		(e = get_int(id, "ghost", &c->ghost)) ||
		(e = get_int(id, "index", &c->index)) ||
		(e = nc_get_att_longlong(id, NC_GLOBAL, "steps", &steps)) ||
		(e = nc_get_att_longlong(id, NC_GLOBAL, "gauge_rows", &rows)) ||
		(e = nc_get_att_double(id, NC_GLOBAL, "volume_initial", &c->volume_initial)))
		return e;
	for (int k = 0; k < NDBL; k++)
		if ((e = nc_get_att_double(id, NC_GLOBAL, dbl_names[k], dbl_field(c, k))))
			return e;
	c->steps = (long)steps;
	c->gauge_rows = (long)rows;
	if ((e = nc_inq_attlen(id, NC_GLOBAL, "bed_hash", &len)) || len >= sizeof hash ||
		(e = nc_get_att_text(id, NC_GLOBAL, "bed_hash", hash)))
		return e ? e : NC_EBADTYPE;
	hash[len] = 0;
	c->bed_hash = strtoull(hash, NULL, 16);
	if ((e = nc_inq_attlen(id, NC_GLOBAL, "spate_parameters", &len)))
		return e;
	if (!(c->params = malloc(len + 1)))
		return NC_ENOMEM;
	if ((e = nc_get_att_text(id, NC_GLOBAL, "spate_parameters", c->params)))
		return e;
	c->params[len] = 0;
	c->ny = (int)dimlen(id, "y");
	c->nx = (int)dimlen(id, "x");
	c->pitch = (int)dimlen(id, "col");
	c->ngauge = (int)dimlen(id, "gauge");
	if (dimlen(id, "row") != (size_t)c->ny + 2 * (size_t)c->ghost || c->nx < 1 || c->ny < 1 ||
		c->pitch < c->nx)
		return NC_EDIMSIZE;
	return version == SWE_CKPT_VERSION ? 0 : version == 1 ? NC_EVARSIZE : NC_EBADTYPE;
}

int spate_nc_ckpt_read(const char *path, struct swe_ckpt *c)
{
	int id, rc = 0, v, open = 0;
	size_t n;
	float *buf = NULL;
	real **arr[3] = { &c->w, &c->hu, &c->hv };
	memset(c, 0, sizeof *c);
	NC("opening it", nc_open(path, NC_NOWRITE, &id));
	open = 1;
	if ((rc = read_head(id, c)) == NC_EVARSIZE) {
		spate_log_error("checkpoint", "%s: %s", path, SWE_CKPT_OLD_MSG);
		rc = -SPATE_EFORMAT;
		goto out;
	}
	if (rc) {
		rc = spate_nc_fail("checkpoint", path, "not a spate checkpoint of this version, or a damaged one", rc);
		goto out;
	}
	if (c->real_bytes != (int)sizeof(real)) {
		spate_log_error("checkpoint", "%s: written by a %s-precision spate; this one is %s: "
			"restart with the build that wrote it", path, c->real_bytes == 8 ? "double" :
			"single", SPATE_PRECISION);
		rc = -SPATE_EINVAL;
		goto out;
	}
	n = (size_t)(c->ny + 2 * c->ghost) * c->pitch;
	for (int f = 0; f < 3; f++) {
		if (!(*arr[f] = malloc(n * sizeof(real)))) {
			rc = -SPATE_ENOMEM;
			goto out;
		}
		NC(field_names[f], nc_inq_varid(id, field_names[f], &v));
		NC(field_names[f], nc_get_var_real(id, v, *arr[f]));
	}
	n = (size_t)c->nx * c->ny;
	if (nc_inq_varid(id, prod_names[0], &v) == NC_NOERR) {
		if (!(c->prod = malloc(n * sizeof *c->prod)) || !(buf = malloc(n * sizeof *buf))) {
			rc = -SPATE_ENOMEM;
			goto out;
		}
		for (int k = 0; k < 6; k++) {
			NC(prod_names[k], nc_inq_varid(id, prod_names[k], &v));
			NC(prod_names[k], nc_get_var_float(id, v, buf));
			for (size_t q = 0; q < n; q++)
				memcpy((char *)&c->prod[q] + prod_off[k], &buf[q], sizeof *buf);
		}
	}
	if (c->ngauge) {
		if (!(c->gauge = malloc((size_t)c->ngauge * SWE_CKPT_GAUGE_VALUES * sizeof *c->gauge))) {
			rc = -SPATE_ENOMEM;
			goto out;
		}
		NC("gauge_state", nc_inq_varid(id, "gauge_state", &v));
		NC("gauge_state", nc_get_var_double(id, v, c->gauge));
	}
out:
	if (open)
		nc_close(id);
	free(buf);
	if (rc)
		swe_ckpt_free(c);
	return rc;
}
#else /* !HAVE_NETCDF */
int spate_nc_ckpt_write(const char *path, const struct swe_ckpt *c)
{
	(void)c;
	spate_log_error("checkpoint", "%s: this spate was built without NetCDF", path);
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_ckpt_read(const char *path, struct swe_ckpt *c)
{
	(void)c;
	spate_log_error("checkpoint", "%s: a NetCDF checkpoint, but this spate was built "
		"without NetCDF: restart with a build that has it", path);
	return -SPATE_EUNSUPPORTED;
}
#endif
