/* bsq_run.h: running a Boussinesq scenario (bsq_run.c), the top of the
 * module, on the run services: the clock, the progress line, signals,
 * checkpoints, the results file and the summary. */
#ifndef SPATE_BSQ_RUN_H
#define SPATE_BSQ_RUN_H

#include "bsq_scenario.h"
#include "decomp.h"

struct bsq_run_opts {
	int no_output;          /* write no files */
	const char *restart;    /* continue from this checkpoint, or NULL */
	int follower;           /* a rank but 0 under mpirun: no file of its own, only its
	                           planes of a results.nc written in parallel */
};

/* What a run did, for the summary. */
struct bsq_result {
	long steps;
	double t, wall_s, cell_steps_per_s;
	double energy, div_max, residual, nusselt;
	int cycles;             /* of the last step's pressure solve */
	long cycles_total;
	int outputs;
	int cuda;               /* 1: the steps ran on the GPU */
	int n[3];               /* cells in x, y, z */
	double len[3];          /* the box's lengths */
	int ranks;              /* MPI ranks of the run */
	double resident_mib[DECOMP_MAX]; /* each rank's resident memory at the end */
	double peak_mib[DECOMP_MAX];     /* and its highest */
	long gathers;           /* the whole fields gathered to rank 0 (slabs) */
};

/* Run c to [run] end_time (or max_steps, or a signal; then a checkpoint);
 * fills r.  Returns 0 or -SPATE_E*; -SPATE_EINTR when a signal stopped it. */
int bsq_run(const struct bsq_config *c, const struct bsq_run_opts *o, struct bsq_result *r);

/* The JSON summary of a run ("-": standard output). */
int bsq_write_summary(const char *path, const struct bsq_config *c,
	const struct bsq_result *r);

/* `spate run SCENARIO` of a scenario with [physics] model = boussinesq:
 * argv after "run".  Returns the exit status (0, 1 usage, 2 run-time, 3
 * interrupted). */
int bsq_cmd_run(int argc, char **argv);

#endif
