/* t_hazard.c: the hazard classes of hazard_kern.h at every threshold of
 * both schemes, each just inside and just outside (+-1e-6 of the depth, the
 * speed, d v or the hazard rating), and where exactly representable at the
 * threshold itself (limits are inclusive); then the product kernel keeps
 * the greatest class of any one step, not the class of separate maxima;
 * then the CF start time (cftime.h): parsing, refusals, units, and dates t
 * seconds on. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "spate.h"
#include "hazard_kern.h"
#include "products_kern.h"
#include "cftime.h"

#define E 1e-6

/* ARR2019 class of (d, v) given in double. */
static int arr(double d, double v)
{
	return hazard_arr2019((real)d, (real)v);
}

static int fd(double d, double v)
{
	return hazard_fd2320((real)d, (real)v);
}

/* Each limit of the ARR2019 combined hazard curves (Table 6.7.4) where it
 * decides the class, at threshold -1e-6 and +1e-6. */
static void arr2019_boundaries(void **state)
{
	(void)state;
	/* H1: d <= 0.3, v <= 2, d v <= 0.3 */
	assert_int_equal(arr(0.3 - E, 0.1), 1);
	assert_int_equal(arr(0.3 + E, 0.1), 2);
	assert_int_equal(arr(0.1, 2.0 - E), 1);
	assert_int_equal(arr(0.1, 2.0 + E), 5);         /* v > 2: beyond H1-H4 */
	assert_int_equal(arr(0.25, (0.3 - E) / 0.25), 1);
	assert_int_equal(arr(0.25, (0.3 + E) / 0.25), 2);
	assert_int_equal(arr(0.25, 1.2), 1);            /* d v = 0.3 exactly */
	/* H2: d <= 0.5, d v <= 0.6 */
	assert_int_equal(arr(0.5 - E, 0.1), 2);
	assert_int_equal(arr(0.5 + E, 0.1), 3);
	assert_int_equal(arr(0.5, (0.6 - E) / 0.5), 2);
	assert_int_equal(arr(0.5, (0.6 + E) / 0.5), 4); /* d v > 0.6: H3 too */
	/* H3: d <= 1.2, d v <= 0.6 */
	assert_int_equal(arr(1.2 - E, 0.1), 3);
	assert_int_equal(arr(1.2 + E, 0.1), 4);
	assert_int_equal(arr(1.0, 0.6 - E), 3);
	assert_int_equal(arr(1.0, 0.6 + E), 4);
	/* H4: d <= 2, v <= 2, d v <= 1 */
	assert_int_equal(arr(2.0 - E, 0.1), 4);
	assert_int_equal(arr(2.0 + E, 0.1), 5);
	assert_int_equal(arr(2.0, 0.1), 4);             /* d = 2 exactly */
	assert_int_equal(arr(0.4, 2.0 - E), 4);
	assert_int_equal(arr(0.4, 2.0 + E), 5);
	assert_int_equal(arr(1.0, 1.0 - E), 4);
	assert_int_equal(arr(1.0, 1.0 + E), 5);
	/* H5: d <= 4, v <= 4, d v <= 4; H6 beyond */
	assert_int_equal(arr(4.0 - E, 0.1), 5);
	assert_int_equal(arr(4.0 + E, 0.1), 6);
	assert_int_equal(arr(0.1, 4.0 - E), 5);
	assert_int_equal(arr(0.1, 4.0 + E), 6);
	assert_int_equal(arr(2.0, (4.0 - E) / 2.0), 5);
	assert_int_equal(arr(2.0, (4.0 + E) / 2.0), 6);
	assert_int_equal(arr(2.0, 2.0), 5);             /* d v = 4 exactly */
	assert_int_equal(arr(10.0, 10.0), 6);
	assert_int_equal(arr(1e-3, 0), 1);
}

/* FD2320: HR = d (v + 0.5) + DF, DF 0.5 to d = 0.25 m and 1 deeper; classes
 * at HR 0.75, 1.25 and 2.0, each at -1e-6 and +1e-6 of HR. */
static void fd2320_boundaries(void **state)
{
	(void)state;
	/* the rating itself */
	assert_true(fabs(hazard_fd2320_rating(0.5f, 1.5f) - 2.0) < 1e-6);
	assert_true(fabs(hazard_fd2320_rating(0.2f, 1.0f) - (0.2 * 1.5 + 0.5)) < 1e-6);
	/* DF steps at d = 0.25 m: at v = 0.5, HR = 0.75 - 1e-6 or 1.25 + 1e-6 */
	assert_int_equal(fd(0.25 - E, 0.5), 1);
	assert_int_equal(fd(0.25 + E, 0.5), 3);
	/* HR = 0.75 (DF 0.5, d = 0.125: v + 0.5 = 2 -+ 8e-6) */
	assert_int_equal(fd(0.125, 1.5 - 8 * E), 1);
	assert_int_equal(fd(0.125, 1.5 + 8 * E), 2);
	assert_int_equal(fd(0.125, 1.5), 2);            /* HR = 0.75 exactly: moderate */
	/* HR = 1.25 (DF 1, v = 0: HR = d / 2 + 1) */
	assert_int_equal(fd(0.5 - 2 * E, 0), 2);
	assert_int_equal(fd(0.5 + 2 * E, 0), 3);
	assert_int_equal(fd(0.5, 0), 3);                /* HR = 1.25 exactly: significant */
	/* HR = 2.0 (d = 0.5: v = 1.5 -+ 2e-6) */
	assert_int_equal(fd(0.5, 1.5 - 2 * E), 3);
	assert_int_equal(fd(0.5, 1.5 + 2 * E), 4);
	assert_int_equal(fd(0.5, 1.5), 3);              /* HR = 2.0 exactly: significant */
	assert_int_equal(fd(1e-3, 0), 1);
	assert_int_equal(fd(3.0, 3.0), 4);
}

/* One product step of a cell at depth h moving at speed v (east). */
static void step(struct swe_prod *p, real h, real v, double t)
{
	swe_prod_update(p, h, h * v, 0, 0, (real)0.05, t, 1.0);
}

/* The class kept is the greatest of the steps' classes: deep and slow
 * (H3, FD2320 significant: HR 1.7) then shallow and fast (H1, moderate:
 * HR 0.9) stays H3 and significant, though the separate maxima (1 m,
 * 1.5 m/s) would make H5 and extreme (HR 3); a step at or below the wet threshold is no class. */
static void per_step_class(void **state)
{
	struct swe_prod p;
	(void)state;
	swe_prod_reset(&p);
	step(&p, (real)0.04, (real)3.0, 1);
	assert_true(p.class_arr2019 == 0 && p.class_fd2320 == 0);
	step(&p, (real)1.0, (real)0.2, 2);
	assert_true(p.class_arr2019 == 3 && p.class_fd2320 == 3);
	step(&p, (real)0.2, (real)1.5, 3);
	assert_true(p.class_arr2019 == 3 && p.class_fd2320 == 3);
	assert_int_equal(arr(p.max_depth, p.max_speed), 5);
	assert_int_equal(fd(p.max_depth, p.max_speed), 4);
	step(&p, (real)3.0, (real)3.0, 4);
	assert_true(p.class_arr2019 == 6 && p.class_fd2320 == 4);
}

static void start_time(void **state)
{
	char c[SPATE_TIME_TEXT], u[SPATE_TIME_TEXT], iso[SPATE_TIME_TEXT];
	const char *why = NULL;
	(void)state;
	assert_int_equal(spate_time_parse("1959-12-02T20:13:00Z", c, &why), 0);
	assert_string_equal(c, "1959-12-02T20:13:00Z");
	assert_int_equal(spate_time_parse("2024-02-29 06:30", c, &why), 0);
	assert_string_equal(c, "2024-02-29T06:30:00Z");
	assert_int_equal(spate_time_parse("2000-01-01", c, &why), 0);
	assert_string_equal(c, "2000-01-01T00:00:00Z");
	assert_int_equal(spate_time_parse("2000-01-01T00:00:00+00:00", c, &why), 0);
	static const char *const bad[] = { "", "yesterday", "2023-02-29", "2000-13-01",
		"2000-01-01T24:00", "2000-01-01T10:60", "2000-01-01T10:00:00+01:00",
		"2000-01-01T10:00:00Zjunk", "99-01-01", "2000-1-1" };
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		why = NULL;
		assert_int_equal(spate_time_parse(bad[k], c, &why), -SPATE_EINVAL);
		assert_non_null(why);
	}
	spate_time_units("1959-12-02T20:13:00Z", u);
	assert_string_equal(u, "seconds since 1959-12-02 20:13:00");
	assert_int_equal(spate_time_of_units(u, c), 0);
	assert_string_equal(c, "1959-12-02T20:13:00Z");
	spate_time_units(NULL, u);
	assert_string_equal(u, "seconds since 2000-01-01 00:00:00");
	assert_int_equal(spate_time_iso("1959-12-02T20:13:00Z", 4000, iso), 0);
	assert_string_equal(iso, "1959-12-02T21:19:40Z");
	assert_int_equal(spate_time_iso("1999-12-31T23:00:00Z", 3600, iso), 0);
	assert_string_equal(iso, "2000-01-01T00:00:00Z");
	assert_int_equal(spate_time_iso("2024-02-28T12:00:00Z", 86400, iso), 0);
	assert_string_equal(iso, "2024-02-29T12:00:00Z");
	assert_int_equal(spate_time_iso("2000-01-01T00:00:00Z", 366.0 * 86400 * 1000, iso), 0);
	assert_string_equal(iso, "3002-01-28T00:00:00Z");
	assert_int_equal(spate_time_iso("2000-01-01T00:00:00Z", NAN, iso), -SPATE_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arr2019_boundaries),
		cmocka_unit_test(fd2320_boundaries),
		cmocka_unit_test(per_step_class),
		cmocka_unit_test(start_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
