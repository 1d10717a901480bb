/* swe_watch.h: the instability guard of the flood driver (swe_run.c):
 * every [run] guard_every steps (at most) it asks the backend whether a step
 * stored a NaN or infinite value (a flag set by the stage kernels,
 * swe_guard.h: no download), keeps a copy of each good state on the
 * device, and on failure finds the first bad cell, rewinds the backend to
 * the last good state for the driver's checkpoint, and writes a report.
 * A module helper: calls the backend through its table, nothing above. */
#ifndef SPATE_SWE_WATCH_H
#define SPATE_SWE_WATCH_H

#include "swe.h"
#include "swe_backend.h"
#include "run_clock.h"

struct swe_watch {
	long every;             /* most steps between two checks (0: off) */
	int on;                 /* the guard runs: every > 0 and the backend has one */
	long plant_step;        /* SPATE_TEST_PLANT_NAN: after this step (0: none) */
	int plant_i, plant_j;   /* ... a NaN depth in this cell */
	long plant_cell;        /* its state index */
	int plant_silent;       /* ",silent": planted without the guard's note */
	int kept;               /* the backend holds a last good state */
	struct swe_stats st;    /* the last good state's clock, as the driver had it */
	struct spate_clock clk;
	double next_gauge;
};

/* What went wrong, for the report. */
struct swe_watch_fail {
	long step, good_step;   /* the step the check found bad, the last good one */
	double t, good_t;       /* their times, s */
	int found;              /* a non-finite value was found (else: dt <= 0) */
	int i, j;               /* the first bad cell (row-major from the south-west) */
	double x, y;            /* its centre, map units */
	const char *var;        /* "h", "hu" or "hv" */
	double h, speed;        /* depth (m) and speed (m/s) there in the last good state */
	int rewound;            /* the backend went back to it (h and speed are set) */
};

/* Set up from p ([run] guard_every) and the test hook, read here only:
 * SPATE_TEST_PLANT_NAN="step,i,j" plants a NaN depth in cell (i, j) after
 * that step, noted as a step notes what it stores; "step,i,j,silent"
 * without the note, so that the next step's stores must find it.  0, or -SPATE_EINVAL for a hook that does not parse or fit. */
int swe_watch_start(struct swe_watch *w, const struct spate_backend *be,
	const struct swe_params *p, const struct swe_state *s);

/* The most steps an advance from step `steps` may take (limit: the
 * driver's own), so that it ends at the next check and at the plant step. */
long swe_watch_limit(const struct swe_watch *w, long steps, long limit);

/* After an advance that returned rc and reached step `steps`: plant (the
 * hook), then look at the flag.  1: the state went bad (or the advance
 * failed on a non-finite speed); 0: good; -SPATE_E*: rc, or another
 * error. */
int swe_watch_check(struct swe_watch *w, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, long steps, int rc);

/* The current state is good: keep it (on the device), with the driver's
 * clocks st, clk and next_gauge.  0 or -SPATE_E*. */
int swe_watch_keep(struct swe_watch *w, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, const struct swe_stats *st, const struct spate_clock *clk,
	double next_gauge);

/* After a check said bad at st: fill *f (the first bad cell of the current
 * state, and its depth and speed in the last good one), and rewind the
 * backend to the last good state.  s: the run's host state (geometry,
 * kappa from p).  0 or -SPATE_E*; -SPATE_ENUMERIC when no good state was
 * kept (a failure in the first steps: then nothing is rewound). */
int swe_watch_fail(struct swe_watch *w, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, const struct swe_state *s, const struct swe_params *p,
	const struct swe_stats *st, struct swe_watch_fail *f);

/* The report on stderr and, when dir is not NULL, in dir/guard-report.txt;
 * ck: the checkpoint of the last good state, or NULL. */
void swe_watch_report(const struct swe_watch_fail *f, const char *dir, const char *ck);

#endif
