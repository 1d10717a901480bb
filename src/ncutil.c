/* ncutil.c: a failed NetCDF call reported (ncutil.h), for every file of
 * spate that calls NetCDF; below all of them. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "spate.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

int spate_nc_fail(const char *who, const char *path, const char *what, int e)
{
	spate_log_error(who, "%s: %s: %s", path, what, nc_strerror(e));
	return e == NC_ENOMEM ? -SPATE_ENOMEM : -SPATE_EIO;
}
#endif
