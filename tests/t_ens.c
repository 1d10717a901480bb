/* t_ens.c: the parts of an ensemble (ens.h) on known inputs: the
 * nearest-rank percentile, the grid's levels, the members' values of each
 * sampling (a Latin hypercube uses every stratum of every key once; the
 * same seed gives the same values), and the statistics of hand-made
 * products (probability, percentiles, earliest and mean arrival).
 *
 * With arguments, the checks of an ensemble's fields for tests/ensemble.sh.
 * A field is FILE.nc:VAR (NetCDF, read as spate map reads it), FILE.tif
 * (GDAL) or FILE.asc (ESRI ASCII, 7 digits); a fill value or NODATA reads
 * as NaN.
 *   t_ens same A B        A and B hold the same values bit for bit (NaN
 *                         where the other has NaN)
 *   t_ens prob P N        every value of P is k / N for a whole k in [0, N]
 *                         as the file stores it (a float); prints how many
 *                         lie strictly between 0 and 1 ("between K")
 *   t_ens order A B ...   A <= B <= ... in every cell (NaN: a depth of 0)
 * Exit status 0 when the check holds, 1 when not (with the first cell that
 * fails), 77 when a .nc or .tif field is asked of a spate built without
 * NetCDF or GDAL. */
#include "simtest.h"
#include "ens.h"
#include "products_kern.h"
#include "ncout.h"
#include "terrain.h"

static void rank(void)
{
	static const struct { double pct; long n, want; } c[] = {
		{ 10, 8, 1 }, { 50, 8, 4 }, { 90, 8, 8 }, { 0, 8, 1 }, { 100, 8, 8 },
		{ 30, 10, 3 }, { 70, 10, 7 }, { 50, 1, 1 }, { 90, 1, 1 }, { 25, 4, 1 },
		{ 26, 4, 2 }, { 60, 5, 3 } };
	for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
		sim_check(ens_rank(c[k].pct, c[k].n) == c[k].want, "nearest rank of P%g of %ld: %ld "
			"(want %ld)", c[k].pct, c[k].n, ens_rank(c[k].pct, c[k].n), c[k].want);
}

static void levels(void)
{
	sim_check(ens_grid_levels(8, 3) == 2 && ens_grid_levels(9, 2) == 3 &&
		ens_grid_levels(7, 1) == 7 && ens_grid_levels(5, 0) == 1 &&
		ens_grid_levels(1, 4) == 1 && ens_grid_levels(10, 2) == 0 &&
		ens_grid_levels(12, 3) == 0, "grid levels: m^keys = members, else 0");
}

static struct ens_spec spec(int members, int sampling, uint64_t seed)
{
	struct ens_spec e;
	memset(&e, 0, sizeof e);
	e.members = members;
	e.sampling = sampling;
	e.seed = seed;
	e.nvary = 3;
	e.vary[0] = (struct ens_vary){ "physics", "manning", 0.02, 0.06 };
	e.vary[1] = (struct ens_vary){ "boundary", "inflow_scale", 0.8, 1.2 };
	e.vary[2] = (struct ens_vary){ "initial", "h_in", 0.7, 0.7 };
	return e;
}

/* Latin hypercube: each key's strata once each, the fixed key exact, the
 * seed's values again for the same seed and others for another. */
static void lhs(void)
{
	enum { N = 16 };
	struct ens_spec e = spec(N, ENS_LHS, 7);
	double v[N * 3], w[N * 3], x[N * 3];
	int ok = !ens_sample(&e, v);
	for (int k = 0; k < 2 && ok; k++) {
		int seen[N] = { 0 };
		for (int m = 0; m < N; m++) {
			double t = (v[m * 3 + k] - e.vary[k].lo) / (e.vary[k].hi - e.vary[k].lo);
			int s = (int)floor(t * N);
			ok = ok && t >= 0 && t <= 1 && s >= 0 && s < N && !seen[s]++;
		}
	}
	for (int m = 0; m < N; m++)
		ok = ok && v[m * 3 + 2] == 0.7;
	sim_check(ok, "lhs: %d members use each of %d strata of each key once; LO = HI exact", N,
		N);
	ens_sample(&e, w);
	e.seed = 8;
	ens_sample(&e, x);
	sim_check(!memcmp(v, w, sizeof v) && memcmp(v, x, sizeof v),
		"lhs: the same seed gives the same members, another seed others");
}

static void grid_random(void)
{
	struct ens_spec e = spec(9, ENS_GRID, 1);
	double v[27];
	int n02 = 0, n04 = 0, n06 = 0, ok = 1;
	e.nvary = 2;
	ens_sample(&e, v);
	for (int m = 0; m < 9; m++) {
		n02 += v[m * 2] == 0.02;
		n04 += fabs(v[m * 2] - 0.04) < 1e-15;
		n06 += v[m * 2] == 0.06;
	}
	sim_check(n02 == 3 && n04 == 3 && n06 == 3 && v[1] == 0.8 && v[17] == 1.2,
		"grid: 3 x 3 members, levels 0.02, 0.04, 0.06 three times each, the ends exact");
	e = spec(9, ENS_RANDOM, 3);
	ens_sample(&e, v);
	for (int m = 0; m < 9; m++)
		ok = ok && v[m * 3] >= 0.02 && v[m * 3] <= 0.06 && v[m * 3 + 1] >= 0.8 &&
			v[m * 3 + 1] <= 1.2 && v[m * 3 + 2] == 0.7;
	sim_check(ok, "random: every value within its range");
}

/* One cell's products: maximum depth d, arrival t (< 0: never). */
static struct swe_prod prod(float d, float t)
{
	struct swe_prod q;
	swe_prod_reset(&q);
	q.max_depth = d;
	q.arrival = t;
	return q;
}

/* 4 members, 3 cells: dry; flooded by members 2 and 4 at 10 s and 30 s;
 * flooded by all with depths 0.1, 0.4, 0.2, 0.3 at 5 s. */
static void stats(void)
{
	struct swe_prod pr[4][3] = {
		{ prod(0, -1), prod(0.01f, -1), prod(0.1f, 5) },
		{ prod(0, -1), prod(0.2f, 10), prod(0.4f, 5) },
		{ prod(0, -1), prod(0.02f, -1), prod(0.2f, 5) },
		{ prod(0, -1), prod(0.5f, 30), prod(0.3f, 5) } };
	static const int pct[3] = { 0, 50, 100 };
	double p[3], first[3], mean[3], q[3][3], *qp[3] = { q[0], q[1], q[2] };
	struct ens_acc a;
	if (ens_acc_init(&a, 3, 4, 1)) {
		sim_check(0, "ens_acc_init");
		return;
	}
	for (int m = 0; m < 4; m++)
		ens_acc_add(&a, pr[m]);
	ens_probability(&a, p);
	ens_arrival(&a, first, mean);
	sim_check(!ens_percentiles(&a, pct, 3, qp), "percentiles computed");
	sim_check(p[0] == 0 && p[1] == 0.5 && p[2] == 1, "probability 0, 1/2, 1: %g %g %g",
		p[0], p[1], p[2]);
	sim_check(isnan(first[0]) && isnan(mean[0]) && first[1] == 10 && mean[1] == 20 &&
		first[2] == 5 && mean[2] == 5, "arrival: none on the dry cell; earliest 10 s, "
		"mean 20 s of the two members that flooded");
	sim_check(isnan(q[0][0]) && isnan(q[1][0]) && isnan(q[2][0]), "percentiles: NaN "
		"(never wet) on the dry cell");
	sim_check(q[0][2] == 0.1f && q[1][2] == 0.2f && q[2][2] == 0.4f && q[1][1] == 0.02f,
		"percentiles P0, P50, P100 = 0.1, 0.2, 0.4 (nearest rank: member values)");
	ens_acc_free(&a);
}

/* ------------------------------------------ the field checks of ensemble.sh */

static int load(const char *spec, struct terrain_grid *g)
{
	const char *colon = strrchr(spec, ':');
	size_t n = strlen(spec);
	memset(g, 0, sizeof *g);
	if (!colon && n > 4 && !strcmp(spec + n - 4, ".tif")) {
#ifdef HAVE_GDAL
		return terrain_read(spec, g) ? 1 : 0;
#else
		return 77;
#endif
	}
	if (!colon)
		return terrain_read_asc(spec, g) ? 1 : 0;
#ifdef HAVE_NETCDF
	{
		char path[1024], units[64], lname[256];
		double t;
		snprintf(path, sizeof path, "%.*s", (int)(colon - spec), spec);
		return spate_nc_read_grid(path, colon + 1, NAN, g, &t, units, lname, sizeof units) ?
			1 : 0;
	}
#else
	return 77;
#endif
}

static int same(const struct terrain_grid *a, const struct terrain_grid *b)
{
	if (a->nx != b->nx || a->ny != b->ny) {
		printf("grids differ: %d x %d, %d x %d\n", a->nx, a->ny, b->nx, b->ny);
		return 1;
	}
	for (long c = 0; c < (long)a->nx * a->ny; c++)
		if (isnan(a->v[c]) != isnan(b->v[c]) ||
			(!isnan(a->v[c]) && memcmp(&a->v[c], &b->v[c], sizeof a->v[c]))) {
			printf("cell %ld differs: %.17g, %.17g\n", c, a->v[c], b->v[c]);
			return 1;
		}
	return 0;
}

/* Exactly k / n as the file stores it (a float): k = round(value n). */
static int prob(const struct terrain_grid *p, int n)
{
	long between = 0;
	for (long c = 0; c < (long)p->nx * p->ny; c++) {
		double k = nearbyint(p->v[c] * n);
		if (!(k >= 0 && k <= n && (float)(k / n) == (float)p->v[c])) {
			printf("cell %ld: probability %.17g is no k/%d\n", c, p->v[c], n);
			return 1;
		}
		between += k > 0 && k < n;
	}
	printf("between %ld\n", between);
	return 0;
}

static int order(const struct terrain_grid *a, const struct terrain_grid *b)
{
	for (long c = 0; c < (long)a->nx * a->ny; c++) {
		double x = isnan(a->v[c]) ? 0 : a->v[c], y = isnan(b->v[c]) ? 0 : b->v[c];
		if (!(x <= y)) {
			printf("cell %ld out of order: %.9g > %.9g\n", c, x, y);
			return 1;
		}
	}
	return 0;
}

/* The field checks of ensemble.sh. */
static int fields(int argc, char **argv)
{
	struct terrain_grid g[8];
	int n = argc - 2, rc = 0;
	if (argc < 4 || n > 8 || (strcmp(argv[1], "same") && strcmp(argv[1], "prob") &&
		strcmp(argv[1], "order"))) {
		fprintf(stderr, "usage: t_ens same A B | prob P N | order A B ...\n");
		return 2;
	}
	if (!strcmp(argv[1], "prob"))
		n = 1;
	memset(g, 0, sizeof g);
	for (int k = 0; k < n && !rc; k++)
		rc = load(argv[2 + k], &g[k]);
	if (!rc && !strcmp(argv[1], "same"))
		rc = same(&g[0], &g[1]);
	else if (!rc && !strcmp(argv[1], "prob"))
		rc = prob(&g[0], atoi(argv[3]));
	for (int k = 1; !rc && !strcmp(argv[1], "order") && k < n; k++) {
		if (g[k].nx != g[0].nx || g[k].ny != g[0].ny) {
			printf("%s: another grid than %s\n", argv[2 + k], argv[2]);
			rc = 1;
		} else {
			rc = order(&g[k - 1], &g[k]);
		}
	}
	for (int k = 0; k < n; k++)
		terrain_free(&g[k]);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return fields(argc, argv);
	rank();
	levels();
	lhs();
	grid_random();
	stats();
	return sim_failures ? 1 : 0;
}
