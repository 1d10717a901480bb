/* t_wkt.c: terrain_wkt_units (terrain/asc.c), what a build without GDAL
 * reads of a DEM's .prj: geographic CRSs, the linear unit of projected ones
 * in WKT 1 (ESRI's .prj, OGC) and WKT 2 (the unit of the CRS, or of its
 * axes), quoted names with brackets and doubled quotes, and texts it must
 * not claim to know (compound and geocentric CRSs, junk, unclosed
 * brackets).  The run-level refusal of such DEMs is tests/terrain_bad.sh. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "spate.h"
#include "terrain.h"

#define GEOG1 "GEOGCS[\"GCS_WGS_1984\",DATUM[\"D_WGS_1984\",SPHEROID[\"WGS_1984\"," \
	"6378137.0,298.257223563]],PRIMEM[\"Greenwich\",0.0],UNIT[\"Degree\"," \
	"0.0174532925199433]]"

/* The outcome of terrain_wkt_units on wkt. */
struct out {
	int rc, geo;
	double metres;
	char unit[64], name[128];
};

static struct out read_wkt(const char *wkt)
{
	struct out o;
	memset(&o, 0, sizeof o);
	o.rc = terrain_wkt_units(wkt, &o.geo, &o.metres, o.unit, sizeof o.unit, o.name,
		sizeof o.name);
	return o;
}

static void test_geographic(void **state)
{
	struct out o = read_wkt(GEOG1);
	(void)state;
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.geo, 1);
	assert_string_equal(o.name, "GCS_WGS_1984");
	o = read_wkt("  GEOGCRS[\"WGS 84\",DATUM[\"World Geodetic System 1984\",ELLIPSOID["
		"\"WGS 84\",6378137,298.257223563,LENGTHUNIT[\"metre\",1]]],CS[ellipsoidal,2],"
		"AXIS[\"latitude\",north],AXIS[\"longitude\",east],ANGLEUNIT[\"degree\","
		"0.0174532925199433]]\n");
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.geo, 1);
	o = read_wkt("geogcs[\"lower case\",UNIT[\"degree\",0.01745]]");
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.geo, 1);
}

static void test_projected_wkt1(void **state)
{
	struct out o = read_wkt("PROJCS[\"WGS_1984_UTM_Zone_32N\"," GEOG1 ",PROJECTION["
		"\"Transverse_Mercator\"],PARAMETER[\"Central_Meridian\",9.0],UNIT[\"Meter\",1.0]]");
	(void)state;
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.geo, 0);
	assert_true(o.metres == 1.0);
	assert_string_equal(o.unit, "Meter");
	assert_string_equal(o.name, "WGS_1984_UTM_Zone_32N");
	/* feet: the projected CRS's own unit, not the base CRS's degrees */
	o = read_wkt("PROJCS[\"NAD_1983_StatePlane_California_VI_FIPS_0406_Feet\"," GEOG1
		",PROJECTION[\"Lambert_Conformal_Conic\"],UNIT[\"Foot_US\",0.3048006096012192]]");
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.geo, 0);
	assert_true(fabs(o.metres - 0.3048006096012192) < 1e-15);
	assert_string_equal(o.unit, "Foot_US");
	/* no unit named: metres */
	o = read_wkt("PROJCS[\"local\"," GEOG1 ",PROJECTION[\"Transverse_Mercator\"]]");
	assert_int_equal(o.rc, 0);
	assert_true(o.metres == 1.0);
	assert_string_equal(o.unit, "");
}

static void test_projected_wkt2(void **state)
{
	const char *base = "BASEGEOGCRS[\"WGS 84\",DATUM[\"WGS84\",ELLIPSOID[\"WGS 84\",6378137,"
		"298.257223563,LENGTHUNIT[\"metre\",1]]],ANGLEUNIT[\"degree\",0.0174532925199433]],"
		"CONVERSION[\"UTM zone 32N\",METHOD[\"Transverse Mercator\"]],CS[Cartesian,2],";
	char wkt[1024];
	struct out o;
	(void)state;
	snprintf(wkt, sizeof wkt, "PROJCRS[\"WGS 84 / UTM zone 32N\",%sAXIS[\"(E)\",east],"
		"AXIS[\"(N)\",north],LENGTHUNIT[\"metre\",1],ID[\"EPSG\",32632]]", base);
	o = read_wkt(wkt);
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.geo, 0);
	assert_true(o.metres == 1.0);
	assert_string_equal(o.unit, "metre");
	/* the unit of each axis (the ellipsoid's metre lies deeper) */
	snprintf(wkt, sizeof wkt, "PROJCRS[\"ft\",%sAXIS[\"easting\",east,LENGTHUNIT["
		"\"US survey foot\",0.304800609601219]],AXIS[\"northing\",north,LENGTHUNIT["
		"\"US survey foot\",0.304800609601219]]]", base);
	o = read_wkt(wkt);
	assert_int_equal(o.rc, 0);
	assert_true(fabs(o.metres - 0.304800609601219) < 1e-15);
	assert_string_equal(o.unit, "US survey foot");
}

static void test_quotes(void **state)
{
	/* brackets and a doubled quote inside the names are text */
	struct out o = read_wkt("PROJCS[\"a ]] \"\"b\"\" [[\",UNIT[\"feet ]\",0.3048]]");
	(void)state;
	assert_int_equal(o.rc, 0);
	assert_string_equal(o.name, "a ]] \"b\" [[");
	assert_string_equal(o.unit, "feet ]");
	assert_true(o.metres == 0.3048);
}

static void test_not_said(void **state)
{
	static const char *const texts[] = {
		"",
		"   ",
		"not wkt at all",
		"COMPD_CS[\"x\",PROJCS[\"y\",UNIT[\"Foot\",0.3048]],VERT_CS[\"z\"]]",
		"GEOCCS[\"geocentric\",UNIT[\"metre\",1]]",
		"PROJCS[\"unclosed\",UNIT[\"foot\",0.3048]",
		"PROJCS[\"a\",UNIT[\"foot\"]]",
		"PROJCS[\"a\",UNIT[\"foot\",-1]]",
		"PROJCS[\"a\",UNIT[\"foot\",nan]]",
		"PROJCS[\"unterminated name,UNIT[\"foot\",0.3048]]",
		"PROJCS",
	};
	(void)state;
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct out o = read_wkt(texts[i]);
		if (o.rc != -1)
			fail_msg("\"%s\": read as rc %d, geographic %d, %g m", texts[i], o.rc, o.geo,
				o.metres);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geographic),
		cmocka_unit_test(test_projected_wkt1),
		cmocka_unit_test(test_projected_wkt2),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_not_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
