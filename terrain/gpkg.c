/* gpkg.c: a flood's vector layers in one GeoPackage (gpkg.h).  Each
 * polygon layer comes from an in-memory byte raster on the results' grid
 * through GDALPolygonize (4-connected cells; the polygons' edges are cell
 * edges, so their area is the cells' area exactly); the isochrones from the
 * arrival raster through GDALContourGenerateEx.  Without GDAL it says so. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "spate.h"
#include "cftime.h"
#include "gpkg.h"

#ifdef HAVE_GDAL
#include <gdal.h>
#include <gdal_alg.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <cpl_conv.h>
#include <cpl_string.h>
#include "gdalmem.h"

#define NODATA (-9999.0)

/* A GDAL failure while writing path (what: the step), as -SPATE_EIO. */
static int failed(const char *path, const char *what)
{
	spate_log_error("export", "%s: %s: %s", path, what, CPLGetLastErrorMsg()[0] ?
		CPLGetLastErrorMsg() : "GDAL gave no reason");
	return -SPATE_EIO;
}

/* The values val(in, k) of every cell as a byte raster on in's grid. */
static GDALDatasetH mem_classes(const struct spate_gpkg_in *in,
	int (*val)(const struct spate_gpkg_in *, size_t))
{
	size_t n = (size_t)in->grid.nx * in->grid.ny;
	float *v = malloc(n * sizeof *v);
	GDALDatasetH ds;
	for (size_t k = 0; v && k < n; k++)
		v[k] = (float)val(in, k);
	ds = v ? terrain_mem_raster(&in->grid, v, 0, GDT_Byte) : NULL;
	free(v);
	return ds;
}

static int wet(const struct spate_gpkg_in *in, size_t k)
{
	return in->max_depth[k] > in->depth_threshold;
}

static int hazard(const struct spate_gpkg_in *in, size_t k)
{
	float c = in->hazard_class[k];
	return c >= 1 && c <= in->nclass ? (int)c : 0;
}

/* A new layer name of geometry type t with fields names[n] of types. */
static OGRLayerH new_layer(GDALDatasetH ds, const char *name, OGRSpatialReferenceH srs,
	OGRwkbGeometryType t, const char *const *names, const OGRFieldType *types, int n)
{
	OGRLayerH l = GDALDatasetCreateLayer(ds, name, srs, t, NULL);
	for (int k = 0; l && k < n; k++) {
		OGRFieldDefnH f = OGR_Fld_Create(names[k], types[k]);
		OGRErr e = OGR_L_CreateField(l, f, TRUE);
		OGR_Fld_Destroy(f);
		if (e != OGRERR_NONE)
			return NULL;
	}
	return l;
}

/* Polygons of the cells where val is not 0 into a new layer name; field 0
 * (names[0]) the value; area_m2 (the last field) of every polygon, and the
 * text of each value through label (field 1) when given. */
static int polygons(GDALDatasetH ds, const char *path, const char *name,
	const struct spate_gpkg_in *in, OGRSpatialReferenceH srs, const char *const *names,
	const OGRFieldType *types, int nf, int (*val)(const struct spate_gpkg_in *, size_t),
	void (*label)(OGRFeatureH, const struct spate_gpkg_in *))
{
	GDALDatasetH mem = mem_classes(in, val);
	OGRLayerH l = mem ? new_layer(ds, name, srs, wkbPolygon, names, types, nf) : NULL;
	GDALRasterBandH b = mem ? GDALGetRasterBand(mem, 1) : NULL;
	OGRFeatureH f;
	int rc = 0;
	if (!l) {
		if (mem)
			GDALClose(mem);
		return failed(path, name);
	}
	GDALDatasetStartTransaction(ds, FALSE);
	/* the band masks itself: cells of value 0 make no polygon */
	if (GDALPolygonize(b, b, l, 0, NULL, NULL, NULL) != CE_None)
		rc = failed(path, name);
	OGR_L_ResetReading(l);
	while (!rc && (f = OGR_L_GetNextFeature(l))) {
		OGR_F_SetFieldDouble(f, nf - 1, OGR_G_Area(OGR_F_GetGeometryRef(f)));
		if (label)
			label(f, in);
		if (OGR_L_SetFeature(l, f) != OGRERR_NONE)
			rc = failed(path, name);
		OGR_F_Destroy(f);
	}
	if (GDALDatasetCommitTransaction(ds) != OGRERR_NONE && !rc)
		rc = failed(path, name);
	GDALClose(mem);
	return rc;
}

static void extent_label(OGRFeatureH f, const struct spate_gpkg_in *in)
{
	OGR_F_SetFieldDouble(f, 1, in->depth_threshold);
}

static void class_label(OGRFeatureH f, const struct spate_gpkg_in *in)
{
	int c = OGR_F_GetFieldAsInteger(f, 0);
	OGR_F_SetFieldString(f, 1, c >= 0 && c <= in->nclass ? in->class_names[c] : "");
	OGR_F_SetFieldString(f, 2, in->scheme ? in->scheme : "");
}

/* Date-time field k of f: t s after the start (left null without one). */
static void set_utc(OGRFeatureH f, int k, const struct spate_gpkg_in *in, double t)
{
	char iso[SPATE_TIME_TEXT];
	if (in->start_time && in->start_time[0] && !spate_time_iso(in->start_time, t, iso))
		OGR_F_SetFieldString(f, k, iso);
}

/* Isochrones of arrival every in->interval s. */
static int isochrones(GDALDatasetH ds, const char *path, const struct spate_gpkg_in *in,
	OGRSpatialReferenceH srs)
{
	static const char *const names[] = { "id", "arrival_s", "arrival_utc" };
	static const OGRFieldType types[] = { OFTInteger, OFTReal, OFTDateTime };
	GDALDatasetH mem = terrain_mem_raster(&in->grid, in->arrival, NODATA, GDT_Float32);
	OGRLayerH l = mem ? new_layer(ds, "arrival_isochrones", srs, wkbLineString, names, types,
		3) : NULL;
	char **opt = NULL, text[64];
	OGRFeatureH f;
	int rc = 0;
	if (!l) {
		if (mem)
			GDALClose(mem);
		return failed(path, "arrival_isochrones");
	}
	snprintf(text, sizeof text, "%.17g", in->interval);
	opt = CSLSetNameValue(opt, "LEVEL_INTERVAL", text);
	opt = CSLSetNameValue(opt, "LEVEL_BASE", "0");
	snprintf(text, sizeof text, "%.17g", NODATA);
	opt = CSLSetNameValue(opt, "NODATA", text);
	opt = CSLSetNameValue(opt, "ID_FIELD", "0");
	opt = CSLSetNameValue(opt, "ELEV_FIELD", "1");
	GDALDatasetStartTransaction(ds, FALSE);
	if (GDALContourGenerateEx(GDALGetRasterBand(mem, 1), l, opt, NULL, NULL) != CE_None)
		rc = failed(path, "arrival_isochrones");
	CSLDestroy(opt);
	OGR_L_ResetReading(l);
	while (!rc && (f = OGR_L_GetNextFeature(l))) {
		set_utc(f, 2, in, OGR_F_GetFieldAsDouble(f, 1));
		if (OGR_L_SetFeature(l, f) != OGRERR_NONE)
			rc = failed(path, "arrival_isochrones");
		OGR_F_Destroy(f);
	}
	if (GDALDatasetCommitTransaction(ds) != OGRERR_NONE && !rc)
		rc = failed(path, "arrival_isochrones");
	GDALClose(mem);
	return rc;
}

/* Double field k of f, left null for NaN. */
static void set_real(OGRFeatureH f, int k, double v)
{
	if (!isnan(v))
		OGR_F_SetFieldDouble(f, k, v);
}

/* The gauges as points with their peak level and time. */
static int gauges(GDALDatasetH ds, const char *path, const struct spate_gpkg_in *in,
	OGRSpatialReferenceH srs)
{
	static const char *const names[] = { "name", "peak_level_m", "peak_time_s",
		"peak_time_utc", "arrival_s", "arrival_utc" };
	static const OGRFieldType types[] = { OFTString, OFTReal, OFTReal, OFTDateTime, OFTReal,
		OFTDateTime };
	OGRLayerH l = new_layer(ds, "gauges", srs, wkbPoint, names, types, 6);
	int rc = l ? 0 : failed(path, "gauges");
	GDALDatasetStartTransaction(ds, FALSE);
	for (int k = 0; !rc && k < in->ngauge; k++) {
		OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(l));
		OGRGeometryH p = OGR_G_CreateGeometry(wkbPoint);
		OGR_G_SetPoint_2D(p, 0, in->gauge_x[k], in->gauge_y[k]);
		OGR_F_SetGeometryDirectly(f, p);
		OGR_F_SetFieldString(f, 0, in->gauge_name[k]);
		set_real(f, 1, in->peak_level[k]);
		set_real(f, 2, in->peak_time[k]);
		if (!isnan(in->peak_time[k]))
			set_utc(f, 3, in, in->peak_time[k]);
		set_real(f, 4, in->gauge_arrival[k]);
		if (!isnan(in->gauge_arrival[k]))
			set_utc(f, 5, in, in->gauge_arrival[k]);
		if (OGR_L_CreateFeature(l, f) != OGRERR_NONE)
			rc = failed(path, "gauges");
		OGR_F_Destroy(f);
	}
	if (GDALDatasetCommitTransaction(ds) != OGRERR_NONE && !rc)
		rc = failed(path, "gauges");
	return rc;
}

int spate_gpkg_write(const char *path, const struct spate_gpkg_in *in)
{
	static const char *const ext[] = { "wet", "depth_threshold_m", "area_m2" };
	static const OGRFieldType ext_t[] = { OFTInteger, OFTReal, OFTReal };
	static const char *const hz[] = { "class", "label", "scheme", "area_m2" };
	static const OGRFieldType hz_t[] = { OFTInteger, OFTString, OFTString, OFTReal };
	OGRSpatialReferenceH srs = NULL;
	GDALDriverH drv;
	GDALDatasetH ds;
	int rc;
	GDALAllRegister();
	CPLErrorReset();
	if (!(drv = GDALGetDriverByName("GPKG")))
		return failed(path, "this GDAL has no GeoPackage driver");
	VSIUnlink(path);
	if (!(ds = GDALCreate(drv, path, 0, 0, 0, GDT_Unknown, NULL)))
		return failed(path, "cannot create the GeoPackage");
	if (in->grid.crs_wkt && in->grid.crs_wkt[0]) {
		srs = OSRNewSpatialReference(in->grid.crs_wkt);
		if (srs)
			OSRSetAxisMappingStrategy(srs, OAMS_TRADITIONAL_GIS_ORDER);
	}
	rc = polygons(ds, path, "flood_extent", in, srs, ext, ext_t, 3, wet, extent_label);
	if (!rc && in->hazard_class)
		rc = polygons(ds, path, "hazard_classes", in, srs, hz, hz_t, 4, hazard, class_label);
	if (!rc && in->arrival)
		rc = isochrones(ds, path, in, srs);
	if (!rc && in->ngauge > 0)
		rc = gauges(ds, path, in, srs);
	if (srs)
		OSRDestroySpatialReference(srs);
	GDALClose(ds);
	if (!rc && CPLGetLastErrorType() >= CE_Failure)
		rc = failed(path, "closing");
	return rc;
}

#else

int spate_gpkg_write(const char *path, const struct spate_gpkg_in *in)
{
	(void)in;
	spate_log_error("export", "%s: writing a GeoPackage needs GDAL: this spate was built "
		"without it (install libgdal-dev and run ./configure again)", path);
	return -SPATE_EUNSUPPORTED;
}

#endif
