/* gdal.c: rasters through GDAL (any format it reads, /vsigzip/ paths too).
 * A leaf under read.c, which picks the reader for a file. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "terrain.h"

int terrain_crs_refuse(const char *path, const char *name, int geographic, const char *unit)
{
	spate_log_error("terrain", "%s: its CRS (%s) is in %s, but spate's cells and coordinates "
		"are metres: reproject it to a projected CRS in metres first (gdalwarp -t_srs "
		"EPSG:326NN for UTM zone NN north, -r bilinear)", path, name ? name : "unnamed",
		geographic ? "degrees" : unit ? unit : "a unit that is not the metre");
	return -SPATE_EINVAL;
}

#ifdef HAVE_GDAL
#include <gdal.h>
#include <cpl_conv.h>
#include <ogr_srs_api.h>

/* An ESRI ASCII grid that the strict built-in reader is to read instead
 * (asc_ok: read.c can open the file): 1 with g->crs_wkt the CRS GDAL found
 * (the .prj beside it); 0 when GDAL reads it. */
static int strict_asc(GDALDatasetH ds, int asc_ok, struct terrain_grid *g)
{
	GDALDriverH drv = GDALGetDatasetDriver(ds);
	const char *wkt = GDALGetProjectionRef(ds);

	if (!asc_ok || !drv || strcmp(GDALGetDriverShortName(drv), "AAIGrid") != 0)
		return 0;
	snprintf(g->crs_wkt, sizeof g->crs_wkt, "%s", wkt ? wkt : "");
	return 1;
}

int terrain_gdal_read(const char *path, struct terrain_grid *g, int asc_ok)
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
	if (strict_asc(ds, asc_ok, g)) {
		GDALClose(ds);
		return 1;
	}
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
	/* NaN is NODATA (GDAL's float formats use it so); an infinity is refused */
	for (long k = 0; k < n; k++) {
		if (isnan(g->v[k]))
			g->nan_count++;
		else if (isinf(g->v[k])) {
			spate_log_error("terrain", "%s: row %ld, column %ld: %g: not a finite value; "
				"mark missing cells as NODATA (gdal_translate -a_nodata)", path,
				g->ny - k / g->nx, k % g->nx + 1, g->v[k]);
			goto out;
		}
		if (ok && g->v[k] == g->nodata)
			g->v[k] = NAN;
	}
	rc = 0;
out:
	GDALClose(ds);
	if (rc)
		terrain_free(g);
	return rc;
}

int terrain_crs_metres(const struct terrain_grid *g, const char *path)
{
	OGRSpatialReferenceH srs = NULL;
	char *unit = NULL;
	double metres = 1;
	int geo = 0, rc = 0;

	if (g->crs_wkt[0]) {
		CPLPushErrorHandler(CPLQuietErrorHandler);
		srs = OSRNewSpatialReference(g->crs_wkt);
		CPLPopErrorHandler();
	}
	if (!srs)
		return 0;   /* no CRS, or one GDAL cannot read: the grid's own units */
	if (OSRIsGeographic(srs))
		geo = 1;
	else if (OSRIsProjected(srs))
		metres = OSRGetLinearUnits(srs, &unit);
	if (geo || fabs(metres - 1) > 1e-9)
		rc = terrain_crs_refuse(path, OSRGetName(srs), geo, unit);
	OSRDestroySpatialReference(srs);
	return rc;
}
#else
/* Without GDAL: the .prj read as WKT (terrain_wkt_units). */
int terrain_crs_metres(const struct terrain_grid *g, const char *path)
{
	char unit[64], name[128];
	double metres = 1;
	int geo = 0;
	if (!g->crs_wkt[0] || terrain_wkt_units(g->crs_wkt, &geo, &metres, unit, sizeof unit, name,
		    sizeof name))
		return 0;
	return geo || fabs(metres - 1) > 1e-9 ?
		terrain_crs_refuse(path, name[0] ? name : NULL, geo, unit[0] ? unit : NULL) : 0;
}

int terrain_gdal_read(const char *path, struct terrain_grid *g, int asc_ok)
{
	(void)g;
	(void)asc_ok;
	spate_log_error("terrain", "%s: this spate was built without GDAL: use an ESRI ASCII "
		"grid (.asc) or rebuild with GDAL", path);
	return -SPATE_EUNSUPPORTED;
}
#endif
