/* swe.c: the shallow-water run driver: set-up, time loop in chunks between
 * output times, progress line, snapshots and the run summary. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spate.h"
#include "swe.h"
#include "swe_run.h"
#include "swe_multi.h"
#include "decomp.h"
#include "output.h"
#include "gauge.h"
#include "products_kern.h"
#include "terrain.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Progress on stderr: simulated time, percentage, speed, time left. */
static void progress(const struct swe_stats *st, double end, double t0, double wall0,
	double cells, int final)
{
	double wall = spate_now() - wall0, frac = end > 0 ? (st->t - t0) / (end - t0) : 1;
	double left = frac > 0 ? wall * (1 - frac) / frac : 0;
	int tty = isatty(2);
	if (spate_is_quiet())
		return;
	fprintf(stderr, "%sspate: t = %.6g s (%5.1f%%), %ld steps, dt = %.3g s, %.3g cell updates/s, "
		"%.0f s left%s", tty ? "\r" : "", st->t, 100 * frac, st->steps, st->last_dt,
		wall > 0 ? cells * st->steps / wall : 0, left, tty && !final ? "   " : "\n");
	if (tty && final)
		fputc('\n', stderr);
}

/* Sample the gauges after a step: maxima and arrival times always, a
 * time-series row when t has passed the next gauge time. */
static int sample_gauges(const struct spate_backend *be, struct swe_backend_ctx *ctx,
	struct gauge_set *gs, struct swe_state *s, const struct swe_params *p, double t,
	double *next, int no_output)
{
	int rc, n = gs->n * gs->per;
	if (be->sample) {
		rc = be->sample(ctx, gs->idx, n, gs->w, gs->hu, gs->hv);
	} else {
		rc = be->download(ctx, s);
		for (int k = 0; k < n && !rc; k++) {
			gs->w[k] = s->w[gs->idx[k]];
			gs->hu[k] = s->hu[gs->idx[k]];
			gs->hv[k] = s->hv[gs->idx[k]];
		}
	}
	if (rc)
		return rc;
	gauge_update(gs, s, t, p->kappa);
	if (t >= *next && !no_output) {
		rc = gauge_write_series(gs, s, p->out_dir, t, p->kappa);
		*next += p->gauge_interval > 0 ? p->gauge_interval : 1e300;
		while (*next <= t)
			*next += p->gauge_interval;
	}
	return rc;
}

int swe_run(const struct swe_params *p, const struct swe_run_opts *o, struct swe_result *r)
{
	const struct spate_backend *be = swe_backend_for(p); /* one domain, or decomposed */
	struct swe_backend_ctx *ctx = NULL;
	struct swe_state s;
	struct swe_stats st;
	double wall0, last_print, cells = (double)p->nx * p->ny, next_out;
	long chunk = 1;
	int rc, index = 0, printed = 0;
	struct gauge_set gs;
	double next_gauge = 0, next_rain = INFINITY;
	int want_products = 0;
	struct swe_prod *prod = NULL;

	memset(r, 0, sizeof *r);
	memset(&st, 0, sizeof st);
	memset(&gs, 0, sizeof gs);
	if (!be)
		return -SPATE_ENODEV;
	rc = swe_setup(&s, p);
	if (rc) {
		spate_log_error("setup", "%s: %s", p->setup, spate_strerror(rc));
		return rc;
	}
	snprintf(r->backend, sizeof r->backend, "%s", be->name);
	be->describe(0, r->device, sizeof r->device);
	r->nx = s.nx;
	r->ny = s.ny;
	cells = (double)s.nx * s.ny;
	r->volume_initial = swe_volume(&s);
	r->max_depth = swe_max_depth(&s);
	if (!o->no_output && (p->write_grids || p->products || p->gauge_file[0]) &&
		(rc = spate_mkdir_p(p->out_dir)))
		goto out;
	if (p->write_grids && !o->no_output && (rc = swe_write_grids(&s, p, p->out_dir, index++)))
		goto out;
	/* under MPI every rank loads the gauges: sampling them is collective */
	if (p->gauge_file[0] && (!o->no_output || decomp_world_size() > 1)) {
		char path[2 * SWE_PATH_MAX + 16];
		terrain_resolve(p, p->gauge_file, path, sizeof path);
		if ((rc = gauge_load(&gs, path, &s, p->gauge_radius, p->gauge_threshold)))
			goto out;
	}
	rc = be->init(&ctx, &s, p, 0);
	if (rc)
		goto out;
	if (gs.n && (rc = sample_gauges(be, ctx, &gs, &s, p, 0, &next_gauge, o->no_output)))
		goto out;
	want_products = p->products && (!o->no_output || o->final_products);
	if (want_products && !be->products_start) {
		spate_log_info("spate: the %s backend keeps no flood products; run with "
			"--output.products=no to silence this\n", be->name);
		want_products = 0;
	}
	if (want_products && (rc = be->products_start(ctx, (real)p->threshold)))
		goto out;
	if ((rc = swe_forcing_apply(be, ctx, &s, p, 0, &next_rain)))
		goto out;
	spate_log_info("spate: %s, %d x %d cells of %g x %g m, %s precision, %s on %s\n",
		p->setup, s.nx, s.ny, s.dx, s.dy, SPATE_PRECISION, be->name, r->device);
	interrupted = 0;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	wall0 = last_print = spate_now();
	next_out = p->out_interval > 0 ? p->out_interval : p->end_time;
	while (st.t < p->end_time && !interrupted) {
		double t_stop = next_out < p->end_time ? next_out : p->end_time, before = spate_now();
		if (next_rain < t_stop)
			t_stop = next_rain; /* the rain changes there */
		long steps0 = st.steps, limit = gs.n ? 1 : chunk;
		if (p->max_steps > 0 && p->max_steps - st.steps < limit)
			limit = p->max_steps - st.steps;
		rc = be->advance(ctx, t_stop, limit, &st);
		if (rc)
			goto out;
		if (gs.n && (rc = sample_gauges(be, ctx, &gs, &s, p, st.t, &next_gauge, o->no_output)))
			goto out;
		if (st.t >= next_rain && (rc = swe_forcing_apply(be, ctx, &s, p, st.t, &next_rain)))
			goto out;
		/* aim for chunks of about 0.25 s wall time */
		if (st.steps > steps0) {
			double per = (spate_now() - before) / (double)(st.steps - steps0);
			chunk = per > 0 ? (long)(0.25 / per) : chunk * 2;
			chunk = chunk < 1 ? 1 : chunk > 100000 ? 100000 : chunk;
		}
		if (spate_now() - last_print > 1.0) {
			progress(&st, p->end_time, 0, wall0, cells, 0);
			last_print = spate_now();
			printed = 1;
		}
		if (st.t >= next_out && next_out < p->end_time) {
			if ((rc = be->download(ctx, &s)) || (rc = swe_check_finite(&s)))
				goto out;
			if (swe_max_depth(&s) > r->max_depth)
				r->max_depth = swe_max_depth(&s);
			if (p->write_grids && !o->no_output && (rc = swe_write_grids(&s, p, p->out_dir,
				index++)))
				goto out;
			next_out += p->out_interval;
		}
		if (p->max_steps > 0 && st.steps >= p->max_steps)
			break;
	}
	r->wall_s = spate_now() - wall0;
	if (printed)
		progress(&st, p->end_time, 0, wall0, cells, 1);
	if ((rc = be->download(ctx, &s)))
		goto out;
	if ((rc = swe_check_finite(&s))) {
		spate_log_error("run", "NaN or infinite values after %ld steps (t = %g s): try a "
			"smaller [physics] cfl", st.steps, st.t);
		goto out;
	}
	r->steps = st.steps;
	r->sim_time = st.t;
	r->cell_updates_per_s = r->wall_s > 0 ? cells * st.steps / r->wall_s : 0;
	r->volume_final = swe_volume(&s);
	if (swe_max_depth(&s) > r->max_depth)
		r->max_depth = swe_max_depth(&s);
	r->max_speed = swe_max_speed(&s, p->kappa);
	if (p->write_grids && !o->no_output && (rc = swe_write_grids(&s, p, p->out_dir, index++)))
		goto out;
	r->outputs = index;
	if (want_products) {
		prod = malloc((size_t)s.nx * s.ny * sizeof *prod);
		if (!prod) {
			rc = -SPATE_ENOMEM;
			goto out;
		}
		if ((rc = be->products_get(ctx, prod)))
			goto out;
		if (!o->no_output && (rc = swe_write_products(&s, prod, p->out_dir)))
			goto out;
		if (o->final_products) {
			*o->final_products = prod;
			prod = NULL;
		}
	}
	if (gs.n && !o->no_output && (rc = gauge_write_summary(&gs, p->out_dir)))
		goto out;
	if (o->final_state)
		rc = swe_state_copy_interior(o->final_state, &s);
	if (interrupted) {
		spate_log_error("run", "interrupted at t = %g s; results so far are in %s", st.t,
			p->out_dir);
		rc = -SPATE_EINTR;
	}
out:
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (ctx)
		be->fini(ctx);
	gauge_free(&gs);
	free(prod);
	swe_state_free(&s);
	return rc;
}

int swe_state_copy_interior(struct swe_state *dst, const struct swe_state *src)
{
	int rc = swe_state_alloc(dst, src->nx, src->ny, src->dx, src->dy);
	size_t n = (size_t)(src->ny + 2 * SWE_GHOST) * src->pitch * sizeof(real);
	if (rc)
		return rc;
	dst->x0 = src->x0;
	dst->y0 = src->y0;
	dst->bref = src->bref;
	memcpy(dst->w, src->w, n);
	memcpy(dst->hu, src->hu, n);
	memcpy(dst->hv, src->hv, n);
	memcpy(dst->Bm, src->Bm, n);
	memcpy(dst->Bc, src->Bc, (size_t)(src->ny + 2 * SWE_GHOST + 1) * src->cpitch * sizeof(real));
	return 0;
}
