/* output.h: ESRI ASCII grids and the JSON run summary. */
#ifndef SPATE_OUTPUT_H
#define SPATE_OUTPUT_H

#include "swe.h"

/* Result of a run, as written to the summary. */
struct swe_result {
	char backend[16];
	char device[256];
	int nx, ny;
	long steps;
	double sim_time, wall_s, cell_updates_per_s;
	double volume_initial, volume_final, max_depth, max_speed;
	int outputs;        /* snapshots written */
};

/* Write an ESRI ASCII grid of nx x ny values, data[j * nx + i] with j = 0 the
 * southern row; (x0, y0) the lower-left corner.  dx != dy is written with
 * GDAL's DX/DY header.  Returns 0 or -SPATE_EIO. */
int spate_write_asc(const char *path, int nx, int ny, double x0, double y0, double dx,
	double dy, const double *data, double nodata);

/* Write h, w (absolute level), u, v of a state as <dir>/<var>_<index>.asc. */
int swe_write_grids(const struct swe_state *s, const struct swe_params *p, const char *dir,
	int index);

struct swe_prod;
/* Write the flood products as <dir>/<name>.asc: max_depth, max_speed,
 * max_hazard, arrival_time, time_of_max_depth, duration_wet (NODATA where
 * never wet or masked). */
int swe_write_products(const struct swe_state *s, const struct swe_prod *pr, const char *dir);

/* Write the JSON summary; returns 0 or -SPATE_EIO. */
int swe_write_summary(const char *path, const struct swe_result *r, const struct swe_params *p);

/* Make a directory and its parents; returns 0 or -SPATE_EIO. */
int spate_mkdir_p(const char *dir);

#endif
