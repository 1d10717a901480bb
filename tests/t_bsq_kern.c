/* t_bsq_kern.c: unit tests of the Boussinesq formulas in bsq_kern.h, each
 * against a value worked out by hand or a polynomial the stencil must
 * reproduce exactly (up to a few ulps); and of the GPU sweeps' chunks of
 * planes (bsq_waves.h), host arithmetic. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <limits.h>

#include "bsq_kern.h"
#include "bsq_waves.h"

#ifdef BSQ_SINGLE
#define EPS 1e-5
#else
#define EPS 1e-12
#endif

#define near(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

/* A quadratic: q(x, y, z) = 1 + 2x + 3y^2 - z^2 + xz. */
static double quad(double x, double y, double z)
{
	return 1 + 2 * x + 3 * y * y - z * z + x * z;
}

static struct bsq_st7 st7_of(double (*f)(double, double, double), double x, double y, double z,
	double dx, double dy, double dz)
{
	struct bsq_st7 q;
	q.c = (bsq_real)f(x, y, z);
	q.xm = (bsq_real)f(x - dx, y, z);
	q.xp = (bsq_real)f(x + dx, y, z);
	q.ym = (bsq_real)f(x, y - dy, z);
	q.yp = (bsq_real)f(x, y + dy, z);
	q.zm = (bsq_real)f(x, y, z - dz);
	q.zp = (bsq_real)f(x, y, z + dz);
	return q;
}

/* The 7-point Laplacian is exact on quadratics: lap q = 6 - 2 = 4. */
static void test_lap7_quadratic(void **unused)
{
	const double dx = 0.25, dy = 0.5, dz = 0.125;
	struct bsq_h h = bsq_h_of(dx, dy, dz);
	struct bsq_st7 q = st7_of(quad, 0.3, -0.7, 1.1, dx, dy, dz);
	(void)unused;
	near(bsq_lap7(&q, &h), 4, 100 * EPS);
	/* residual of lap = 4 is 0; relaxation returns the centre value */
	near(bsq_residual(&q, 4, &h), 0, 100 * EPS);
	near(bsq_relax(&q, 4, &h), q.c, 100 * EPS);
}

/* Divergence and gradient: differences over the spacing. */
static void test_div_grad(void **unused)
{
	struct bsq_h h = bsq_h_of(0.5, 0.25, 2);
	struct bsq_face6 f;
	(void)unused;
	f.xm = 1, f.xp = 2, f.ym = -1, f.yp = 1, f.zm = 4, f.zp = 0;
	near(bsq_div(&f, &h), 1 / 0.5 + 2 / 0.25 - 4 / 2.0, EPS);
	near(bsq_grad(3, 5, 4), 8, EPS);
	near(bsq_correct(1, 0.5, 8), -3, EPS);
}

/* Flux-form advection: a uniform q in a divergence-free field gives 0; a
 * uniform velocity U advecting q = x gives U. */
static void test_advect(void **unused)
{
	struct bsq_h h = bsq_h_of(0.1, 0.2, 0.3);
	struct bsq_face6 a;
	struct bsq_st7 q;
	(void)unused;
	/* (1.5 - 1)/0.1 + 0 + (-1.2 - 0.3)/0.3 = 0 */
	a.xm = 1, a.xp = 1.5, a.ym = 0.2, a.yp = 0.2, a.zm = 0.3, a.zp = -1.2;
	near(bsq_div(&a, &h), 0, 100 * EPS);
	q.c = q.xm = q.xp = q.ym = q.yp = q.zm = q.zp = 7;
	near(bsq_advect(&a, &q, &h), 0, 1000 * EPS);
	/* U = 2 everywhere, q = 1 + 2x: d(Uq)/dx = 4 */
	a.xm = a.xp = a.ym = a.yp = a.zm = a.zp = 2;
	q.c = q.ym = q.yp = q.zm = q.zp = 1;
	q.xm = (bsq_real)0.8, q.xp = (bsq_real)1.2;
	near(bsq_advect(&a, &q, &h), 4, 100 * EPS);
	/* F = -adv + k lap + force */
	near(bsq_explicit(&a, &q, &h, 0.5, 3), -4 + 3, 100 * EPS);
}

/* AB2: r = 0 is forward Euler; r = 1 the constant-step weights 3/2, -1/2;
 * buoyancy at the face average. */
static void test_ab2_buoyancy(void **unused)
{
	(void)unused;
	near(bsq_ab2(1, 0.1, 0, 2, 100), 1.2, EPS);
	near(bsq_ab2(1, 0.1, 1, 2, 4), 1 + 0.1 * (3 - 2), EPS);
	near(bsq_ab2(1, 0.1, 0.5, 2, 4), 1 + 0.1 * (1.25 * 2 - 0.25 * 4), EPS);
	near(bsq_buoyancy(10, 0.2, 0.4, 0.1), 10 * (0.3 - 0.1), EPS);
}

/* Multigrid weights: nested bsq_pl gives 27/64 ... 1/64, sums to 1;
 * restriction is the mean. */
static void test_mg_weights(void **unused)
{
	bsq_real w;
	(void)unused;
	/* only the parent is 1: 27/64; only the corner: 1/64 */
	w = bsq_pl(bsq_pl(bsq_pl(1, 0), bsq_pl(0, 0)), bsq_pl(bsq_pl(0, 0), bsq_pl(0, 0)));
	near(w, 27.0 / 64, EPS);
	w = bsq_pl(bsq_pl(bsq_pl(0, 0), bsq_pl(0, 0)), bsq_pl(bsq_pl(0, 0), bsq_pl(0, 1)));
	near(w, 1.0 / 64, EPS);
	w = bsq_pl(bsq_pl(bsq_pl(1, 1), bsq_pl(1, 1)), bsq_pl(bsq_pl(1, 1), bsq_pl(1, 1)));
	near(w, 1, EPS);
	near(bsq_restrict(8, 8), 1, EPS);
	near(bsq_restrict(6, 4), 1.5, EPS);
}

/* Walls: the Dirichlet ghost averages to the wall value; the one-sided
 * derivative is exact on quadratics T = a + b x + c x^2 (wall at 0). */
static void test_walls(void **unused)
{
	const double a = 0.5, b = -2, c = 3, h = 0.1;
	(void)unused;
	near(bsq_avg(bsq_ghost_dirichlet((bsq_real)0.7, (bsq_real)0.2), (bsq_real)0.2), 0.7, EPS);
	near(bsq_dtdn_wall(a, a + b * h / 2 + c * h * h / 4, a + b * 1.5 * h + c * 2.25 * h * h, h),
		b, 1e-12);
}

/* Time-step limits: C h / |u|; D / (k 4 sum 1/h^2); none when zero. */
static void test_dt(void **unused)
{
	struct bsq_h h = bsq_h_of(0.5, 0.5, 0.5);
	(void)unused;
	near(bsq_dt_cfl(0.3, 0.1, 2), 0.015, 1e-15);
	assert_true(bsq_dt_cfl(0.3, 0.1, 0) > 1e200);
	near(bsq_dt_diff(0.9, 0.1, &h), 0.9 / (0.1 * 4 * 12), 1e-6);
	assert_true(bsq_dt_diff(0.9, 0, &h) > 1e200);
	near(bsq_lerp(2, 4, 0.25), 2.5, 1e-15);
}

/* The planes a block of the GPU sweeps walks: its level's blocks in whole
 * waves of the device's slots, the walks as short as that allows.  Slots
 * and tiles of an H200 (132 multiprocessors). */
static void test_wave_planes(void **unused)
{
	static const int nzs[] = { 1, 7, 48, 96, 192, 256, 384, 512 };
	static const long tiles[] = { 1, 9, 64, 144, 512 }, slots[] = { 132, 264, 660 };
	size_t a, b, c;
	(void)unused;
	/* 256^3, tiles of 16 rows (4 x 16), 3 blocks a multiprocessor: 6
	 * chunks of 43 planes, 384 blocks in one wave of 396 (chunks of 16
	 * planes: 1152 blocks, 2.9 waves) */
	assert_int_equal(bsq_wave_planes(256, 64, 396, 1, 2, INT_MAX), 43);
	/* tiles of 8 rows (4 x 32), 5 a multiprocessor: 640 blocks of 660 */
	assert_int_equal(bsq_wave_planes(256, 128, 660, 1, 2, INT_MAX), 52);
	/* the two-sweep pass (3 planes recomputed each side), 512^3, 8 x 32
	 * tiles, 2 a multiprocessor, at most 64 planes: the most */
	assert_int_equal(bsq_wave_planes(512, 256, 264, 3, 4, 64), 64);
	/* a level of few tiles: the fewest planes, all in one wave */
	assert_int_equal(bsq_wave_planes(64, 8, 660, 1, 2, INT_MAX), 2);
	assert_int_equal(bsq_wave_planes(1, 4, 660, 1, 2, INT_MAX), 2);
	/* every pick within its bounds, and no longer than the level needs:
	 * one plane less would take more chunks */
	for (a = 0; a < sizeof nzs / sizeof *nzs; a++)
		for (b = 0; b < sizeof tiles / sizeof *tiles; b++)
			for (c = 0; c < sizeof slots / sizeof *slots; c++) {
				const int nz = nzs[a];
				const int n = bsq_wave_planes(nz, tiles[b], slots[c], 1, 2, 64);
				assert_true(n >= 2 && n <= 64);
				assert_true(n == 2 || n <= nz);
				assert_true(n == 2 || (nz + n - 2) / (n - 1) > (nz + n - 1) / n);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lap7_quadratic),
		cmocka_unit_test(test_div_grad),
		cmocka_unit_test(test_advect),
		cmocka_unit_test(test_ab2_buoyancy),
		cmocka_unit_test(test_mg_weights),
		cmocka_unit_test(test_walls),
		cmocka_unit_test(test_dt),
		cmocka_unit_test(test_wave_planes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
