/* path.c: rasters named by a scenario: a data path resolved against
 * [domain] data_dir, then read by the reader its name calls for (read.c).
 * Below the DEM set-up (init.c) and the forcing rasters (forcing.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "spate.h"
#include "swe.h"
#include "terrain.h"

/* Resolve a data path: absolute as is; relative: under data_dir if there,
 * else as given (relative to the working directory). */
void terrain_resolve(const struct swe_params *p, const char *path, char *out, size_t n)
{
	if (path[0] != '/' && strncmp(path, "/vsi", 4) && p->data_dir[0]) {
		snprintf(out, n, "%s/%s", p->data_dir, path);
		if (access(out, R_OK) == 0)
			return;
	}
	snprintf(out, n, "%s", path);
}

int terrain_find(const struct swe_params *p, const char *part, const char *path, char *out,
	size_t n)
{
	int err;
	terrain_resolve(p, path, out, n);
	/* GDAL's own names (/vsizip/..., NETCDF:"f.nc":z) are left to GDAL */
	if (!strncmp(out, "/vsi", 4) || strchr(path, ':') || access(out, R_OK) == 0)
		return 0;
	err = errno;
	if (path[0] == '/' || !p->data_dir[0])
		spate_log_error(part, "%s: cannot open it: %s", path, strerror(err));
	else
		spate_log_error(part, "%s: cannot open it: %s, neither in the data folder %s "
			"nor from the working directory: give the folder that holds it with "
			"--data-dir=DIR or SPATE_DATA=DIR ([domain] data_dir), or an absolute path%s",
			path, strerror(err), p->data_dir, strncmp(path, "malpasset/", 10) ? "" :
			" (tools/get-malpasset --out DIR builds the Malpasset data)");
	return -SPATE_EIO;
}

int terrain_read_path(const struct swe_params *p, const char *path, struct terrain_grid *g)
{
	char full[2 * SWE_PATH_MAX + 16];
	int rc = terrain_find(p, "terrain", path, full, sizeof full);
	if (rc)
		return rc;
#ifdef HAVE_GDAL
	{
		size_t n = strlen(full);
		if (n > 3 && strcmp(full + n - 3, ".gz") == 0 && strncmp(full, "/vsi", 4)) {
			char vsi[sizeof full + 16];
			snprintf(vsi, sizeof vsi, "/vsigzip/%s", full);
			return terrain_read_gdal(vsi, g);
		}
	}
#endif
	return terrain_read(full, g);
}
