/* swe.c: the shallow-water run driver: set-up (or a restart from a
 * checkpoint), the time loop in chunks between output times, progress line,
 * snapshots, gauges, checkpoints and the run summary.
 *
 * The steps a run takes depend only on the state and on the stop times
 * t_stop given to the backend (dt is capped to reach t_stop exactly): the
 * output times k * [output] interval, the times the rain changes, and the
 * end time.  Chunks of steps end
 * anywhere between steps (after a number of steps, for the progress line,
 * the gauges and the checkpoints: a chunk ends about a step after each
 * checkpoint time), and checkpoints are taken at such chunk ends, never at a stop
 * time of their own; a restart restores the output clock (next output time,
 * as accumulated) from the checkpoint.  So a run stopped and continued takes
 * exactly the steps of a run never stopped, and ends with the same bits. */
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
#include "swe_out.h"
#include "decomp.h"
#include "output.h"
#include "gauge.h"
#include "swe_gauges.h"
#include "checkpoint.h"
#include "products_kern.h"
#include "terrain.h"

static volatile sig_atomic_t interrupted;

/* The first SIGINT or SIGTERM asks for a checkpoint and a clean stop; a
 * second one ends the program at once. */
static void on_signal(int sig)
{
	if (interrupted) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	interrupted = sig;
}

/* The driver's clock: the next output, gauge row and checkpoint times (s),
 * the next snapshot number.  Saved in checkpoints. */
struct clock {
	double next_out, next_gauge, next_ckpt;
	int index;
};

/* The first multiple of dt after t (dt > 0). */
static double next_multiple(double t, double dt)
{
	double n = dt * (floor(t / dt) + 1);
	while (n <= t)
		n += dt;
	return n;
}

/* Progress on stderr: simulated time, percentage, speed, time left. */
static void progress(const struct swe_stats *st, double end, double t0, long steps0,
	double wall0, double cells, int final)
{
	double wall = spate_now() - wall0, frac = end > t0 ? (st->t - t0) / (end - t0) : 1;
	double left = frac > 0 ? wall * (1 - frac) / frac : 0;
	int tty = isatty(2);
	if (spate_is_quiet())
		return;
	fprintf(stderr, "%sspate: t = %.6g s (%5.1f%%), %ld steps, dt = %.3g s, %.3g cell updates/s, "
		"%.0f s left%s", tty ? "\r" : "", st->t, 100 * st->t / (end > 0 ? end : 1), st->steps,
		st->last_dt, wall > 0 ? cells * (st->steps - steps0) / wall : 0, left,
		tty && !final ? "   " : "\n");
	if (tty && final)
		fputc('\n', stderr);
}

/* Everything of a run at this step into a checkpoint, handed to out (NULL:
 * only the collective parts, as on MPI ranks other than 0). */
static int checkpoint(const struct spate_backend *be, struct swe_backend_ctx *ctx,
	const struct swe_state *s, const struct swe_stats *st, const struct gauge_set *gs,
	int products, const struct clock *clk, const struct swe_result *r,
	const struct swe_params *p, struct swe_out *out)
{
	struct swe_ckpt c;
	struct swe_state d = *s;
	size_t n = (size_t)(s->ny + 2 * SWE_GHOST) * s->pitch * sizeof(real);
	int rc;
	memset(&c, 0, sizeof c);
	c.nx = s->nx;
	c.ny = s->ny;
	c.pitch = s->pitch;
	c.ghost = SWE_GHOST;
	c.real_bytes = (int)sizeof(real);
	c.t = st->t;
	c.last_dt = st->last_dt;
	c.steps = st->steps;
	c.next_out = clk->next_out;
	c.next_gauge = clk->next_gauge;
	c.next_ckpt = clk->next_ckpt;
	c.index = clk->index;
	c.gauge_rows = out ? swe_out_gauge_rows(out) : 0;
	c.out_interval = p->out_interval;
	c.gauge_interval = p->gauge_interval;
	c.checkpoint_every = p->checkpoint_every;
	c.max_depth_run = r->max_depth;
	c.volume_initial = r->volume_initial;
	c.bed_hash = swe_bed_hash(s);
	c.params = swe_params_text(p);
	d.w = c.w = malloc(n);
	d.hu = c.hu = malloc(n);
	d.hv = c.hv = malloc(n);
	c.ngauge = gs->n;
	c.gauge = gs->n ? malloc((size_t)gs->n * SWE_CKPT_GAUGE_VALUES * sizeof *c.gauge) : NULL;
	c.prod = products ? malloc((size_t)s->nx * s->ny * sizeof *c.prod) : NULL;
	if (!c.params || !c.w || !c.hu || !c.hv || (gs->n && !c.gauge) || (products && !c.prod))
		rc = -SPATE_ENOMEM;
	else if (!(rc = be->download(ctx, &d)) && products)
		rc = be->products_get(ctx, c.prod);
	for (int k = 0; k < gs->n && c.gauge; k++) {
		double *g = c.gauge + (size_t)k * SWE_CKPT_GAUGE_VALUES;
		g[0] = gs->g[k].max_level;
		g[1] = gs->g[k].max_level_nb;
		g[2] = gs->g[k].max_depth;
		g[3] = gs->g[k].arrival;
		g[4] = gs->g[k].t_max;
	}
	if (rc || !out) {
		swe_ckpt_free(&c);
		return rc;
	}
	return swe_out_checkpoint(out, &c);
}

/* Continue from checkpoint c: the state, the clocks, the summary so far and
 * the gauges' maxima.  The clocks of intervals changed since are restarted
 * from the checkpoint's time. */
static int restore(const struct swe_ckpt *c, const char *path, const struct swe_params *p,
	struct swe_state *s, struct gauge_set *gs, struct clock *clk, struct swe_stats *st,
	struct swe_result *r)
{
	size_t n = (size_t)(s->ny + 2 * SWE_GHOST) * s->pitch * sizeof(real);
	if (c->ngauge != gs->n) {
		spate_log_error("checkpoint", "%s: made with %d gauges, this run has %d: restart "
			"with the same gauge file", path, c->ngauge, gs->n);
		return -SPATE_EINVAL;
	}
	memcpy(s->w, c->w, n);
	memcpy(s->hu, c->hu, n);
	memcpy(s->hv, c->hv, n);
	st->t = c->t;
	st->steps = c->steps;
	st->last_dt = c->last_dt;
	clk->index = c->index;
	clk->next_out = c->next_out;
	clk->next_gauge = c->next_gauge;
	clk->next_ckpt = c->next_ckpt;
	if (p->out_interval != c->out_interval)
		clk->next_out = p->out_interval > 0 ? next_multiple(c->t, p->out_interval) :
			p->end_time;
	if (p->gauge_interval != c->gauge_interval)
		clk->next_gauge = p->gauge_interval > 0 ? next_multiple(c->t, p->gauge_interval) :
			1e300;
	if (p->checkpoint_every != c->checkpoint_every && p->checkpoint_every > 0)
		clk->next_ckpt = next_multiple(c->t, p->checkpoint_every);
	r->volume_initial = c->volume_initial;
	r->max_depth = c->max_depth_run;
	for (int k = 0; k < gs->n; k++) {
		const double *g = c->gauge + (size_t)k * SWE_CKPT_GAUGE_VALUES;
		gauge_restore(gs, k, g[0], g[1], g[2], g[3], g[4]);
	}
	return 0;
}

/* A run in progress. */
struct run {
	const struct swe_params *p;   /* &pr once the set-up resolved it */
	struct swe_params pr;         /* the parameters, kappa and dry_tol resolved */
	const struct swe_run_opts *o;
	struct swe_result *r;
	const struct spate_backend *be;
	struct swe_backend_ctx *ctx;
	struct swe_state s;
	struct swe_stats st;
	struct gauge_set gs;
	struct clock clk;
	struct swe_out *out;    /* NULL: this process writes nothing */
	struct swe_ckpt ck;     /* the checkpoint of a restart */
	double next_rain;       /* the next time the rain changes, s (INFINITY: never) */
	int products;           /* the backend keeps the flood products */
	int ckpt;               /* take checkpoints (write them, or join their gathers) */
	struct swe_gauges gd;   /* the gauges, where the backend keeps them */
};

/* The state after a step (download), or u->s as it is: finite?  The run's
 * greatest depth so far; snapshot clk.index when the run writes grids. */
static int snapshot(struct run *u, int download)
{
	struct swe_state snap = u->s;
	int rc = 0, write = u->out && u->p->write_grids;
	size_t n = (size_t)(u->s.ny + 2 * SWE_GHOST) * u->s.pitch * sizeof(real);
	if (write && (rc = swe_out_buffer(u->out, &snap)))
		return rc;
	if (download) {
		rc = u->be->download(u->ctx, &snap);
	} else if (write) {
		memcpy(snap.w, u->s.w, n);
		memcpy(snap.hu, u->s.hu, n);
		memcpy(snap.hv, u->s.hv, n);
	}
	if (!rc)
		rc = swe_check_finite(&snap);
	if (!rc && swe_max_depth(&snap) > u->r->max_depth)
		u->r->max_depth = swe_max_depth(&snap);
	if (!write)
		return rc;
	if (rc) {
		free(snap.w);
		free(snap.hu);
		free(snap.hv);
		return rc;
	}
	return swe_out_snapshot(u->out, &snap, u->clk.index++, u->st.t);
}

/* Set-up (or restart), outputs, backend, gauges and products: ready to step. */
static int start(struct run *u)
{
	const struct swe_params *p = u->p;
	const struct swe_run_opts *o = u->o;
	int rc;
	if ((rc = swe_setup(&u->s, p))) {
		spate_log_error("setup", "%s: %s", p->setup, spate_strerror(rc));
		return rc;
	}
	u->pr = *p;
	swe_params_resolve(&u->pr, &u->s);
	u->p = p = &u->pr;
	snprintf(u->r->backend, sizeof u->r->backend, "%s", u->be->name);
	u->be->describe(0, u->r->device, sizeof u->r->device);
	u->r->nx = u->s.nx;
	u->r->ny = u->s.ny;
	u->r->dx = u->s.dx;
	u->r->dy = u->s.dy;
	u->r->volume_initial = swe_volume(&u->s);
	u->r->max_depth = swe_max_depth(&u->s);
	u->clk.next_out = p->out_interval > 0 ? p->out_interval : p->end_time;
	u->clk.next_ckpt = p->checkpoint_every;
	if (o->restart && ((rc = swe_ckpt_read(o->restart, &u->ck)) ||
		(rc = swe_ckpt_check(&u->ck, o->restart, p, &u->s))))
		return rc;
	/* under MPI every rank loads the gauges: sampling them is collective */
	if (p->gauge_file[0] && (!o->no_output || decomp_world_size() > 1)) {
		char path[2 * SWE_PATH_MAX + 16];
		terrain_resolve(p, p->gauge_file, path, sizeof path);
		if ((rc = gauge_load(&u->gs, path, &u->s, p->gauge_radius, p->gauge_threshold)))
			return rc;
	}
	if (o->restart && (rc = restore(&u->ck, o->restart, p, &u->s, &u->gs, &u->clk, &u->st,
		u->r)))
		return rc;
	if (!o->no_output && (rc = swe_out_open(&u->out, p, &u->s, &u->gs,
		o->restart ? &u->ck : NULL)))
		return rc;
	u->ckpt = u->out || decomp_world_size() > 1;
	if (!o->restart && (rc = snapshot(u, 0)))
		return rc;
	if ((rc = u->be->init(&u->ctx, &u->s, p, 0)))
		return rc;
	if (o->restart && !u->be->set_time) {
		spate_log_error("checkpoint", "the %s backend cannot restart", u->be->name);
		return -SPATE_EUNSUPPORTED;
	}
	if (o->restart && (rc = u->be->set_time(u->ctx, u->st.t, u->st.steps, u->st.last_dt)))
		return rc;
	if (!o->restart && u->gs.n && (rc = swe_gauges_sample(u->be, u->ctx, &u->gs, &u->s, p, 0,
		&u->clk.next_gauge, u->out)))
		return rc;
	return swe_gauges_start(&u->gd, u->be, u->ctx, &u->gs, &u->s, p, u->clk.next_gauge);
}

/* Keep the flood products from now on (or, on a restart, from the
 * checkpoint's) when the run writes or returns them. */
static int start_products(struct run *u)
{
	const struct swe_params *p = u->p;
	int rc;
	u->products = p->products && (!u->o->no_output || u->o->final_products);
	if (u->products && !u->be->products_start) {
		spate_log_info("spate: the %s backend keeps no flood products; run with "
			"--output.products=no to silence this\n", u->be->name);
		u->products = 0;
	}
	if (!u->products)
		return 0;
	if ((rc = u->be->products_start(u->ctx, (real)p->threshold)) || !u->o->restart)
		return rc;
	if (!u->ck.prod || !u->be->products_put) {
		spate_log_error("checkpoint", "%s: %s: restart with --output.products=no",
			u->o->restart, u->ck.prod ? "this backend cannot take products back" :
			"made without flood products");
		return -SPATE_EINVAL;
	}
	return u->be->products_put(u->ctx, u->ck.prod);
}

/* Step to the end time (or max_steps, or a signal) in chunks; snapshots at
 * the output times, checkpoints at the chunk ends after each checkpoint time. */
static int loop(struct run *u)
{
	const struct swe_params *p = u->p;
	struct swe_stats *st = &u->st;
	double wall0 = spate_now(), last_print = wall0, t0 = st->t;
	double cells = (double)u->s.nx * u->s.ny;
	long chunk = 1, steps0 = st->steps;
	int rc = 0, printed = 0;
	while (st->t < p->end_time && !interrupted) {
		double t_stop = u->clk.next_out < p->end_time ? u->clk.next_out : p->end_time;
		double before = spate_now();
		if (u->next_rain < t_stop)
			t_stop = u->next_rain; /* the rain changes there */
		long done = st->steps, limit = swe_gauges_limit(&u->gd, &u->gs, chunk);
		if (p->max_steps > 0 && p->max_steps - st->steps < limit)
			limit = p->max_steps - st->steps;
		/* end the chunk a step or so after the next checkpoint time
		 * (by the last dt): where chunks end changes no step */
		if (u->ckpt && p->checkpoint_every > 0 && u->clk.next_ckpt < t_stop &&
			st->last_dt > 0) {
			double k = ceil((u->clk.next_ckpt - st->t) / st->last_dt);
			if (k < (double)limit)
				limit = k < 1 ? 1 : (long)k;
		}
		if ((rc = u->be->advance(u->ctx, t_stop, limit, st)))
			return rc;
		if ((rc = swe_gauges_after(&u->gd, u->be, u->ctx, &u->gs, &u->s, p, st->t,
			&u->clk.next_gauge, u->out)))
			return rc;
		if (st->t >= u->next_rain && (rc = swe_forcing_apply(u->be, u->ctx, &u->s, p, st->t,
			&u->next_rain)))
			return rc;
		/* aim for chunks of about 0.25 s wall time */
		if (st->steps > done) {
			double per = (spate_now() - before) / (double)(st->steps - done);
			chunk = per > 0 ? (long)(0.25 / per) : chunk * 2;
			chunk = chunk < 1 ? 1 : chunk > 100000 ? 100000 : chunk;
		}
		if (spate_now() - last_print > 1.0) {
			progress(st, p->end_time, t0, steps0, wall0, cells, 0);
			last_print = spate_now();
			printed = 1;
		}
		/* the run still stops at the output times (dt is clipped there, so
		 * the steps are those of a run that writes); without outputs the
		 * state stays on the device (finish checks the final one) */
		if (st->t >= u->clk.next_out && u->clk.next_out < p->end_time) {
			if (!u->o->no_output && (rc = snapshot(u, 1)))
				return rc;
			u->clk.next_out += p->out_interval;
		}
		if (u->ckpt && p->checkpoint_every > 0 && st->t >= u->clk.next_ckpt &&
			st->t < p->end_time) {
			while (u->clk.next_ckpt <= st->t)
				u->clk.next_ckpt += p->checkpoint_every;
			if ((rc = swe_gauges_pull(&u->gd, u->be, u->ctx, &u->gs, &u->clk.next_gauge,
				u->out)))
				return rc;
			if ((rc = checkpoint(u->be, u->ctx, &u->s, st, &u->gs, u->products, &u->clk,
				u->r, p, u->out)))
				return rc;
		}
		if (p->max_steps > 0 && st->steps >= p->max_steps)
			break;
	}
	u->r->wall_s = spate_now() - wall0;
	u->r->cell_updates_per_s = u->r->wall_s > 0 ? cells * (st->steps - steps0) / u->r->wall_s : 0;
	if (printed)
		progress(st, p->end_time, t0, steps0, wall0, cells, 1);
	/* stopped early: a checkpoint to go on from */
	if (u->ckpt && st->t < p->end_time && (interrupted || p->checkpoint_every > 0) &&
		!(rc = swe_gauges_pull(&u->gd, u->be, u->ctx, &u->gs, &u->clk.next_gauge, u->out)))
		rc = checkpoint(u->be, u->ctx, &u->s, st, &u->gs, u->products, &u->clk, u->r, p,
			u->out);
	return rc;
}

/* The final state, snapshot, products and gauge summary; the run summary. */
static int finish(struct run *u)
{
	const struct swe_params *p = u->p;
	struct swe_result *r = u->r;
	struct swe_prod *prod = NULL;
	int rc;
	if ((rc = u->be->download(u->ctx, &u->s)))
		return rc;
	if ((rc = swe_check_finite(&u->s))) {
		spate_log_error("run", "NaN or infinite values after %ld steps (t = %g s): try a "
			"smaller [physics] cfl", u->st.steps, u->st.t);
		return rc;
	}
	r->steps = u->st.steps;
	r->sim_time = u->st.t;
	r->volume_final = swe_volume(&u->s);
	r->max_speed = swe_max_speed(&u->s, p->kappa);
	if ((rc = snapshot(u, 0)))
		return rc;
	r->outputs = u->clk.index;
	if (u->products) {
		prod = malloc((size_t)u->s.nx * u->s.ny * sizeof *prod);
		if (!prod)
			return -SPATE_ENOMEM;
		if ((rc = u->be->products_get(u->ctx, prod))) {
			free(prod);
			return rc;
		}
	}
	rc = swe_gauges_pull(&u->gd, u->be, u->ctx, &u->gs, &u->clk.next_gauge, u->out);
	if (u->out && !rc)
		rc = swe_out_final(u->out, prod, &u->gs, u->st.t);
	if (!rc && u->o->final_products) {
		*u->o->final_products = prod;
		prod = NULL;
	}
	free(prod);
	if (!rc && u->o->final_state)
		rc = swe_state_copy_interior(u->o->final_state, &u->s);
	return rc;
}

int swe_run(const struct swe_params *p, const struct swe_run_opts *o, struct swe_result *r)
{
	struct run u;
	int rc, rc2;
	memset(&u, 0, sizeof u);
	memset(r, 0, sizeof *r);
	u.p = p;
	u.o = o;
	u.r = r;
	u.be = swe_backend_for(p); /* one domain, or decomposed */
	if (!u.be)
		return -SPATE_ENODEV;
	interrupted = 0;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rc = start(&u);
	p = u.p;
	if (!rc)
		rc = start_products(&u);
	/* the rain at the start time, and when it next changes */
	if (!rc)
		rc = swe_forcing_apply(u.be, u.ctx, &u.s, p, u.st.t, &u.next_rain);
	if (!rc) {
		spate_log_info("spate: %s, %d x %d cells of %g x %g m, %s precision, %s on %s%s\n",
			p->setup, u.s.nx, u.s.ny, u.s.dx, u.s.dy, SPATE_PRECISION, u.be->name,
			r->device, o->restart ? ", restarted" : "");
		spate_log_info("spate: desingularisation depth kappa = %.3g m, dry tolerance %.3g m\n",
			p->kappa, p->dry_tol);
		if (o->restart)
			spate_log_info("spate: continuing from %s at t = %.9g s, step %ld\n",
				o->restart, u.st.t, u.st.steps);
		rc = loop(&u);
	}
	if (!rc)
		rc = finish(&u);
	rc2 = swe_out_close(u.out);
	rc = rc ? rc : rc2;
	if (!rc && interrupted && u.st.t < p->end_time) {
		spate_log_error("run", "interrupted (signal %d) at t = %g s, step %ld; results so "
			"far are in %s", (int)interrupted, u.st.t, u.st.steps, p->out_dir);
		rc = -SPATE_EINTR;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (u.ctx)
		u.be->fini(u.ctx);
	gauge_free(&u.gs);
	swe_gauges_free(&u.gd);
	swe_ckpt_free(&u.ck);
	swe_state_free(&u.s);
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
