/* swe_balance_move.c: the move of a balancing decision (swe_balance.c): the
 * rows go to their new subdomains (balance_move, through the subdomains'
 * row operations), with the test hook around it, and the cost of a move is
 * fitted to the seconds the moves took (the plan weighs the next with it,
 * swe_balance_plan.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_sub.h"
#include "swe_balance_run.h"

void (*swe_balance_hook)(const struct swe_balance_check *c);

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

int swe_balance_move(struct swe_balance *b, const int *bnew, double cells)
{
	double t0 = spate_now(), dt;
	int rc;
	if ((rc = move_rows(b, bnew)))
		return rc;
	dt = spate_now() - t0;
	if ((rc = decomp_max(&dt, 1, NULL)))
		return rc;
	swe_balance_cost_fit(b->mv, cells, dt, &b->c_fix, &b->c_cell);
	b->rep.moves++;
	b->due = 1;   /* the next step exchanges first */
	b->moved = 1; /* every internal edge needs its halos again */
	return 0;
}
