/* swe_multi_halo.c: the halo exchanges of the decomposed run (swe_multi.c):
 * the callbacks that hand halo.c the rows next to each internal edge of a
 * subdomain's U, U* or rates, and the exchanges of a stage, or of every
 * edge after rows moved. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_sub.h"
#include "decomp.h"
#include "swe_balance.h"
#include "swe_multi_run.h"

/* ---- halo callbacks: the g rows next to an edge of U, U* or L (g =
 * SWE_GHOST, or more with ghost cell expansion: rows_get and rows_put) */

/* A resting subdomain computes no U*: its U* is its U (a dry cell among
 * dry ones is a fixed point of the predictor), which its neighbours read.
 * Its own U* array may hold anything: that of its last step, or nothing
 * after its rows moved. */
static int halo_get(void *user, int k, int side, void *buf)
{
	struct multi *m = user;
	int g = swe_balance_halo(m->bal), rows = m->d.part[k].rows, j0 = side ? rows - g : 0;
	int stage = m->stage == SWE_STAGE_USTAR && swe_balance_resting(m->bal, k) ?
		SWE_STAGE_U : m->stage;
	real *b = buf;
	size_t f = (size_t)g * m->pitch;
	if (m->ops->halo_get && g == SWE_GHOST)
		return m->ops->halo_get(m->sub[k], stage, side, buf);
	return m->ops->rows_get(m->sub[k], stage, j0, j0 + g, b, b + f, b + 2 * f);
}

static int halo_put(void *user, int k, int side, const void *buf)
{
	struct multi *m = user;
	int g = swe_balance_halo(m->bal), rows = m->d.part[k].rows, j0 = side ? rows : -g;
	const real *b = buf;
	size_t f = (size_t)g * m->pitch;
	if (m->ops->halo_put && g == SWE_GHOST)
		return m->ops->halo_put(m->sub[k], m->stage, side, buf);
	return m->ops->rows_put(m->sub[k], m->stage, j0, j0 + g, b, b + f, b + 2 * f);
}

static int halo_copy(void *user, int from, int side_from, int to)
{
	struct multi *m = user;
	return m->ops->halo_copy(m->sub[from], m->stage, side_from, m->sub[to],
		swe_balance_halo(m->bal));
}

/* The three blocks w, hu, hv of the halo (halo_ops.nblk = 3). */
static int halo_dev(void *user, int k, int side, int ghost, void *ptr[HALO_MAX_BLK],
	void **stream)
{
	struct multi *m = user;
	return m->ops->halo_dev(m->sub[k], m->stage, side, ghost, ptr, stream);
}

static int halo_mark(void *user, int k, int end)
{
	struct multi *m = user;
	return m->ops->halo_mark(m->sub[k], end);
}

static void halo_keep(void *user, int k, int side)
{
	struct multi *m = user;
	m->ops->halo_keep(m->sub[k], m->stage, side);
}

/* The halos of `stage`; the interior rows of a stage whose edge rows went
 * first compute while they travel.  The edges of a resting subdomain are
 * skipped (their ghost rows stay valid: swe_balance_plan.c) unless `all`:
 * after rows moved, the new edges' ghost rows hold nothing yet. */
static int exchange_some(struct multi *m, int stage, int all)
{
	struct halo_ops h;
	int rc, rc2;
	memset(&h, 0, sizeof h);
	h.user = m;
	h.get = halo_get;
	h.put = halo_put;
	h.copy = m->ops->halo_copy ? halo_copy : NULL;
	if (m->ops->halo_keep && !all) {
		h.skip = swe_balance_rest_flags(m->bal);
		h.keep = halo_keep;
	}
	if (m->nccl && swe_balance_halo(m->bal) == SWE_GHOST) {
		h.nccl = m->nccl;
		h.nblk = 3;
		h.dev = halo_dev;
		h.mark = halo_mark;
	}
	m->stage = stage;
	rc = halo_exchange_start(&m->halo, &h, m->t_exchange);
	for (int k = m->d.first; k < m->d.last && !rc && m->ops->interior; k++)
		if (!swe_balance_resting(m->bal, k))
			rc = m->ops->interior(m->sub[k]);
	rc2 = halo_exchange_finish(&m->halo, &h, m->t_exchange);
	return rc ? rc : rc2;
}

int swe_multi_exchange(struct multi *m, int stage)
{
	return exchange_some(m, stage, 0);
}

int swe_multi_exchange_moved(struct multi *m)
{
	int rc = exchange_some(m, SWE_STAGE_U, 1);
	if (!rc && swe_balance_rest_flags(m->bal))
		rc = exchange_some(m, SWE_STAGE_UNEXT, 1);
	if (!rc && swe_balance_exchange_ustar(m->bal) && swe_balance_rest_flags(m->bal))
		rc = exchange_some(m, SWE_STAGE_RATE, 1);
	return rc;
}
