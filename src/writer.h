/* writer.h: a writer thread: jobs (writing a snapshot, a gauge row, a
 * checkpoint) run one at a time, in the order queued, while the solver goes
 * on.  With SPATE_WRITER=sync in the environment, or where no thread can be
 * started, each job runs at once in the caller. */
#ifndef SPATE_WRITER_H
#define SPATE_WRITER_H

struct spate_writer;

/* Start a writer; returns 0 or -SPATE_ENOMEM. */
int spate_writer_start(struct spate_writer **w);

/* Queue run(arg), then done(arg) (which frees arg; NULL: nothing).  After a
 * job failed, later ones are not run (only done).  Returns the first error
 * of a job so far (0 if none). */
int spate_writer_push(struct spate_writer *w, int (*run)(void *), void (*done)(void *),
	void *arg);

/* Wait until at most n jobs are queued or running; returns the first error
 * of a job so far. */
int spate_writer_wait(struct spate_writer *w, int n);

/* Run what is queued, stop the thread and free w; returns the first error of
 * a job. */
int spate_writer_finish(struct spate_writer *w);

#endif
