/* t_bsq_cuda.c: the Boussinesq CUDA backend against the CPU (issue 21):
 * the same case stepped N times on each, then max |CUDA - CPU| of u, v, w,
 * T and p (ghosts included) at most BOUND times the field's max |value|
 * (fp64; fp32 builds: BOUND_SINGLE), and max |div u| <= tol after every
 * CUDA step.  Cases: 2D-like lid-driven cavity 32 x 1 x 32 (multigrid,
 * trilinear and constant prolongation; Jacobi), 3D cavity 16^3, heated
 * cavity 32 x 1 x 32, periodic Taylor-Green 32 x 1 x 32, Rayleigh-Benard
 * 32 x 32 x 16 (periodic x and y, no-slip plates; also with the
 * V-cycle's tail filling ghosts, and with the host's small levels instead
 * of the tail) and 24 x 24 x 12 (odd levels).  Prints the relative
 * differences measured and the solver's cycles on both.
 *
 * Skipped (exit 77) when built without CUDA or no GPU is there.
 *
 * With SPATE_BSQ_BENCH=1 it also prints a benchmark (no thresholds): time
 * per step on the GPU of the 3D cavity 256 x 32 x 256, multigrid against
 * Jacobi (capped at 20000 sweeps a step: it would need about 1e5 to reach
 * the tolerance). */
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "bsqtest.h"
#include "bsq_cuda.h"

#ifdef BSQ_SINGLE
#define BOUND 1e-4
#else
#define BOUND 1e-10
#endif

enum { CAVITY2D, CAVITY3D, DHC, TG };

static void setup(struct bsq_params *p, int kind, int n)
{
	bsq_params_default(p);
	switch (kind) {
	case CAVITY2D: assert_int_equal(bsq_setup_cavity(p, n, 100, 0), 0); break;
	case CAVITY3D: assert_int_equal(bsq_setup_cavity(p, n, 100, 1), 0); break;
	case DHC: assert_int_equal(bsq_setup_dhc(p, n, 1e4, 0.71), 0); break;
	default: assert_int_equal(bsq_setup_tg(p, n, 0.05), 0);
	}
}

/* max |a - b| / max(max |a|, tiny) over n values. */
static double reldiff(const bsq_real *a, const bsq_real *b, size_t n)
{
	double d = 0, m = 0;
	size_t c;
	for (c = 0; c < n; c++) {
		d = fmax(d, fabs((double)a[c] - (double)b[c]));
		m = fmax(m, fabs((double)a[c]));
	}
	return d / fmax(m, 1e-300);
}

/* `steps` steps of the case on the CPU and on CUDA; compares. */
static void compare(const char *name, struct bsq_params *p, int steps)
{
	static const char *const field[5] = { "u", "v", "w", "T", "p" };
	struct bsq_state a, b;
	struct bsq_stats sa, sb;
	struct bsq_cuda *ctx;
	double worst = 0;
	int i, f, cycles_a = 0, cycles_b = 0;
	assert_int_equal(bsq_init(&a, p), 0);
	assert_int_equal(bsq_init(&b, p), 0);
	assert_int_equal(bsq_cuda_init(&ctx, &b, p), 0);
	for (i = 0; i < steps; i++) {
		assert_int_equal(bsq_step(&a, p, &sa), 0);
		assert_int_equal(bsq_cuda_step(ctx, p, &sb), 0);
		if (!BSQTEST_DIV_OK(sb.div_max, p->tol))
			fail_msg("%s: CUDA step %d: max |div u| = %g > tol %g", name, i + 1, sb.div_max,
				p->tol);
		cycles_a += sa.cycles;
		cycles_b += sb.cycles;
		assert_true(sb.fmg == sa.fmg);
	}
	assert_int_equal(bsq_cuda_download(ctx, &b), 0);
	assert_int_equal(b.step, a.step);
	assert_true(fabs(b.t - a.t) <= BOUND * a.t);
	{
		const bsq_real *fa[5] = { a.u, a.v, a.w, a.T, a.p }, *fb[5] = { b.u, b.v, b.w, b.T, b.p };
		double d[5];
		for (f = 0; f < 5; f++) {
			d[f] = reldiff(fa[f], fb[f], a.n);
			worst = fmax(worst, d[f]);
		}
		printf("%-28s %3d steps: cycles cpu %4d cuda %4d; max |cuda - cpu| / max |cpu|: "
			"u %.2e v %.2e w %.2e T %.2e p %.2e; div %.2e\n", name, steps, cycles_a, cycles_b,
			d[0], d[1], d[2], d[3], d[4], sb.div_max);
		for (f = 0; f < 5; f++)
			if (!(d[f] <= BOUND))
				fail_msg("%s: %s differs by %g relative (bound %g)", name, field[f], d[f],
					BOUND);
	}
	bsq_cuda_free(ctx);
	bsq_free(&a);
	bsq_free(&b);
}

/* compare with the environment variable var set to val (a kernel or a
 * path the default does not take), then unset. */
static void compare_with(const char *var, const char *val, const char *name,
	struct bsq_params *p, int steps)
{
	setenv(var, val, 1);
	compare(name, p, steps);
	unsetenv(var);
}

static void test_cavity(void **unused)
{
	struct bsq_params p;
	(void)unused;
	setup(&p, CAVITY2D, 32);
	compare("cavity 32x1x32 mg pl", &p, 40);
	setup(&p, CAVITY2D, 32);
	p.interp = BSQ_INTERP_PC;
	p.max_cycles = 100;
	compare("cavity 32x1x32 mg pc", &p, 20);
	setup(&p, CAVITY2D, 16);
	p.solver = BSQ_SOLVER_JACOBI;
	compare("cavity 16x1x16 jacobi", &p, 10);
	setup(&p, CAVITY3D, 16);
	compare("cavity 16^3 mg", &p, 20);
}

static void test_heated(void **unused)
{
	struct bsq_params p;
	(void)unused;
	setup(&p, DHC, 32);
	compare("heated cavity 32x1x32 mg", &p, 40);
}

/* Periodic x and y, no-slip plates: the smoother's wrapped neighbours.  In
 * fp32 at Ra 1e3: at 1e5 the hydrostatic pressure's round-off keeps the
 * residual (about 1) above the default tolerance on the CPU already. */
static void test_rayleigh_benard(void **unused)
{
	struct bsq_params p;
	(void)unused;
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_rb(&p, 32, 32, 16, sizeof(bsq_real) < 8 ? 1e3 : 1e5, 0.71, 0,
		3.117, 1e-2), 0);
	compare("rayleigh-benard 32x32x16 mg", &p, 20);
	/* The V-cycle's tail on the GPU (cuda/bsq_cuda_tail.cu) with ghosts
	 * filled before every colour, and without the tail (the small levels on
	 * the host): the same bits all three ways. */
	compare_with("SPATE_BSQ_TAIL_FILL", "1", "rayleigh-benard, tail filling", &p, 10);
	compare_with("SPATE_BSQ_TAIL", "host", "rayleigh-benard, host levels", &p, 10);
	/* the tail's cells found by divisions instead of shifts (levels of 2^n
	 * cells across; the 24 x 24 x 12 case below has none) */
	compare_with("SPATE_BSQ_TAIL_P2", "0", "rayleigh-benard, tail dividing", &p, 10);
	/* the prolongation by fine cell and by coarse cell (k_interp_pl2 and
	 * k_interp_pl8; the default is one of them by precision) */
	compare_with("SPATE_BSQ_PL8", "1", "rayleigh-benard, pl by coarse", &p, 10);
	compare_with("SPATE_BSQ_PL8", "0", "rayleigh-benard, pl by fine", &p, 10);
	/* 24 -> 12 -> 6 -> 3 cells across the periodic faces: the tail fills
	 * the ghosts of the 3 x 3 x 3 level (wrapped neighbours of its own
	 * colour), whose coarse solve takes sweeps */
	assert_int_equal(bsq_setup_rb(&p, 24, 24, 12, sizeof(bsq_real) < 8 ? 1e3 : 1e5, 0.71, 0,
		3.117, 1e-2), 0);
	compare("rayleigh-benard 24x24x12 mg", &p, 10);
}

/* The one-pass sweeps (cuda/bsq_cuda_gs.cu) on every level that can take
 * them, the tail only from levels of at most 64 values, sweeps that read
 * across faces and sweeps after a fill: two sweeps in one
 * pass (k_gs_two, on every level, not only the large ones of the
 * default), then one sweep a pass (k_gs_sweep): periodic x and y (pairs
 * and rows that wrap, a tile wider than the grid, 24 rows in tiles of 16,
 * levels of 2 cells across), Neumann faces (the 3D cavity; one cell in y;
 * the heated cavity), tiles of 16 and of 8 rows, chunks of 5 planes and
 * of the whole level. */
static void test_sweeps(void **unused)
{
	static const char *const two[2] = { "1", "0" }, *const planes[2] = { "5", "16" };
	struct bsq_params p;
	char name[64], val[8];
	int t, c;
	(void)unused;
	setenv("SPATE_BSQ_TAIL_CELLS", "64", 1);
	for (t = 0; t < 2; t++) {
		setenv("SPATE_BSQ_GS_TWO", two[t], 1);
		bsq_params_default(&p);
		assert_int_equal(bsq_setup_rb(&p, 32, 32, 16, sizeof(bsq_real) < 8 ? 1e3 : 1e5, 0.71,
			0, 3.117, 1e-2), 0);
		snprintf(name, sizeof name, "rayleigh-benard, two=%s", two[t]);
		compare(name, &p, 10);
		/* sweeps that read across faces (the default) and sweeps after a
		 * fill */
		compare_with("SPATE_BSQ_GS_DIRECT", "0", "rayleigh-benard, fills", &p, 10);
		/* tiles of 8 rows (both kernels), then 16 (k_gs_sweep) */
		setenv("SPATE_BSQ_GS_TWO_ROWS", "8", 1);
		setenv("SPATE_BSQ_GS_ROWS", "8", 1);
		compare("rayleigh-benard, 8 rows", &p, 10);
		unsetenv("SPATE_BSQ_GS_TWO_ROWS");
		compare_with("SPATE_BSQ_GS_ROWS", "16", "rayleigh-benard, 16 rows", &p, 10);
		/* the next plane's red inputs loaded before the barrier: none, all
		 * seven, the two from memory (SPATE_BSQ_GS_PRE) */
		for (c = 0; c < 3; c++) {
			snprintf(name, sizeof name, "rayleigh-benard, pre=%d", c);
			snprintf(val, sizeof val, "%d", c);
			compare_with("SPATE_BSQ_GS_PRE", val, name, &p, 10);
		}
		/* chunks of 5 planes (16 = 5 + 5 + 5 + 1) and of the whole level */
		for (c = 0; c < 2; c++) {
			snprintf(name, sizeof name, "rayleigh-benard, chunks of %s", planes[c]);
			compare_with("SPATE_BSQ_GS_PLANES", planes[c], name, &p, 10);
		}
		/* chunks of at least two planes (the default lets the walks'
		 * rule pick one: the finest level's here) */
		compare_with("SPATE_BSQ_GS_LEAST", "2", "rayleigh-benard, chunks from 2 planes", &p,
			10);
		assert_int_equal(bsq_setup_rb(&p, 24, 24, 12, sizeof(bsq_real) < 8 ? 1e3 : 1e5, 0.71,
			0, 3.117, 1e-2), 0);
		compare("rayleigh-benard 24^2x12", &p, 10);
		setup(&p, CAVITY3D, 16);
		compare("cavity 16^3", &p, 10);
		compare_with("SPATE_BSQ_GS_DIRECT", "0", "cavity 16^3, fills", &p, 10);
		for (c = 0; c < 3; c++) {
			snprintf(name, sizeof name, "cavity 16^3, pre=%d", c);
			snprintf(val, sizeof val, "%d", c);
			compare_with("SPATE_BSQ_GS_PRE", val, name, &p, 10);
		}
		/* the prolongation by coarse cell (staged in shared memory),
		 * reading across faces and after fills */
		setenv("SPATE_BSQ_PL8", "1", 1);
		compare("cavity 16^3, pl by coarse", &p, 10);
		compare_with("SPATE_BSQ_GS_DIRECT", "0", "cavity 16^3, pl by coarse, fills", &p, 10);
		unsetenv("SPATE_BSQ_PL8");
		setup(&p, CAVITY2D, 32);
		compare("cavity 32x1x32", &p, 20);
		compare_with("SPATE_BSQ_GS_DIRECT", "0", "cavity 32x1x32, fills", &p, 20);
		setup(&p, DHC, 32);
		compare("heated cavity 32x1x32", &p, 20);
	}
	unsetenv("SPATE_BSQ_GS_TWO");
	unsetenv("SPATE_BSQ_TAIL_CELLS");
}

static void test_taylor_green(void **unused)
{
	struct bsq_params p;
	(void)unused;
	setup(&p, TG, 32);
	p.tol = BSQTEST_TOL(1e-10);
	compare("taylor-green 32x1x32 mg", &p, 40);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Time per step of `steps` steps after `warm` ones (the first: FMG). */
static void bench_one(const char *name, struct bsq_params *p, int warm, int steps)
{
	struct bsq_state s;
	struct bsq_stats st;
	struct bsq_cuda *ctx;
	double t0, t1;
	int i, cycles = 0, err = 0;
	if (bsq_init(&s, p) || bsq_cuda_init(&ctx, &s, p)) {
		printf("bench %s: init failed\n", name);
		return;
	}
	for (i = 0; i < warm; i++)
		err |= bsq_cuda_step(ctx, p, &st);
	t0 = now();
	for (i = 0; i < steps; i++) {
		err |= bsq_cuda_step(ctx, p, &st);
		cycles += st.cycles;
	}
	t1 = now();
	printf("bench %-34s %9.3f ms/step, %8.1f %s/step (%.3f ms each), max |div u| %.2e "
		"(tol %.0e)%s\n", name, 1e3 * (t1 - t0) / steps, (double)cycles / steps,
		p->solver == BSQ_SOLVER_JACOBI ? "sweeps" : "V-cycles",
		1e3 * (t1 - t0) / (cycles > 0 ? cycles : 1), st.div_max, p->tol,
		err ? " NOT CONVERGED (capped)" : "");
	bsq_cuda_free(ctx);
	bsq_free(&s);
}

static void bench(void)
{
	struct bsq_params p;
	setup(&p, CAVITY3D, 32);
	p.nx = 256;
	p.ny = 32;
	p.nz = 256;
	p.ly = 0.125;
	p.tol = BSQTEST_TOL(1e-8);
	bench_one("cavity 256x32x256 mg V(2,2) pl", &p, 3, 10);
	p.interp = BSQ_INTERP_PC;
	bench_one("cavity 256x32x256 mg V(2,2) pc", &p, 3, 10);
	p.interp = BSQ_INTERP_PL;
	p.solver = BSQ_SOLVER_JACOBI;
	/* Jacobi needs O(n^2) sweeps (about 1e5 here): capped, it reports the
	 * divergence it reached and its time per sweep. */
	p.max_sweeps = 20000;
	bench_one("cavity 256x32x256 jacobi (20000 cap)", &p, 0, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cavity),
		cmocka_unit_test(test_heated),
		cmocka_unit_test(test_taylor_green),
		cmocka_unit_test(test_rayleigh_benard),
		cmocka_unit_test(test_sweeps),
	};
	const char *b = getenv("SPATE_BSQ_BENCH");
	int err;
	if (bsq_cuda_available() < 1) {
		printf("SKIP: no CUDA GPU (or built without CUDA)\n");
		return 77;
	}
	err = cmocka_run_group_tests(tests, NULL, NULL);
	if (!err && b && !strcmp(b, "1"))
		bench();
	return err;
}
