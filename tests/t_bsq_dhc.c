/* t_bsq_dhc.c: differentially heated square cavity, Pr = 0.71, Ra = 1e4,
 * against de Vahl Davis (Int. J. Numer. Meth. Fluids 3, 1983;
 * shared/data/reference/devahl_davis.csv), in his scaling (velocities in
 * kappa / L; bsq_setup_dhc: nu = Pr, kappa = 1, g beta = Ra Pr).
 *
 * Unit square in x-z, one periodic cell in y, T = +1/2 at x = 0 and -1/2 at
 * x = 1, insulated z walls, no-slip everywhere, run from conduction to a
 * steady state.  Asserts: the hot wall's mean Nusselt number (second-order
 * one-sided, BSQ.md "Diagnostics") within 1% of 2.243; the largest u on
 * x = 0.5 and the largest w (his v) on z = 0.5 within 2% of 16.178 and
 * 19.617 (the maxima located by a parabola through the three largest
 * staggered samples).
 *
 * make check: 64 x 64 cells (about 27 s on one core), measured Nu 2.2512
 * (+0.37%), u_max 16.183 (+0.03%), w_max 19.641 (+0.12%); 32 x 32 cells
 * would miss the Nusselt bound (2.2725, +1.31%).  SPATE_LONG_TESTS=1:
 * 128 x 128 cells (about 520 s on one core): Nu 2.2463 (+0.15%), u_max
 * 16.183, w_max 19.631 (+0.07%); Nu converges at second order (differences
 * 0.0213, 0.0049 per doubling; Richardson 2.2447).  BSQ_DHC_N=n: n x n.
 * Skips (77) without the reference data. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bsqtest.h"

static int n_cells;
static char ref[4096];

/* The de Vahl Davis value of `quantity` at Ra = 1e4 from the CSV. */
static double devahl(const char *quantity)
{
	char line[512], ra[32], pr[32], q[96];
	double v = NAN, x;
	FILE *f = fopen(ref, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%31[^,],%31[^,],%95[^,],%lf", ra, pr, q, &x) == 4 &&
			!strcmp(ra, "1e4") && !strcmp(q, quantity))
			v = x;
	fclose(f);
	assert_false(isnan(v));
	return v;
}

/* Peak of samples a[0..n) by a parabola through the largest and its two
 * neighbours. */
static double peak(const double *a, int n)
{
	int m = 0, i;
	double l, c, r, den;
	for (i = 1; i < n; i++)
		if (a[i] > a[m])
			m = i;
	if (m == 0 || m == n - 1)
		return a[m];
	l = a[m - 1];
	c = a[m];
	r = a[m + 1];
	den = l - 2 * c + r;
	return den < 0 ? c - (r - l) * (r - l) / (8 * den) : c;
}

static void test_dhc_devahl(void **unused)
{
	struct bsq_params p;
	struct bsq_state s;
	double *line = calloc((size_t)n_cells, sizeof *line), t, nu, umax, wmax;
	double *at = calloc((size_t)n_cells, sizeof *at);
	double nu_ref = devahl("Nu_avg_hot_wall");
	double u_ref = devahl("u_max_on_vertical_centreline_x0.5");
	double w_ref = devahl("v_max_on_horizontal_centreline_y0.5");
	int i;
	(void)unused;
	assert_true(line && at);
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_dhc(&p, n_cells, 1e4, 0.71), 0);
	/* fp32: velocities of order 20 kappa / L on 64 cells round to about
	 * 1e-7 * 20 * 64 ~ 1e-4 in div u, so 1e-3 there (fp64: the default) */
	if (sizeof(bsq_real) < 8)
		p.tol = 1e-3;
	assert_int_equal(bsq_init(&s, &p), 0);
	t = bsqtest_steady(&s, &p, 0.05, 1e-4, 5);
	nu = bsq_diag_nusselt_wall(&s, &p, 1.0);
	for (i = 0; i < n_cells; i++) /* the staggered samples' own centres */
		at[i] = (i + 0.5) / n_cells;
	bsq_diag_line(&s, 0, 2, 0.5, 0.5 * s.g.dy, 0, n_cells, at, line);
	umax = peak(line, n_cells);
	bsq_diag_line(&s, 2, 0, 0, 0.5 * s.g.dy, 0.5, n_cells, at, line);
	wmax = peak(line, n_cells);
	printf("# DHC Ra 1e4 Pr 0.71, %d^2 cells, steady at t = %.2f (%ld steps): Nu %.4f "
		"(%.2f%%), u_max %.3f (%.2f%%), w_max %.3f (%.2f%%)\n", n_cells, t, s.step, nu,
		100 * (nu / nu_ref - 1), umax, 100 * (umax / u_ref - 1), wmax,
		100 * (wmax / w_ref - 1));
	bsq_free(&s);
	free(line);
	free(at);
	assert_true(fabs(nu / nu_ref - 1) <= 0.01);
	assert_true(fabs(umax / u_ref - 1) <= 0.02);
	assert_true(fabs(wmax / w_ref - 1) <= 0.02);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dhc_devahl),
	};
	if (bsqtest_ref("devahl_davis.csv", ref, sizeof ref))
		return 77;
	n_cells = bsqtest_cells(64, 128, "BSQ_DHC_N");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
