/* run_signal.c: SIGINT and SIGTERM during a run (run_signal.h). */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <signal.h>

#include "spate.h"
#include "decomp.h"
#include "run_signal.h"

static volatile sig_atomic_t interrupted;
static int world_sig = -1;   /* the ranks' signal (spate_interrupted_all); -1: none agreed */

static void on_signal(int sig)
{
	if (interrupted) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	interrupted = sig;
}

void spate_signals_catch(void)
{
	interrupted = 0;
	world_sig = -1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

void spate_signals_release(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

int spate_interrupted(void)
{
	return (int)interrupted;
}

/* Under mpirun a signal reaches the ranks at different times, or one rank
 * alone (kill PID): a rank that left its loop alone would wait in the
 * checkpoint's gather while the others step on, for ever.  So the ranks
 * agree, and stop at the same step. */
int spate_interrupted_all(void)
{
	double v = interrupted;
	if (decomp_world_size() <= 1)
		return (int)interrupted;
	if (decomp_max(&v, 1, NULL))
		v = interrupted;
	world_sig = (int)v;
	return world_sig;
}

int spate_signals_end(int rc, double t, const char *unit, double end, long step,
	const char *dir)
{
	/* agreed: a signal that came after the last agreement is not this run's */
	int sig = world_sig >= 0 ? world_sig : (int)interrupted;
	if (!rc && sig && t < end) {
		if (world_sig < 0 || decomp_world_rank() == 0)   /* one rank says it */
			spate_log_error("run", "interrupted (signal %d) at t = %g%s, step %ld; results "
				"so far are in %s", sig, t, unit, step, dir);
		rc = -SPATE_EINTR;
	}
	world_sig = -1;
	spate_signals_release();
	return rc;
}
