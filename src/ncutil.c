/* ncutil.c: what the NetCDF files share (ncutil.h): a failed call
 * reported; a CF variable defined with its attributes. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stddef.h>
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
	for (int k = 0; k < n && !e; k++)
		e = a[k].text ? spate_nc_att_text(id, v, a[k].name, a[k].text) :
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
	} else if (!e && fill) {
		e = nc_def_var_fill(id, *v, 0, fill);
	}
	if (!e && crs)
		e = spate_nc_att_text(id, *v, "grid_mapping", "crs");
	if (!e && nd >= 2 && type != NC_STRING)
		e = nc_def_var_deflate(id, *v, 1, 1, 1);
	return e;
}

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
#endif
