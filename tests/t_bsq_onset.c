/* t_bsq_onset.c: the onset of Rayleigh-Benard convection measured as Cohen &
 * Molemaker (2009) did: growth rates of a small seeded perturbation at
 * Rayleigh numbers around onset, interpolated to zero growth, on three grids;
 * Richardson extrapolation of the two finest (second order: Ra_c ~ (4
 * Ra_c(h/2) - Ra_c(h)) / 3) against the critical Rayleigh number of the
 * infinite layer (Chandrasekhar 1961: free-slip plates 657.51 at k = pi /
 * sqrt 2; no-slip plates 1707.76 at k = 3.117), and the error falling about
 * 4x per grid doubling.
 *
 * A periodic x-z box one wavelength 2 pi / k long, one cell thick in y, nz
 * cells high and 2 nz long; Pr = 1; conduction plus 1e-4 cos(k x) sin(pi z)
 * (bsq_setup_rb).  The kinetic energy grows as e^(2 sigma t) once the other
 * modes have decayed: sigma from its logarithm between two times (no-slip
 * plates settle slower: a later window), at Ra = 0.95, 1 and 1.05 Ra_c,
 * quadratic in Ra through them.  Grids nz = 8, 16, 32.  Measured: free-slip
 * 666.11, 659.59, 657.999, Richardson 657.467 (-0.007%), error ratios 4.13
 * and 4.26; no-slip 1588.2, 1674.0, 1699.06, Richardson 1707.39 (-0.021%),
 * ratios 3.55 and 3.87. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bsqtest.h"

/* The growth rate at Ra = ra on nz cells, between times t1 and t2. */
static double sigma(double ra, int free_slip, double k, int nz, double t1, double t2)
{
	struct bsq_params p;
	struct bsq_state s;
	double e1, e2, ta, dt;
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_rb(&p, 2 * nz, 1, nz, ra, 1.0, free_slip, k, 1e-4), 0);
	p.tol = 1e-10;   /* the energy is ~1e-10: keep the solve well below it */
	assert_int_equal(bsq_init(&s, &p), 0);
	bsqtest_run(&s, &p, t1);
	e1 = bsq_diag_energy(&s);
	ta = s.t;
	bsqtest_run(&s, &p, t2);
	e2 = bsq_diag_energy(&s);
	dt = s.t - ta;
	bsq_free(&s);
	return log(e2 / e1) / (2 * dt);
}

/* The critical Rayleigh number on nz cells: the zero of sigma, quadratic
 * in Ra through 0.95, 1 and 1.05 of the exact value (a straight line
 * through two would put it 0.06% off by sigma's curvature alone). */
static double ra_crit(double exact, int free_slip, double k, int nz, double t1, double t2)
{
	double r[3] = { 0.95 * exact, exact, 1.05 * exact }, s[3], h = 0.05 * exact, a, b, c, x;
	for (int i = 0; i < 3; i++)
		s[i] = sigma(r[i], free_slip, k, nz, t1, t2);
	/* s(x) = a x^2 + b x + c with x = (Ra - exact) / h; the root nearest 0 */
	a = (s[0] - 2 * s[1] + s[2]) / 2;
	b = (s[2] - s[0]) / 2;
	c = s[1];
	/* q = -(b + sign(b) sqrt(b^2 - 4ac)) / 2: the roots are q / a and c / q, the
	 * second the one near 0 (no cancellation) */
	x = c / (-(b + copysign(sqrt(b * b - 4 * a * c), b)) / 2);
	printf("# nz %2d: sigma at Ra %.2f, %.2f, %.2f: %+.5f %+.5f %+.5f; Ra_c = %.3f "
		"(%+.3f%%)\n", nz, r[0], r[1], r[2], s[0], s[1], s[2], exact + h * x,
		100 * (h * x / exact));
	return exact + h * x;
}

static void onset(const char *name, double exact, int free_slip, double k, double t1, double t2)
{
	int n0 = bsqtest_cells(8, 8, "SPATE_ONSET_NZ");
	double rc[3], rich, e1, e2;
	printf("# %s plates, exact Ra_c %.2f\n", name, exact);
	for (int g = 0; g < 3; g++)
		rc[g] = ra_crit(exact, free_slip, k, n0 << g, t1, t2);
	rich = (4 * rc[2] - rc[1]) / 3;
	e1 = fabs(rc[1] - exact);
	e2 = fabs(rc[2] - exact);
	printf("# %s: Richardson %.3f (%+.3f%%); error ratios %.2f, %.2f\n", name, rich,
		100 * (rich / exact - 1), fabs(rc[0] - exact) / e1, e1 / e2);
	assert_true(fabs(rich / exact - 1) <= 0.005);
	assert_true(e1 / e2 >= 3 && e1 / e2 <= 5.5);
}

static void test_free_slip(void **unused)
{
	(void)unused;
	onset("free-slip", 657.51, 1, M_PI / sqrt(2.0), 0.3, 0.6);
}

static void test_no_slip(void **unused)
{
	(void)unused;
	onset("no-slip", 1707.76, 0, 3.117, 0.6, 1.2);
}

int main(void)
{
	BSQTEST_NEEDS_DOUBLE("growth rates of a 1e-4 perturbation with the solve at 1e-10 "
		"(Cohen & Molemaker's point: onset needs fp64)");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_slip),
		cmocka_unit_test(test_no_slip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
