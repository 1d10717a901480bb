/* swe_watch.c: the instability guard of the flood driver (swe_watch.h).
 *
 * Cost: the check reads one int the backend keeps (the CUDA backend reads
 * its control block after every batch of steps anyway); the copy of a good
 * state moves 3 arrays once per check, device to device, about 1/50 of
 * the traffic of 50 steps at the default guard_every. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "diag.h"
#include "swe_watch.h"

/* The test hook SPATE_TEST_PLANT_NAN="step,i,j" (test-only; spate(1)). */
static int plant_hook(struct swe_watch *w, const struct swe_state *s)
{
	const char *e = getenv("SPATE_TEST_PLANT_NAN");
	long step;
	int i, j, len = -1;
	if (!e || !*e)
		return 0;
	if (sscanf(e, "%ld,%d,%d%n", &step, &i, &j, &len) != 3 || len < 0 ||
		(e[len] && strcmp(e + len, ",silent")) || step < 1 || i < 0 || j < 0 ||
		i >= s->nx || j >= s->ny) {
		spate_log_error("guard", "SPATE_TEST_PLANT_NAN=%s: expected step,i,j or "
			"step,i,j,silent with step >= 1 and a cell of the %d x %d grid (a test hook: "
			"unset it)", e, s->nx, s->ny);
		return -SPATE_EINVAL;
	}
	w->plant_silent = e[len] != 0;
	if (!w->on) {
		spate_log_error("guard", "SPATE_TEST_PLANT_NAN: the guard is off (guard_every = 0, "
			"or a backend without it): unset the hook");
		return -SPATE_EINVAL;
	}
	w->plant_step = step;
	w->plant_i = i;
	w->plant_j = j;
	w->plant_cell = swe_idx(s, i, j);
	return 0;
}

int swe_watch_start(struct swe_watch *w, const struct spate_backend *be,
	const struct swe_params *p, const struct swe_state *s)
{
	memset(w, 0, sizeof *w);
	w->every = p->guard_every;
	w->on = w->every > 0 && be->guard != NULL;
	return plant_hook(w, s);
}

long swe_watch_limit(const struct swe_watch *w, long steps, long limit)
{
	long n;
	if (!w->on)
		return limit;
	n = w->every;
	if (w->plant_step > steps && w->plant_step - steps < n)
		n = w->plant_step - steps;
	return limit > 0 && limit < n ? limit : n;
}

int swe_watch_check(struct swe_watch *w, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, long steps, int rc)
{
	int bad = 0;
	if (!w->on)
		return rc;
	if (rc == -SPATE_ENUMERIC)
		return 1;
	if (rc)
		return rc;
	if (w->plant_step && steps == w->plant_step &&
		(rc = be->guard(ctx, w->plant_silent ? SWE_GUARD_PLANT_SILENT : SWE_GUARD_PLANT,
		w->plant_cell, NULL)))
		return rc;
	if ((rc = be->guard(ctx, SWE_GUARD_CHECK, 0, &bad)))
		return rc;
	return bad;
}

int swe_watch_keep(struct swe_watch *w, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, const struct swe_stats *st, const struct spate_clock *clk,
	double next_gauge)
{
	int rc;
	if (!w->on)
		return 0;
	if ((rc = be->guard(ctx, SWE_GUARD_KEEP, 0, NULL)))
		return rc;
	w->kept = 1;
	w->st = *st;
	w->clk = *clk;
	w->next_gauge = next_gauge;
	return 0;
}

int swe_watch_fail(struct swe_watch *w, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, const struct swe_state *s, const struct swe_params *p,
	const struct swe_stats *st, struct swe_watch_fail *f)
{
	size_t n = (size_t)(s->ny + 2 * SWE_GHOST) * s->pitch * sizeof(real);
	struct swe_state d = *s;
	int rc;
	memset(f, 0, sizeof *f);
	f->step = st->steps;
	f->t = st->t;
	f->good_step = w->kept ? w->st.steps : -1;
	f->good_t = w->kept ? w->st.t : 0;
	/* zeroed: under MPI only rank 0 receives the whole state */
	d.w = calloc(1, n);
	d.hu = calloc(1, n);
	d.hv = calloc(1, n);
	if (!d.w || !d.hu || !d.hv)
		rc = -SPATE_ENOMEM;
	else if (!(rc = be->download(ctx, &d)))
		f->found = swe_first_nonfinite(&d, &f->i, &f->j, &f->var);
	if (!rc && f->found) {
		f->x = s->x0 + (f->i + 0.5) * s->dx;
		f->y = s->y0 + (f->j + 0.5) * s->dy;
	}
	if (!rc && !w->kept)
		rc = -SPATE_ENUMERIC;
	if (!rc && !(rc = be->guard(ctx, SWE_GUARD_REWIND, 0, NULL)) &&
		!(rc = be->download(ctx, &d)) && f->found) {
		long k = swe_idx(s, f->i, f->j);
		f->rewound = 1;
		f->h = d.w[k];
		f->speed = swe_cell_speed(&d, k, p->kappa);
	}
	free(d.w);
	free(d.hu);
	free(d.hv);
	return rc;
}

void swe_watch_report(const struct swe_watch_fail *f, const char *dir, const char *ck)
{
	char text[2048], path[SWE_PATH_MAX + 32];
	int n;
	FILE *o;
	char there[128] = ", not restored";
	if (f->rewound)
		snprintf(there, sizeof there, ": there depth %.6g m, speed %.6g m/s", f->h, f->speed);
	if (f->found)
		n = snprintf(text, sizeof text, "unstable: %s became NaN or infinite in cell i = %d, "
			"j = %d (x = %.9g, y = %.9g) by step %ld (t = %.9g s)\n"
			"last good: step %ld (t = %.9g s)%s\n",
			f->var, f->i, f->j, f->x, f->y, f->step, f->t, f->good_step, f->good_t, there);
	else
		n = snprintf(text, sizeof text, "unstable: a non-finite wave speed or time step by "
			"step %ld (t = %.9g s), no non-finite value in the state\n"
			"last good: step %ld (t = %.9g s)\n", f->step, f->t, f->good_step, f->good_t);
	if (n > 0 && (size_t)n < sizeof text)
		snprintf(text + n, sizeof text - (size_t)n, "%s%s%s"
			"what to do: a smaller [physics] cfl, a finer [run] max_dt, or look at the bed "
			"and the boundary data near that cell\n", ck ? "checkpoint of the last good "
			"state: " : "", ck ? ck : "", ck ? " (spate run --restart)\n" : "");
	if (dir) {
		snprintf(path, sizeof path, "%s/guard-report.txt", dir);
		if (!(o = fopen(path, "w")) || fputs(text, o) < 0 || fclose(o))
			snprintf(path, sizeof path, "(cannot write %s/guard-report.txt)", dir);
	}
	text[strlen(text) - 1] = 0;   /* spate_log_error ends the line */
	spate_log_error("guard", "%s", text);
	if (dir)
		spate_log_error("guard", "report: %s", path);
}
