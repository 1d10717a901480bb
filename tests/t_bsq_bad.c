/* t_bsq_bad.c: bad Boussinesq parameters give -SPATE_EINVAL and a message
 * naming the key (STYLE.md "Errors"), never a crash; a state that failed to
 * initialise holds nothing; a step that blows up returns -SPATE_ENUMERIC,
 * one that nothing bounds (at rest, no diffusion) -SPATE_EINVAL. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "bsqtest.h"

/* bsq_init(p) with stderr caught: its return value, the text in msg. */
static int init_caught(const struct bsq_params *p, char *msg, size_t size)
{
	struct bsq_state s;
	FILE *tmp = tmpfile();
	int saved, err;
	size_t n;
	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0 && dup2(fileno(tmp), 2) >= 0);
	err = bsq_init(&s, p);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(msg, 1, size - 1, tmp);
	msg[n] = 0;
	fclose(tmp);
	if (err) /* nothing left allocated */
		assert_true(s.u == NULL && s.p == NULL && s.nlev == 0);
	else
		bsq_free(&s);
	return err;
}

/* p rejected with a message that contains `key =`. */
static void expect_bad(const struct bsq_params *p, const char *key)
{
	char msg[1024], want[64];
	int err = init_caught(p, msg, sizeof msg);
	if (err != -SPATE_EINVAL)
		fail_msg("%s: bsq_init returned %d, not -SPATE_EINVAL", key, err);
	snprintf(want, sizeof want, "%s = ", key);
	if (!strstr(msg, want) || !strstr(msg, "spate: bsq: "))
		fail_msg("message for %s: \"%s\"", key, msg);
}

static void base(struct bsq_params *p)
{
	bsq_params_default(p);
	p->nx = p->ny = p->nz = 8;
}

static void test_bad_keys(void **unused)
{
	struct bsq_params p;
	(void)unused;
	base(&p), p.nu = -1, expect_bad(&p, "nu");
	base(&p), p.kappa = NAN, expect_bad(&p, "kappa");
	base(&p), p.nx = 0, expect_bad(&p, "nx");
	base(&p), p.nz = -3, expect_bad(&p, "nz");
	base(&p), p.nx = p.ny = p.nz = 1, expect_bad(&p, "nx");
	base(&p), p.ly = 0, expect_bad(&p, "ly");
	/* multigrid: 100 = 25 * 4 leaves 25^3 cells; 625 is odd: 2 x 625 x 2 */
	base(&p), p.nx = p.ny = p.nz = 100, expect_bad(&p, "nx");
	base(&p), p.ny = 625, expect_bad(&p, "ny");
	base(&p), p.tol = 0, expect_bad(&p, "tol");
	base(&p), p.diff = 1.5, expect_bad(&p, "diff");
	base(&p), p.cfl = 0, expect_bad(&p, "cfl");
	base(&p), p.dt = -1, expect_bad(&p, "dt");
	base(&p), p.solver = 7, expect_bad(&p, "solver");
	base(&p), p.interp = -1, expect_bad(&p, "interp");
	base(&p), p.pre = p.post = 0, expect_bad(&p, "post");
	base(&p), p.max_cycles = 0, expect_bad(&p, "max_cycles");
	base(&p), p.vel_bc[BSQ_XP] = BSQ_PERIODIC, expect_bad(&p, "xm");
	base(&p), p.vel_bc[BSQ_ZM] = 9, expect_bad(&p, "zm");
	base(&p), p.temp_bc[BSQ_YP] = 5, expect_bad(&p, "yp_T");
	base(&p), p.lid[BSQ_ZP][0] = INFINITY, expect_bad(&p, "zp_u");
	base(&p), p.gbeta = NAN, expect_bad(&p, "gbeta");
	base(&p), p.setup = 42, expect_bad(&p, "setup");
}

static void test_good_and_jacobi_any_size(void **unused)
{
	struct bsq_params p;
	char msg[1024];
	(void)unused;
	base(&p);
	assert_int_equal(init_caught(&p, msg, sizeof msg), 0);
	base(&p), p.nx = 100, p.solver = BSQ_SOLVER_JACOBI; /* Jacobi: any size */
	assert_int_equal(init_caught(&p, msg, sizeof msg), 0);
	/* multigrid's refusal names the key that picks Jacobi */
	base(&p), p.nx = p.ny = p.nz = 100;
	assert_int_equal(init_caught(&p, msg, sizeof msg), -SPATE_EINVAL);
	if (!strstr(msg, "[solver] pressure = jacobi"))
		fail_msg("no [solver] pressure = jacobi in \"%s\"", msg);
}

static void test_bad_setups(void **unused)
{
	struct bsq_params p;
	(void)unused;
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_cavity(&p, 0, 100, 0), -SPATE_EINVAL);
	assert_int_equal(bsq_setup_cavity(&p, 16, -1, 0), -SPATE_EINVAL);
	assert_int_equal(bsq_setup_dhc(&p, 16, 1e4, 0), -SPATE_EINVAL);
	assert_int_equal(bsq_setup_rb(&p, 16, 1, 8, 1e3, 1, 1, 0, 1e-4), -SPATE_EINVAL);
	assert_int_equal(bsq_setup_tg(&p, 16, -0.1), -SPATE_EINVAL);
}

/* A fixed step far beyond stability: the step fails cleanly. */
static void test_blow_up(void **unused)
{
	struct bsq_params p;
	struct bsq_state s;
	int i, err = 0;
	(void)unused;
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_tg(&p, 16, 0.1), 0);
	p.dt = 50;
	p.max_cycles = 5;
	assert_int_equal(bsq_init(&s, &p), 0);
	for (i = 0; i < 200 && !err; i++)
		err = bsq_step(&s, &p, NULL);
	assert_int_equal(err, -SPATE_ENUMERIC);
	bsq_free(&s);
	bsq_free(&s); /* a freed state can be freed again */
}

/* Nothing bounds the step of a flow at rest that nothing diffuses (nu = 0,
 * no temperature: the lid cavity's interior): refused, not a step of 1e300
 * to t = 1e300; with [run] dt it runs. */
static void test_no_step_limit(void **unused)
{
	struct bsq_params p;
	struct bsq_state s;
	(void)unused;
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_cavity(&p, 8, 100, 0), 0);
	p.nu = 0;
	assert_int_equal(bsq_init(&s, &p), 0);
	assert_int_equal(bsq_step(&s, &p, NULL), -SPATE_EINVAL);
	assert_true(s.t == 0 && s.step == 0);
	p.dt = 0.01;
	assert_int_equal(bsq_step(&s, &p, NULL), 0);
	assert_true(s.t == 0.01 && s.step == 1);
	bsq_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_good_and_jacobi_any_size),
		cmocka_unit_test(test_bad_setups),
		cmocka_unit_test(test_blow_up),
		cmocka_unit_test(test_no_step_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
