/* t_decomp.c: 1 vs N subdomains in one process.
 *
 * The row decomposition (decomp.c) never loses or duplicates a row, and the
 * decomposed step (swe_multi.c) gives the same bits as the single-domain one:
 * final w, hu, hv and the flood products compared with memcmp, for 1-4 equal
 * subdomains and uneven workloads, on the circular dam break, the dam break
 * over bumps (wet/dry fronts on a bed) and a dry-bed dam break with open,
 * fixed-level and inflow boundaries on every side, in RK2 and Euler. */
#include "simtest.h"
#include "swe_state.h"
#include "params.h"
#include "setup.h"
#include "diag.h"
#include "decomp.h"
#include "products_kern.h"

/* Row splits: contiguous, complete, at least min_rows each; too few rows fail. */
static void check_rows(void)
{
	static const double w1[] = { 70, 30 }, w2[] = { 10, 20, 30, 40 }, w3[] = { 1, 1000, 1 };
	static const struct { int ny, n; const double *w; } cases[] = {
		{ 90, 1, NULL }, { 90, 2, NULL }, { 90, 3, NULL }, { 91, 4, NULL }, { 90, 2, w1 },
		{ 90, 4, w2 }, { 90, 3, w3 }, { 8, 4, NULL }, { 1000, 7, NULL }, { 5, 2, w1 },
	};
	int row0[DECOMP_MAX], rows[DECOMP_MAX];
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		int ny = cases[c].ny, n = cases[c].n, ok, next = 0, total = 0, min = ny;
		ok = decomp_rows(ny, n, cases[c].w, SWE_GHOST, row0, rows) == 0;
		for (int k = 0; ok && k < n; k++) {
			ok = row0[k] == next && rows[k] >= SWE_GHOST;
			next = row0[k] + rows[k];
			total += rows[k];
			min = rows[k] < min ? rows[k] : min;
		}
		sim_check(ok && total == ny, "decomp_rows: %d rows into %d parts: contiguous, "
			"%d rows in all (%d), smallest %d (>= %d)", ny, n, total, ny, min, SWE_GHOST);
	}
	sim_check(decomp_rows(7, 4, NULL, SWE_GHOST, row0, rows) != 0,
		"decomp_rows: 7 rows into 4 parts of >= %d rows is refused", SWE_GHOST);
	{
		double bad[] = { 1, 0 };
		sim_check(decomp_rows(90, 2, bad, SWE_GHOST, row0, rows) != 0,
			"decomp_rows: a zero workload is refused");
	}
}

/* A run with `parallel` overrides ("" = none): final state and products. */
static void run(const struct swe_params *p0, const char *sub, const char *workload,
	struct swe_state *s, struct swe_prod **prod)
{
	struct swe_params p = *p0;
	struct swe_run_opts o;
	struct swe_result r;
	int rc;
	if (*sub)
		sim_set(&p, "parallel", "subdomains", "%s", sub);
	if (*workload)
		sim_set(&p, "parallel", "workload", "%s", workload);
	if (swe_params_validate(&p))
		exit(99);
	memset(&o, 0, sizeof o);
	o.no_output = 1;
	o.final_state = s;
	o.final_products = prod;
	spate_set_quiet(1);
	rc = swe_run(&p, &o, &r);
	if (rc) {
		fprintf(stderr, "test error: run failed: %s\n", spate_strerror(rc));
		exit(99);
	}
}

/* Interior rows of w, hu, hv (ghost columns included) equal bit for bit? */
static int same_state(const struct swe_state *a, const struct swe_state *b)
{
	size_t off = (size_t)SWE_GHOST * a->pitch, n = (size_t)a->ny * a->pitch * sizeof(real);
	return a->ny == b->ny && a->pitch == b->pitch && !memcmp(a->w + off, b->w + off, n) &&
		!memcmp(a->hu + off, b->hu + off, n) && !memcmp(a->hv + off, b->hv + off, n);
}

/* Every decomposition of one case against the single-domain run. */
static void check_case(const char *name, const struct swe_params *p)
{
	static const struct { const char *sub, *workload; } dec[] = {
		{ "1", "" }, { "2", "" }, { "3", "" }, { "4", "" }, { "", "70,30" },
		{ "", "10,20,30,40" }, { "", "1,1000,1" },
	};
	struct swe_state ref, s;
	struct swe_prod *pref = NULL, *pr = NULL;
	size_t np = (size_t)p->nx * p->ny * sizeof *pref;
	run(p, "", "", &ref, &pref);
	printf("%s: %d x %d cells, reference volume %.9g m^3, max depth %.6g m\n", name, ref.nx,
		ref.ny, swe_volume(&ref), swe_max_depth(&ref));
	for (size_t d = 0; d < sizeof dec / sizeof dec[0]; d++) {
		run(p, dec[d].sub, dec[d].workload, &s, &pr);
		sim_check(same_state(&ref, &s), "%s: subdomains %s%s%s: final w, hu, hv bitwise equal "
			"to one domain", name, *dec[d].sub ? dec[d].sub : "-", *dec[d].workload ?
			", workload " : "", dec[d].workload);
		sim_check(pref && pr && !memcmp(pref, pr, np), "%s: subdomains %s%s%s: flood "
			"products bitwise equal", name, *dec[d].sub ? dec[d].sub : "-",
			*dec[d].workload ? ", workload " : "", dec[d].workload);
		swe_state_free(&s);
		free(pr);
		pr = NULL;
	}
	swe_state_free(&ref);
	free(pref);
}

int main(void)
{
	struct swe_params p;

	check_rows();

	sim_params(&p, "circular_dambreak", 120, 90, 5, 5);
	sim_set(&p, "initial", "radius", "100");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "60");
	check_case("circular dam break", &p);

	sim_params(&p, "bumps_dambreak", 96, 72, 5, 5);
	sim_set(&p, "initial", "radius", "100");
	sim_set(&p, "physics", "manning", "0.03");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "40");
	check_case("bumps dam break", &p);

	/* dry bed downstream; open, level and inflow boundaries on all sides */
	sim_params(&p, "dambreak1d", 96, 64, 2, 3);
	sim_set(&p, "initial", "h_in", "2");
	sim_set(&p, "initial", "h_out", "0");
	sim_open_boundaries(&p);
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "40");
	check_case("dry dam break, open boundaries", &p);

	sim_set(&p, "physics", "integrator", "euler");
	sim_set(&p, "physics", "cfl", "0.4");
	check_case("dry dam break, Euler", &p);

	return sim_done("t_decomp");
}
