/* progress.c: the progress line (progress.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <unistd.h>

#include "spate.h"
#include "progress.h"

void spate_progress_start(struct spate_progress *p, double t0, long steps0, double end,
	double cells)
{
	p->wall0 = p->last = spate_now();
	p->t0 = t0;
	p->end = end;
	p->steps0 = steps0;
	p->cells = cells;
	p->printed = 0;
	p->steps_printed = -1;
}

/* One line on stderr; final: the last one (ends with a newline). */
static void line(const struct spate_progress *p, double t, long steps, double dt, int final)
{
	double wall = spate_now() - p->wall0;
	double frac = p->end > p->t0 ? (t - p->t0) / (p->end - p->t0) : 1;
	double left = frac > 0 ? wall * (1 - frac) / frac : 0;
	int tty = isatty(2);
	if (spate_is_quiet())
		return;
	fprintf(stderr, "%sspate: t = %.6g s (%5.1f%%), %ld steps, dt = %.3g s, %.3g cell updates/s, "
		"%.0f s left%s", tty ? "\r" : "", t, 100 * t / (p->end > 0 ? p->end : 1), steps, dt,
		wall > 0 ? p->cells * (double)(steps - p->steps0) / wall : 0, left,
		tty && !final ? "   " : "\n");
	if (tty && final)
		fputc('\n', stderr);
}

void spate_progress_tick(struct spate_progress *p, double t, long steps, double dt)
{
	if (spate_now() - p->last <= 1.0)
		return;
	line(p, t, steps, dt, 0);
	p->last = spate_now();
	p->printed = 1;
	p->steps_printed = steps;
}

double spate_progress_end(struct spate_progress *p, double t, long steps, double dt,
	double *rate)
{
	double wall = spate_now() - p->wall0;
	if (rate)
		*rate = wall > 0 ? p->cells * (double)(steps - p->steps0) / wall : 0;
	/* in a log (not a terminal, where the last line ends the one rewritten
	 * in place) the last tick may have printed this very line already */
	if (p->printed && (steps != p->steps_printed || isatty(2)))
		line(p, t, steps, dt, 1);
	return wall;
}
