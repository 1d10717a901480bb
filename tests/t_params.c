/* t_params.c: unit tests of the scenario parameters (params.c): defaults,
 * --section.key=value overrides, INI files, validation.
 *
 * The functions print their messages on stderr; tests/badinput.sh checks
 * the messages, this file checks return values and the resulting fields. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "spate.h"
#include "swe.h"
#include "swe_state.h"
#include "params.h"
#include "setup.h"

static int set(struct swe_params *p, const char *sec, const char *key, const char *val)
{
	return swe_params_set(p, sec, key, val, "t_params", 1);
}

/* ------------------------------------------------------------ defaults, overrides */

static void test_defaults_validate(void **st)
{
	struct swe_params p;
	(void)st;
	swe_params_defaults(&p);
	assert_int_equal(swe_params_validate(&p), 0);
	assert_string_equal(p.setup, "circular_dambreak");
	assert_true(p.nx > 0 && p.ny > 0 && p.dx > 0 && p.dy > 0);
	assert_true(p.theta >= 1 && p.theta <= 2);
	assert_true(p.cfl > 0 && p.cfl <= 0.5);  /* KP07 positivity bound as swe_cfl_dt defines cfl */
	assert_true(p.kappa == 0 && p.dry_tol == 0); /* auto: swe_kappa_of, swe_dry_of */
	assert_true(p.g > 9.8 && p.g < 9.82);
	assert_int_equal(p.integrator, 2);
	for (int s = 0; s < 4; s++)
		assert_int_equal(p.bc[s].kind, SWE_BC_WALL);
}

static void test_set_good(void **st)
{
	struct swe_params p;
	(void)st;
	swe_params_defaults(&p);
	assert_int_equal(set(&p, "physics", "manning", "0.03"), 0);
	assert_true(p.manning == 0.03);
	assert_int_equal(set(&p, "physics", "manning", "0"), 0);
	assert_true(p.manning == 0);
	assert_int_equal(set(&p, "physics", "manning", " 2.5e-2 "), 0);
	assert_true(p.manning == 0.025);
	assert_int_equal(set(&p, "physics", "theta", "1"), 0);
	assert_true(p.theta == 1);
	assert_int_equal(set(&p, "physics", "theta", "2"), 0);
	assert_true(p.theta == 2);
	assert_int_equal(set(&p, "physics", "theta", "1.5"), 0);
	assert_true(p.theta == 1.5);
	assert_int_equal(set(&p, "physics", "integrator", "euler"), 0);
	assert_int_equal(p.integrator, 1);
	assert_int_equal(set(&p, "physics", "integrator", "rk2"), 0);
	assert_int_equal(p.integrator, 2);
	assert_int_equal(set(&p, "domain", "nx", "128"), 0);
	assert_int_equal(p.nx, 128);
	assert_int_equal(set(&p, "domain", "dx", "2.5"), 0);
	assert_true(p.dx == 2.5);
	assert_int_equal(set(&p, "domain", "setup", "lake_at_rest"), 0);
	assert_string_equal(p.setup, "lake_at_rest");
	assert_int_equal(set(&p, "run", "max_steps", "1000"), 0);
	assert_int_equal(p.max_steps, 1000);
	assert_int_equal(set(&p, "run", "device", "cpu"), 0);
	assert_string_equal(p.device, "cpu");
	assert_int_equal(set(&p, "output", "grids", "no"), 0);
	assert_int_equal(p.write_grids, 0);
	assert_int_equal(set(&p, "boundary", "west", "outflow"), 0);
	assert_int_equal(p.bc[SWE_WEST].kind, SWE_BC_OUTFLOW);
	assert_int_equal(set(&p, "boundary", "east", "level"), 0);
	assert_int_equal(set(&p, "boundary", "east_level", "1.25"), 0);
	assert_int_equal(p.bc[SWE_EAST].kind, SWE_BC_LEVEL);
	assert_true(p.bc[SWE_EAST].level == 1.25);
	assert_int_equal(set(&p, "boundary", "south", "inflow"), 0);
	assert_int_equal(set(&p, "boundary", "south_hydrograph", "0 0, 60 10, 120 5"), 0);
	assert_int_equal(p.bc[SWE_SOUTH].n, 3);
	assert_true(p.bc[SWE_SOUTH].t[1] == 60 && p.bc[SWE_SOUTH].q[1] == 10);
	assert_int_equal(swe_params_validate(&p), 0);
}

/* A rejected value leaves the parameters as they were, byte for byte (a
 * rejected hydrograph included: it is parsed aside, then copied). */
static void reject(struct swe_params *p, const char *sec, const char *key, const char *val)
{
	struct swe_params before = *p;
	int rc = set(p, sec, key, val);
	if (rc == 0)
		fail_msg("[%s] %s = \"%s\" was accepted", sec, key, val);
	if (memcmp(&before, p, sizeof before) != 0)
		fail_msg("[%s] %s = \"%s\" was rejected but changed the parameters", sec, key, val);
}

static void test_set_bad(void **st)
{
	struct swe_params p;
	(void)st;
	swe_params_defaults(&p);
	reject(&p, "physics", "manning", "-0.01");
	reject(&p, "physics", "manning", "1.5x");
	reject(&p, "physics", "manning", "nan");
	reject(&p, "physics", "manning", "inf");
	reject(&p, "physics", "manning", "");
	reject(&p, "physics", "manning", "abc");
	reject(&p, "physics", "manning", "0.03 0.04");
	reject(&p, "physics", "theta", "0.99");
	reject(&p, "physics", "theta", "2.01");
	reject(&p, "physics", "theta", "-1");
	reject(&p, "physics", "integrator", "rk4");
	reject(&p, "physics", "integrator", "");
	reject(&p, "physics", "cfl", "2");
	reject(&p, "physics", "cfl", "0");
	reject(&p, "physics", "no_such_key", "1");
	reject(&p, "nosuchsection", "manning", "0.03");
	reject(&p, "", "manning", "0.03");
	reject(&p, "domain", "nx", "12.5");
	reject(&p, "domain", "nx", "0");
	reject(&p, "domain", "nx", "-100");
	reject(&p, "domain", "dx", "0");
	reject(&p, "domain", "setup", "no_such_setup");
	reject(&p, "run", "device", "tpu");
	reject(&p, "run", "end_time", "-1");
	reject(&p, "boundary", "west", "sponge");
	reject(&p, "boundary", "westish", "wall");
	/* a table in use survives rejected replacements whole */
	assert_int_equal(set(&p, "boundary", "north_hydrograph", "0 3, 60 4"), 0);
	reject(&p, "boundary", "north_hydrograph", "5 6, 7 8, 7 9");
	reject(&p, "boundary", "north_hydrograph", "0 1, 0 2");   /* times must increase */
	reject(&p, "boundary", "north_hydrograph", "0 -1");       /* negative discharge */
	reject(&p, "boundary", "north_hydrograph", "0");          /* time without discharge */
	reject(&p, "boundary", "north_hydrograph", "");
}

static void test_validate_bad(void **st)
{
	struct swe_params p;
	(void)st;
	/* forward Euler needs cfl <= 0.5 */
	swe_params_defaults(&p);
	assert_int_equal(set(&p, "physics", "integrator", "euler"), 0);
	assert_int_equal(set(&p, "physics", "cfl", "0.9"), 0);
	assert_int_not_equal(swe_params_validate(&p), 0);
	assert_int_equal(set(&p, "physics", "cfl", "0.5"), 0);
	assert_int_equal(swe_params_validate(&p), 0);
	/* inflow without a hydrograph */
	swe_params_defaults(&p);
	assert_int_equal(set(&p, "boundary", "north", "inflow"), 0);
	assert_int_not_equal(swe_params_validate(&p), 0);
}

/* ------------------------------------------------------------ files */

static char tmpdir[4096];

static int setup_dir(void **st)
{
	const char *base = getenv("TMPDIR");
	(void)st;
	snprintf(tmpdir, sizeof tmpdir, "%s/t_params.XXXXXX", base && *base ? base : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **st)
{
	(void)st;
	return rmdir(tmpdir);
}

/* Write text to a scenario file, load it into defaults, remove it. */
static int load_text(struct swe_params *p, const char *text)
{
	char path[4200];
	FILE *f;
	int rc;
	snprintf(path, sizeof path, "%s/s.conf", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	swe_params_defaults(p);
	rc = swe_params_load(p, path);
	unlink(path);
	return rc;
}

#define GOOD_HEAD "; a comment\n[domain]\nsetup = lake_at_rest\nnx = 64\nny = 32\ndx = 4\ndy = 5\n"
#define GOOD_RUN "[run]\nend_time = 12.5\n"

static void test_load_good(void **st)
{
	struct swe_params p;
	(void)st;
	assert_int_equal(load_text(&p, GOOD_HEAD "\n[initial]\nlevel = 0.75\n\n[physics]\n"
		"manning = 0.025\ntheta = 1.5\nintegrator = euler\ncfl = 0.4\n\n[boundary]\n"
		"west = outflow\neast = level\neast_level = 2\n\n" GOOD_RUN "max_steps = 7\n\n"
		"[output]\ndir = somewhere\ninterval = 3\ngrids = no\n"), 0);
	assert_string_equal(p.setup, "lake_at_rest");
	assert_int_equal(p.nx, 64);
	assert_int_equal(p.ny, 32);
	assert_true(p.dx == 4 && p.dy == 5);
	assert_true(p.level == 0.75);
	assert_true(p.manning == 0.025);
	assert_true(p.theta == 1.5);
	assert_int_equal(p.integrator, 1);
	assert_true(p.cfl == 0.4);
	assert_int_equal(p.bc[SWE_WEST].kind, SWE_BC_OUTFLOW);
	assert_int_equal(p.bc[SWE_EAST].kind, SWE_BC_LEVEL);
	assert_true(p.bc[SWE_EAST].level == 2);
	assert_int_equal(p.bc[SWE_SOUTH].kind, SWE_BC_WALL);
	assert_true(p.end_time == 12.5);
	assert_int_equal(p.max_steps, 7);
	assert_string_equal(p.out_dir, "somewhere");
	assert_true(p.out_interval == 3);
	assert_int_equal(p.write_grids, 0);
	assert_int_equal(swe_params_validate(&p), 0);
	/* the minimal file: [domain] and [run] */
	assert_int_equal(load_text(&p, GOOD_HEAD GOOD_RUN), 0);
	assert_int_equal(swe_params_validate(&p), 0);
}

static void test_load_shipped(void **st)
{
	static const char *const names[] = { "circular_dambreak", "bumps_dambreak",
		"lake_at_rest", "dambreak1d_wet", "dambreak1d_dry", "smooth_wave" };
	const char *dir = getenv("SPATE_SCENARIOS");
	(void)st;
	if (!dir || !*dir)
		skip();
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[4200];
		struct swe_params p;
		snprintf(path, sizeof path, "%s/%s.conf", dir, names[i]);
		swe_params_defaults(&p);
		if (swe_params_load(&p, path) != 0 || swe_params_validate(&p) != 0)
			fail_msg("shipped scenario %s does not load", path);
	}
}

static void test_load_bad(void **st)
{
	struct swe_params p;
	char path[4200];
	(void)st;
	/* unknown key */
	assert_int_not_equal(load_text(&p, GOOD_HEAD GOOD_RUN "[physics]\nmaning = 0.03\n"), 0);
	/* bad number */
	assert_int_not_equal(load_text(&p, GOOD_HEAD GOOD_RUN "[physics]\nmanning = abc\n"), 0);
	assert_int_not_equal(load_text(&p, GOOD_HEAD GOOD_RUN "[physics]\nmanning = 0.03x\n"), 0);
	/* negative Manning */
	assert_int_not_equal(load_text(&p, GOOD_HEAD GOOD_RUN "[physics]\nmanning = -0.03\n"), 0);
	/* unknown section */
	assert_int_not_equal(load_text(&p, GOOD_HEAD GOOD_RUN "[phyiscs]\nmanning = 0.03\n"), 0);
	/* missing [run] */
	assert_int_not_equal(load_text(&p, GOOD_HEAD "[physics]\nmanning = 0.03\n"), 0);
	/* missing [domain] */
	assert_int_not_equal(load_text(&p, GOOD_RUN "[physics]\nmanning = 0.03\n"), 0);
	/* key outside a section */
	assert_int_not_equal(load_text(&p, "nx = 10\n" GOOD_HEAD GOOD_RUN), 0);
	/* syntax error */
	assert_int_not_equal(load_text(&p, GOOD_HEAD GOOD_RUN "this line is no key\n"), 0);
	assert_int_not_equal(load_text(&p, GOOD_HEAD GOOD_RUN "[physics\nmanning = 0\n"), 0);
	/* an error early in the file is not hidden by good lines after it */
	assert_int_not_equal(load_text(&p, "[domain]\nnx = many\nsetup = lake_at_rest\n"
		"ny = 10\n" GOOD_RUN), 0);
	/* empty file */
	assert_int_not_equal(load_text(&p, ""), 0);
	/* no such file */
	snprintf(path, sizeof path, "%s/no-such-file.conf", tmpdir);
	swe_params_defaults(&p);
	assert_int_not_equal(swe_params_load(&p, path), 0);
}

/* [initial] dam_x, dam_y move the circular dam: the water stands h_in deep
 * around the given centre and h_out deep at the domain's centre. */
static void test_dam_centre(void **st)
{
	struct swe_params p;
	struct swe_state s;
	(void)st;
	swe_params_defaults(&p);
	assert_int_equal(set(&p, "domain", "setup", "circular_dambreak"), 0);
	assert_int_equal(set(&p, "domain", "nx", "100"), 0);
	assert_int_equal(set(&p, "domain", "ny", "80"), 0);
	assert_int_equal(set(&p, "domain", "dx", "1"), 0);
	assert_int_equal(set(&p, "domain", "dy", "1"), 0);
	assert_int_equal(set(&p, "initial", "radius", "10"), 0);
	assert_int_equal(set(&p, "initial", "h_in", "2"), 0);
	assert_int_equal(set(&p, "initial", "h_out", "0.5"), 0);
	assert_int_equal(set(&p, "initial", "dam_x", "20.5"), 0);
	assert_int_equal(set(&p, "initial", "dam_y", "15.5"), 0);
	assert_int_equal(swe_params_validate(&p), 0);
	assert_int_equal(swe_setup(&s, &p), 0);
	/* cell (20, 15) has its centre at (20.5, 15.5); (50, 40) is the middle */
	assert_true(fabs(s.w[swe_idx(&s, 20, 15)] - 2) < 1e-5);
	assert_true(fabs(s.w[swe_idx(&s, 50, 40)] - 0.5) < 1e-5);
	assert_true(fabs(s.w[swe_idx(&s, 20, 27)] - 0.5) < 1e-5);
	swe_state_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_validate),
		cmocka_unit_test(test_set_good),
		cmocka_unit_test(test_set_bad),
		cmocka_unit_test(test_validate_bad),
		cmocka_unit_test(test_load_good),
		cmocka_unit_test(test_load_shipped),
		cmocka_unit_test(test_load_bad),
		cmocka_unit_test(test_dam_centre),
	};
	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
