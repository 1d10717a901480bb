/* output.h: ESRI ASCII grids and the JSON run summary. */
#ifndef SPATE_OUTPUT_H
#define SPATE_OUTPUT_H

#include "swe.h"

/* Result of a run, as written to the summary. */
struct swe_result {
	char backend[16];
	char device[256];
	int nx, ny;
	double dx, dy;      /* cell size of the grid run (a DEM's, resampled), m */
	long steps;
	double sim_time, wall_s, cell_updates_per_s;
	double volume_initial, volume_final, max_depth, max_speed;
	int outputs;        /* snapshots written */
};

/* Write an ESRI ASCII grid of nx x ny values, data[j * nx + i] with j = 0 the
 * southern row; (x0, y0) the lower-left corner.  dx != dy is written with
 * GDAL's DX/DY header.  A CRS crs_wkt (NULL or "": none) goes beside it as
 * x.prj for x.asc, as GDAL and QGIS look for it.  Returns 0 or -SPATE_EIO. */
int spate_write_asc(const char *path, int nx, int ny, double x0, double y0, double dx,
	double dy, const double *data, double nodata, const char *crs_wkt);

/* A snapshot's fields: depth h (m), level w (m, absolute: bref added back),
 * velocities u, v (m/s, desingularised: kp07_velocity, k4 = kappa^4): their
 * names, CF units and long names, and the value of field var at cell (i,
 * j): NAN on masked cells. */
extern const char *const swe_snap_names[4];
extern const char *const swe_snap_units[4];
extern const char *const swe_snap_long_names[4];
double swe_snap_value(const struct swe_state *s, int var, int i, int j, real k4);

/* Turn the snapshot s into its fields in place: h (nx * ny, row-major)
 * receives the depth, and w, hu, hv of s the level, u and v, as values of
 * type real (swe_snap_value's, rounded). */
void swe_snap_fields(struct swe_state *s, real *h, real k4);

/* Write h, w (absolute level), u, v of a state as <dir>/<var>_<index>.asc. */
int swe_write_grids(const struct swe_state *s, const struct swe_params *p, const char *dir,
	int index);

struct swe_prod;
/* The flood products as written (ESRI ASCII and NetCDF): names, CF units,
 * long names, and the value of product k of a cell: NAN where the cell never
 * held water, and arrival_time where it was never wetter than the threshold. */
enum { SWE_NPROD = 6 };
extern const char *const swe_prod_names[SWE_NPROD];
extern const char *const swe_prod_units[SWE_NPROD];
extern const char *const swe_prod_long_names[SWE_NPROD];
double swe_prod_value(const struct swe_prod *p, int k);
/* The greatest hazard class of scheme (enum spate_hazard_scheme) a cell
 * reached; 0: dry, or no scheme. */
double swe_prod_class(const struct swe_prod *p, int scheme);

/* Write the flood products as <dir>/<name>.asc: max_depth, max_speed,
 * max_hazard, arrival_time, time_of_max_depth, duration_wet (NODATA -9999
 * where swe_prod_value has none, and on masked cells). */
int swe_write_products(const struct swe_state *s, const struct swe_prod *pr, const char *dir);

/* Write the JSON summary; returns 0 or -SPATE_EIO. */
int swe_write_summary(const char *path, const struct swe_result *r, const struct swe_params *p);


#endif
