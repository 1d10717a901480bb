/* ens_stats.c: what an ensemble's members say together, cell by cell
 * (ens.h): how many flooded (their depth exceeded the products' wet
 * threshold, [output] threshold, at some time: an arrival time), the
 * earliest and the mean arrival, and percentiles of the maximum depth by
 * the nearest rank (each a depth one member reached; monotone in the
 * percentile, so P10 <= P50 <= P90 everywhere). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "ens.h"
#include "output.h"

int ens_acc_init(struct ens_acc *a, long n, int members, int keep_depths)
{
	memset(a, 0, sizeof *a);
	a->n = n;
	a->members = members;
	a->flooded = calloc((size_t)n, sizeof *a->flooded);
	a->first = malloc((size_t)n * sizeof *a->first);
	a->sum = calloc((size_t)n, sizeof *a->sum);
	if (keep_depths && (double)n * members * sizeof(float) < (double)SIZE_MAX)
		a->depth = malloc((size_t)n * (size_t)members * sizeof *a->depth);
	if (!a->flooded || !a->first || !a->sum || (keep_depths && !a->depth)) {
		ens_acc_free(a);
		return -SPATE_ENOMEM;
	}
	for (long c = 0; c < n; c++)
		a->first[c] = NAN;
	return 0;
}

void ens_acc_add(struct ens_acc *a, const struct swe_prod *pr)
{
	float *d = a->depth ? a->depth + (size_t)a->added * a->n : NULL;
	for (long c = 0; c < a->n; c++) {
		double t = swe_prod_value(&pr[c], 3);   /* arrival_time: NAN if never */
		if (d)
			d[c] = pr[c].max_depth;
		if (isnan(t))
			continue;
		a->flooded[c]++;
		a->sum[c] += t;
		if (!(a->first[c] <= t))
			a->first[c] = (float)t;
	}
	a->added++;
}

void ens_acc_free(struct ens_acc *a)
{
	free(a->flooded);
	free(a->first);
	free(a->sum);
	free(a->depth);
	memset(a, 0, sizeof *a);
}

void ens_probability(const struct ens_acc *a, double *out)
{
	for (long c = 0; c < a->n; c++)
		out[c] = (double)a->flooded[c] / a->added;
}

long ens_rank(double pct, long n)
{
	double x = pct / 100 * n, r = ceil(x);
	if (r - x > 1 - 1e-9)       /* x a whole number but for rounding */
		r -= 1;
	return r < 1 ? 1 : r > n ? n : (long)r;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

int ens_percentiles(const struct ens_acc *a, const int *pct, int npct, double **out)
{
	int m = a->added;
	float *v = malloc((size_t)(m > 0 ? m : 1) * sizeof *v);
	if (!v)
		return -SPATE_ENOMEM;
	for (long c = 0; c < a->n; c++) {
		for (int i = 0; i < m; i++)
			v[i] = a->depth[(size_t)i * a->n + c];
		qsort(v, (size_t)m, sizeof *v, cmp_float);
		for (int k = 0; k < npct; k++) {
			/* a depth as a member's product: NAN where it never held water */
			struct swe_prod q = { 0 };
			q.max_depth = m ? v[ens_rank(pct[k], m) - 1] : 0;
			out[k][c] = swe_prod_value(&q, 0);
		}
	}
	free(v);
	return 0;
}

void ens_arrival(const struct ens_acc *a, double *first, double *mean)
{
	for (long c = 0; c < a->n; c++) {
		first[c] = a->first[c];
		mean[c] = a->flooded[c] ? a->sum[c] / a->flooded[c] : NAN;
	}
}
