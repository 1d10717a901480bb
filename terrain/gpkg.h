/* gpkg.h: a flood's results as GIS vector layers in one GeoPackage,
 * through GDAL/OGR (terrain/gpkg.c): flood extent and hazard-class
 * polygons (GDALPolygonize), arrival-time isochrones (GDAL's contour
 * generator), gauge points. */
#ifndef SPATE_GPKG_H
#define SPATE_GPKG_H

#include "field.h"

/* What goes into the GeoPackage.  Rasters: grid.nx * grid.ny floats, value
 * (i, j) at [j * nx + i], row 0 the southern row; NaN: no value. */
struct spate_gpkg_in {
	struct spate_grid grid;     /* its crs_wkt (or NULL) is every layer's SRS */
	const float *max_depth;     /* m */
	double depth_threshold;     /* m: the extent is max_depth > depth_threshold */
	const float *hazard_class;  /* classes 1..nclass (0 or NaN: none), or NULL */
	int nclass;
	const char *const *class_names; /* nclass + 1 names (0: dry) */
	const char *scheme;         /* the classes' scheme, e.g. "arr2019" */
	const float *arrival;       /* s since the start, NaN where never wet; or NULL */
	double interval;            /* s between two isochrones (> 0) */
	const char *start_time;     /* canonical ISO 8601 UTC start (cftime.h), or "" */
	int ngauge;                 /* gauges (0: no layer) */
	const char (*gauge_name)[64];
	const double *gauge_x, *gauge_y;
	const double *peak_level, *peak_time, *gauge_arrival; /* m, s, s; NaN: none */
};

/* Write the GeoPackage path (replacing a file there) with the layers
 * flood_extent (polygons, fields area_m2 and depth_threshold_m),
 * hazard_classes (polygons: class, label, scheme, area_m2; with classes),
 * arrival_isochrones (lines: arrival_s and arrival_utc; with arrival
 * times) and gauges (points: name, peak_level_m, peak_time_s,
 * peak_time_utc, arrival_s, arrival_utc; with gauges).  Returns 0,
 * -SPATE_ENOMEM, -SPATE_EIO after a message naming the file and GDAL's
 * reason, or -SPATE_EUNSUPPORTED without GDAL. */
int spate_gpkg_write(const char *path, const struct spate_gpkg_in *in);

#endif
