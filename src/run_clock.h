/* run_clock.h: the time loop's bookkeeping, for every physics module: the
 * end time, the output times (every out_every s), the checkpoint times
 * (every ckpt_every s), the next snapshot number, and where a chunk of
 * steps stops.  Pure arithmetic on times (run_clock.c); the loop itself,
 * which steps a module and writes its files, stays with the module. */
#ifndef SPATE_RUN_CLOCK_H
#define SPATE_RUN_CLOCK_H

struct spate_clock {
	double end;         /* end time, s */
	double out_every;   /* s between outputs (0: only at the end) */
	double ckpt_every;  /* s of simulated time between checkpoints (0: none) */
	double next_out;    /* the next output time, s */
	double next_ckpt;   /* the next checkpoint time, s */
	int index;          /* the next snapshot's number */
};

/* The first multiple of dt after t (dt > 0). */
double spate_next_multiple(double t, double dt);

/* A clock from time 0: outputs at out_every, 2 out_every, ... (or only at
 * end), checkpoints at ckpt_every, 2 ckpt_every, ... */
void spate_clock_start(struct spate_clock *c, double end, double out_every, double ckpt_every);

/* A restart at time t of a run whose clock was `saved` (its next output and
 * checkpoint times and index, with the intervals it had): those times go on
 * where the intervals are unchanged, else restart from t. */
void spate_clock_resume(struct spate_clock *c, double t, const struct spate_clock *saved);

/* Where the next chunk of steps must stop: the next output time or the end;
 * `also` (another stop time of the module, INFINITY: none) when earlier. */
double spate_clock_stop(const struct spate_clock *c, double also);

/* The most steps of the next chunk, from time t to t_stop with steps of
 * about last_dt (s), so that it ends a step or so after the next
 * checkpoint time when that comes before t_stop; else limit.
 * 0 < result <= limit. */
long spate_clock_ckpt_limit(const struct spate_clock *c, double t, double t_stop,
	double last_dt, long limit);

/* After a chunk ending at time t: 1 when an output is due there (before the
 * end), the next output time moved on. */
int spate_clock_output_due(struct spate_clock *c, double t);

/* After a chunk ending at time t: 1 when a checkpoint is due (before the
 * end), the next checkpoint time moved past t. */
int spate_clock_ckpt_due(struct spate_clock *c, double t);

/* Steps for a chunk of about 0.25 s wall time, from the last chunk's wall
 * time per step (s; <= 0: unknown, double the last chunk). */
long spate_chunk_steps(double per_step, long last);

#endif
