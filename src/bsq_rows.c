/* bsq_rows.c: the one place where the Boussinesq module loops over planes
 * and rows; the stencil files give a row function (bsq_impl.h).  Planes run
 * in parallel (OpenMP) in bsq_rows_max, whose result, a max, does not
 * depend on the order, and in the _pure sums, where one thread adds each
 * plane's rows in order and the planes' sums are added in order; so results
 * are the same bits on any number of threads. */
#include <math.h>
#include <stdlib.h>

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

/* Each plane's sum by one thread, the planes in parallel where par and the
 * grid is large. */
static void planes(const struct bsq_grid *g, bsq_row_fn fn, void *ctx, double *ps, int par)
{
	int k;
#pragma omp parallel for schedule(static) if (par && bsq_count(g) >= BSQ_OMP_MIN)
	for (k = 1; k <= g->nz; k++)
		ps[k - 1] = plane_sum(g, k, fn, ctx);
}

void bsq_rows_planes(const struct bsq_grid *g, bsq_row_fn fn, void *ctx, double *ps)
{
	planes(g, fn, ctx, ps, 0);
}

void bsq_rows_planes_pure(const struct bsq_grid *g, bsq_row_fn fn, void *ctx, double *ps)
{
	planes(g, fn, ctx, ps, 1);
}

double bsq_rows_sum_pure(const struct bsq_grid *g, bsq_row_fn fn, void *ctx)
{
	double sum = 0, *ps;
	int k;
	if (bsq_count(g) < BSQ_OMP_MIN || !(ps = malloc((size_t)g->nz * sizeof *ps)))
		return bsq_rows_sum(g, fn, ctx);
	bsq_rows_planes_pure(g, fn, ctx, ps);
	for (k = 0; k < g->nz; k++)
		sum += ps[k];
	free(ps);
	return sum;
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
