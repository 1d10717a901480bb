/* swe_probe.c: the initial speed probe of a decomposed shallow-water run
 * ([parallel] probe; DESIGN.md, "Load balancing"): a few steps of a
 * synthetic grid on every subdomain's device, fully wet and then fully dry,
 * so that the rows can be shared in proportion to the devices' speeds and
 * the balancing knows what a dry cell costs. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_state.h"
#include "swe_cell.h"
#include "swe_backend.h"
#include "swe_sub.h"
#include "swe_balance_run.h"

/* Seconds of `steps` steps (after one untimed) of state g on one subdomain
 * that owns all its rows (every edge a wall: no exchange). */
static int probe_time(const struct swe_sub_ops *ops, const struct swe_state *g,
	const struct swe_params *q, int device, int steps, double *sec)
{
	struct swe_backend_ctx *x = NULL;
	double t = 0, t0 = 0, a2, b2;
	int rc = ops->init(&x, g, q, 0, g->ny, device);
	for (int n = 0; n <= steps && !rc; n++) {
		double ax, ay, dt;
		if (n == 1)
			t0 = spate_now();
		rc = ops->stage1(x, t, &ax, &ay);
		/* asynchronous devices: wait for the speeds */
		if (!rc && ops->speeds)
			rc = ops->speeds(x, &ax, &ay);
		/* at most 1 s: the dry grid has no speed to bound it */
		dt = swe_cfl_dt(ax, ay, g->dx, g->dy, q->cfl, 1.0);
		if (!rc)
			rc = ops->predict(x, dt, t + dt);
		if (!rc && q->integrator != 1)
			rc = ops->correct(x, dt, &a2, &b2);
		if (!rc)
			rc = ops->commit(x, t + dt, dt);
		t += dt;
	}
	if (!rc && ops->speeds && q->integrator != 1)
		rc = ops->speeds(x, &a2, &b2);
	*sec = spate_now() - t0;
	if (x)
		ops->fini(x);
	return rc;
}

int swe_probe_speeds(const struct swe_sub_ops *ops, const struct swe_params *p,
	const struct swe_state *s, int n, const int *dev, double *speed, double *beta)
{
	struct swe_params *q;
	struct swe_state g;
	double v[2 * DECOMP_MAX];
	int rows, P = decomp_world_size(), r = decomp_world_rank(), rc = 0;
	size_t ncell;
	/* about 2^18 cells (devices: 2^22, enough to fill one): long enough to
	 * time, short next to the run */
	rows = (ops->concurrent ? 4194304 : 262144) / s->nx;
	rows = rows < 8 ? 8 : rows > s->ny ? s->ny : rows;
	if (!(q = malloc(sizeof *q)))
		return -SPATE_ENOMEM;
	*q = *p;
	for (int side = 0; side < 4; side++)
		q->bc[side].kind = SWE_BC_WALL;
	if ((rc = swe_state_alloc(&g, s->nx, rows, s->dx, s->dy))) {
		free(q);
		return rc;
	}
	/* a flat bed at 0 (the corners as allocated), still water 1 m deep:
	 * every cell wet; then the same grid dry */
	swe_state_finish_bed(&g);
	ncell = (size_t)(rows + 2 * SWE_GHOST) * g.pitch;
	memset(v, 0, sizeof v);
	for (int k = (int)((long)n * r / P); k < (int)((long)n * (r + 1) / P) && !rc; k++)
		for (int dry = 0; dry < 2 && !rc; dry++) {
			for (size_t c = 0; c < ncell; c++)
				g.w[c] = dry ? 0 : 1;
			rc = probe_time(ops, &g, q, dev ? dev[k] : 0, p->probe_steps, &v[2 * k + dry]);
		}
	swe_state_free(&g);
	free(q);
	if (!rc)
		rc = decomp_max(v, 2 * n, NULL);
	*beta = 0;
	for (int k = 0; k < n && !rc; k++) {
		double wet = v[2 * k] > 0 ? v[2 * k] : 1e-9;
		speed[k] = (double)s->nx * rows * p->probe_steps / wet;
		*beta += v[2 * k + 1] / wet / n;
	}
	return rc;
}
