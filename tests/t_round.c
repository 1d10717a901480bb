/* t_round.c: the unbiased rounding of the depth updates (swe_add_unbiased,
 * swe_cell.h).
 *
 * - d = 0 leaves h to the bit (the lake at rest);
 * - the result is always one of the two floats around the exact h + d;
 * - a change d that is the same in many cells (a reservoir draining evenly)
 *   rounds without bias: over 100000 cells of different depths the mean
 *   error is a small fraction of an ulp, where round-to-nearest makes an
 *   error of about a third of an ulp in every cell, all of one sign;
 * - the same inputs give the same bits (no hidden state). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "swe_cell.h"

#define NCELLS 100000

/* The depth of cell k: about 50 m, different in every cell. */
static real depth_of(int k)
{
	return (real)50 + (real)k * (real)1.5e-4;
}

static void test_rest_exact(void **st)
{
	(void)st;
	for (int k = 0; k < 1000; k++) {
		real h = depth_of(k) * (real)(k % 7 + 1) / 5;
		assert_true(swe_add_unbiased(h, 0, (real)0.1, (real)-0.2, 2u) == h);
		assert_true(swe_depth_rk2(h, h, 0, (real)0.5, 0, 0) == h);
	}
}

static void test_neighbours_and_mean(void **st)
{
	double err_sr = 0, err_rn = 0, ulp_mean = 0;
	(void)st;
	for (int k = 0; k < NCELLS; k++) {
		real h = depth_of(k), up = swe_next_towards(h, 1), ulp = up - h;
		/* the same change in every cell: -0.3 ulp of a 50 m depth */
		real d = (real)-0.3 * ulp;
		real r = swe_add_unbiased(h, d, (real)k * (real)1e-3, 0, 2u);
		real lo = swe_next_towards(h, 0);
		double exact = (double)h + (double)d;
		assert_true(r == h || r == lo);
		err_sr += (double)r - exact;
		err_rn += (double)(h + d) - exact;
		ulp_mean += ulp;
		/* the same bits again */
		assert_true(swe_add_unbiased(h, d, (real)k * (real)1e-3, 0, 2u) == r);
	}
	err_sr /= NCELLS;
	err_rn /= NCELLS;
	ulp_mean /= NCELLS;
	printf("# mean error per cell in ulps: round to nearest %+.4f, unbiased %+.4f\n",
		err_rn / ulp_mean, err_sr / ulp_mean);
#ifndef SPATE_DOUBLE
	/* round to nearest drops the change in every cell: +0.3 ulp each */
	assert_true(err_rn / ulp_mean > 0.25);
#endif
	/* unbiased: |mean| within 5 standard errors (sd <= 0.5 ulp) */
	assert_true(fabs(err_sr / ulp_mean) < 5 * 0.5 / sqrt((double)NCELLS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rest_exact),
		cmocka_unit_test(test_neighbours_and_mean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
