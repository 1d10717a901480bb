/* path.c: rasters named by a scenario: a data path resolved against
 * [domain] data_dir, then read by the reader its name calls for (read.c).
 * Below the DEM set-up (init.c) and the forcing rasters (forcing.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
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

int terrain_read_path(const struct swe_params *p, const char *path, struct terrain_grid *g)
{
	char full[2 * SWE_PATH_MAX + 16];
	terrain_resolve(p, path, full, sizeof full);
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
