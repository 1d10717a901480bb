/* swe_gauges.c: the run driver's gauges (swe_gauges.h).  The backend that
 * keeps them updates the same tracks after every real step (gauge_kern.h)
 * and records a row at the same steps as the driver's sampling would, so
 * the outputs are the same; the driver then advances many steps at a time
 * instead of one. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_gauges.h"
#include "swe_out.h"
#include "swe_backend.h"

int swe_gauges_sample(const struct spate_backend *be, struct swe_backend_ctx *ctx,
	struct gauge_set *gs, struct swe_state *s, const struct swe_params *p, double t,
	double *next, struct swe_out *out)
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
	/* every rank's clock moves on (under MPI the ranks that write nothing
	 * keep the rows of their subdomains' gauges at the same steps) */
	if (t >= *next) {
		if (out)
			rc = swe_out_gauges(out, gs, t);
		*next = gauge_next_row(*next, t, p->gauge_interval);
	}
	return rc;
}

int swe_gauges_start(struct swe_gauges *g, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, const struct gauge_set *gs, const struct swe_state *s,
	const struct swe_params *p, double next)
{
	int rc;
	memset(g, 0, sizeof *g);
	if (!gs->n || !be->gauges_start || !be->gauges_rows || !be->gauges_get ||
		getenv("SPATE_GAUGES_HOST"))
		return 0;
	g->t = malloc(SWE_GAUGE_ROWS * sizeof *g->t);
	g->v = malloc(3 * (size_t)SWE_GAUGE_ROWS * gs->n * sizeof *g->v);
	if (!g->t || !g->v) {
		swe_gauges_free(g);
		return -SPATE_ENOMEM;
	}
	rc = be->gauges_start(ctx, gs, s->bref, next, p->gauge_interval);
	if (rc == -SPATE_EUNSUPPORTED) { /* not in this run: the driver samples them */
		swe_gauges_free(g);
		return 0;
	}
	g->dev = !rc;
	if (!rc)
		spate_log_info("spate: %d gauges kept by the %s backend\n", gs->n, be->name);
	return rc;
}

long swe_gauges_limit(const struct swe_gauges *g, const struct gauge_set *gs, long want)
{
	if (!gs->n)
		return want;
	if (!g->dev)
		return 1;
	return want < SWE_GAUGE_ROWS ? want : SWE_GAUGE_ROWS;
}

/* The backend's rows to the time series: each row's centre values where a
 * sample would have put them. */
static int rows(struct swe_gauges *g, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, struct gauge_set *gs, struct swe_out *out)
{
	int nr, rc, n = gs->n;
	if ((rc = be->gauges_rows(ctx, g->t, g->v, &nr)))
		return rc;
	for (int r = 0; r < nr && out && !rc; r++) {
		for (int k = 0; k < n; k++) {
			size_t q = (size_t)k * gs->per;
			gs->w[q] = g->v[3 * (size_t)r * n + k];
			gs->hu[q] = g->v[(3 * (size_t)r + 1) * n + k];
			gs->hv[q] = g->v[(3 * (size_t)r + 2) * n + k];
		}
		rc = swe_out_gauges(out, gs, g->t[r]);
	}
	return rc;
}

int swe_gauges_after(struct swe_gauges *g, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, struct gauge_set *gs, struct swe_state *s,
	const struct swe_params *p, double t, double *next, struct swe_out *out)
{
	if (!gs->n)
		return 0;
	if (g->dev)
		return rows(g, be, ctx, gs, out);
	return swe_gauges_sample(be, ctx, gs, s, p, t, next, out);
}

int swe_gauges_pull(struct swe_gauges *g, const struct spate_backend *be,
	struct swe_backend_ctx *ctx, struct gauge_set *gs, double *next, struct swe_out *out)
{
	int rc;
	if (!g->dev)
		return 0;
	if ((rc = rows(g, be, ctx, gs, out)) || (rc = be->gauges_get(ctx, gs, next)))
		return rc;
	gauge_collect(gs);
	return 0;
}

void swe_gauges_free(struct swe_gauges *g)
{
	free(g->t);
	free(g->v);
	memset(g, 0, sizeof *g);
}
