/* progress.h: the progress line of a long run on standard error, for every
 * physics module: simulated time, percentage, steps, dt, cell updates per
 * second and the time left; on a terminal one line rewritten in place. */
#ifndef SPATE_PROGRESS_H
#define SPATE_PROGRESS_H

struct spate_progress {
	double wall0;       /* wall clock at the start, s */
	double last;        /* wall clock of the last line, s */
	double t0, end;     /* simulated times of the start and the end, s */
	long steps0;        /* steps taken before the start */
	double cells;       /* cells updated by a step */
	int printed;        /* a line was printed */
	long steps_printed; /* the steps of the last line */
};

/* Start timing a run from simulated time t0 and step steps0 to end. */
void spate_progress_start(struct spate_progress *p, double t0, long steps0, double end,
	double cells);

/* A line when more than a second passed since the last one: at time t,
 * after `steps` steps, the last of dt s. */
void spate_progress_tick(struct spate_progress *p, double t, long steps, double dt);

/* The last line (when any was printed).  Returns the wall time since the
 * start, s; *rate (or NULL): cell updates per second. */
double spate_progress_end(struct spate_progress *p, double t, long steps, double dt,
	double *rate);

#endif
