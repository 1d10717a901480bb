/* ncpoints.h: the named points of a results file (field.h: struct
 * spate_points), for ncout.c: their dimensions and variables, positions,
 * rows of series and final values.  Every function returns a NetCDF status. */
#ifndef SPATE_NCPOINTS_H
#define SPATE_NCPOINTS_H

#include "field.h"

/* The points' variables in NetCDF file id. */
struct spate_ncp;

/* Define the points p in file id (in define mode). */
int spate_ncp_define(struct spate_ncp **q, int id, const struct spate_points *p,
	const char *time_units);

/* A restart: the points p as file id holds them (NC_EINVAL: it does not). */
int spate_ncp_reopen(struct spate_ncp **q, int id, const struct spate_points *p);

/* Write the names and positions of p (out of define mode). */
int spate_ncp_places(const struct spate_ncp *q, const struct spate_points *p);

/* Row rec at time t: v[nseries * p + k] series k of point p; the rows of
 * a run placed as spate_nc_rec_shift says (reopened: a restart's file). */
int spate_ncp_row(struct spate_ncp *q, int reopened, long rec, double t, const double *v);

/* The final values, v[nfinal * p + k] (NaN: fill). */
int spate_ncp_final(struct spate_ncp *q, const double *v);

void spate_ncp_free(struct spate_ncp *q);

#endif
