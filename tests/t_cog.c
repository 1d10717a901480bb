/* t_cog.c: spate_cog_write_field (terrain/cog.h) read back with GDAL: the
 * file is a COG (the driver's LAYOUT=COG in the image structure metadata),
 * DEFLATE-compressed, tiled, with overviews; its size, geotransform, CRS,
 * NODATA, band description and unit are those given; every value is the
 * field's (north row first in the file), NaN cells are NODATA.  A bad grid
 * is refused.  Skips (77) without GDAL. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "spate.h"
#include "cog.h"

#ifdef HAVE_GDAL
#include <gdal.h>
#include <cpl_string.h>
#include <ogr_srs_api.h>

enum { NX = 300, NY = 170 };

static const char WKT[] = "PROJCS[\"WGS 84 / UTM zone 32N\",GEOGCS[\"WGS 84\","
	"DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],PRIMEM[\"Greenwich\",0],"
	"UNIT[\"degree\",0.0174532925199433]],PROJECTION[\"Transverse_Mercator\"],"
	"PARAMETER[\"latitude_of_origin\",0],PARAMETER[\"central_meridian\",9],"
	"PARAMETER[\"scale_factor\",0.9996],PARAMETER[\"false_easting\",500000],"
	"PARAMETER[\"false_northing\",0],UNIT[\"metre\",1],AUTHORITY[\"EPSG\",\"32632\"]]";

static float value(int i, int j)
{
	return (i + j) % 7 == 0 ? NAN : (float)(0.25 * i - 0.5 * j);
}

static void round_trip(void **state)
{
	char path[] = "tests/t_cog.tif";
	struct spate_grid g = { .nx = NX, .ny = NY, .x0 = 1000, .y0 = 2000, .dx = 10, .dy = 20,
		.crs_wkt = WKT };
	float *v = malloc(sizeof(float) * NX * NY), *row = malloc(sizeof(float) * NX);
	double gt[6];
	int has_nd = 0;
	(void)state;
	assert_non_null(v);
	assert_non_null(row);
	for (int j = 0; j < NY; j++)
		for (int i = 0; i < NX; i++)
			v[j * NX + i] = value(i, j);
	assert_int_equal(spate_cog_write_field(path, &g, v, -9999, "max_depth", "m", NULL), 0);
	GDALAllRegister();
	GDALDatasetH ds = GDALOpen(path, GA_ReadOnly);
	assert_non_null(ds);
	assert_string_equal(GDALGetDriverShortName(GDALGetDatasetDriver(ds)), "GTiff");
	const char *layout = GDALGetMetadataItem(ds, "LAYOUT", "IMAGE_STRUCTURE");
	const char *comp = GDALGetMetadataItem(ds, "COMPRESSION", "IMAGE_STRUCTURE");
	assert_non_null(layout);
	assert_string_equal(layout, "COG");
	assert_non_null(comp);
	assert_string_equal(comp, "DEFLATE");
	assert_int_equal(GDALGetRasterXSize(ds), NX);
	assert_int_equal(GDALGetRasterYSize(ds), NY);
	assert_int_equal(GDALGetGeoTransform(ds, gt), CE_None);
	assert_true(gt[0] == 1000 && gt[1] == 10 && gt[3] == 2000 + NY * 20 && gt[5] == -20);
	OGRSpatialReferenceH want = OSRNewSpatialReference(WKT);
	OGRSpatialReferenceH got = OSRNewSpatialReference(GDALGetProjectionRef(ds));
	assert_true(OSRIsSame(want, got));
	OSRDestroySpatialReference(want);
	OSRDestroySpatialReference(got);
	GDALRasterBandH b = GDALGetRasterBand(ds, 1);
	int bx, by;
	GDALGetBlockSize(b, &bx, &by);
	assert_int_equal(bx, 256);
	assert_int_equal(by, 256);
	assert_true(GDALGetOverviewCount(b) >= 1);
	assert_true(GDALGetRasterNoDataValue(b, &has_nd) == -9999 && has_nd);
	assert_string_equal(GDALGetDescription(b), "max_depth");
	assert_string_equal(GDALGetRasterUnitType(b), "m");
	long bad = 0;
	for (int r = 0; r < NY; r++) {
		int j = NY - 1 - r;
		assert_int_equal(GDALRasterIO(b, GF_Read, 0, r, NX, 1, row, NX, 1, GDT_Float32, 0,
			0), CE_None);
		for (int i = 0; i < NX; i++) {
			float w = value(i, j);
			bad += isnan(w) ? row[i] != -9999.0f : row[i] != w;
		}
	}
	assert_int_equal(bad, 0);
	GDALClose(ds);
	g.dx = 0;
	assert_int_equal(spate_cog_write_field(path, &g, v, -9999, NULL, NULL, NULL),
		-SPATE_EINVAL);
	unlink(path);
	free(v);
	free(row);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(round_trip) };
	spate_set_quiet(1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
	printf("t_cog: built without GDAL: skipped\n");
	return 77;
}

#endif
