/* ncutil.h: what the NetCDF files (ncout.c, ncread.c, ckpt_nc.c) share: a
 * failed NetCDF call reported with the file, what was being done and
 * NetCDF's reason (on standard error, under `who`), as -SPATE_ENOMEM or
 * -SPATE_EIO.  Included after <netcdf.h>, where spate has NetCDF. */
#ifndef SPATE_NCUTIL_H
#define SPATE_NCUTIL_H

int spate_nc_fail(const char *who, const char *path, const char *what, int e);

/* A NetCDF call in a function with `int rc`, `const char *path` and an
 * `out:` label: on failure, report it, set rc and go to out. */
#define SPATE_NC(who, what, call) do { \
		int e_ = (call); \
		if (e_ != NC_NOERR) { \
			rc = spate_nc_fail(who, path, what, e_); \
			goto out; \
		} \
	} while (0)

#endif
