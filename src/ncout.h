/* ncout.h: NetCDF: the results file (CF-1.8; ncout.c), checkpoints
 * (ckpt_nc.c), and reading a grid back for maps (ncread.c).  Every NetCDF
 * call of spate is in these three files; built without NetCDF, each
 * function says so and returns -SPATE_EUNSUPPORTED. */
#ifndef SPATE_NCOUT_H
#define SPATE_NCOUT_H

#include "swe.h"

struct gauge_set;
struct swe_prod;
struct terrain_grid;

/* An open results file. */
struct spate_nc;

/* What the results file holds besides the grid, the CRS and the bed. */
struct spate_nc_spec {
	int snapshots;      /* h, w, u, v along an unlimited time dimension */
	int products;       /* the flood products (output.h) */
	const struct gauge_set *gauges; /* gauge series and maxima, or NULL */
	const char *params; /* resolved parameters as INI text (global attribute) */
	int append;         /* restart: continue the file at path if it fits */
};

/* Create the results file at path (NetCDF-4): x and y cell-centre
 * coordinates from the state's grid, the CRS (grid mapping "crs") when the
 * state has one, the bed, and the variables of spec; the parameters as
 * global attributes.  With spec->append an existing file of the same grid
 * and variables is opened instead.  Returns 0 or -SPATE_E* after a message. */
int spate_nc_create(struct spate_nc **f, const char *path, const struct swe_state *s,
	const struct swe_params *p, const struct spate_nc_spec *spec);

/* Write snapshot number rec (0, 1, ...) at time t (s): depth h, level w
 * (absolute), velocities u, v of the state s (whose w, hu, hv hold it). */
int spate_nc_snapshot(struct spate_nc *f, int rec, double t, const struct swe_state *s,
	double kappa);

/* Write gauge row rec at time t: v holds depth, level, u, v per gauge. */
int spate_nc_gauge_row(struct spate_nc *f, long rec, double t, const double *v);

/* At the end of a run at time t_end (s): the flood products pr (or NULL;
 * fill value where swe_prod_value has none and on masked cells), the
 * gauges' maxima (gs, or NULL), and t_end as global attribute spate_t_end. */
int spate_nc_final(struct spate_nc *f, const struct swe_state *s, const struct swe_prod *pr,
	const struct gauge_set *gs, double t_end);

/* Close the file; returns 0 or -SPATE_EIO. */
int spate_nc_close(struct spate_nc *f);

/* Read variable var of a results file into g (terrain_free it): its grid,
 * the CRS, values with NAN for the fill value.  A variable with a time
 * dimension gives the record nearest to t (NAN: the last); *t_out receives
 * the record's time (for a variable without time: the global attribute
 * spate_t_end, or NAN); units and long_name
 * (n bytes each) its attributes. */
int spate_nc_read_grid(const char *path, const char *var, double t, struct terrain_grid *g,
	double *t_out, char *units, char *long_name, size_t n);

/* The number of dimensions of variable var of the file at path; 0 when the
 * file or the variable is not there (no message). */
int spate_nc_var_ndims(const char *path, const char *var);

#endif
