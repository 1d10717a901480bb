/* t_bsq_bad.c: bad Boussinesq parameters give -SPATE_EINVAL and a message
 * naming the key (STYLE.md "Errors"), never a crash; a state that failed to
 * initialise holds nothing; a step that blows up returns -SPATE_ENUMERIC,
 * one that nothing bounds (at rest, no diffusion) -SPATE_EINVAL.  A
 * scenario key given where nothing reads it (bsq_scenario_check.c: another
 * set-up's, buoyancy without a temperature, a wall velocity that is no
 * moving wall's tangential one, a temperature on a periodic face) is refused
 * naming it, even at the value the run would have anyway; the keys each
 * set-up reads are taken and the run steps. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "bsqtest.h"
#include "bsq_scenario.h"

/* stderr into a temporary file from catch_begin to catch_end, which puts
 * the text in msg (size bytes). */
struct catch {
	FILE *tmp;
	int saved;
};

static void catch_begin(struct catch *k)
{
	k->tmp = tmpfile();
	assert_non_null(k->tmp);
	fflush(stderr);
	k->saved = dup(2);
	assert_true(k->saved >= 0 && dup2(fileno(k->tmp), 2) >= 0);
}

static void catch_end(struct catch *k, char *msg, size_t size)
{
	size_t n;
	fflush(stderr);
	dup2(k->saved, 2);
	close(k->saved);
	rewind(k->tmp);
	n = fread(msg, 1, size - 1, k->tmp);
	msg[n] = 0;
	fclose(k->tmp);
}

/* bsq_init(p) with stderr caught: its return value, the text in msg. */
static int init_caught(const struct bsq_params *p, char *msg, size_t size)
{
	struct bsq_state s;
	struct catch k;
	int err;
	catch_begin(&k);
	err = bsq_init(&s, p);
	catch_end(&k, msg, size);
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

/* The scenario of [domain] setup with keys ("section.key=value", spaces
 * between) resolved into *p, stderr caught: bsq_config_resolve's return
 * value, its text in msg. */
static int resolve_caught(const char *setup, const char *keys, struct bsq_params *p,
	char *msg, size_t size)
{
	struct bsq_config *c = malloc(sizeof *c);
	char buf[512], *save, *kv;
	struct catch k;
	int err;
	assert_non_null(c);
	bsq_config_defaults(c);
	assert_int_equal(bsq_config_set(c, "domain", "setup", setup, "test", 0), 0);
	snprintf(buf, sizeof buf, "%s", keys);
	for (kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
		char *dot = strchr(kv, '.'), *eq = strchr(kv, '=');
		assert_true(dot && eq && dot < eq);
		*dot = *eq = 0;
		if (bsq_config_set(c, kv, dot + 1, eq + 1, "test", 0))
			fail_msg("%s.%s=%s: not a key and value", kv, dot + 1, eq + 1);
	}
	catch_begin(&k);
	err = bsq_config_resolve(c, p);
	catch_end(&k, msg, size);
	free(c);
	return err;
}

/* Keys nothing reads under the set-up (and the boundary kinds and thermal
 * it resolves to): refused with a message that holds `want`. */
static void test_unread_keys(void **unused)
{
	static const struct {
		const char *setup, *keys, *want;
	} bad[] = {
		/* a key of another set-up (a default value too) */
		{ "none", "domain.n=32", "[domain] n is read by setup = cavity, cavity3d, "
			"heated_cavity, rayleigh_benard and taylor_green only, not setup = none" },
		{ "none", "physics.re=100", "[physics] re is read by setup = cavity, cavity3d and "
			"taylor_green only, not setup = none" },
		{ "cavity", "physics.ra=1e4", "[physics] ra is read by setup = heated_cavity and "
			"rayleigh_benard only, not setup = cavity: remove it, or change the set-up" },
		{ "cavity3d", "physics.pr=0.71", "[physics] pr is read by setup = heated_cavity and "
			"rayleigh_benard only, not setup = cavity3d" },
		{ "cavity", "physics.plates=free_slip", "[physics] plates is read by setup = "
			"rayleigh_benard only, not setup = cavity" },
		{ "heated_cavity", "physics.re=100", "[physics] re is read by setup = cavity, "
			"cavity3d and taylor_green only, not setup = heated_cavity" },
		{ "heated_cavity", "physics.plates=no_slip", "[physics] plates is read by" },
		{ "heated_cavity", "physics.wavenumber=3", "[physics] wavenumber is read by setup = "
			"rayleigh_benard only" },
		{ "taylor_green", "physics.amplitude=1e-4", "[physics] amplitude is read by setup = "
			"rayleigh_benard only, not setup = taylor_green" },
		{ "taylor_green", "physics.ra=1e4", "[physics] ra is read by" },
		{ "rayleigh_benard", "physics.re=100", "not setup = rayleigh_benard" },
		/* buoyancy and diffusion of a temperature not advanced */
		{ "cavity", "physics.gbeta=1", "[physics] gbeta is read only while the temperature "
			"is advanced, and thermal = no (as setup = cavity has it): remove it, or set "
			"[physics] thermal = yes" },
		{ "taylor_green", "physics.T0=0", "[physics] T0 is read only while the temperature" },
		{ "none", "physics.kappa=0.01", "[physics] kappa is read only while the temperature "
			"is advanced, and thermal = no (as setup = none has it)" },
		{ "heated_cavity", "physics.thermal=no physics.gbeta=7", "[physics] gbeta is read "
			"only while the temperature is advanced, and thermal = no: remove it" },
		/* a wall velocity that is no moving wall's tangential one */
		{ "cavity", "boundary.xm_w=1", "[boundary] xm_w is read only on a moving wall (xm = "
			"lid), and xm = noslip (as setup = cavity has it): remove it, or set [boundary] "
			"xm = lid" },
		{ "cavity", "boundary.zm_u=0", "[boundary] zm_u is read only on a moving wall" },
		{ "cavity", "boundary.zp=noslip boundary.zp_u=1", "[boundary] zp_u is read only on a "
			"moving wall (zp = lid), and zp = noslip: remove it" },
		{ "rayleigh_benard", "boundary.zp_u=1", "zp = noslip (as setup = rayleigh_benard" },
		{ "rayleigh_benard", "physics.plates=free_slip boundary.zm_v=0.1", "[boundary] zm_v "
			"is read only on a moving wall (zm = lid), and zm = freeslip" },
		{ "taylor_green", "boundary.xm_w=1", "and xm = periodic (as setup = taylor_green" },
		{ "cavity", "boundary.zp_w=0", "[boundary] zp_w is the velocity through face zp, which "
			"no boundary kind reads" },
		{ "cavity", "boundary.xm=lid boundary.xm_u=1", "[boundary] xm_u is the velocity "
			"through face xm" },
		{ "taylor_green", "boundary.zm_w=1", "[boundary] zm_w is the velocity through" },
		/* a temperature on a periodic face */
		{ "heated_cavity", "boundary.ym_T=insulated", "[boundary] ym_T: face ym is periodic "
			"(as setup = heated_cavity has it), which has no temperature condition: remove it" },
		{ "rayleigh_benard", "boundary.xp_T=0", "[boundary] xp_T: face xp is periodic" },
		{ "none", "boundary.zm=periodic boundary.zp=periodic boundary.zp_T=1",
			"[boundary] zp_T: face zp is periodic, which" },
	};
	struct bsq_params p;
	char msg[2048];
	(void)unused;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int err = resolve_caught(bad[i].setup, bad[i].keys, &p, msg, sizeof msg);
		if (err != -SPATE_EINVAL || !strstr(msg, "spate: scenario: ") ||
			!strstr(msg, bad[i].want))
			fail_msg("setup = %s, %s: returned %d, said \"%s\"; wanted -SPATE_EINVAL and "
				"\"%s\"", bad[i].setup, bad[i].keys, err, msg, bad[i].want);
	}
}

/* Keys the set-up reads: taken, and the run steps; a key replaced by a
 * finer one (n by nx, ny, nz; re by nu) is read by the set-up's rule. */
static void test_read_keys(void **unused)
{
	static const struct {
		const char *setup, *keys;
	} good[] = {
		{ "none", "domain.nx=8 domain.ny=8 domain.nz=8 physics.nu=0.1" },
		{ "none", "domain.nx=8 domain.ny=8 domain.nz=8 boundary.zm_T=1 boundary.zp_T=0 "
			"physics.kappa=0.1" }, /* the Nusselt number divides by kappa */
		{ "none", "domain.nx=8 domain.ny=8 domain.nz=8 boundary.xm=periodic "
			"boundary.xp=periodic boundary.zm=lid boundary.zm_u=1 boundary.zm_v=-1" },
		{ "cavity", "domain.n=8 physics.re=400 boundary.zp_u=2 boundary.zp_v=0.5" },
		{ "cavity3d", "domain.n=8 physics.re=100" },
		{ "cavity", "domain.n=8 physics.thermal=yes physics.gbeta=1 physics.T0=0.5 "
			"physics.kappa=0.1 boundary.zm_T=1 boundary.xm_T=insulated" },
		{ "cavity", "domain.n=8 boundary.xm=lid boundary.xm_v=1 boundary.xm_w=1" },
		/* ra = 1e5 on 8^2 cells: a pressure single precision cannot solve to tol */
		{ "heated_cavity", "domain.n=8 physics.ra=1e4 physics.pr=1 boundary.zm_T=0" },
		{ "rayleigh_benard", "domain.n=8 physics.ra=2000 physics.pr=1 physics.plates=free_slip "
			"physics.wavenumber=2 physics.amplitude=1e-3" },
		{ "rayleigh_benard", "domain.n=4 domain.nx=8 domain.ny=8 domain.nz=8" },
		{ "taylor_green", "domain.n=8 physics.re=50" },
		{ "taylor_green", "domain.n=8 physics.re=50 physics.nu=0.01" },
	};
	struct bsq_params p;
	struct bsq_state s;
	char msg[2048];
	(void)unused;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		int err = resolve_caught(good[i].setup, good[i].keys, &p, msg, sizeof msg);
		if (err)
			fail_msg("setup = %s, %s: returned %d, said \"%s\"", good[i].setup, good[i].keys,
				err, msg);
		assert_int_equal(bsq_init(&s, &p), 0);
		assert_int_equal(bsq_step(&s, &p, NULL), 0);
		bsq_free(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_good_and_jacobi_any_size),
		cmocka_unit_test(test_bad_setups),
		cmocka_unit_test(test_blow_up),
		cmocka_unit_test(test_no_step_limit),
		cmocka_unit_test(test_unread_keys),
		cmocka_unit_test(test_read_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
