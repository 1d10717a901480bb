/* cog.h: one 2D field of a grid written as a Cloud Optimized GeoTIFF through
 * GDAL's COG driver (terrain/cog.c; the GDAL code stays in terrain/). */
#ifndef SPATE_COG_H
#define SPATE_COG_H

#include "field.h"

/* Write v (g->nx * g->ny floats, value (i, j) = v[j * nx + i], row 0 the
 * southern row, as in field.h) as a COG at path: georeferenced from g (x0,
 * y0, dx, dy) with g->crs_wkt as its CRS (none when NULL or ""), NaN cells
 * written as nodata and flagged as the band's NODATA, DEFLATE-compressed,
 * 512 x 512 tiles, overviews down to one tile made with resampling
 * ("AVERAGE" for a continuous field, "NEAREST" for classes; NULL: AVERAGE).
 * name and units (either may be NULL) become the band's description and
 * unit.  An existing file at path is replaced.  Returns 0, -SPATE_EINVAL
 * (bad grid), -SPATE_ENOMEM, -SPATE_EIO after a message naming the file
 * and GDAL's reason, or -SPATE_EUNSUPPORTED when built without GDAL. */
int spate_cog_write_field(const char *path, const struct spate_grid *g, const float *v,
	double nodata, const char *name, const char *units, const char *resampling);

#endif
