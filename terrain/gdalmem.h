/* gdalmem.h: a field of a grid as an in-memory GDAL raster, for the GDAL
 * writers of terrain/ (cog.c, gpkg.c); include after <gdal.h>. */
#ifndef SPATE_GDALMEM_H
#define SPATE_GDALMEM_H

#include "field.h"

/* v (g->nx * g->ny floats, row 0 the southern row) as band 1 of a new MEM
 * dataset of type t, georeferenced from g (its CRS when g->crs_wkt is set);
 * NaN values written as nodata, which a Float32 band flags as its NODATA.
 * Returns the dataset (GDALClose it), or NULL when GDAL cannot make it. */
GDALDatasetH terrain_mem_raster(const struct spate_grid *g, const float *v, double nodata,
	GDALDataType t);

#endif
