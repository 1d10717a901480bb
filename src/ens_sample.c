/* ens_sample.c: the values of an ensemble's varied keys (ens.h): a Latin
 * hypercube (McKay, Beckman & Conover 1979: each key's range cut into as
 * many equal strata as members, each stratum used once, the strata of the
 * keys paired at random), a full grid of levels, or independent uniform
 * draws.  The random numbers come from splitmix64 (Steele, Lea & Flood
 * 2014) seeded with --seed, so an ensemble is the same on every machine. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdlib.h>

#include "spate.h"
#include "ens.h"

/* splitmix64: the next 64 random bits of state *s. */
static uint64_t next64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits. */
static double uniform(uint64_t *s)
{
	return (double)(next64(s) >> 11) * 0x1.0p-53;
}

/* lo + t (hi - lo) for t in [0, 1], exactly lo at t = 0 and lo = hi. */
static double between(double lo, double hi, double t)
{
	double x = lo + t * (hi - lo);
	return x < lo ? lo : x > hi ? hi : x;
}

int ens_grid_levels(int members, int nvary)
{
	if (nvary == 0)
		return 1;
	for (int m = 1; m <= members; m++) {
		double p = pow(m, nvary);
		if (p == members)
			return m;
		if (p > members)
			break;
	}
	return 0;
}

/* Level l of m (0 to m - 1) of [lo, hi]: the ends at l = 0 and m - 1, the
 * middle for m = 1. */
static double level(double lo, double hi, int l, int m)
{
	if (m == 1)
		return lo + 0.5 * (hi - lo);
	return l == m - 1 ? hi : between(lo, hi, (double)l / (m - 1));
}

/* Member i of the grid: the digits of i in base m, key 0 the fastest. */
static void grid(const struct ens_spec *e, double *v)
{
	int m = ens_grid_levels(e->members, e->nvary);
	for (int i = 0; i < e->members; i++)
		for (int k = 0, r = i; k < e->nvary; k++, r /= m)
			v[(size_t)i * e->nvary + k] = level(e->vary[k].lo, e->vary[k].hi, r % m, m);
}

/* Each key: a random permutation of the strata (Fisher-Yates), a uniform
 * point within each. */
static int lhs(const struct ens_spec *e, double *v, uint64_t *s)
{
	int n = e->members, *perm = malloc((size_t)n * sizeof *perm);
	if (!perm)
		return -SPATE_ENOMEM;
	for (int k = 0; k < e->nvary; k++) {
		for (int i = 0; i < n; i++)
			perm[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = (int)(uniform(s) * (i + 1)), t = perm[i];
			j = j > i ? i : j;  /* u (i + 1) rounded up to i + 1 */
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int i = 0; i < n; i++)
			v[(size_t)i * e->nvary + k] = between(e->vary[k].lo, e->vary[k].hi,
				(perm[i] + uniform(s)) / n);
	}
	free(perm);
	return 0;
}

int ens_sample(const struct ens_spec *e, double *v)
{
	uint64_t s = e->seed;
	if (e->sampling == ENS_GRID) {
		grid(e, v);
		return 0;
	}
	if (e->sampling == ENS_LHS)
		return lhs(e, v, &s);
	for (int i = 0; i < e->members; i++)
		for (int k = 0; k < e->nvary; k++)
			v[(size_t)i * e->nvary + k] = between(e->vary[k].lo, e->vary[k].hi, uniform(&s));
	return 0;
}
