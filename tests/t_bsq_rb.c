/* t_bsq_rb.c: Rayleigh-Benard with free-slip plates (BSQ.md "Verification
 * cases"), linear growth of the seeded mode against the analytic rate.
 *
 * Diffusive scaling, Pr = 1, one wavelength 2 pi / k, k = pi / sqrt(2), of a
 * periodic x-z box one cell thick in y, 32 x 16 cells; conduction plus
 * 1e-4 cos(k x) sin(pi z).  For free-slip plates and fixed temperatures the
 * mode w ~ sin(pi z) e^(i k x + sigma t) grows at the root of
 *   (sigma + Pr a)(sigma + a) a = Ra Pr k^2,   a = k^2 + pi^2
 * (Chandrasekhar 1961; zero at Ra_c = a^3 / k^2 = 657.51).  The kinetic energy
 * grows as e^(2 sigma t): sigma is measured between t = 0.4 and 0.8 at Ra =
 * 500 (decays) and 1000 (grows) and must lie within 3% of the analytic
 * value (measured: -1.9090 vs -1.8945, +0.77%; 3.4126 vs 3.4530, -1.17%);
 * the volume Nusselt number stays within 1e-3 of 1 in this linear phase. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bsqtest.h"

#define PR 1.0
#define SIGMA_TOL 0.03

static double sigma_exact(double ra, double k)
{
	double a = k * k + M_PI * M_PI, b = (PR + 1) * a, c = PR * a * a - ra * PR * k * k / a;
	return (-b + sqrt(b * b - 4 * c)) / 2;
}

/* The growth rate measured at Ra = ra. */
static double sigma_measured(double ra, double k, double *nu)
{
	struct bsq_params p;
	struct bsq_state s;
	double e1, e2, t1, sigma;
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_rb(&p, 32, 1, 16, ra, PR, 1, k, 1e-4), 0);
	assert_int_equal(bsq_init(&s, &p), 0);
	bsqtest_run(&s, &p, 0.4);
	e1 = bsq_diag_energy(&s);
	t1 = s.t;
	bsqtest_run(&s, &p, 0.8);
	e2 = bsq_diag_energy(&s);
	*nu = bsq_diag_nusselt_volume(&s, &p, 1.0);
	sigma = log(e2 / e1) / (2 * (s.t - t1));
	bsq_free(&s);
	return sigma;
}

static void test_rb_growth(void **unused)
{
	const double k = M_PI / sqrt(2), ra[2] = { 500, 1000 };
	int i;
	(void)unused;
	for (i = 0; i < 2; i++) {
		double nu, got = sigma_measured(ra[i], k, &nu), want = sigma_exact(ra[i], k);
		printf("# RB free-slip Ra %g: sigma %.4f, analytic %.4f (%+.2f%%), Nu %.6f\n", ra[i],
			got, want, 100 * (got / want - 1), nu);
		assert_true(fabs(got / want - 1) <= SIGMA_TOL);
		assert_true(fabs(nu - 1) <= 1e-3);
	}
}

int main(void)
{
	BSQTEST_NEEDS_DOUBLE("growth rates of a 1e-4 perturbation, whose energy (1e-10) is "
		"below fp32's resolution of the conduction profile");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rb_growth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
