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
	int par, k0;            /* results.nc written in parallel, from layer k0 here */
};

/* Under mpirun with the MPI flavour of NetCDF: results.nc created by every
 * rank together, each writing its own planes [k0, k0 + nk) of every
 * snapshot (no gather); files: this rank writes series.csv and
 * profiles.csv too (rank 0). */
struct bsq_out_part {
	int k0, nk;
	int files;
};

/* The run's Nusselt number: on the x = 0 wall when both x walls have fixed
 * temperatures, else the volume form when both z walls do; NAN otherwise. */
double bsq_nusselt(const struct bsq_state *s, const struct bsq_params *p);

/* Open the outputs in c->out_dir for state s (whose grid stays); append:
 * a restart at time t continues results.nc and series.csv; part: NULL (this
 * process writes results.nc whole), or this rank's part of a results.nc
 * written in parallel (collective then).  0 or -SPATE_E*. */
int bsq_out_open(struct bsq_out *o, const struct bsq_config *c, const struct bsq_params *p,
	const struct bsq_state *s, int append, const struct bsq_out_part *part);
/* Snapshot number rec of s (at s->t) into results.nc; in parallel (collective)
 * s holds this rank's planes only (g.nz = part->nk, with a ghost plane on
 * each side). */
int bsq_out_snapshot(struct bsq_out *o, const struct bsq_state *s, int rec);
/* Whether a row of series.csv is due at time t. */
int bsq_out_series_due(const struct bsq_out *o, double t);
/* A row of series.csv after step st, when due. */
int bsq_out_series(struct bsq_out *o, const struct bsq_state *s, const struct bsq_stats *st);
/* The same row from its numbers (energy and Nusselt number summed apart:
 * bsq_slabs_series), at time t after step `step`. */
int bsq_out_series_row(struct bsq_out *o, double t, long step, const struct bsq_stats *st,
	double energy, double nusselt);
/* profiles.csv (line,coordinate,value at the cell centres): u along z
 * through the box's centre line (x, y at the middle), w along x at
 * mid-height, T along x at mid-height; in a box more than one cell wide in
 * y also u, v and w along y through the box's centre. */
int bsq_out_profiles(const struct bsq_out *o, const struct bsq_state *s);
/* Close everything; returns the first error. */
int bsq_out_close(struct bsq_out *o);

#endif
