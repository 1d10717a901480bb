/* swe_run.c: the shallow-water run driver, the top of the flood module:
 * set-up (or a restart from a checkpoint), the time loop in chunks between
 * output times, snapshots, gauges, checkpoints and the run summary.  The
 * bookkeeping of the loop (run_clock.h), the progress line (progress.h) and
 * the signals (run_signal.h) are run services shared with the other
 * physics; this file calls down into them and into the module's helpers.
 *
 * The steps a run takes depend only on the state and on the stop times
 * t_stop given to the backend: the output times, the times the rain
 * changes, and the end time; checkpoints are taken at chunk ends (see
 * run_clock.c), and a restart restores the output clock from the
 * checkpoint.  So a run stopped and continued takes exactly the steps of a
 * run never stopped, and ends with the same bits. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "spate.h"
#include "swe.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "params.h"
#include "setup.h"
#include "forcing.h"
#include "diag.h"
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
#include "run_clock.h"
#include "progress.h"
#include "run_signal.h"
#include "swe_watch.h"

/* Everything of a run at this step into a checkpoint, handed to out (NULL:
 * only the collective parts, as on MPI ranks other than 0). */
static int checkpoint(const struct spate_backend *be, struct swe_backend_ctx *ctx,
	const struct swe_state *s, const struct swe_stats *st, const struct gauge_set *gs,
	int products, const struct spate_clock *clk, double next_gauge, const struct swe_result *r,
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
	c.next_gauge = next_gauge;
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
	spate_time_units(p->start_time, c.time_units);
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
	struct swe_state *s, struct gauge_set *gs, struct spate_clock *clk, double *next_gauge,
	struct swe_stats *st, struct swe_result *r)
{
	size_t n = (size_t)(s->ny + 2 * SWE_GHOST) * s->pitch * sizeof(real);
	struct spate_clock saved;
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
	saved.end = p->end_time;
	saved.out_every = c->out_interval;
	saved.ckpt_every = c->checkpoint_every;
	saved.next_out = c->next_out;
	saved.next_ckpt = c->next_ckpt;
	saved.index = c->index;
	spate_clock_resume(clk, c->t, &saved);
	*next_gauge = c->next_gauge;
	if (p->gauge_interval != c->gauge_interval)
		*next_gauge = p->gauge_interval > 0 ? spate_next_multiple(c->t, p->gauge_interval) :
			1e300;
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
	struct spate_clock clk;
	double next_gauge;      /* the time of the next gauge row, s */
	struct swe_out *out;    /* NULL: this process writes nothing */
	struct swe_ckpt ck;     /* the checkpoint of a restart */
	double next_rain;       /* the next time the rain changes, s (INFINITY: never) */
	int products;           /* the backend keeps the flood products */
	int ckpt;               /* take checkpoints (write them, or join their gathers) */
	struct swe_gauges gd;   /* the gauges, where the backend keeps them */
	struct swe_watch wa;    /* the instability guard */
};

/* A downloaded state s at st: 0 when finite, else -SPATE_ENUMERIC after a
 * message (rank 0) naming the first bad cell (the check of the states a
 * run downloads anyway; with guard_every = 0 the only one). */
static int finite_or_say(const struct swe_state *s, const struct swe_stats *st)
{
	int i, j;
	const char *v;
	if (!swe_first_nonfinite(s, &i, &j, &v))
		return 0;
	if (decomp_world_rank() == 0)   /* one rank says it */
		spate_log_error("run", "NaN or infinite %s in cell i = %d, j = %d (x = %.9g, "
			"y = %.9g) after %ld steps (t = %g s): try a smaller [physics] cfl", v, i, j,
			s->x0 + (i + 0.5) * s->dx, s->y0 + (j + 0.5) * s->dy, st->steps, st->t);
	return -SPATE_ENUMERIC;
}

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
		rc = finite_or_say(&snap, &u->st);
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

/* Set-up (or restart), gauges and outputs: what each process does alone,
 * before the backend's first collective. */
static int start_local(struct run *u)
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
	spate_clock_start(&u->clk, p->end_time, p->out_interval, p->checkpoint_every);
	if (o->restart && ((rc = swe_ckpt_read(o->restart, &u->ck)) ||
		(rc = swe_ckpt_check(&u->ck, o->restart, p, &u->s))))
		return rc;
	/* under MPI every rank loads the gauges: sampling them is collective */
	if (p->gauge_file[0] && (!o->no_output || decomp_world_size() > 1)) {
		char path[2 * SWE_PATH_MAX + 16];
		if ((rc = terrain_find(p, "gauges", p->gauge_file, path, sizeof path)) ||
			(rc = gauge_load(&u->gs, path, &u->s, p->gauge_radius, p->gauge_threshold)))
			return rc;
	}
	if (o->restart && (rc = restore(&u->ck, o->restart, p, &u->s, &u->gs, &u->clk,
		&u->next_gauge, &u->st, u->r)))
		return rc;
	if (!o->no_output && (rc = swe_out_open(&u->out, p, &u->s, &u->gs,
		o->restart ? &u->ck : NULL)))
		return rc;
	u->ckpt = u->out || decomp_world_size() > 1;
	return o->restart ? 0 : snapshot(u, 0);
}

/* start_local, then the backend, gauges and products: ready to step. */
static int start(struct run *u)
{
	const struct swe_params *p;
	const struct swe_run_opts *o = u->o;
	int rc;
	/* Under mpirun a fault of the set-up (no such device, no DEM, a bad
	 * gauge file or checkpoint, an output folder rank 0 cannot make) is
	 * told once, and every rank stops with it: before, each rank told it
	 * and the first to stop aborted the others (MPI_Abort).  The messages
	 * are held from swe_backend_for on. */
	rc = u->be ? start_local(u) : -SPATE_ENODEV;
	if ((rc = -decomp_world_agree(-rc)))
		return rc;
	p = u->p;
	if ((rc = u->be->init(&u->ctx, &u->s, p, 0)) ||
		(rc = swe_watch_start(&u->wa, u->be, p, &u->s)))
		return rc;
	if (o->restart && !u->be->set_time) {
		spate_log_error("checkpoint", "the %s backend cannot restart", u->be->name);
		return -SPATE_EUNSUPPORTED;
	}
	if (o->restart && (rc = u->be->set_time(u->ctx, u->st.t, u->st.steps, u->st.last_dt)))
		return rc;
	if (!o->restart && u->gs.n && (rc = swe_gauges_sample(u->be, u->ctx, &u->gs, &u->s, p, 0,
		&u->next_gauge, u->out)))
		return rc;
	return swe_gauges_start(&u->gd, u->be, u->ctx, &u->gs, &u->s, p, u->next_gauge);
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

/* The checkpoint of this step (gauges pulled from the backend first). */
static int take_checkpoint(struct run *u)
{
	int rc = swe_gauges_pull(&u->gd, u->be, u->ctx, &u->gs, &u->next_gauge, u->out);
	if (!rc)
		rc = checkpoint(u->be, u->ctx, &u->s, &u->st, &u->gs, u->products, &u->clk,
			u->next_gauge, u->r, u->p, u->out);
	return rc;
}

/* The guard found the state bad: back to the last good state, its
 * checkpoint (every rank joins its gathers; the one that writes writes
 * it), the report (by that rank); -SPATE_EUNSTABLE. */
static int unstable(struct run *u)
{
	struct swe_watch_fail f;
	char ck[SWE_PATH_MAX + 64];
	int rc = swe_watch_fail(&u->wa, u->be, u->ctx, &u->s, u->p, &u->st, &f), wrote = 0;
	if (!rc && u->ckpt) {
		u->st = u->wa.st;
		u->clk = u->wa.clk;
		u->next_gauge = u->wa.next_gauge;
		if (!(rc = take_checkpoint(u)) && u->out) {
			swe_ckpt_path(u->p->out_dir, ck, sizeof ck);
			wrote = 1;
		}
	}
	if (decomp_world_rank() == 0)
		swe_watch_report(&f, u->out ? u->p->out_dir : NULL, wrote ? ck : NULL);
	return rc && rc != -SPATE_ENUMERIC && rc != -SPATE_EUNSUPPORTED ? rc : -SPATE_EUNSTABLE;
}

/* One chunk of at most `chunk` steps: advance, the guard's check, gauges,
 * rain. */
static int chunk_advance(struct run *u, long chunk)
{
	const struct swe_params *p = u->p;
	struct swe_stats *st = &u->st;
	double t_stop = spate_clock_stop(&u->clk, u->next_rain); /* the rain changes there */
	long limit = swe_gauges_limit(&u->gd, &u->gs, chunk);
	int rc;
	if (p->max_steps > 0 && p->max_steps - st->steps < limit)
		limit = p->max_steps - st->steps;
	if (u->ckpt)
		limit = spate_clock_ckpt_limit(&u->clk, st->t, t_stop, st->last_dt, limit);
	limit = swe_watch_limit(&u->wa, st->steps, limit);
	rc = u->be->advance(u->ctx, t_stop, limit, st);
	if ((rc = swe_watch_check(&u->wa, u->be, u->ctx, st->steps, rc)))
		return rc == 1 ? unstable(u) : rc;
	if ((rc = swe_gauges_after(&u->gd, u->be, u->ctx, &u->gs, &u->s, p, st->t,
		&u->next_gauge, u->out)))
		return rc;
	if (st->t >= u->next_rain)
		rc = swe_forcing_apply(u->be, u->ctx, &u->s, p, st->t, &u->next_rain);
	return rc;
}

/* Step to the end time (or max_steps, or a signal) in chunks of about 0.25 s
 * wall time; snapshots at the output times, checkpoints at the chunk ends
 * after each checkpoint time.  The run still stops at the output times
 * without outputs (dt is clipped there, so the steps are those of a run
 * that writes); the state then stays on the device. */
static int loop(struct run *u)
{
	const struct swe_params *p = u->p;
	struct swe_stats *st = &u->st;
	struct spate_progress pr;
	long chunk = 1;
	int rc = 0;
	spate_progress_start(&pr, st->t, st->steps, p->end_time, (double)u->s.nx * u->s.ny);
	if ((rc = swe_watch_keep(&u->wa, u->be, u->ctx, st, &u->clk, u->next_gauge)))
		return rc;
	while (st->t < p->end_time && !spate_interrupted_all()) {
		double before = spate_now();
		long done = st->steps;
		if ((rc = chunk_advance(u, chunk)))
			return rc;
		if (st->steps > done)
			chunk = spate_chunk_steps((spate_now() - before) / (double)(st->steps - done),
				chunk);
		spate_progress_tick(&pr, st->t, st->steps, st->last_dt);
		/* under MPI every rank joins the snapshot's gather (ranks but 0
		 * have no outputs of their own) */
		if (spate_clock_output_due(&u->clk, st->t) && (!u->o->no_output ||
			decomp_world_size() > 1) && (rc = snapshot(u, 1)))
			return rc;
		if (u->ckpt && spate_clock_ckpt_due(&u->clk, st->t) && (rc = take_checkpoint(u)))
			return rc;
		if ((rc = swe_watch_keep(&u->wa, u->be, u->ctx, st, &u->clk, u->next_gauge)))
			return rc;
		if (p->max_steps > 0 && st->steps >= p->max_steps)
			break;
	}
	u->r->wall_s = spate_progress_end(&pr, st->t, st->steps, st->last_dt,
		&u->r->cell_updates_per_s);
	/* stopped early: a checkpoint to go on from */
	if (u->ckpt && st->t < p->end_time && (spate_interrupted_all() ||
		p->checkpoint_every > 0))
		rc = take_checkpoint(u);
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
	if ((rc = finite_or_say(&u->s, &u->st)))
		return rc;
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
	rc = swe_gauges_pull(&u->gd, u->be, u->ctx, &u->gs, &u->next_gauge, u->out);
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
#ifdef _OPENMP
	if (p->threads > 0)   /* before any device line names the count */
		omp_set_num_threads(p->threads);
#endif
	if (decomp_world_size() > 1)
		spate_log_hold();  /* until start's agreement (one process prints at once) */
	u.be = swe_backend_for(p); /* one domain, or decomposed; NULL: start says so */
	spate_signals_catch();
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
	rc = spate_signals_end(rc, u.st.t, " s", p->end_time, u.st.steps, p->out_dir);
	if (u.ctx)
		u.be->fini(u.ctx);
	gauge_free(&u.gs);
	swe_gauges_free(&u.gd);
	swe_ckpt_free(&u.ck);
	swe_state_free(&u.s);
	return rc;
}
