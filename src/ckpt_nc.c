/* ckpt_nc.c: a checkpoint (ckpt.h) as a NetCDF-4 file: each named array a
 * variable (NC_FLOAT or NC_DOUBLE, deflated) on dimensions <name>_0,
 * <name>_1, ...; the module, its version, the text and the named numbers as
 * global attributes (spate_numbers lists the numbers' names).  With
 * ncout.c and ncread.c, the only code of spate that calls NetCDF. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "ckpt_nc.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

/* The version of this layout (global attribute spate_checkpoint). */
#define CKPT_NC_VERSION 2

#define NC(what, call) SPATE_NC("checkpoint", what, call)

static int put_text(int id, const char *name, const char *text)
{
	return nc_put_att_text(id, NC_GLOBAL, name, strlen(text), text);
}

static int define_array(int id, const struct spate_ckpt_array *a, int *v)
{
	int d[SPATE_CKPT_DIMS], e;
	for (int k = 0; k < a->ndims; k++) {
		char dim[SPATE_CKPT_NAME + 8];
		snprintf(dim, sizeof dim, "%s_%d", a->name, k);
		if ((e = nc_def_dim(id, dim, a->dims[k], &d[k])))
			return e;
	}
	if ((e = nc_def_var(id, a->name, a->type == SPATE_CKPT_F64 ? NC_DOUBLE : NC_FLOAT,
		a->ndims, d, v)))
		return e;
	return nc_def_var_deflate(id, *v, 1, 1, 1);
}

/* The time reached, number t, as a scalar CF time variable (CF-1.8 4.4). */
static int define_time(int id, const struct spate_ckpt *c, int *vt)
{
	double t;
	int v, e;
	if (spate_ckpt_get(c, "t", &t))
		return 0;
	*vt = -1;
	if ((e = nc_def_var(id, "time", NC_DOUBLE, 0, NULL, &v)) ||
		(e = nc_put_att_text(id, v, "units", strlen(c->time_units), c->time_units)) ||
		(e = nc_put_att_text(id, v, "calendar", 8, "standard")) ||
		(e = nc_put_att_text(id, v, "standard_name", 4, "time")) ||
		(e = nc_put_att_text(id, v, "axis", 1, "T")) ||
		(e = nc_put_att_text(id, v, "long_name", 25, "simulated time of the run")))
		return e;
	*vt = v;
	return 0;
}

/* Definitions and attributes of checkpoint c; v[k]: array k's variable,
 * v[narr]: the time's (or -1). */
static int define(int id, const struct spate_ckpt *c, int *v)
{
	char names[SPATE_CKPT_NUMS * SPATE_CKPT_NAME] = "";
	int e, ver = CKPT_NC_VERSION;
	for (int k = 0; k < c->nnum; k++) {
		strcat(names, k ? " " : "");
		strcat(names, c->num_name[k]);
		if ((e = nc_put_att_double(id, NC_GLOBAL, c->num_name[k], NC_DOUBLE, 1, &c->num[k])))
			return e;
	}
	if ((e = put_text(id, "title", "spate checkpoint: continue with spate run SCENARIO "
		"--restart FILE")) || (c->time_units[0] && (e = put_text(id, "Conventions",
		"CF-1.8"))) ||
		(e = nc_put_att_int(id, NC_GLOBAL, "spate_checkpoint", NC_INT, 1, &ver)) ||
		(e = put_text(id, "spate_module", c->module)) ||
		(e = nc_put_att_int(id, NC_GLOBAL, "spate_module_version", NC_INT, 1, &c->version)) ||
		(e = put_text(id, "spate_numbers", names)) ||
		(e = put_text(id, "spate_text", c->text ? c->text : "")))
		return e;
	for (int k = 0; k < c->narr; k++)
		if ((e = define_array(id, &c->arr[k], &v[k])))
			return e;
	v[c->narr] = -1;
	return c->time_units[0] ? define_time(id, c, &v[c->narr]) : 0;
}

int spate_ckpt_nc_write(const char *path, const struct spate_ckpt *c)
{
	int id, rc = 0, open = 0, v[SPATE_CKPT_ARRAYS + 1];
	double t;
	NC("creating it", nc_create(path, NC_NETCDF4 | NC_CLOBBER, &id));
	open = 1;
	NC("defining it", define(id, c, v));
	NC("ending definitions", nc_enddef(id));
	for (int k = 0; k < c->narr; k++)
		NC(c->arr[k].name, c->arr[k].type == SPATE_CKPT_F64 ?
			nc_put_var_double(id, v[k], c->arr[k].data) :
			nc_put_var_float(id, v[k], c->arr[k].data));
	if (v[c->narr] >= 0 && !spate_ckpt_get(c, "t", &t))
		NC("time", nc_put_var_double(id, v[c->narr], &t));
	open = 0;
	NC("closing it", nc_close(id));
out:
	if (open)
		nc_close(id);
	return rc;
}

/* Text attribute name of an open file, malloc'd; NULL when absent. */
static char *get_text(int id, const char *name)
{
	size_t len;
	char *s;
	if (nc_inq_attlen(id, NC_GLOBAL, name, &len) || !(s = malloc(len + 1)))
		return NULL;
	if (nc_get_att_text(id, NC_GLOBAL, name, s)) {
		free(s);
		return NULL;
	}
	s[len] = 0;
	return s;
}

/* The header of an open checkpoint; 0 or a NetCDF status. */
static int read_head(int id, struct spate_ckpt *c)
{
	char *module = get_text(id, "spate_module"), *names = get_text(id, "spate_numbers");
	int e = NC_ENOTATT, ver = 0;
	if (!module || !names || (e = nc_get_att_int(id, NC_GLOBAL, "spate_checkpoint", &ver)) ||
		(e = nc_get_att_int(id, NC_GLOBAL, "spate_module_version", &c->version)) ||
		!(c->text = get_text(id, "spate_text")) || ver != CKPT_NC_VERSION)
		e = e ? e : NC_EBADTYPE;
	if (!e)
		snprintf(c->module, sizeof c->module, "%s", module);
	for (char *save = NULL, *n = e ? NULL : strtok_r(names, " ", &save); n && !e;
		n = strtok_r(NULL, " ", &save)) {
		double x;
		if (!(e = nc_get_att_double(id, NC_GLOBAL, n, &x)) && spate_ckpt_set(c, n, x))
			e = NC_EMAXATTS;
	}
	free(module);
	free(names);
	return e;
}

/* Variable v of an open checkpoint into c; 0 or a NetCDF status. */
static int read_array(int id, int v, struct spate_ckpt *c)
{
	char name[NC_MAX_NAME + 1];
	int d[NC_MAX_VAR_DIMS], nd, e;
	nc_type t;
	size_t dims[SPATE_CKPT_DIMS];
	void *data;
	if ((e = nc_inq_var(id, v, name, &t, &nd, d, NULL)))
		return e;
	if (nd == 0 && !strcmp(name, "time"))
		return 0;   /* number t again, as a CF time */
	if (nd < 1 || nd > SPATE_CKPT_DIMS || (t != NC_FLOAT && t != NC_DOUBLE))
		return NC_EBADTYPE;
	for (int k = 0; k < nd; k++)
		if ((e = nc_inq_dimlen(id, d[k], &dims[k])))
			return e;
	if (!(data = spate_ckpt_add(c, name, t == NC_DOUBLE ? SPATE_CKPT_F64 : SPATE_CKPT_F32,
		nd, dims)))
		return NC_ENOMEM;
	return t == NC_DOUBLE ? nc_get_var_double(id, v, data) : nc_get_var_float(id, v, data);
}

int spate_ckpt_nc_read(const char *path, struct spate_ckpt *c)
{
	int id, rc = 0, open = 0, nv;
	memset(c, 0, sizeof *c);
	NC("opening it", nc_open(path, NC_NOWRITE, &id));
	open = 1;
	if ((rc = read_head(id, c)) || (rc = nc_inq_nvars(id, &nv)) ||
		(nv > SPATE_CKPT_ARRAYS && (rc = NC_EMAXVARS))) {
		rc = spate_nc_fail("checkpoint", path, "not a spate checkpoint of this version, or "
			"a damaged one", rc);
		goto out;
	}
	for (int v = 0; v < nv; v++)
		NC("reading its arrays", read_array(id, v, c));
out:
	if (open)
		nc_close(id);
	if (rc)
		spate_ckpt_free(c);
	return rc;
}
#else /* !HAVE_NETCDF */
int spate_ckpt_nc_write(const char *path, const struct spate_ckpt *c)
{
	(void)c;
	spate_log_error("checkpoint", "%s: this spate was built without NetCDF", path);
	return -SPATE_EUNSUPPORTED;
}

int spate_ckpt_nc_read(const char *path, struct spate_ckpt *c)
{
	(void)c;
	spate_log_error("checkpoint", "%s: a NetCDF checkpoint, but this spate was built "
		"without NetCDF: restart with a build that has it", path);
	return -SPATE_EUNSUPPORTED;
}
#endif
