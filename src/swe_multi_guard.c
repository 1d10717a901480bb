/* swe_multi_guard.c: the instability guard of the decomposed run (struct
 * spate_backend's guard; the driver's side is swe_watch.c).  Each
 * subdomain keeps its own flag, set where its cells are stored as on one
 * device (swe_guard.h), and its own copy of the last good state; the check
 * ORs the flags of this rank's subdomains, then over the ranks in one
 * reduction of one number (at the check only, never per step).  The first
 * bad cell is found by the driver in the gathered state, in global rows and
 * columns, so the report is the same for any decomposition.
 *
 * Rows that moved between subdomains since the last good state
 * ([parallel] balance = bbox | rows) leave copies of other rows: the rewind
 * then fails with -SPATE_EUNSUPPORTED, and the driver reports without a
 * checkpoint. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_multi_run.h"
#include "decomp.h"

/* op on every subdomain of this rank; 0 or the first -SPATE_E*. */
static int each(struct multi *m, int op, int *bad)
{
	int rc = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		int b = 0;
		rc = m->ops->guard(m->sub[k], op, 0, &b);
		if (bad)
			*bad |= b;
	}
	return rc;
}

/* The plant: global state index `cell` into the subdomain that owns its
 * row, where it lives on this rank. */
static int plant(struct multi *m, int op, long cell)
{
	int j = (int)(cell / m->pitch) - SWE_GHOST, k;
	if (cell < 0 || j < 0 || j >= m->ny)
		return -SPATE_EINVAL;
	k = swe_multi_owner(m, j);
	if (k < m->d.first || k >= m->d.last)
		return 0;
	return m->ops->guard(m->sub[k], op, swe_multi_local(m, k, cell), NULL);
}

int swe_multi_guard(struct swe_backend_ctx *ctx, int op, long cell, int *bad)
{
	struct multi *m = (struct multi *)ctx;
	double v[1] = { 0 };
	int b = 0, rc;
	if (!m->ops->guard)
		return -SPATE_EUNSUPPORTED;
	switch (op) {
	case SWE_GUARD_CHECK:
		if ((rc = each(m, op, &b)))
			return rc;
		v[0] = b;
		if ((rc = decomp_max(v, 1, NULL)))
			return rc;
		*bad = v[0] > 0;
		return 0;
	case SWE_GUARD_KEEP:
		rc = each(m, op, NULL);
		m->gkept = rc == 0;
		m->gmoved = 0;
		return rc;
	case SWE_GUARD_REWIND:
		if (!m->gkept)
			return -SPATE_EINVAL;
		if (m->gmoved) {
			if (m->d.rank == 0)
				spate_log_error("guard", "rows moved between subdomains since the last good "
					"state ([parallel] balance): no checkpoint of it; run again with "
					"balance = static to have one");
			return -SPATE_EUNSUPPORTED;
		}
		return each(m, op, NULL);
	case SWE_GUARD_PLANT:
	case SWE_GUARD_PLANT_SILENT:
		return plant(m, op, cell);
	default:
		return -SPATE_EINVAL;
	}
}
