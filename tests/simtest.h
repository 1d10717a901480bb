/* simtest.h: helpers shared by the simulation tests (t_lake, t_mass,
 * t_stoker, t_converge, t_cuda): parameters from code, a quiet run that
 * returns the final state, a failure counter, and the lake-at-rest check.
 *
 * A test prints what it measures, one "name: value (limit)" line per check,
 * and exits 0 when every check passed, 1 otherwise, 77 to skip. */
#ifndef SPATE_TESTS_SIMTEST_H
#define SPATE_TESTS_SIMTEST_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_state.h"
#include "params.h"
#include "setup.h"
#include "diag.h"
#include "swe_run.h"
#include "output.h"

#define SIM_UNUSED __attribute__((unused))

static int sim_failures;

/* Record one check: prints "ok" or "FAIL" with the message. */
static SIM_UNUSED void __attribute__((format(printf, 2, 3))) sim_check(int ok, const char *fmt, ...)
{
	va_list ap;
	printf("%s ", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		sim_failures++;
}

/* Set one parameter or exit: a test's own parameters must always be valid. */
static SIM_UNUSED void __attribute__((format(printf, 4, 5))) sim_set(struct swe_params *p,
	const char *sec, const char *key, const char *fmt, ...)
{
	char val[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(val, sizeof val, fmt, ap);
	va_end(ap);
	if (swe_params_set(p, sec, key, val, "test", 0)) {
		fprintf(stderr, "test error: cannot set [%s] %s = %s\n", sec, key, val);
		exit(99);
	}
}

/* Defaults for a built-in set-up on the CPU, walls, no output files. */
static SIM_UNUSED void sim_params(struct swe_params *p, const char *setup, int nx, int ny,
	double dx, double dy)
{
	swe_params_defaults(p);
	sim_set(p, "domain", "setup", "%s", setup);
	if (strcmp(setup, "dem") == 0) {
		/* a DEM brings its grid: the keys would be refused, but the tests
		 * size their arrays by p->nx, p->ny */
		p->nx = nx;
		p->ny = ny;
		p->dx = dx;
		p->dy = dy;
	} else {
		sim_set(p, "domain", "nx", "%d", nx);
		sim_set(p, "domain", "ny", "%d", ny);
		sim_set(p, "domain", "dx", "%.17g", dx);
		sim_set(p, "domain", "dy", "%.17g", dy);
	}
	sim_set(p, "run", "device", "cpu");
	sim_set(p, "output", "grids", "no");
}

/* Run p to its end (or max_steps); *final receives the final state (free it
 * with swe_state_free).  Exits 99 when the run itself fails. */
/* Every kind of open boundary at once: inflow hydrograph west, free outflow
 * east and north, a fixed level (0.5 m) south. */
static SIM_UNUSED void sim_open_boundaries(struct swe_params *p)
{
	sim_set(p, "boundary", "west", "inflow");
	sim_set(p, "boundary", "west_hydrograph", "0 1, 100 3");
	sim_set(p, "boundary", "east", "outflow");
	sim_set(p, "boundary", "south", "level");
	sim_set(p, "boundary", "south_level", "0.5");
	sim_set(p, "boundary", "north", "outflow");
}

static SIM_UNUSED void sim_run(const struct swe_params *p, struct swe_state *final,
	struct swe_result *r)
{
	struct swe_run_opts o;
	struct swe_result rr;
	int rc;
	memset(&o, 0, sizeof o);
	o.no_output = 1;
	o.final_state = final;
	if (swe_params_validate(p)) {
		fprintf(stderr, "test error: parameters do not validate\n");
		exit(99);
	}
	spate_set_quiet(1);
	rc = swe_run(p, &o, r ? r : &rr);
	if (rc) {
		fprintf(stderr, "test error: %s run failed: %s\n", p->setup, spate_strerror(rc));
		exit(99);
	}
}

/* Rain on patches of a mostly dry DEM (t_early, t_cuda, t_cuda_multi):
 * SIM_PATCH_NX x SIM_PATCH_NY cells of 5 m, a bed rising north (2 cm a
 * cell) with a mound, a reservoir at 0.6 m in the south-west corner; with
 * `manning` a raster of n (0.01 to 0.05); with `rain` three rain rasters in
 * time: a disc of 12 cells radius in the north-west from 0 s (400 to 1000
 * mm/h), a band of columns in the east from 4 s (2000 mm/h, every
 * seventh cell NODATA: none there), none from 9 s (a raster of zeros).
 * Most tiles see neither water nor rain.  The files go into the new
 * directory dir (mkdtemp template), removed by sim_patch_clean. */
enum { SIM_PATCH_NX = 180, SIM_PATCH_NY = 140 };

static SIM_UNUSED void sim_patch_dem(struct swe_params *p, char *dir, int rain, int manning)
{
	static const char *const name[5] = { "dem", "n", "r1", "r2", "r3" };
	size_t nn = (size_t)SIM_PATCH_NX * SIM_PATCH_NY;
	double *f = (double *)malloc(5 * nn * sizeof *f);
	char path[5][256];
	if (!f || !mkdtemp(dir)) {
		fprintf(stderr, "test error: no temporary directory or memory\n");
		exit(99);
	}
	for (int j = 0; j < SIM_PATCH_NY; j++)
		for (int i = 0; i < SIM_PATCH_NX; i++) {
			double x = i - 120.0, y = j - 40.0, dx = i - 40.0, dy = j - 110.0;
			size_t c = (size_t)j * SIM_PATCH_NX + i;
			f[c] = 0.02 * j + 0.8 * exp(-(x * x + y * y) / 60.0);
			f[nn + c] = 0.01 + 0.01 * ((i * 7 + j * 3) % 5);
			f[2 * nn + c] = dx * dx + dy * dy < 144 ? 400 + 100 * ((i + 2 * j) % 7) : 0;
			f[3 * nn + c] = i >= 150 && i < 165 ? ((i * 3 + j) % 7 == 0 ? -9999 : 2000) : 0;
			f[4 * nn + c] = 0;
		}
	for (int k = 0; k < 5; k++) {
		snprintf(path[k], sizeof path[k], "%s/%s.asc", dir, name[k]);
		if (spate_write_asc(path[k], SIM_PATCH_NX, SIM_PATCH_NY, 0, 0, 5, 5, f + k * nn,
			-9999, NULL)) {
			fprintf(stderr, "test error: cannot write %s\n", path[k]);
			exit(99);
		}
	}
	free(f);
	sim_params(p, "dem", SIM_PATCH_NX, SIM_PATCH_NY, 5, 5);
	sim_set(p, "domain", "dem", "%s", path[0]);
	sim_set(p, "initial", "reservoir_level", "0.6");
	sim_set(p, "initial", "reservoir_line", "300 0 300 200");
	if (manning)
		sim_set(p, "physics", "manning_file", "%s", path[1]);
	if (rain)
		sim_set(p, "physics", "rain_files", "0 %s, 4 %s, 9 %s", path[2], path[3],
			path[4]);
	sim_set(p, "run", "end_time", "1e9");
}

static SIM_UNUSED void sim_patch_clean(const char *dir)
{
	static const char *const name[5] = { "dem", "n", "r1", "r2", "r3" };
	char path[256];
	for (int k = 0; k < 5; k++) {
		snprintf(path, sizeof path, "%s/%s.asc", dir, name[k]);
		remove(path);
	}
	remove(dir);
}

/* Depth of cell (i, j) in double (the state's w holds the depth). */
static inline double sim_h(const struct swe_state *s, int i, int j)
{
	long k = swe_idx(s, i, j);
	return (double)s->w[k];
}

static SIM_UNUSED int sim_done(const char *name)
{
	if (sim_failures)
		printf("%s: %d check(s) FAILED\n", name, sim_failures);
	else
		printf("%s: all checks passed\n", name);
	return sim_failures ? 1 : 0;
}

/* Lake at rest: largest speed (m/s) and change of level (m) allowed. */
#ifdef SPATE_DOUBLE
#define SIM_SPEED_TOL 1e-10
#define SIM_LEVEL_TOL 1e-10
#else
#define SIM_SPEED_TOL 1e-5
#define SIM_LEVEL_TOL 1e-5
#endif

/* Lake at rest on `device` (t_lake, t_cuda): set-up lake_at_rest at `level`
 * on 100 x 100 cells of 20 m, 1000 RK2 steps; checks the largest speed,
 * the level in initially wet cells and the volume. */
static SIM_UNUSED void sim_lake(const char *name, double level, const char *device)
{
	struct swe_params p;
	struct swe_state s0, s1;
	struct swe_result r;
	double dw_wet = 0, dw_dry = 0, dh_dry = 0, speed;
	long nwet = 0, ndry = 0;

	sim_params(&p, "lake_at_rest", 100, 100, 20, 20);
	sim_set(&p, "initial", "level", "%.17g", level);
	sim_set(&p, "physics", "manning", "0");
	sim_set(&p, "physics", "integrator", "rk2");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "1000");
	sim_set(&p, "run", "device", "%s", device);

	if (swe_setup_builtin(&s0, &p)) {
		fprintf(stderr, "test error: set-up failed\n");
		exit(99);
	}
	sim_run(&p, &s1, &r);
	speed = swe_max_speed(&s1, swe_kappa_of(&p, &s0));
	for (int j = 0; j < s0.ny; j++)
		for (int i = 0; i < s0.nx; i++) {
			long k = swe_idx(&s0, i, j);
			double dw = fabs((double)s1.w[k] - (double)s0.w[k]);
			if (sim_h(&s0, i, j) > 0) {
				nwet++;
				dw_wet = dw > dw_wet ? dw : dw_wet;
			} else {
				ndry++;
				dw_dry = dw > dw_dry ? dw : dw_dry;
				dh_dry = sim_h(&s1, i, j) > dh_dry ? sim_h(&s1, i, j) : dh_dry;
			}
		}
	printf("%s: level %g m, %ld wet and %ld dry cells, %ld steps to t = %.1f s\n", name, level,
		nwet, ndry, r.steps, r.sim_time);
	sim_check(r.steps == 1000, "%s: steps = %ld (1000)", name, r.steps);
	sim_check(speed < SIM_SPEED_TOL, "%s: max speed = %.3e m/s (< %.0e)", name, speed,
		SIM_SPEED_TOL);
	sim_check(dw_wet < SIM_LEVEL_TOL, "%s: max |w - w0| in wet cells = %.3e m (< %.0e)",
		name, dw_wet, SIM_LEVEL_TOL);
	if (ndry)
		printf("info %s: max |w - w0| in dry cells = %.3e m, max depth there = %.3e m\n",
			name, dw_dry, dh_dry);
	sim_check(fabs(r.volume_final - r.volume_initial) <= 1e-6 * r.volume_initial,
		"%s: volume %.9g -> %.9g m^3, relative change %.2e (<= 1e-6)", name,
		r.volume_initial, r.volume_final,
		(r.volume_final - r.volume_initial) / r.volume_initial);
	swe_state_free(&s0);
	swe_state_free(&s1);
}

#endif
