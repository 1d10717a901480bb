/* demtest.h: the scratch case of the output tests (t_ncout, t_map): a small
 * valley DEM as an ESRI ASCII grid with a .prj (UTM zone 32N), a gauge file
 * and a scenario that floods the valley from a reservoir, in folder dir.
 * Helpers for checks; exit 99 on a broken test set-up. */
#ifndef SPATE_TESTS_DEMTEST_H
#define SPATE_TESTS_DEMTEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NX 40
#define NY 30
#define X0 431000.25
#define Y0 4812000.75
#define DX 12.5

static int failures;
static char dir[256];

static void __attribute__((format(printf, 2, 3))) check(int ok, const char *fmt, ...)
{
	va_list ap;
	printf("%s ", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures += !ok;
}

static void die(const char *what)
{
	fprintf(stderr, "test error: %s\n", what);
	exit(99);
}

/* A valley sloping east with a reservoir behind a dam at x = X0 + 150 (one
 * NODATA cell, masked), gauges G1 and G2, in a new scratch folder dir;
 * format: [output] format. */
static void write_inputs(const char *format)
{
	char path[512];
	const char *tmp = getenv("TMPDIR");
	FILE *f;
	snprintf(dir, sizeof dir, "%s/spate-demtest.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		die("cannot make a scratch folder");
	snprintf(path, sizeof path, "%s/dem.asc", dir);
	if (!(f = fopen(path, "w")))
		die("cannot write the DEM");
	fprintf(f, "ncols %d\nnrows %d\nxllcorner %.17g\nyllcorner %.17g\ncellsize %g\n"
		"NODATA_value -9999\n", NX, NY, X0, Y0, DX);
	for (int j = NY - 1; j >= 0; j--)
		for (int i = 0; i < NX; i++) {
			double y = (j + 0.5) / NY - 0.5, z = 20 - 0.05 * i + 8 * y * y;
			fprintf(f, i + 1 < NX ? "%.3f " : "%.3f\n", i == NX - 1 && j == 0 ? -9999 : z);
		}
	fclose(f);
	snprintf(path, sizeof path, "%s/dem.prj", dir);
	if (!(f = fopen(path, "w")))
		die("cannot write the .prj");
	fprintf(f, "PROJCS[\"WGS 84 / UTM zone 32N\",GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\","
		"SPHEROID[\"WGS 84\",6378137,298.257223563]],PRIMEM[\"Greenwich\",0],"
		"UNIT[\"degree\",0.0174532925199433]],PROJECTION[\"Transverse_Mercator\"],"
		"PARAMETER[\"latitude_of_origin\",0],PARAMETER[\"central_meridian\",9],"
		"PARAMETER[\"scale_factor\",0.9996],PARAMETER[\"false_easting\",500000],"
		"PARAMETER[\"false_northing\",0],UNIT[\"metre\",1]]\n");
	fclose(f);
	snprintf(path, sizeof path, "%s/gauges.csv", dir);
	if (!(f = fopen(path, "w")))
		die("cannot write the gauges");
	fprintf(f, "name,x,y\nG1,%.3f,%.3f\nG2,%.3f,%.3f\n", X0 + 210, Y0 + 180, X0 + 400, Y0 + 200);
	fclose(f);
	snprintf(path, sizeof path, "%s/run.conf", dir);
	if (!(f = fopen(path, "w")))
		die("cannot write the scenario");
	fprintf(f, "[domain]\nsetup = dem\ndem = %s/dem.asc\nnodata = mask\n[initial]\n"
		"reservoir_level = 21\nreservoir_line = %.3f %.3f %.3f %.3f\n[physics]\n"
		"manning = 0.03\n[run]\nend_time = 30\ndevice = cpu\n[output]\ndir = %s/out\n"
		"interval = 10\nformat = %s\nthreshold = 0.02\n[gauges]\nfile = %s/gauges.csv\n"
		"interval = 2\n", dir, X0 + 150, Y0, X0 + 150, Y0 + NY * DX, dir, format, dir);
	fclose(f);
}

/* Run the spate program ($SPATE) with the arguments args (shell words);
 * returns system()'s status. */
static int run_spate(const char *args)
{
	const char *spate = getenv("SPATE");
	char cmd[2048];
	if (!spate)
		die("SPATE is not set (run through make check)");
	snprintf(cmd, sizeof cmd, "'%s' %s", spate, args);
	return system(cmd);
}

/* Remove dir after a run whose checks all passed. */
static void cleanup(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (!failures && system(cmd) != 0)
		fprintf(stderr, "note: %s left behind\n", dir);
}

#endif
