/* swe_cpu_gauges.c: gauges kept by a CPU subdomain, as the GPU keeps them
 * (cuda/swe_cuda_gauges.cu, k_gauges): after every step the tracks of the
 * cells it holds follow gauge_kern.h, and the first step with t >= next
 * keeps a row of the centres' (w, hu, hv).  The decomposed run
 * (swe_multi_io.c) reads them back every SWE_GAUGE_ROWS steps at most, and
 * so advances many steps at a time, also over MPI ranks. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_backend.h"
#include "swe_cpu_gauges.h"
#include "gauge_kern.h"

struct swe_cpu_gauges {
	int n, per;
	int rows;              /* rows due since the last read (may pass cap) */
	long *idx;             /* n * per local state indices (< 0: not here) */
	struct gauge_track *tr;
	double bref, thr, next, interval;
	double *rt;            /* row times, SWE_GAUGE_ROWS */
	real *rv;              /* row values: v[(3 r + f) n + k] */
};

void swe_cpu_gauges_free(struct swe_backend_ctx *x)
{
	struct swe_cpu_gauges *g = x->gg;
	if (!g)
		return;
	free(g->idx);
	free(g->tr);
	free(g->rt);
	free(g->rv);
	free(g);
	x->gg = NULL;
}

int swe_cpu_gauges_start(struct swe_backend_ctx *x, const long *idx, int n, int per,
	const struct gauge_track *tr, double bref, double thr, double next, double interval)
{
	size_t ns = (size_t)n * per;
	struct swe_cpu_gauges *g;
	swe_cpu_gauges_free(x);
	if (n <= 0)
		return 0;
	g = calloc(1, sizeof *g);
	if (!g)
		return -SPATE_ENOMEM;
	x->gg = g;
	g->idx = malloc(ns * sizeof *g->idx);
	g->tr = malloc(ns * sizeof *g->tr);
	g->rt = malloc(SWE_GAUGE_ROWS * sizeof *g->rt);
	g->rv = malloc(3 * (size_t)SWE_GAUGE_ROWS * n * sizeof *g->rv);
	if (!g->idx || !g->tr || !g->rt || !g->rv) {
		swe_cpu_gauges_free(x);
		return -SPATE_ENOMEM;
	}
	memcpy(g->idx, idx, ns * sizeof *g->idx);
	memcpy(g->tr, tr, ns * sizeof *g->tr);
	g->n = n;
	g->per = per;
	g->bref = bref;
	g->thr = thr;
	g->next = next;
	g->interval = interval;
	return 0;
}

void swe_cpu_gauges_step(struct swe_backend_ctx *x)
{
	struct swe_cpu_gauges *g = x->gg;
	long o = (long)x->xlo * x->s.pitch;
	size_t ns;
	double t = x->t;
	if (!g)
		return;
	ns = (size_t)g->n * g->per;
	for (size_t s = 0; s < ns; s++)
		if (g->idx[s] >= 0)
			gauge_track_update(&g->tr[s], x->s.w[g->idx[s] + o], x->s.Bm[g->idx[s] + o],
				g->bref, g->thr, t, s % (size_t)g->per == 0);
	if (!(t >= g->next))
		return;
	for (int k = 0; k < g->n && g->rows < SWE_GAUGE_ROWS; k++) {
		long c = g->idx[(size_t)k * g->per];
		size_t r = (size_t)g->rows;
		if (c < 0)
			continue;
		g->rv[3 * r * g->n + k] = x->s.w[c + o];
		g->rv[(3 * r + 1) * g->n + k] = x->s.hu[c + o];
		g->rv[(3 * r + 2) * g->n + k] = x->s.hv[c + o];
	}
	if (g->rows < SWE_GAUGE_ROWS)
		g->rt[g->rows] = t;
	g->rows++;
	g->next = gauge_next_row(g->next, t, g->interval);
}

int swe_cpu_gauges_rows(struct swe_backend_ctx *x, double *t, real *v, int *nrows)
{
	struct swe_cpu_gauges *g = x->gg;
	*nrows = 0;
	if (!g)
		return 0;
	if (g->rows > SWE_GAUGE_ROWS) {
		spate_log_error("cpu", "%d gauge rows between two reads, room for %d", g->rows,
			SWE_GAUGE_ROWS);
		return -SPATE_EINVAL;
	}
	memcpy(t, g->rt, (size_t)g->rows * sizeof *t);
	memcpy(v, g->rv, 3 * (size_t)g->rows * g->n * sizeof *v);
	*nrows = g->rows;
	g->rows = 0;
	return 0;
}

int swe_cpu_gauges_get(struct swe_backend_ctx *x, struct gauge_track *tr, double *next)
{
	struct swe_cpu_gauges *g = x->gg;
	if (!g)
		return -SPATE_EINVAL;
	memcpy(tr, g->tr, (size_t)g->n * g->per * sizeof *tr);
	*next = g->next;
	return 0;
}
