/* swe_balance_measure.c: the measure that starts a balancing decision
 * (swe_balance.c): the work of every row, and the seconds and the speed of
 * every subdomain over the interval since the last measure; the seconds the
 * subdomains computed, which the trials read too (swe_balance_trial.c).
 *
 * The work model: a step costs a subdomain sec x sum over its rows of
 * (a + beta (nx - a)), where a is the row's active cells (those the rhs
 * computes: bounding box or per-row count) and beta the cost of a skipped
 * cell relative to a computed one (swe_balance.c); sec, seconds per unit of
 * work, is measured per subdomain over the last interval on the CPU, and
 * taken from the probe on devices that compute side by side. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_sub.h"
#include "swe_balance_run.h"

/* Seconds subdomain k of this rank has computed so far: the device's own
 * count where the phases only enqueue work (ops->times; it waits for the
 * device), else the driver's clock. */
static double compute_s(const struct swe_balance *b, int k)
{
	double c, x;
	if (b->r.ops->times && b->r.ops->times(b->r.sub[k], &c, &x) == 0)
		return c;
	return b->r.t_compute[k];
}

void swe_balance_computed(const struct swe_balance *b, double *c)
{
	for (int k = b->r.d->first; k < b->r.d->last; k++)
		c[k] = compute_s(b, k);
}

/* The wet bounding box of this rank's subdomains (rows box[0..1], columns
 * box[2..3]; empty: box[0] > box[1]) grown by kb. */
static void box_grow(int box[4], const int kb[4])
{
	box[0] = kb[0] < box[0] ? kb[0] : box[0];
	box[1] = kb[1] > box[1] ? kb[1] : box[1];
	box[2] = kb[2] < box[2] ? kb[2] : box[2];
	box[3] = kb[3] > box[3] ? kb[3] : box[3];
}

/* The active cells per global row in b->act, and in b->work the rows' cost
 * by the work model: per-row counts, or the wet bounding box widened by a
 * cell (the neighbours of wet cells); the seconds of each subdomain since
 * the last measure in T.  Collective. */
static int measure_work(struct swe_balance *b, double *T)
{
	struct decomp *d = b->r.d;
	int rows_mode = b->p->balance == SWE_BALANCE_ROWS, nx = b->r.nx, rc = 0;
	int box[4] = { INT_MAX, -1, INT_MAX, -1 };
	memset(b->work, 0, (size_t)b->ny * sizeof *b->work);
	for (int k = 0; k < d->n; k++)
		T[k] = 0;
	for (int k = d->first; k < d->last && !rc; k++) {
		int kb[4];
		rc = b->r.ops->activity(b->r.sub[k], rows_mode ? b->iwork : NULL, rows_mode ? NULL : kb);
		for (int j = 0; rows_mode && j < d->part[k].rows; j++)
			b->work[d->part[k].row0 + j] = b->iwork[j];
		if (!rows_mode)
			box_grow(box, kb);
		T[k] = compute_s(b, k) - b->tc_prev[k];
	}
	if (!rc)
		rc = decomp_max(T, d->n, NULL);
	if (!rc)
		rc = rows_mode ? decomp_allgather_planes(b->work, d, NULL) : decomp_bbox(box, NULL);
	if (!rows_mode && box[0] <= box[1]) {
		int w = box[3] - box[2] + 3;
		for (int j = box[0] - 1; j <= box[1] + 1; j++)
			if (j >= 0 && j < b->ny)
				b->work[j] = w < nx ? w : nx;
	}
	for (int j = 0; j < b->ny; j++) {
		b->act[j] = b->work[j];
		b->work[j] += b->beta * (nx - b->work[j]);
	}
	return rc;
}

/* SPATE_BALANCE_FAKE_SPEED=seed (for the tests): the seconds per unit of
 * work of every subdomain drawn at every measure from a sequence the seed
 * and the measure's number fix (each within a factor 4 of the others), in
 * place of the measured ones: plans that change at every measure, the same
 * on any machine under any load. */
static void fake_speeds(const struct swe_balance *b, double *sec)
{
	const char *e = getenv("SPATE_BALANCE_FAKE_SPEED");
	unsigned long x;
	if (!e || !*e)
		return;
	x = strtoul(e, NULL, 10) * 2654435761UL + (unsigned long)b->rep.measures * 40503UL + 1;
	for (int k = 0; k < b->r.d->n; k++) {
		x = (x * 6364136223846793005ULL + 1442695040888963407ULL) & 0xffffffffffffULL;
		sec[k] = 1e-9 * (1 + 3 * (double)(x >> 24) / (double)(1UL << 24));
	}
}

/* The work of subdomain k's rows. */
static double sub_work(const struct swe_balance *b, int k)
{
	const struct decomp *d = b->r.d;
	double W = 0;
	for (int j = d->part[k].row0; j < d->part[k].row0 + d->part[k].rows; j++)
		W += b->work[j];
	return W;
}

/* Seconds per unit of work of each subdomain over an interval of isteps
 * steps; 0 where nothing was measured (replaced by the mean of the others;
 * all 0: returns 0, no plan).  Devices side by side (ops->concurrent) take
 * the probe's speeds instead, or one speed without the probe (the mean
 * measured): what the devices measure over an interval holds their waits
 * for each other and for the host's launches, as long on a device with
 * nothing to compute as on the busiest one, and would hide where the work
 * is. */
static int speeds(const struct swe_balance *b, const double *T, long isteps, double *sec)
{
	const struct decomp *d = b->r.d;
	double sum = 0;
	int nv = 0;
	for (int k = 0; k < d->n; k++) {
		double W = sub_work(b, k);
		sec[k] = W > 0 && T[k] > 0 ? T[k] / W : 0;
		sum += sec[k];
		nv += sec[k] > 0;
	}
	for (int k = 0; k < d->n && nv; k++)
		if (!(sec[k] > 0))
			sec[k] = sum / nv;
	if (nv && b->r.ops->concurrent) {
		int probed = 1;
		double Ts = 0, Ws = 0;
		for (int k = 0; k < d->n; k++) {
			probed &= b->rep.speed[k] > 0;
			Ts += T[k];
			/* row by row, one running sum (not sub_work per subdomain) */
			for (int j = d->part[k].row0; j < d->part[k].row0 + d->part[k].rows; j++)
				Ws += b->work[j];
		}
		for (int k = 0; k < d->n; k++)
			sec[k] = probed ? (double)isteps / b->rep.speed[k] : Ts / Ws;
	}
	fake_speeds(b, sec);
	return nv;
}

int swe_balance_measure(struct swe_balance *b, long steps, struct swe_balance_meas *m)
{
	const struct decomp *d = b->r.d;
	double t0 = spate_now();
	int rc;
	m->isteps = steps - b->last_measure;
	if ((rc = measure_work(b, m->T)))
		return rc;
	b->rep.measures++;
	b->last_measure = steps;
	m->valid = m->isteps > 0 && speeds(b, m->T, m->isteps, m->sec);
	/* the CPU subdomains of a rank run one after another; devices side by
	 * side are groups of their own */
	for (int k = 0; k < d->n; k++)
		m->group[k] = b->r.ops->concurrent ? k : d->part[k].rank;
	b->rep.bbox += spate_now() - t0;
	return 0;
}
