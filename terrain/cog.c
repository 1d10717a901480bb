/* cog.c: a 2D field as a Cloud Optimized GeoTIFF (cog.h).  The field goes
 * into an in-memory GDAL dataset, which GDAL's COG driver copies to the file
 * (tiles, overviews, then the pixels in the order the COG layout asks for).
 * Without GDAL it says so. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "spate.h"
#include "cog.h"

#ifdef HAVE_GDAL
#include <gdal.h>
#include <cpl_conv.h>
#include <cpl_string.h>
#include "gdalmem.h"

/* The tile size: 512 (the COG driver's default), halved down to 128 (its
 * least) while the grid fits in one tile, so a grid larger than 128 cells
 * gets at least one overview (the driver makes overviews until the coarsest
 * fits in one tile). */
static int tile_size(int nx, int ny)
{
	int b = 512, n = nx > ny ? nx : ny;
	while (b > 128 && n <= b)
		b /= 2;
	return b;
}

GDALDatasetH terrain_mem_raster(const struct spate_grid *g, const float *v, double nodata,
	GDALDataType t)
{
	GDALDriverH drv = GDALGetDriverByName("MEM");
	GDALDatasetH ds = drv ? GDALCreate(drv, "", g->nx, g->ny, 1, t, NULL) : NULL;
	GDALRasterBandH band = ds ? GDALGetRasterBand(ds, 1) : NULL;
	double gt[6] = { g->x0, g->dx, 0, g->y0 + g->ny * g->dy, 0, -g->dy };
	float *row = malloc((size_t)g->nx * sizeof *row);
	int bad = !ds || !row;
	/* GDAL's row 0 is the northern row */
	for (int r = 0; !bad && r < g->ny; r++) {
		const float *s = v + (size_t)(g->ny - 1 - r) * g->nx;
		for (int i = 0; i < g->nx; i++)
			row[i] = isnan(s[i]) ? (float)nodata : s[i];
		bad = GDALRasterIO(band, GF_Write, 0, r, g->nx, 1, row, g->nx, 1, GDT_Float32, 0,
			0) != CE_None;
	}
	free(row);
	if (bad) {
		if (ds)
			GDALClose(ds);
		return NULL;
	}
	GDALSetGeoTransform(ds, gt);
	if (g->crs_wkt && g->crs_wkt[0])
		GDALSetProjection(ds, g->crs_wkt);
	if (t == GDT_Float32)
		GDALSetRasterNoDataValue(band, nodata);
	return ds;
}

/* The field in an in-memory dataset with its name and units; NULL after a
 * message. */
static GDALDatasetH mem_dataset(const char *path, const struct spate_grid *g, const float *v,
	double nodata, const char *name, const char *units)
{
	GDALDatasetH ds = terrain_mem_raster(g, v, nodata, GDT_Float32);
	GDALRasterBandH band;
	if (!ds) {
		spate_log_error("cog", "%s: cannot make the in-memory raster: %s", path,
			CPLGetLastErrorMsg()[0] ? CPLGetLastErrorMsg() : "out of memory");
		return NULL;
	}
	band = GDALGetRasterBand(ds, 1);
	if (name)
		GDALSetDescription(band, name);
	if (units)
		GDALSetRasterUnitType(band, units);
	return ds;
}

int spate_cog_write_field(const char *path, const struct spate_grid *g, const float *v,
	double nodata, const char *name, const char *units, const char *resampling)
{
	GDALDriverH cog;
	GDALDatasetH mem, out;
	char **opt = NULL, tile[16];
	if (!path || !g || !v || g->nx < 1 || g->ny < 1 || !(g->dx > 0) || !(g->dy > 0)) {
		spate_log_error("cog", "%s: no field or a bad grid to write", path ? path : "(null)");
		return -SPATE_EINVAL;
	}
	GDALAllRegister();
	CPLErrorReset();
	cog = GDALGetDriverByName("COG");
	if (!cog) {
		spate_log_error("cog", "%s: this GDAL (%s) has no COG driver (GDAL 3.1 or later "
			"has)", path, GDALVersionInfo("RELEASE_NAME"));
		return -SPATE_EUNSUPPORTED;
	}
	mem = mem_dataset(path, g, v, nodata, name, units);
	if (!mem)
		return -SPATE_EIO;
	snprintf(tile, sizeof tile, "%d", tile_size(g->nx, g->ny));
	opt = CSLSetNameValue(opt, "COMPRESS", "DEFLATE");
	opt = CSLSetNameValue(opt, "PREDICTOR", "YES");
	opt = CSLSetNameValue(opt, "BLOCKSIZE", tile);
	opt = CSLSetNameValue(opt, "OVERVIEWS", "IGNORE_EXISTING");
	opt = CSLSetNameValue(opt, "RESAMPLING", resampling ? resampling : "AVERAGE");
	out = GDALCreateCopy(cog, path, mem, FALSE, opt, NULL, NULL);
	CSLDestroy(opt);
	GDALClose(mem);
	if (!out || CPLGetLastErrorType() >= CE_Failure) {
		spate_log_error("cog", "%s: cannot write the Cloud Optimized GeoTIFF: %s", path,
			CPLGetLastErrorMsg());
		if (out)
			GDALClose(out);
		return -SPATE_EIO;
	}
	GDALClose(out);
	if (CPLGetLastErrorType() >= CE_Failure) {
		spate_log_error("cog", "%s: closing: %s", path, CPLGetLastErrorMsg());
		return -SPATE_EIO;
	}
	return 0;
}

#else

int spate_cog_write_field(const char *path, const struct spate_grid *g, const float *v,
	double nodata, const char *name, const char *units, const char *resampling)
{
	(void)g;
	(void)v;
	(void)nodata;
	(void)name;
	(void)units;
	(void)resampling;
	spate_log_error("cog", "%s: writing a Cloud Optimized GeoTIFF needs GDAL: this spate "
		"was built without it (install libgdal-dev and run ./configure again)",
		path ? path : "(null)");
	return -SPATE_EUNSUPPORTED;
}

#endif
