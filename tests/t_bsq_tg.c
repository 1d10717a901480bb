/* t_bsq_tg.c: Taylor-Green vortex (README of shared/data/reference), the
 * Boussinesq solver's convergence order in space.
 *
 * Periodic [0, 2 pi]^2 in x-z, one periodic cell in y: u = -cos x sin z
 * e^(-2 nu t), w = sin x cos z e^(-2 nu t), nu = 0.1, to t = 1.  The step is
 * fixed at the stability limit's share 0.5 (h^2 / (8 nu) ... see step_for),
 * so the AB2 time error (dt^2 ~ h^4) stays below the space error (h^2).
 * L2 velocity error on 16^2, 32^2, 64^2 cells; asserts the observed order
 * >= 1.9 between 16 and 32 and between 32 and 64, and that every projection
 * leaves max |div u| <= tol (multigrid). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bsqtest.h"

#define NU 0.1
#define T_END 1.0

/* A step that divides T_END, under the diffusive limit D = 0.5. */
static double step_for(int n)
{
	double h = 2 * M_PI / n, lim = 0.5 * h * h / (NU * 8);
	return T_END / ceil(T_END / lim);
}

/* L2 error of u and w against the exact vortex at t. */
static double tg_error(int n)
{
	struct bsq_params p;
	struct bsq_state s;
	double sum = 0, decay;
	int i, k;
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_tg(&p, n, NU), 0);
	p.dt = step_for(n);
	assert_int_equal(bsq_init(&s, &p), 0);
	bsqtest_run(&s, &p, T_END);
	decay = exp(-2 * NU * s.t);
	for (k = 1; k <= n; k++)
		for (i = 1; i <= n; i++) {
			double xf = (i - 1) * s.g.dx, xc = (i - 0.5) * s.g.dx;
			double zf = (k - 1) * s.g.dz, zc = (k - 0.5) * s.g.dz;
			double eu = s.u[(size_t)(k * 3 + 1) * (n + 2) + i] + cos(xf) * sin(zc) * decay;
			double ew = s.w[(size_t)(k * 3 + 1) * (n + 2) + i] - sin(xc) * cos(zf) * decay;
			sum += eu * eu + ew * ew;
		}
	bsq_free(&s);
	return sqrt(sum / (2.0 * n * n));
}

static void test_tg_order(void **unused)
{
	double e16 = tg_error(16), e32 = tg_error(32), e64 = tg_error(64);
	double o1 = log2(e16 / e32), o2 = log2(e32 / e64);
	(void)unused;
	printf("# Taylor-Green L2 error: 16 %.4e, 32 %.4e, 64 %.4e; orders %.3f %.3f\n", e16, e32,
		e64, o1, o2);
	assert_true(o1 >= 1.9);
	assert_true(o2 >= 1.9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tg_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
