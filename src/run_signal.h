/* run_signal.h: SIGINT and SIGTERM during a run, for every physics module:
 * the first asks for a checkpoint and a clean stop (the loop polls
 * spate_interrupted), a second ends the program at once. */
#ifndef SPATE_RUN_SIGNAL_H
#define SPATE_RUN_SIGNAL_H

/* Catch SIGINT and SIGTERM from now on (and forget an earlier signal). */
void spate_signals_catch(void);
/* Give SIGINT and SIGTERM back their default action. */
void spate_signals_release(void);
/* The signal caught since spate_signals_catch, or 0. */
int spate_interrupted(void);
/* The same, agreed by every MPI rank (the largest signal any rank caught):
 * collective under mpirun, where every rank must call it at the same
 * point; spate_signals_end then goes by the last agreement. */
int spate_interrupted_all(void);

/* At the end of a run that reached time t of end at step `step`, with
 * status rc (t in unit: " s", or "" for dimensionless runs): the signals
 * given back; when a signal stopped a run that
 * otherwise went well before its end, a message (where its results are,
 * dir) and -SPATE_EINTR; else rc. */
int spate_signals_end(int rc, double t, const char *unit, double end, long step,
	const char *dir);

#endif
