/* run_signal.c: SIGINT and SIGTERM during a run (run_signal.h). */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <signal.h>

#include "spate.h"
#include "run_signal.h"

static volatile sig_atomic_t interrupted;

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

int spate_signals_end(int rc, double t, const char *unit, double end, long step,
	const char *dir)
{
	if (!rc && interrupted && t < end) {
		spate_log_error("run", "interrupted (signal %d) at t = %g%s, step %ld; results so "
			"far are in %s", (int)interrupted, t, unit, step, dir);
		rc = -SPATE_EINTR;
	}
	spate_signals_release();
	return rc;
}
