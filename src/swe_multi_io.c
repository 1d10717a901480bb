/* swe_multi_io.c: data in and out of a decomposed run: the state and the
 * flood products gathered to rank 0 (whole planes, no global copy on the
 * other ranks), gauge samples from the subdomains that own them, products
 * put back on restart, rain and the clock of a restart (the gauges kept on
 * the devices: swe_multi_gauges.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_multi_run.h"
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
