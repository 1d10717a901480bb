/* bsq_rows.c: the one place where the Boussinesq module loops over planes
 * and rows; the stencil files give a row function (bsq_impl.h).  Planes run
 * in parallel (OpenMP) only in bsq_rows_max, whose result, a max, does not
 * depend on the order; sums run serially in a fixed order, so results are
 * the same bits on any number of threads. */
#include <math.h>

#include "bsq_impl.h"

const int bsq_interior[3] = { 1, 1, 1 };

double bsq_rows_max(const struct bsq_grid *g, const int lo[3], bsq_row_fn fn, void *ctx)
{
	const int n = g->nx - lo[0] + 1;
	double m = 0;
	int k;
#pragma omp parallel for schedule(static) reduction(max : m) if (bsq_count(g) >= BSQ_OMP_MIN)
	for (k = lo[2]; k <= g->nz; k++) {
		int j;
		for (j = lo[1]; j <= g->ny; j++)
			m = fmax(m, fn(ctx, bsq_idx(g, lo[0], j, k), n));
	}
	return m;
}

/* The numbers of the rows of plane k, added in order. */
static double plane_sum(const struct bsq_grid *g, int k, bsq_row_fn fn, void *ctx)
{
	double sum = 0;
	int j;
	for (j = 1; j <= g->ny; j++)
		sum += fn(ctx, bsq_idx(g, 1, j, k), g->nx);
	return sum;
}

void bsq_rows_planes(const struct bsq_grid *g, bsq_row_fn fn, void *ctx, double *ps)
{
	int k;
	for (k = 1; k <= g->nz; k++)
		ps[k - 1] = plane_sum(g, k, fn, ctx);
}

/* The planes' sums added in order as they come: bsq_sum_ordered of the
 * array bsq_rows_planes fills, without the array. */
double bsq_rows_sum(const struct bsq_grid *g, bsq_row_fn fn, void *ctx)
{
	double sum = 0;
	int k;
	for (k = 1; k <= g->nz; k++)
		sum += plane_sum(g, k, fn, ctx);
	return sum;
}
