/* bsq_out.h: the files of a Boussinesq run (bsq_out.c): results.nc (u, v,
 * w at the cell centres, p and T, 3D, along time), series.csv (time, step,
 * kinetic energy, divergence, pressure-solve work, Nusselt number) and
 * profiles.csv (the centreline profiles at the end). */
#ifndef SPATE_BSQ_OUT_H
#define SPATE_BSQ_OUT_H

#include <stdio.h>

#include "bsq.h"
#include "bsq_scenario.h"

struct spate_nc;

struct bsq_out {
	const struct bsq_config *c;
	const struct bsq_params *p;
	struct spate_nc *nc;    /* NULL: no results.nc */
	FILE *series;           /* NULL: no series.csv */
	double *buf;            /* centre values of one velocity component */
	double next_series;     /* time of the next series row */
};

/* The run's Nusselt number: on the x = 0 wall when both x walls have fixed
 * temperatures, else the volume form when both z walls do; NAN otherwise. */
double bsq_nusselt(const struct bsq_state *s, const struct bsq_params *p);

/* Open the outputs in c->out_dir for state s (whose grid stays); append:
 * a restart at time t continues results.nc and series.csv.  0 or -SPATE_E*. */
int bsq_out_open(struct bsq_out *o, const struct bsq_config *c, const struct bsq_params *p,
	const struct bsq_state *s, int append);
/* Snapshot number rec of s (at s->t) into results.nc. */
int bsq_out_snapshot(struct bsq_out *o, const struct bsq_state *s, int rec);
/* Whether a row of series.csv is due at time t. */
int bsq_out_series_due(const struct bsq_out *o, double t);
/* A row of series.csv after step st, when due. */
int bsq_out_series(struct bsq_out *o, const struct bsq_state *s, const struct bsq_stats *st);
/* profiles.csv (line,coordinate,value at the cell centres): u along z
 * through the box's centre line (x, y at the middle), w along x at
 * mid-height, T along x at mid-height; in a box more than one cell wide in
 * y also u, v and w along y through the box's centre. */
int bsq_out_profiles(const struct bsq_out *o, const struct bsq_state *s);
/* Close everything; returns the first error. */
int bsq_out_close(struct bsq_out *o);

#endif
