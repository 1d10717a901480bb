/* gauge.h: gauges: time series of depth, level and velocity at points, with
 * the maximum level and the arrival time at each, sampled every step. */
#ifndef SPATE_GAUGE_H
#define SPATE_GAUGE_H

#include <stdio.h>

#include "swe.h"

struct gauge {
	char name[64];
	double x, y;        /* m */
	int i, j;           /* cell */
	double max_level;   /* highest level at the cell while wet, m (NAN: never wet) */
	double max_level_nb;/* highest wet level over the neighbourhood, m */
	double max_depth;   /* m */
	double arrival;     /* first time depth > threshold, s (NAN: never) */
	double t_max;       /* time of the highest level at the cell, s */
};

struct gauge_set {
	int n;
	struct gauge *g;
	int radius;         /* neighbourhood half-width, cells */
	double threshold;   /* arrival depth, m */
	long *idx;          /* sampled cell indices (state layout), n * (2r+1)^2 */
	int per;            /* samples per gauge */
	real *w, *hu, *hv;  /* sampled values */
	FILE *series;       /* time series CSV, or NULL */
};

/* Read "name,x,y[,...]" lines (a header line is skipped) and locate each
 * gauge on the grid of s.  Returns 0 or -SPATE_E* after a message naming the
 * file and line (a point outside the grid is an error). */
int gauge_load(struct gauge_set *gs, const char *path, const struct swe_state *s, int radius,
	double threshold);

/* Update maxima and arrival times from the sampled values at time t. */
void gauge_update(struct gauge_set *gs, const struct swe_state *s, double t, double kappa);

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
