/* ncout_none.c: the results file (ncout.h) of a spate built without
 * NetCDF: creating one says so, every other entry point returns
 * -SPATE_EUNSUPPORTED (closing: nothing to do).  Built only then
 * (src/local.mk). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stddef.h>

#include "spate.h"
#include "ncout.h"

int spate_nc_create(struct spate_nc **f, const char *path, const struct spate_nc_spec *spec)
{
	(void)spec;
	*f = NULL;
	spate_log_error("netcdf", "%s: this spate was built without NetCDF: use [output] format "
		"= ascii, or rebuild with NetCDF (libnetcdf-dev)", path);
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_record(struct spate_nc *f, long rec, double t, const struct spate_field *fl,
	int n)
{
	(void)f; (void)rec; (void)t; (void)fl; (void)n;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_record_layers(struct spate_nc *f, long rec, double t,
	const struct spate_field *fl, int n, int k0, int nk)
{
	(void)f; (void)rec; (void)t; (void)fl; (void)n; (void)k0; (void)nk;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_fields(struct spate_nc *f, const struct spate_field *fl, int n)
{
	(void)f; (void)fl; (void)n;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_attr(struct spate_nc *f, const struct spate_attr *a)
{
	(void)f; (void)a;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_points_row(struct spate_nc *f, long rec, double t, const double *v)
{
	(void)f; (void)rec; (void)t; (void)v;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_points_final(struct spate_nc *f, const double *v)
{
	(void)f; (void)v;
	return -SPATE_EUNSUPPORTED;
}

int spate_nc_close(struct spate_nc *f)
{
	(void)f;
	return 0;
}
