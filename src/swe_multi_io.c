/* swe_multi_io.c: data in and out of a decomposed run: the state and the
 * flood products gathered to rank 0 (whole planes, no global copy on the
 * other ranks), gauge samples from the subdomains that own them, products
 * put back on restart. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_multi_run.h"
#include "gauge.h"
#include "swe_balance.h"
#include "products_kern.h"

/* Planes [lo, hi) of the global arrays (ghost rows counted from 0) held by
 * rank r: its subdomains' rows, and the ghost rows of the global edges. */
static void rank_planes(const struct multi *m, int r, int *lo, int *hi)
{
	int first = (int)((long)m->d.n * r / m->d.nranks);
	int last = (int)((long)m->d.n * (r + 1) / m->d.nranks) - 1;
	*lo = first == 0 ? 0 : m->d.part[first].row0 + SWE_GHOST;
	*hi = last == m->d.n - 1 ? m->ny + 2 * SWE_GHOST :
		m->d.part[last].row0 + m->d.part[last].rows + SWE_GHOST;
}

/* Gather planes of three fields (or one, w only) to rank 0, in place. */
static int gather(struct multi *m, real *f[3], int nf, size_t plane)
{
	int count[DECOMP_MAX], offset[DECOMP_MAX], lo, hi, rc = 0;
	if (m->d.nranks == 1)
		return 0;
	for (int r = 0; r < m->d.nranks; r++) {
		rank_planes(m, r, &lo, &hi);
		offset[r] = lo;
		count[r] = hi - lo;
	}
	for (int i = 0; i < nf && !rc; i++)
		rc = decomp_gather_planes((char *)f[i] + (size_t)offset[m->d.rank] * plane, f[i],
			plane, count, offset);
	return rc;
}

int swe_multi_download(struct swe_backend_ctx *ctx, struct swe_state *s)
{
	struct multi *m = (struct multi *)ctx;
	real *f[3];
	int rc = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		const struct decomp_part *q = &m->d.part[k];
		int j0 = q->row0 == 0 ? -SWE_GHOST : 0;
		int j1 = q->rows + (q->row0 + q->rows == m->ny ? SWE_GHOST : 0);
		size_t off = (size_t)(q->row0 + j0 + SWE_GHOST) * m->pitch;
		rc = m->ops->rows_get(m->sub[k], SWE_STAGE_U, j0, j1, s->w + off, s->hu + off,
			s->hv + off);
	}
	f[0] = s->w;
	f[1] = s->hu;
	f[2] = s->hv;
	return rc ? rc : gather(m, f, 3, (size_t)m->pitch * sizeof(real));
}

/* Each subdomain of this rank samples its cells in one call; the owner's
 * value is the only one above -inf, so the maximum over the ranks is
 * exact. */
int swe_multi_sample(struct swe_backend_ctx *ctx, const long *idx, int n, real *w,
	real *hu, real *hv)
{
	struct multi *m = (struct multi *)ctx;
	size_t nn = (size_t)(n > 0 ? n : 1);
	double *v = malloc(3 * nn * sizeof *v);
	long *li = malloc(nn * sizeof *li);
	int *qs = malloc(nn * sizeof *qs), rc = 0;
	real *a = malloc(3 * nn * sizeof *a);
	if (!v || !li || !qs || !a) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	for (int q = 0; q < 3 * n; q++)
		v[q] = -INFINITY;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		int c = 0;
		for (int q = 0; q < n; q++)
			if (swe_multi_owner(m, (int)(idx[q] / m->pitch) - SWE_GHOST) == k) {
				li[c] = swe_multi_local(m, k, idx[q]);
				qs[c++] = q;
			}
		if (!c || !m->sub[k])
			continue;
		rc = m->ops->sample(m->sub[k], li, c, a, a + c, a + 2 * c);
		for (int e = 0; e < c && !rc; e++) {
			v[3 * qs[e]] = a[e];
			v[3 * qs[e] + 1] = a[c + e];
			v[3 * qs[e] + 2] = a[2 * c + e];
		}
	}
	if (!rc)
		rc = decomp_max(v, 3 * n, NULL);
	for (int q = 0; q < n && !rc; q++) {
		w[q] = (real)v[3 * q];
		hu[q] = (real)v[3 * q + 1];
		hv[q] = (real)v[3 * q + 2];
	}
out:
	free(v);
	free(li);
	free(qs);
	free(a);
	return rc;
}

int swe_multi_products_start(struct swe_backend_ctx *ctx, real thr)
{
	struct multi *m = (struct multi *)ctx;
	int rc = m->ops->products_start ? 0 : -SPATE_EUNSUPPORTED;
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->products_start(m->sub[k], thr);
	return rc;
}

int swe_multi_products_get(struct swe_backend_ctx *ctx, struct swe_prod *out)
{
	struct multi *m = (struct multi *)ctx;
	int count[DECOMP_MAX], offset[DECOMP_MAX], rc = 0;
	size_t plane = (size_t)m->nx * sizeof *out;
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->products_get(m->sub[k], out + (size_t)m->d.part[k].row0 * m->nx);
	if (rc || m->d.nranks == 1)
		return rc;
	for (int r = 0; r < m->d.nranks; r++) {
		int first = (int)((long)m->d.n * r / m->d.nranks);
		int last = (int)((long)m->d.n * (r + 1) / m->d.nranks) - 1;
		offset[r] = m->d.part[first].row0;
		count[r] = m->d.part[last].row0 + m->d.part[last].rows - offset[r];
	}
	return decomp_gather_planes(out + (size_t)offset[m->d.rank] * m->nx, out, plane, count,
		offset);
}

/* Restart: every subdomain takes its rows of the products in. */
int swe_multi_products_put(struct swe_backend_ctx *ctx, const struct swe_prod *in)
{
	struct multi *m = (struct multi *)ctx;
	int rc = m->ops->products_put ? 0 : -SPATE_EUNSUPPORTED;
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->products_put(m->sub[k], in + (size_t)m->d.part[k].row0 * m->nx);
	return rc;
}

/* Rain: every subdomain of this rank takes the global rates (each reads
 * its own rows, also after rows moved). */
int swe_multi_set_rain(struct swe_backend_ctx *ctx, const float *rate, double uniform)
{
	struct multi *m = (struct multi *)ctx;
	int rc = 0;
	if (!m->ops->set_rain) {
		spate_log_error("run", "rain with %s subdomains is not built yet: run it with one "
			"subdomain, or on the CPU with any decomposition", m->ops->name);
		return -SPATE_EUNSUPPORTED;
	}
	/* a graph recorded before holds the old rain (none, or uniform) */
	swe_multi_graph_drop(m);
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->set_rain(m->sub[k], rate, uniform);
	return rc;
}

/* Restart: the clock of the decomposed run (each subdomain's follows at its
 * next commit). */
int swe_multi_set_time(struct swe_backend_ctx *ctx, double t, long steps, double last_dt)
{
	struct multi *m = (struct multi *)ctx;
	m->t = t;
	m->steps = steps;
	m->last_dt = last_dt;
	/* the ghost rows as restored may not be the neighbours' */
	swe_balance_exchange_soon(m->bal);
	return 0;
}

/* ---- gauges kept on the devices (struct spate_backend, gauges_start):
 * every subdomain of this process is handed all the gauges, with the cells
 * it does not hold marked (-1); each keeps the tracks of its cells and the
 * row values of the gauges whose centre it holds, and records rows at the
 * same steps as the others (the same clock; no subdomain rests: rows would
 * be missing).  After rows move, what they kept is read back and handed to
 * the new holders.  One MPI rank only. */

void swe_multi_gauges_free(struct multi *m)
{
	free(m->gidx);
	free(m->gloc);
	free(m->gown);
	free(m->gtr);
	free(m->str);
	free(m->gt);
	free(m->st);
	free(m->gv);
	free(m->sv);
	m->gidx = m->gloc = NULL;
	m->gown = NULL;
	m->gtr = m->str = NULL;
	m->gt = m->st = NULL;
	m->gv = m->sv = NULL;
	m->gn = 0;
}

/* Hand the gauges to the subdomains that hold their cells now; next: the
 * time of the next row. */
static int gauges_place(struct multi *m, double next)
{
	size_t ns = (size_t)m->gn * m->gper;
	int rc = 0;
	for (size_t s = 0; s < ns; s++)
		m->gown[s] = swe_multi_owner(m, (int)(m->gidx[s] / m->pitch) - SWE_GHOST);
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		for (size_t s = 0; s < ns; s++)
			m->gloc[s] = m->gown[s] == k ? swe_multi_local(m, k, m->gidx[s]) : -1;
		rc = m->ops->gauges_start(m->sub[k], m->gloc, m->gn, m->gper, m->gtr, m->gbref,
			m->gthr, next, m->ginterval);
	}
	swe_multi_graph_drop(m); /* the steps' kernels changed */
	return rc;
}

int swe_multi_gauges_start(struct swe_backend_ctx *ctx, const struct gauge_set *gs,
	double bref, double next, double interval)
{
	struct multi *m = (struct multi *)ctx;
	size_t ns = (size_t)gs->n * gs->per, nv = 3 * (size_t)SWE_GAUGE_ROWS * gs->n;
	if (m->d.nranks > 1 || !m->ops->gauges_start || !m->ops->gauges_rows ||
		!m->ops->gauges_get)
		return -SPATE_EUNSUPPORTED;
	swe_multi_gauges_free(m);
	m->gidx = malloc(ns * sizeof *m->gidx);
	m->gloc = malloc(ns * sizeof *m->gloc);
	m->gown = malloc(ns * sizeof *m->gown);
	m->gtr = malloc(ns * sizeof *m->gtr);
	m->str = malloc(ns * sizeof *m->str);
	m->gt = malloc(SWE_GAUGE_ROWS * sizeof *m->gt);
	m->st = malloc(SWE_GAUGE_ROWS * sizeof *m->st);
	m->gv = malloc(nv * sizeof *m->gv);
	m->sv = malloc(nv * sizeof *m->sv);
	if (!m->gidx || !m->gloc || !m->gown || !m->gtr || !m->str || !m->gt || !m->st ||
		!m->gv || !m->sv) {
		swe_multi_gauges_free(m);
		return -SPATE_ENOMEM;
	}
	memcpy(m->gidx, gs->idx, ns * sizeof *m->gidx);
	memcpy(m->gtr, gs->tr, ns * sizeof *m->gtr);
	m->gn = gs->n;
	m->gper = gs->per;
	m->gpend = 0;
	m->gbref = bref;
	m->gthr = gs->threshold;
	m->ginterval = interval;
	swe_balance_keep_awake(m->bal);
	return gauges_place(m, next);
}

/* Every subdomain's rows since the last read, merged after the m->gpend
 * already kept: a gauge's values from the subdomain that held its centre. */
static int gauges_collect(struct multi *m)
{
	int n = m->gn, rows = -1, rc = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		int nk;
		if ((rc = m->ops->gauges_rows(m->sub[k], m->st, m->sv, &nk)))
			break;
		if (rows >= 0 && nk != rows) {
			spate_log_error("run", "subdomains kept %d and %d gauge rows: an internal error",
				rows, nk);
			return -SPATE_EDEVICE;
		}
		rows = nk;
		if (m->gpend + nk > SWE_GAUGE_ROWS) {
			spate_log_error("run", "%d gauge rows between two reads, room for %d",
				m->gpend + nk, SWE_GAUGE_ROWS);
			return -SPATE_EINVAL;
		}
		for (int r = 0; r < nk; r++) {
			size_t o = 3 * (size_t)(m->gpend + r) * n, i = 3 * (size_t)r * n;
			m->gt[m->gpend + r] = m->st[r];
			for (int g = 0; g < n; g++) {
				if (m->gown[(size_t)g * m->gper] != k)
					continue;
				for (int f = 0; f < 3; f++)
					m->gv[o + (size_t)f * n + g] = m->sv[i + (size_t)f * n + g];
			}
		}
	}
	if (!rc && rows > 0)
		m->gpend += rows;
	return rc;
}

int swe_multi_gauges_rows(struct swe_backend_ctx *ctx, double *t, real *v, int *nrows)
{
	struct multi *m = (struct multi *)ctx;
	int rc = gauges_collect(m);
	*nrows = 0;
	if (rc)
		return rc;
	memcpy(t, m->gt, (size_t)m->gpend * sizeof *t);
	memcpy(v, m->gv, 3 * (size_t)m->gpend * m->gn * sizeof *v);
	*nrows = m->gpend;
	m->gpend = 0;
	return 0;
}

/* The tracks of every subdomain's cells into m->gtr; *next. */
static int gauges_tracks(struct multi *m, double *next)
{
	size_t ns = (size_t)m->gn * m->gper;
	int rc = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		if ((rc = m->ops->gauges_get(m->sub[k], m->str, next)))
			break;
		for (size_t s = 0; s < ns; s++)
			if (m->gown[s] == k)
				m->gtr[s] = m->str[s];
	}
	return rc;
}

int swe_multi_gauges_get(struct swe_backend_ctx *ctx, struct gauge_set *gs, double *next)
{
	struct multi *m = (struct multi *)ctx;
	int rc = gauges_tracks(m, next);
	if (!rc)
		memcpy(gs->tr, m->gtr, (size_t)m->gn * m->gper * sizeof *gs->tr);
	return rc;
}

int swe_multi_gauges_moved(struct multi *m)
{
	double next;
	int rc;
	if (!m->gn)
		return 0;
	if ((rc = gauges_collect(m)) || (rc = gauges_tracks(m, &next)))
		return rc;
	return gauges_place(m, next);
}
