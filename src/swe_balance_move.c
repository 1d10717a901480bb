/* swe_balance_move.c: dynamic load balancing of a decomposed shallow-water
 * run (swe_balance.c calls it every balance_interval steps): the work of
 * every row and the speed of every subdomain, the plan (balance.c), and the
 * move when it pays, with the test hook around it.
 *
 * The work model: a step costs a subdomain sec x sum over its rows of
 * (a + beta (nx - a)), where a is the row's active cells (those the rhs
 * computes: bounding box or per-row count) and beta the cost of a skipped
 * cell relative to a computed one; sec, seconds per unit of work, is
 * measured per subdomain over the last interval on the CPU, and taken from
 * the probe on devices that compute side by side. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_balance_run.h"

static size_t mv_bytes(void *u, int k, int n)
{
	struct swe_balance *b = u;
	return b->r.ops->rows_bytes(b->r.sub[k], n);
}

static int mv_pack(void *u, int k, int side, int n, void *buf)
{
	struct swe_balance *b = u;
	return b->r.ops->rows_pack(b->r.sub[k], side, n, buf);
}

static int mv_resize(void *u, int k, int lo, int hi, const void *blo, const void *bhi)
{
	struct swe_balance *b = u;
	return b->r.ops->rows_resize(b->r.sub[k], lo, hi, blo, bhi);
}

static int mv_take(void *u, int k, int side, int n, int from)
{
	struct swe_balance *b = u;
	return b->r.ops->rows_take(b->r.sub[k], side, n, b->r.sub[from]);
}

/* For the test hook: per global row the sums of w, hu, hv (sums[f ny + j]). */
static int row_sums(struct swe_balance *b, double *sums)
{
	const struct decomp *d = b->r.d;
	int rc = 0, P = b->r.pitch, ny = b->ny;
	memset(sums, 0, 3 * (size_t)ny * sizeof *sums);
	for (int k = d->first; k < d->last && !rc; k++) {
		int rows = d->part[k].rows;
		real *f = malloc(3 * (size_t)rows * P * sizeof *f);
		if (!f)
			return -SPATE_ENOMEM;
		rc = b->r.ops->rows_get(b->r.sub[k], SWE_STAGE_U, 0, rows, f, f + (size_t)rows * P,
			f + 2 * (size_t)rows * P);
		for (int q = 0; q < 3 && !rc; q++)
			for (int j = 0; j < rows; j++) {
				const real *row = f + ((size_t)q * rows + j) * P + SWE_GHOST;
				double s = 0;
				for (int i = 0; i < b->r.nx; i++)
					s += row[i];
				sums[(size_t)q * ny + d->part[k].row0 + j] = s;
			}
		free(f);
	}
	for (int q = 0; q < 3 && !rc; q++)
		rc = decomp_allgather_planes(sums + (size_t)q * ny, b->r.d, NULL);
	return rc;
}

/* Move rows to boundaries bnew, calling the test hook around it. */
static int move_rows(struct swe_balance *b, const int *bnew)
{
	struct decomp *d = b->r.d;
	struct balance_ops o;
	struct swe_balance_check c;
	int r0[DECOMP_MAX], n0[DECOMP_MAX], r1[DECOMP_MAX], n1[DECOMP_MAX], rc;
	double *sums = NULL;
	const char *e;
	o.user = b;
	o.bytes = mv_bytes;
	o.pack = mv_pack;
	o.resize = mv_resize;
	/* SPATE_MOVE_HOST=1: rows between subdomains of this process travel as
	 * messages too (for comparison and the tests) */
	e = getenv("SPATE_MOVE_HOST");
	o.take = b->r.ops->rows_take && !(e && atoi(e)) ? mv_take : NULL;
	if (swe_balance_hook) {
		if (!(sums = malloc(6 * (size_t)b->ny * sizeof *sums)))
			return -SPATE_ENOMEM;
		for (int k = 0; k < d->n; k++) {
			r0[k] = d->part[k].row0;
			n0[k] = d->part[k].rows;
		}
		if ((rc = row_sums(b, sums)))
			goto out;
	}
	if ((rc = balance_move(d, bnew, &o, &b->rep.planes_moved)) || !sums)
		goto out;
	for (int k = 0; k < d->n; k++) {
		r1[k] = d->part[k].row0;
		n1[k] = d->part[k].rows;
	}
	if ((rc = row_sums(b, sums + 3 * (size_t)b->ny)))
		goto out;
	c.ny = b->ny;
	c.n = d->n;
	c.row0_before = r0;
	c.rows_before = n0;
	c.row0_after = r1;
	c.rows_after = n1;
	c.sums_before = sums;
	c.sums_after = sums + 3 * (size_t)b->ny;
	swe_balance_hook(&c);
out:
	free(sums);
	return rc;
}

/* The active cells per global row in b->work: per-row counts, or the wet
 * bounding box widened by a cell (the neighbours of wet cells) and the
 * rows' cost by the work model; the seconds of each subdomain since the
 * last measure in T.  Collective. */
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
		if (!rows_mode) {
			box[0] = kb[0] < box[0] ? kb[0] : box[0];
			box[1] = kb[1] > box[1] ? kb[1] : box[1];
			box[2] = kb[2] < box[2] ? kb[2] : box[2];
			box[3] = kb[3] > box[3] ? kb[3] : box[3];
		}
		T[k] = swe_balance_compute_s(b, k) - b->tc_prev[k];
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

/* Seconds per unit of work of each subdomain over an interval of isteps
 * steps; 0 where nothing was measured (replaced by the mean of the others;
 * all 0: returns 0, no plan).  Devices side by side (ops->concurrent) take
 * the probe's speeds instead, or one speed without the probe (the mean
 * measured): what the devices measure over an interval holds their waits
 * for each other and for the host's launches, as long on a device with
 * nothing to compute as on the busiest one, and would hide where the work
 * is. */
static int speeds(struct swe_balance *b, const double *T, long isteps, double *sec)
{
	const struct decomp *d = b->r.d;
	double sum = 0;
	int nv = 0;
	for (int k = 0; k < d->n; k++) {
		double W = 0;
		for (int j = d->part[k].row0; j < d->part[k].row0 + d->part[k].rows; j++)
			W += b->work[j];
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
			for (int j = d->part[k].row0; j < d->part[k].row0 + d->part[k].rows; j++)
				Ws += b->work[j];
		}
		for (int k = 0; k < d->n; k++)
			sec[k] = probed ? (double)isteps / b->rep.speed[k] : Ts / Ws;
	}
	fake_speeds(b, sec);
	return nv;
}

/* SPATE_BALANCE_TRACE=1: every plan on the log (rank 0). */
static void trace(const struct swe_balance *b, long steps, const int *bold, const int *bnew,
	const double *sec, double told, double tnew)
{
	const struct decomp *d = b->r.d;
	char line[1024];
	int o = 0;
	if (d->rank != 0)
		return;
	for (int k = 0; k < d->n && o < (int)sizeof line - 80; k++) {
		double w = 0;
		for (int j = bold[k]; j < bold[k + 1]; j++)
			w += b->work[j];
		o += snprintf(line + o, sizeof line - o, " [%d: rows %d-%d -> %d-%d, work %.4g, %.3g s/unit]",
			k, bold[k], bold[k + 1] - 1, bnew[k], bnew[k + 1] - 1, w, sec[k]);
	}
	spate_log_info("spate: balance at step %ld:%s; slowest %.4g -> %.4g s\n", steps, line,
		told, tnew);
	if (b->trace > 1)
		for (int j = 0; j < b->ny; j += (b->ny + 31) / 32)
			spate_log_info("spate:   row %d: work %.4g\n", j, b->work[j]);
}

void swe_balance_cost_fit(double mv[5], double cells, double s, double *c_fix, double *c_cell)
{
	double n, den;
	mv[0] += 1;
	mv[1] += cells;
	mv[2] += s;
	mv[3] += cells * cells;
	mv[4] += cells * s;
	n = mv[0];
	den = n * mv[3] - mv[1] * mv[1];
	*c_fix = 0;
	*c_cell = mv[3] > 0 ? mv[4] / mv[3] : 0; /* through the origin */
	if (n >= 2 && den > 1e-9 * n * mv[3]) {
		double slope = (n * mv[4] - mv[1] * mv[2]) / den;
		double icpt = (mv[2] - slope * mv[1]) / n;
		if (slope < 0) {
			*c_fix = mv[2] / n;
			*c_cell = 0;
		} else if (icpt >= 0) {
			*c_fix = icpt;
			*c_cell = slope;
		}
	}
}

/* Every balance_interval steps: measure, plan, and move when worth it. */
int swe_balance_now(struct swe_balance *b, long steps)
{
	struct decomp *d = b->r.d;
	double T[DECOMP_MAX], sec[DECOMP_MAX], t0 = spate_now(), t1, told, tnew, cells = 0;
	double touched = 0, cost;
	int bold[DECOMP_MAX + 1], bnew[DECOMP_MAX + 1], group[DECOMP_MAX], rc, same = 1, moved = 0;
	long isteps = steps - b->last_measure;
	if ((rc = measure_work(b, T)))
		return rc;
	b->rep.measures++;
	t1 = spate_now();
	b->rep.bbox += t1 - t0;
	b->last_measure = steps;
	if (isteps <= 0 || !speeds(b, T, isteps, sec))
		goto done;
	for (int k = 0; k < d->n; k++)
		bold[k] = d->part[k].row0;
	bold[d->n] = b->ny;
	for (int k = 0; k < d->n; k++)
		group[k] = b->r.ops->concurrent ? k : d->part[k].rank;
	swe_balance_rest_learn(b, bold, sec, group, isteps);
	balance_plan(b->ny, d->n, b->work, sec, group, bold, swe_balance_min_rows(b), bnew);
	tnew = swe_balance_rest_plan(b, bold, sec, group, isteps, bnew, &told);
	for (int k = 0; k < d->n; k++)
		if (bnew[k] != bold[k] || bnew[k + 1] != bold[k + 1]) {
			same = 0;
			touched += (double)(bold[k + 1] - bold[k] + bnew[k + 1] - bnew[k]) * b->r.nx;
		}
	for (int k = 1; k < d->n; k++)
		cells += (double)abs(bnew[k] - bold[k]) * b->r.nx;
	if (b->trace)
		trace(b, steps, bold, bnew, sec, told, tnew);
	if (same)
		goto done;
	/* the saving of the next interval (as long as this one) against the
	 * cost; balance_gain = 0 follows every plan.  Before the first move: a
	 * move touches every cell of the subdomains it changes about as much
	 * as half a step does, a step's seconds spread over every cell of the
	 * grid (dry ones cost little to step, as much to move); then the fit
	 * to the moves made */
	if (b->c_cell < 0) {
		double s = 0;
		for (int k = 0; k < d->n; k++)
			s += T[k];
		cost = 0.5 * s / ((double)b->ny * b->r.nx) / (double)isteps * touched;
	} else {
		cost = b->c_fix + b->c_cell * cells;
	}
	if (b->p->balance_gain > 0 && !(told - tnew > b->p->balance_gain * cost)) {
		b->rep.skipped++;
		goto done;
	}
	{
		double t2 = spate_now(), dt;
		if ((rc = move_rows(b, bnew)))
			return rc;
		dt = spate_now() - t2;
		if ((rc = decomp_max(&dt, 1, NULL)))
			return rc;
		swe_balance_cost_fit(b->mv, cells, dt, &b->c_fix, &b->c_cell);
		b->rep.moves++;
		b->due = 1;
		b->moved = moved = 1;
	}
done:
	swe_balance_rest_apply(b, moved);
	for (int k = d->first; k < d->last; k++)
		b->tc_prev[k] = swe_balance_compute_s(b, k);
	b->rep.redecomp += spate_now() - t1;
	return 0;
}

