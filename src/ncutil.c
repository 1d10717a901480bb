/* ncutil.c: what the NetCDF files share (ncutil.h): a failed call
 * reported; a CF variable defined with its attributes. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "field.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

int spate_nc_fail(const char *who, const char *path, const char *what, int e)
{
	spate_log_error(who, "%s: %s: %s", path, what, nc_strerror(e));
	return e == NC_ENOMEM ? -SPATE_ENOMEM : -SPATE_EIO;
}

int spate_nc_att_text(int id, int v, const char *name, const char *text)
{
	return nc_put_att_text(id, v, name, strlen(text), text);
}

/* CF flag_values "0 1 2 ..." (at most 16) of a byte variable v, as bytes:
 * CF asks for the variable's type. */
static int put_flags(int id, int v, const char *text)
{
	signed char f[16];
	size_t n = 0;
	for (char *end; *text && n < sizeof f; text = end) {
		long x = strtol(text, &end, 10);
		if (end == text || x < -128 || x > 127)
			return NC_EINVAL;
		f[n++] = (signed char)x;
	}
	return nc_put_att_schar(id, v, "flag_values", NC_BYTE, n, f);
}

/* ncutil.h */
void spate_nc_get_text(int id, int v, const char *name, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	if (nc_inq_attlen(id, v, name, &len) || len >= n || nc_get_att_text(id, v, name, buf))
		len = 0;
	buf[len] = 0;
}

int spate_nc_put_attrs(int id, int v, const struct spate_attr *a, int n)
{
	int e = 0;
	nc_type t = NC_NAT;
	if (v != NC_GLOBAL)
		e = nc_inq_vartype(id, v, &t);
	for (int k = 0; k < n && !e; k++)
		e = a[k].text && t == NC_BYTE && !strcmp(a[k].name, "flag_values") ?
			put_flags(id, v, a[k].text) : a[k].text ?
			spate_nc_att_text(id, v, a[k].name, a[k].text) :
			nc_put_att_double(id, v, a[k].name, NC_DOUBLE, 1, &a[k].value);
	return e;
}

int spate_nc_def_var(int id, const char *name, nc_type type, int nd, const int *dims,
	const char *units, const char *long_name, const char *std, const double *fill, int crs,
	int *v)
{
	int e = nc_def_var(id, name, type, nd, dims, v);
	if (!e && units)
		e = spate_nc_att_text(id, *v, "units", units);
	if (!e && long_name)
		e = spate_nc_att_text(id, *v, "long_name", long_name);
	if (!e && std)
		e = spate_nc_att_text(id, *v, "standard_name", std);
	if (!e && fill && type == NC_FLOAT) {
		float fv = (float)*fill;
		e = nc_def_var_fill(id, *v, 0, &fv);
	} else if (!e && fill && type == NC_BYTE) {
		signed char fv = (signed char)*fill;
		e = nc_def_var_fill(id, *v, 0, &fv);
	} else if (!e && fill) {
		e = nc_def_var_fill(id, *v, 0, fill);
	}
	if (!e && crs)
		e = spate_nc_att_text(id, *v, "grid_mapping", "crs");
	if (!e && nd >= 2 && type != NC_STRING)
		e = nc_def_var_deflate(id, *v, 1, 1, 1);
	return e;
}

int spate_nc_def_time(int id, const char *name, int dim, const char *units,
	const char *long_name, int *v)
{
	int e = spate_nc_def_var(id, name, NC_DOUBLE, 1, &dim, units, long_name, "time", NULL, 0,
		v);
	if (!e)
		e = spate_nc_att_text(id, *v, "calendar", "standard");
	return e ? e : spate_nc_att_text(id, *v, "axis", "T");
}

/* The number of WKT parameter name (WKT1 PARAMETER["name",v] or WKT2
 * PARAMETER["name",v,...]); NAN when absent. */
static double wkt_param(const char *wkt, const char *name)
{
	char key[96];
	const char *p;
	snprintf(key, sizeof key, "PARAMETER[\"%s\",", name);
	p = strstr(wkt, key);
	return p ? strtod(p + strlen(key), NULL) : NAN;
}

/* The first of two spellings (WKT1, WKT2) of a parameter. */
static double wkt_either(const char *wkt, const char *w1, const char *w2)
{
	double v = wkt_param(wkt, w1);
	return isnan(v) ? wkt_param(wkt, w2) : v;
}

int spate_nc_cf_mapping(int id, int v, const char *wkt)
{
	static const char *const names[5][3] = {
		{ "latitude_of_projection_origin", "latitude_of_origin", "Latitude of natural origin" },
		{ "longitude_of_central_meridian", "central_meridian", "Longitude of natural origin" },
		{ "scale_factor_at_central_meridian", "scale_factor",
			"Scale factor at natural origin" },
		{ "false_easting", "false_easting", "False easting" },
		{ "false_northing", "false_northing", "False northing" } };
	int e = 0;
	if (!strstr(wkt, "PROJECTION[\"Transverse_Mercator\"]") &&
		!strstr(wkt, "METHOD[\"Transverse Mercator\""))
		return 0;
	for (int k = 0; k < 5 && !e; k++) {
		double x = wkt_either(wkt, names[k][1], names[k][2]);
		if (isnan(x))
			return 0;   /* not all there: crs_wkt alone */
		e = nc_put_att_double(id, v, names[k][0], NC_DOUBLE, 1, &x);
	}
	return e ? e : spate_nc_att_text(id, v, "grid_mapping_name", "transverse_mercator");
}

/* The attribute of a time variable that holds the run's record index of
 * the file's first record (spate_nc_rec_shift). */
#define FIRST_RECORD "spate_first_record"

int spate_nc_has_var(int id, const char *name, int nd, int *v)
{
	int d;
	return !nc_inq_varid(id, name, v) && !nc_inq_varndims(id, *v, &d) && d == nd;
}

int spate_nc_has_dim(int id, const char *name, size_t n)
{
	size_t len;
	int d;
	return !nc_inq_dimid(id, name, &d) && !nc_inq_dimlen(id, d, &len) && len == n;
}

int spate_nc_rec_shift(int id, int v_time, int reopened, long rec, long *shift)
{
	long first = 0;
	size_t n = 0;
	nc_type type;
	int e = 0;
	if (reopened) {
		/* none (or not one whole number): a file that starts at record 0 */
		if (nc_inq_att(id, v_time, FIRST_RECORD, &type, &n) || n != 1 ||
			nc_get_att_long(id, v_time, FIRST_RECORD, &first) || first < 0)
			first = 0;
		*shift = first;
		return 0;
	}
	*shift = rec;
	if (rec > 0 && !(e = nc_redef(id)) && !(e = nc_put_att_long(id, v_time, FIRST_RECORD,
		NC_INT, 1, &rec)))
		e = nc_enddef(id);
	return e;
}
#endif
