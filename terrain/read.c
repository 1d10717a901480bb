/* read.c: which reader reads a raster: GDAL when built with it, the strict
 * built-in reader (asc.c) for ESRI ASCII grids, and without GDAL. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <string.h>

#include "terrain.h"

/* GDAL's ESRI ASCII driver reads a non-numeric value as 0, fills missing
 * values with 0 and ignores extra ones.  Such a file (plain, or gzipped where
 * zlib is built in) goes to the strict built-in reader instead, keeping the
 * CRS GDAL found (the .prj beside it). */
int terrain_read_gdal(const char *path, struct terrain_grid *g)
{
	const char *file = path;
	char crs[sizeof g->crs_wkt];
	int rc;

#ifdef HAVE_ZLIB
	if (strncmp(file, "/vsigzip/", 9) == 0)
		file += 9;
#endif
	rc = terrain_gdal_read(path, g, strncmp(file, "/vsi", 4) != 0);
	if (rc != 1)
		return rc;
	memcpy(crs, g->crs_wkt, sizeof crs);
	rc = terrain_read_asc(file, g);
	if (rc == 0)
		memcpy(g->crs_wkt, crs, sizeof crs);
	return rc;
}

int terrain_read(const char *path, struct terrain_grid *g)
{
#ifdef HAVE_GDAL
	return terrain_read_gdal(path, g);
#else
	return terrain_read_asc(path, g);
#endif
}
