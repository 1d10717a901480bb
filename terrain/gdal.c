/* gdal.c: rasters through GDAL (any format it reads, /vsigzip/ paths too).
 * The only file of spate that includes gdal.h. */
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

/* GDAL's ESRI ASCII driver reads a non-numeric value as 0, fills missing
 * values with 0 and ignores extra ones.  Such a file (plain, or gzipped where
 * zlib is built in) goes to the strict built-in reader instead, keeping the
 * CRS GDAL found (the .prj beside it).  Returns 1 when it did not apply, else
 * terrain_read_asc's result. */
static int strict_asc(GDALDatasetH ds, const char *path, struct terrain_grid *g)
{
	GDALDriverH drv = GDALGetDatasetDriver(ds);
	const char *file = path, *wkt = GDALGetProjectionRef(ds);
	char crs[sizeof g->crs_wkt];
	int rc;

	if (!drv || strcmp(GDALGetDriverShortName(drv), "AAIGrid") != 0)
		return 1;
#ifdef HAVE_ZLIB
	if (strncmp(file, "/vsigzip/", 9) == 0)
		file += 9;
#endif
	if (strncmp(file, "/vsi", 4) == 0)
		return 1;
	snprintf(crs, sizeof crs, "%s", wkt ? wkt : "");
	rc = terrain_read_asc(file, g);
	if (rc == 0)
		memcpy(g->crs_wkt, crs, sizeof crs);
	return rc;
}

int terrain_read_gdal(const char *path, struct terrain_grid *g)
{
	GDALDatasetH ds;
	GDALRasterBandH band;
	double gt[6];
	int ok = 0, rc = -SPATE_EFORMAT;
	long n;

	memset(g, 0, sizeof *g);
	GDALAllRegister();
	CPLPushErrorHandler(CPLQuietErrorHandler);
	ds = GDALOpen(path, GA_ReadOnly);
	CPLPopErrorHandler();
	if (!ds) {
		spate_log_error("terrain", "%s: GDAL cannot open it: %s", path, CPLGetLastErrorMsg());
		return -SPATE_EIO;
	}
	if ((rc = strict_asc(ds, path, g)) <= 0) {
		GDALClose(ds);
		return rc;
	}
	rc = -SPATE_EFORMAT;
	g->nx = GDALGetRasterXSize(ds);
	g->ny = GDALGetRasterYSize(ds);
	if (g->nx < 1 || g->ny < 1 || GDALGetRasterCount(ds) < 1) {
		spate_log_error("terrain", "%s: %d x %d raster with %d bands: need at least 1 x 1 "
			"and one band", path, g->nx, g->ny, GDALGetRasterCount(ds));
		goto out;
	}
	if ((double)g->nx * g->ny > (double)TERRAIN_MAX_CELLS) {
		spate_log_error("terrain", "%s: %d x %d = %.3g cells: more than spate accepts (%.3g); "
			"crop or resample it first", path, g->nx, g->ny, (double)g->nx * g->ny,
			(double)TERRAIN_MAX_CELLS);
		goto out;
	}
	if (GDALGetGeoTransform(ds, gt) != CE_None) {
		spate_log_error("terrain", "%s: no geotransform: georeference the raster first "
			"(gdal_translate -a_ullr or gdalwarp)", path);
		goto out;
	}
	if (gt[2] != 0 || gt[4] != 0 || !(gt[1] > 0) || !(gt[5] < 0)) {
		spate_log_error("terrain", "%s: rotated or flipped geotransform (%g, %g, %g, %g, %g, "
			"%g): spate needs a north-up grid; run gdalwarp on it first", path, gt[0], gt[1],
			gt[2], gt[3], gt[4], gt[5]);
		goto out;
	}
	g->dx = gt[1];
	g->dy = -gt[5];
	g->x0 = gt[0];
	g->y0 = gt[3] + gt[5] * g->ny;
	if (snprintf(g->crs_wkt, sizeof g->crs_wkt, "%s", GDALGetProjectionRef(ds)) >=
		(int)sizeof g->crs_wkt) {
		spate_log_info("spate: %s: its CRS is longer than %zu characters: outputs will "
			"carry none\n", path, sizeof g->crs_wkt - 1);
		g->crs_wkt[0] = 0;
	}
	band = GDALGetRasterBand(ds, 1);
	g->nodata = GDALGetRasterNoDataValue(band, &ok);
	g->has_nodata = ok;
	n = (long)g->nx * g->ny;
	g->v = malloc((size_t)n * sizeof *g->v);
	if (!g->v) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	/* GDAL's row 0 is the northern row: read it into row ny-1 */
	for (int j = 0; j < g->ny; j++) {
		if (GDALRasterIO(band, GF_Read, 0, j, g->nx, 1, g->v + (size_t)(g->ny - 1 - j) * g->nx,
			g->nx, 1, GDT_Float64, 0, 0) != CE_None) {
			spate_log_error("terrain", "%s: row %d: %s", path, j + 1, CPLGetLastErrorMsg());
			rc = -SPATE_EIO;
			goto out;
		}
	}
	for (long k = 0; k < n; k++) {
		if (isnan(g->v[k]))
			g->nan_count++;
		if ((ok && g->v[k] == g->nodata) || !isfinite(g->v[k]))
			g->v[k] = NAN;
	}
	rc = 0;
out:
	GDALClose(ds);
	if (rc)
		terrain_free(g);
	return rc;
}
#else
int terrain_read_gdal(const char *path, struct terrain_grid *g)
{
	(void)g;
	spate_log_error("terrain", "%s: this spate was built without GDAL: use an ESRI ASCII "
		"grid (.asc) or rebuild with GDAL", path);
	return -SPATE_EUNSUPPORTED;
}
#endif
