/* map.c: maps out through GDAL: a grid as a GeoTIFF (georeferenced, CRS,
 * NoData).  Without GDAL it says so.  (Printed maps are src/mapdraw.c's.) */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "terrain.h"

#ifdef HAVE_GDAL
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_string.h>

#define MAP_NODATA (-9999.0)

/* The first GDAL error since the last reset, as the result of a write. */
static int gdal_failed(const char *path, const char *what)
{
	if (CPLGetLastErrorType() < CE_Failure)
		return 0;
	spate_log_error("map", "%s: %s: %s", path, what, CPLGetLastErrorMsg());
	return -SPATE_EIO;
}

int terrain_write_geotiff(const char *path, const struct terrain_grid *g, const char *units)
{
	GDALDriverH drv;
	GDALDatasetH ds;
	GDALRasterBandH band;
	char **opt = NULL;
	double gt[6] = { g->x0, g->dx, 0, g->y0 + g->ny * g->dy, 0, -g->dy };
	float *row = malloc((size_t)g->nx * sizeof *row);
	int rc = 0;
	if (!row)
		return -SPATE_ENOMEM;
	GDALAllRegister();
	CPLErrorReset();
	drv = GDALGetDriverByName("GTiff");
	opt = CSLSetNameValue(opt, "COMPRESS", "DEFLATE");
	CPLPushErrorHandler(CPLQuietErrorHandler);   /* its reason goes into the message */
	ds = drv ? GDALCreate(drv, path, g->nx, g->ny, 1, GDT_Float32, opt) : NULL;
	CPLPopErrorHandler();
	CSLDestroy(opt);
	if (!ds) {
		spate_log_error("map", "%s: cannot write it (%s)%s", path, drv ?
			CPLGetLastErrorMsg() : "GDAL has no GTiff driver", drv ? ": check that its "
			"folder exists and can be written" : "");
		free(row);
		return -SPATE_EIO;
	}
	GDALSetGeoTransform(ds, gt);
	if (g->crs_wkt[0])
		GDALSetProjection(ds, g->crs_wkt);
	band = GDALGetRasterBand(ds, 1);
	GDALSetRasterNoDataValue(band, MAP_NODATA);
	if (units && units[0])
		GDALSetRasterUnitType(band, units);
	/* GDAL's row 0 is the northern row */
	for (int r = 0; r < g->ny && !rc; r++) {
		const double *v = g->v + (size_t)(g->ny - 1 - r) * g->nx;
		for (int i = 0; i < g->nx; i++)
			row[i] = isnan(v[i]) ? (float)MAP_NODATA : (float)v[i];
		if (GDALRasterIO(band, GF_Write, 0, r, g->nx, 1, row, g->nx, 1, GDT_Float32, 0, 0) !=
			CE_None)
			rc = gdal_failed(path, "writing");
	}
	GDALClose(ds);
	free(row);
	return rc ? rc : gdal_failed(path, "closing");
}
#else
int terrain_write_geotiff(const char *path, const struct terrain_grid *g, const char *units)
{
	(void)g;
	(void)units;
	spate_log_error("map", "%s: this spate was built without GDAL: no GeoTIFF (rebuild "
		"with libgdal-dev)", path);
	return -SPATE_EUNSUPPORTED;
}
#endif
