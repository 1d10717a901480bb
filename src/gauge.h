/* gauge.h: gauges: time series of depth, level and velocity at points, with
 * the maximum level and the arrival time at each, sampled every step. */
#ifndef SPATE_GAUGE_H
#define SPATE_GAUGE_H

#include <stdio.h>

#include "swe.h"
#include "gauge_kern.h"

struct gauge {
	char name[64];
	double x, y;        /* m */
	int i, j;           /* cell */
	double max_level;   /* highest level at the cell while wet, m (NAN: never wet) */
	double max_level_nb;/* highest wet level over the neighbourhood, m */
	double max_depth;   /* m */
	double arrival;     /* first time depth > threshold, s (NAN: never) */
	double t_max;       /* time of the highest level at the cell, s */
	double nb_restart;  /* max_level_nb a restart brought (NAN: none) */
};

struct gauge_set {
	int n;
	struct gauge *g;
	int radius;         /* neighbourhood half-width, cells */
	double threshold;   /* arrival depth, m */
	long *idx;          /* sampled cell indices (state layout), n * (2r+1)^2 */
	int per;            /* samples per gauge */
	real *w, *hu, *hv;  /* sampled values */
	struct gauge_track *tr; /* running maxima per sampled cell (gauge_kern.h) */
	FILE *series;       /* time series CSV, or NULL */
};

/* Read "name,x,y[,...]" lines (a header line is skipped) and locate each
 * gauge on the grid of s.  Returns 0 or -SPATE_E* after a message naming the
 * file and line (a point outside the grid is an error). */
int gauge_load(struct gauge_set *gs, const char *path, const struct swe_state *s, int radius,
	double threshold);

/* Update maxima and arrival times from the sampled values at time t. */
void gauge_update(struct gauge_set *gs, const struct swe_state *s, double t, double kappa);

/* The gauges' maxima and arrival times (struct gauge) from the tracks, after
 * gauge_update or after a backend handed the tracks back. */
void gauge_collect(struct gauge_set *gs);

/* A restart: gauge k's values as a checkpoint kept them (its tracks start
 * from them). */
void gauge_restore(struct gauge_set *gs, int k, double max_level, double max_level_nb,
	double max_depth, double arrival, double t_max);

/* The depth, level (absolute), u and v of each gauge's cell from the
 * sampled values: v[4k .. 4k+3] for gauge k (m, m, m/s, m/s). */
void gauge_values(const struct gauge_set *gs, const struct swe_state *s, double kappa,
	double *v);

/* Open <dir>/gauges.csv for the time series: new, with its header; or on a
 * restart (keep_rows > 0) keep the header and the first keep_rows rows of
 * every gauge, dropping what follows.  Returns 0 or -SPATE_EIO. */
int gauge_csv_open(struct gauge_set *gs, const char *dir, long keep_rows);

/* Append a row per gauge at time t (values from gauge_values). */
int gauge_csv_rows(struct gauge_set *gs, double t, const double *v);

/* Write <dir>/gauges_summary.csv: maxima and arrival times. */
int gauge_write_summary(const struct gauge_set *gs, const char *dir);

void gauge_free(struct gauge_set *gs);

#endif
