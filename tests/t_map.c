/* t_map.c: spate map's GeoTIFFs, round trip through GDAL.
 *
 * A run on a small DEM with a CRS (demtest.h) writes results.nc; `spate map`
 * makes GeoTIFFs of max_depth and of the depth snapshot at 20 s.  Read back
 * with GDAL: they have the DEM's CRS and geotransform (exactly), NoData,
 * and the values of the ESRI ASCII grids written beside results.nc (to
 * float precision in a double build).  Bad usage, and a results file that
 * cannot be read, fail with status 1.
 * (The printed maps, PNG and PDF: t_mapdraw.c.)  Skips (77) without GDAL or
 * NetCDF. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#if defined(HAVE_GDAL) && defined(HAVE_NETCDF)
#include <gdal.h>
#include <ogr_srs_api.h>

#include "demtest.h"

/* The GeoTIFF path: CRS of the DEM, geotransform, NoData, values = asc. */
static void check_tif(const char *tif, const char *asc, const char *what)
{
	char path[512], tok[64], key[64];
	GDALDatasetH ds, dem;
	OGRSpatialReferenceH a, b;
	double gt[6], want[6] = { X0, DX, 0, Y0 + NY * DX, 0, -DX }, nd;
	float row[NX];
	int ok = 0, same = 1, bad = 0;
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, tif);
	ds = GDALOpen(path, GA_ReadOnly);
	snprintf(path, sizeof path, "%s/dem.asc", dir);
	dem = GDALOpen(path, GA_ReadOnly);
	if (!ds || !dem)
		die("cannot open the GeoTIFF or the DEM with GDAL");
	GDALGetGeoTransform(ds, gt);
	for (int k = 0; k < 6; k++)
		same &= gt[k] == want[k];
	check(same && GDALGetRasterXSize(ds) == NX && GDALGetRasterYSize(ds) == NY,
		"%s: %d x %d, geotransform of the DEM exactly (%.17g %.17g %g %.17g %g %g)", what,
		GDALGetRasterXSize(ds), GDALGetRasterYSize(ds), gt[0], gt[1], gt[2], gt[3], gt[4],
		gt[5]);
	a = OSRNewSpatialReference(GDALGetProjectionRef(ds));
	b = OSRNewSpatialReference(GDALGetProjectionRef(dem));
	check(a && b && OSRIsSame(a, b) && strstr(GDALGetProjectionRef(ds), "UTM zone 32N"),
		"%s: the DEM's CRS", what);
	nd = GDALGetRasterNoDataValue(GDALGetRasterBand(ds, 1), &ok);
	check(ok && nd == -9999, "%s: NoData -9999", what);
	snprintf(path, sizeof path, "%s/out/%s", dir, asc);
	if (!(f = fopen(path, "r")))
		die("cannot read an ESRI ASCII grid");
	for (int k = 0; k < 6; k++)
		if (fscanf(f, "%63s %63s", key, tok) != 2)
			die("bad ESRI ASCII header");
	for (int r = 0; r < NY; r++) {
		if (GDALRasterIO(GDALGetRasterBand(ds, 1), GF_Read, 0, r, NX, 1, row, NX, 1,
			GDT_Float32, 0, 0) != CE_None)
			die("cannot read the GeoTIFF");
		for (int i = 0; i < NX; i++) {
			char mine[64];
			if (fscanf(f, "%63s", tok) != 1)
				die("short ESRI ASCII grid");
			snprintf(mine, sizeof mine, "%.7g", (double)row[i]);
#ifdef SPATE_DOUBLE
			/* the grids of a double build are rounded to the GeoTIFF's floats */
			bad += strcmp(mine, tok) && fabs(strtod(tok, NULL) - row[i]) > 1e-6 * fabs(row[i]);
#else
			bad += strcmp(mine, tok) != 0;
#endif
		}
	}
	check(bad == 0, "%s: values equal %s (%d cells differ)", what, asc, bad);
	fclose(f);
	OSRDestroySpatialReference(a);
	OSRDestroySpatialReference(b);
	GDALClose(ds);
	GDALClose(dem);
}

int main(void)
{
	char cmd[1024];
	GDALAllRegister();
	write_inputs("both");
	snprintf(cmd, sizeof cmd, "run '%s/run.conf' -q", dir);
	if (run_spate(cmd) != 0)
		die("spate run failed");
	snprintf(cmd, sizeof cmd, "map '%s/out/results.nc' --var max_depth -o '%s/md.tif' -q", dir,
		dir);
	check(run_spate(cmd) == 0, "spate map --var max_depth -o md.tif");
	check_tif("md.tif", "max_depth.asc", "md.tif");
	snprintf(cmd, sizeof cmd, "map '%s/out/results.nc' --var=h --time=21 -o '%s/h.tif'", dir,
		dir);
	check(run_spate(cmd) == 0, "spate map --var=h --time=21 -o h.tif (the snapshot at 20 s)");
	check_tif("h.tif", "h_0002.asc", "h.tif");
	snprintf(cmd, sizeof cmd, "map '%s/out/results.nc' --var nothing -o '%s/x.tif' "
		"2>/dev/null", dir, dir);
	check(WEXITSTATUS(run_spate(cmd)) == 1, "an unknown variable: status 1");
	snprintf(cmd, sizeof cmd, "map '%s/out/results.nc' -o '%s/x.jpg' 2>/dev/null", dir, dir);
	check(WEXITSTATUS(run_spate(cmd)) == 1, "an unknown picture format: status 1");
	/* a results file that cannot be read is bad input, as for spate export */
	snprintf(cmd, sizeof cmd, "map '%s/none.nc' -o '%s/x.tif' 2>/dev/null", dir, dir);
	check(WEXITSTATUS(run_spate(cmd)) == 1, "a missing results file: status 1");
	snprintf(cmd, sizeof cmd, "map '%s/run.conf' -o '%s/x.tif' 2>/dev/null", dir, dir);
	check(WEXITSTATUS(run_spate(cmd)) == 1, "a results file that is not NetCDF: status 1");
	cleanup();
	printf("t_map: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
#else
int main(void)
{
	printf("SKIP: spate was built without GDAL or NetCDF\n");
	return 77;
}
#endif
