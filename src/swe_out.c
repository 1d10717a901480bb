/* swe_out.c: the files of a run (swe_out.h) as jobs of a writer thread. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_out.h"
#include "output.h"
#include "ncout.h"
#include "swe_results.h"
#include "gauge.h"
#include "checkpoint.h"
#include "writer.h"

struct swe_out {
	const struct swe_params *p;
	const struct swe_state *s;
	struct gauge_set *gs;   /* its series CSV is written by the jobs */
	struct spate_nc *nc;    /* results.nc, or NULL */
	struct spate_writer *w;
	int ascii;              /* snapshots and products as ESRI ASCII grids */
	long gauge_rows;
};

struct snap_job {
	struct swe_out *o;
	struct swe_state snap;  /* w, hu, hv its own; the rest shared with o->s */
	int index;
	double t;
};

struct gauge_job {
	struct swe_out *o;
	long rec;
	double t;
	double v[];             /* 4 per gauge (gauge_values) */
};

struct ckpt_job {
	struct swe_out *o;
	struct swe_ckpt c;
};

static int snap_run(void *arg)
{
	struct snap_job *j = arg;
	const struct swe_params *p = j->o->p;
	int rc = 0;
	if (j->o->ascii)
		rc = swe_write_grids(&j->snap, p, p->out_dir, j->index);
	if (!rc && j->o->nc)    /* last: its fields take the place of w, hu, hv */
		rc = swe_results_snapshot(j->o->nc, j->index, j->t, &j->snap, p->kappa);
	return rc;
}

static void snap_done(void *arg)
{
	struct snap_job *j = arg;
	free(j->snap.w);
	free(j->snap.hu);
	free(j->snap.hv);
	free(j);
}

static int gauge_run(void *arg)
{
	struct gauge_job *j = arg;
	int rc = j->o->gs->series ? gauge_csv_rows(j->o->gs, j->t, j->v) : 0;
	if (!rc && j->o->nc)
		rc = spate_nc_points_row(j->o->nc, j->rec, j->t, j->v);
	return rc;
}

static int ckpt_run(void *arg)
{
	struct ckpt_job *j = arg;
	char path[SWE_PATH_MAX + 64];
	int rc = spate_mkdir_p(j->o->p->out_dir);
	if (!rc)
		rc = swe_ckpt_write(&j->c, j->o->p->out_dir, path, sizeof path);
	if (!rc)
		spate_log_info("spate: checkpoint at t = %.6g s, step %ld: %s\n", j->c.t, j->c.steps,
			path);
	return rc;
}

static void ckpt_done(void *arg)
{
	struct ckpt_job *j = arg;
	swe_ckpt_free(&j->c);
	free(j);
}

int swe_out_open(struct swe_out **out, const struct swe_params *p, const struct swe_state *s,
	struct gauge_set *gs, const struct swe_ckpt *ck)
{
	struct swe_out *o = calloc(1, sizeof *o);
	int ng = gs ? gs->n : 0, rc;
	*out = NULL;
	if (!o)
		return -SPATE_ENOMEM;
	o->p = p;
	o->s = s;
	o->gs = gs;
	o->ascii = p->out_format != SWE_FMT_NETCDF;
	o->gauge_rows = ck ? ck->gauge_rows : 0;
	if ((p->write_grids || p->products || ng) && (rc = spate_mkdir_p(p->out_dir)))
		goto fail;
	if (p->out_format != SWE_FMT_ASCII && (p->write_grids || p->products || ng)) {
		char path[SWE_NAME_MAX + 32];
		snprintf(path, sizeof path, "%s/results.nc", p->out_dir);
		if ((rc = swe_results_open(&o->nc, path, p, s, ng ? gs : NULL, ck != NULL)))
			goto fail;
	}
	if (ng && (rc = gauge_csv_open(gs, p->out_dir, o->gauge_rows)))
		goto fail;
	if ((rc = spate_writer_start(&o->w)))
		goto fail;
	*out = o;
	return 0;
fail:
	spate_nc_close(o->nc);
	free(o);
	return rc;
}

int swe_out_buffer(struct swe_out *o, struct swe_state *snap)
{
	size_t n = (size_t)(o->s->ny + 2 * SWE_GHOST) * o->s->pitch * sizeof(real);
	int rc = spate_writer_wait(o->w, 2);
	if (rc)
		return rc;
	*snap = *o->s;
	snap->w = spate_alloc(n);
	snap->hu = spate_alloc(n);
	snap->hv = spate_alloc(n);
	if (!snap->w || !snap->hu || !snap->hv) {
		free(snap->w);
		free(snap->hu);
		free(snap->hv);
		snap->w = snap->hu = snap->hv = NULL;
		return -SPATE_ENOMEM;
	}
	return 0;
}

int swe_out_snapshot(struct swe_out *o, struct swe_state *snap, int index, double t)
{
	struct snap_job *j = malloc(sizeof *j);
	if (!j) {
		free(snap->w);
		free(snap->hu);
		free(snap->hv);
		return -SPATE_ENOMEM;
	}
	j->o = o;
	j->snap = *snap;
	j->index = index;
	j->t = t;
	return spate_writer_push(o->w, snap_run, snap_done, j);
}

int swe_out_gauges(struct swe_out *o, const struct gauge_set *gs, double t)
{
	struct gauge_job *j = malloc(sizeof *j + 4 * (size_t)gs->n * sizeof(double));
	if (!j)
		return -SPATE_ENOMEM;
	j->o = o;
	j->rec = o->gauge_rows++;
	j->t = t;
	gauge_values(gs, o->s, o->p->kappa, j->v);
	return spate_writer_push(o->w, gauge_run, free, j);
}

long swe_out_gauge_rows(const struct swe_out *o)
{
	return o->gauge_rows;
}

int swe_out_checkpoint(struct swe_out *o, struct swe_ckpt *c)
{
	struct ckpt_job *j = malloc(sizeof *j);
	if (!j) {
		swe_ckpt_free(c);
		return -SPATE_ENOMEM;
	}
	j->o = o;
	j->c = *c;
	memset(c, 0, sizeof *c);
	return spate_writer_push(o->w, ckpt_run, ckpt_done, j);
}

int swe_out_final(struct swe_out *o, const struct swe_prod *pr, const struct gauge_set *gs,
	double t)
{
	int rc = spate_writer_wait(o->w, 0);
	if (!rc && pr && o->ascii)
		rc = swe_write_products(o->s, pr, o->p->out_dir);
	if (!rc && o->nc)
		rc = swe_results_final(o->nc, o->s, pr, gs && gs->n ? gs : NULL, t,
			o->p->hazard_scheme);
	if (!rc && gs && gs->n)
		rc = gauge_write_summary(gs, o->p->out_dir);
	return rc;
}

int swe_out_close(struct swe_out *o)
{
	int rc, rc2;
	if (!o)
		return 0;
	rc = spate_writer_finish(o->w);
	rc2 = spate_nc_close(o->nc);
	free(o);
	return rc ? rc : rc2;
}
