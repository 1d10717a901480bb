/* swe_multi_gauges.c: the gauges of a decomposed run kept on the devices
 * (struct spate_backend, gauges_start; the subdomains' gauges_start,
 * gauges_rows, gauges_get: CPU and GPU alike).
 *
 * Every subdomain is handed all the gauges, with the cells it does not
 * hold marked (-1); each keeps the tracks of its cells and the row values
 * of the gauges whose centre it holds, and records rows at the same steps
 * as the others (the same clock; no subdomain rests: rows would be
 * missing).  After rows move, what they kept is read back and handed to
 * the new holders.
 *
 * Over MPI ranks the same: a rank reads back its subdomains only.  Its
 * rows' values of the gauges it holds are gathered to rank 0 at once (a
 * row is complete there, and is written there), and the tracks of the
 * cells it holds go to every rank whenever they are read back (at a
 * checkpoint, the end, and after rows moved, perhaps to another rank).
 * Values travel as bytes: a row or a maximum is what a run on one rank
 * would have, NaN included. */
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
		m->gown[s] = swe_multi_owner_of(m, m->gidx[s]);
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		for (size_t s = 0; s < ns; s++)
			m->gloc[s] = m->gown[s] == k ?
				m->gidx[s] - (long)m->d.part[k].row0 * m->pitch : -1;
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
	if (!m->ops->gauges_start || !m->ops->gauges_rows || !m->ops->gauges_get)
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

/* The rank that holds sample s (a cell of a gauge; s = g per: its centre). */
static int holder(const struct multi *m, size_t s)
{
	return m->d.part[m->gown[s]].rank;
}

/* Items of `size` bytes, item i (of n) held by rank holder(m, i * stride):
 * this rank's (in order) packed into buf; count[r] = how many rank r holds,
 * offset[r] = where they begin in the order of the ranks. */
static size_t pack_held(const struct multi *m, const void *items, size_t n, size_t size,
	size_t stride, void *buf, int *count, int *offset)
{
	size_t c = 0;
	for (int r = 0; r < m->d.nranks; r++)
		count[r] = 0;
	for (size_t i = 0; i < n; i++) {
		int r = holder(m, i * stride);
		count[r]++;
		if (r == m->d.rank)
			memcpy((char *)buf + c++ * size, (const char *)items + i * size, size);
	}
	offset[0] = 0;
	for (int r = 1; r < m->d.nranks; r++)
		offset[r] = offset[r - 1] + count[r - 1];
	return c;
}

/* Rank 0: the items gathered in the order of the ranks (buf) back to their
 * places in items. */
static void unpack_held(const struct multi *m, void *items, size_t n, size_t size,
	size_t stride, const void *buf, const int *offset)
{
	int at[DECOMP_MAX];
	memcpy(at, offset, (size_t)m->d.nranks * sizeof *at);
	for (size_t i = 0; i < n; i++)
		memcpy((char *)items + i * size, (const char *)buf + (size_t)at[holder(m, i * stride)]++ *
			size, size);
}

/* Over the ranks: rows [r0, r0 + nr) of m->gv complete on rank 0, each
 * gauge's values from the rank that holds its centre.  Every rank must
 * have kept nr rows (one clock): checked first, so that a gather never
 * mismatches. */
static int rows_merge(struct multi *m, int r0, int nr)
{
	double c[2] = { nr, -nr };
	size_t per = 3 * (size_t)nr, item = per * sizeof(real), n = (size_t)m->gn;
	int count[DECOMP_MAX], offset[DECOMP_MAX], rc;
	real *mine, *all = NULL, *rows;
	if ((rc = decomp_max(c, 2, NULL)))
		return rc;
	if (c[0] != -c[1]) {
		spate_log_error("run", "ranks kept %g and %g gauge rows: an internal error", -c[1],
			c[0]);
		return -SPATE_EDEVICE;
	}
	if (nr <= 0)
		return 0;
	/* a gauge's item: its nr rows of three values, gauge after gauge */
	rows = malloc(n * item);
	mine = malloc(n * item);
	if (m->d.rank == 0)
		all = malloc(n * item);
	if (!rows || !mine || (m->d.rank == 0 && !all)) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	for (size_t g = 0; g < n; g++)
		for (size_t q = 0; q < per; q++) /* q = 3 r + f */
			rows[g * per + q] = m->gv[(3 * (size_t)r0 + q) * n + g];
	pack_held(m, rows, n, item, (size_t)m->gper, mine, count, offset);
	rc = decomp_gather_planes(mine, all, item, count, offset);
	if (rc || m->d.rank != 0)
		goto out;
	unpack_held(m, rows, n, item, (size_t)m->gper, all, offset);
	for (size_t g = 0; g < n; g++)
		for (size_t q = 0; q < per; q++)
			m->gv[(3 * (size_t)r0 + q) * n + g] = rows[g * per + q];
out:
	free(rows);
	free(mine);
	free(all);
	return rc;
}

/* Every subdomain's rows since the last read, merged after the m->gpend
 * already kept: a gauge's values from the subdomain that held its centre
 * (over ranks: on rank 0). */
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
	rows = rows > 0 ? rows : 0;
	if (!rc && m->d.nranks > 1)
		rc = rows_merge(m, m->gpend, rows);
	if (!rc)
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

/* Over the ranks: every rank's tracks of the cells it holds to every rank
 * (gathered to rank 0, then sent from there). */
static int tracks_merge(struct multi *m)
{
	size_t ns = (size_t)m->gn * m->gper, size = sizeof *m->gtr;
	int count[DECOMP_MAX], offset[DECOMP_MAX], rc;
	struct gauge_track *all = m->d.rank == 0 ? malloc(ns * size) : NULL;
	if (m->d.rank == 0 && !all)
		return -SPATE_ENOMEM;
	pack_held(m, m->gtr, ns, size, 1, m->str, count, offset);
	rc = decomp_gather_planes(m->str, all, size, count, offset);
	if (!rc && m->d.rank == 0)
		unpack_held(m, m->gtr, ns, size, 1, all, offset);
	free(all);
	/* four doubles a track: rank 0's bytes to all */
	return rc ? rc : decomp_bcast((double *)m->gtr, (int)(ns * size / sizeof(double)));
}

/* The tracks of every subdomain's cells into m->gtr (over ranks: of every
 * rank's, on every rank); *next. */
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
	if (!rc && m->d.nranks > 1)
		rc = tracks_merge(m);
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
