/* t_early.c: [parallel] early_exit on vs off on the CPU.
 *
 * Skipping the right-hand side of rows that are dry with their neighbours
 * (swe_cpu_rhs.c) must not change a bit: final w, hu, hv compared with memcmp
 * after a few hundred steps on dry beds (the dam break over bumps and the 1D
 * dam break with h_out = 0, RK2 and Euler, one and three subdomains, open and
 * inflow boundaries, uniform rain; rain rasters on patches of a dry DEM that
 * change in time, a Manning raster, both), and the skip must have happened
 * where rows stay dry (swe_cpu_rows_skipped).  That it saves time is a
 * benchmark, not a test. */
#include "simtest.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "setup.h"
#include "diag.h"

/* Run p with early_exit = `on`: final state, and the rows skipped. */
static long run(const struct swe_params *p0, int on, struct swe_state *s)
{
	struct swe_params p = *p0;
	long before = swe_cpu_rows_skipped;
	sim_set(&p, "parallel", "early_exit", "%s", on ? "on" : "off");
	memset(s, 0, sizeof *s);
	sim_run(&p, s, NULL);
	return swe_cpu_rows_skipped - before;
}

static void compare(const char *name, const struct swe_params *p, int expect_skip)
{
	struct swe_state a, b;
	long s_off = run(p, 0, &a), s_on = run(p, 1, &b);
	size_t n = (size_t)(a.ny + 2 * SWE_GHOST) * a.pitch * sizeof(real);
	int same = a.nx == b.nx && a.ny == b.ny && memcmp(a.w, b.w, n) == 0 &&
		memcmp(a.hu, b.hu, n) == 0 && memcmp(a.hv, b.hv, n) == 0;
	double vol = swe_volume(&b);
	sim_check(same, "%s: early exit on vs off: w, hu, hv bitwise identical "
		"(volume %.9g m^3)", name, vol);
	sim_check(s_off == 0, "%s: early exit off skips no row (%ld)", name, s_off);
	if (expect_skip)
		sim_check(s_on > 0, "%s: early exit on skipped %ld row evaluations (> 0)", name,
			s_on);
	else
		printf("info %s: early exit on skipped %ld row evaluations\n", name, s_on);
	swe_state_free(&a);
	swe_state_free(&b);
}

int main(void)
{
	struct swe_params p;

	/* dam break over bumps on a dry bed: rows north and south of the
	 * cylinder stay dry for a while */
	sim_params(&p, "bumps_dambreak", 160, 200, 5, 5);
	sim_set(&p, "initial", "radius", "100");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "physics", "manning", "0.03");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "200");
	compare("bumps_dambreak rk2", &p, 1);
	sim_set(&p, "physics", "integrator", "euler");
	compare("bumps_dambreak euler", &p, 1);
	sim_set(&p, "physics", "integrator", "rk2");
	sim_set(&p, "boundary", "west", "outflow");
	sim_set(&p, "boundary", "north", "outflow");
	sim_set(&p, "parallel", "subdomains", "3");
	compare("bumps_dambreak rk2 open, 3 subdomains", &p, 1);
	/* uniform rain on the dry bed: every cell wet after the first step */
	sim_set(&p, "physics", "rain", "3600");
	sim_set(&p, "run", "max_steps", "100");
	compare("bumps_dambreak rk2 open, 3 subdomains, uniform rain", &p, 0);

	/* 1D dam break on a dry bed: every row is wet west of the front, so
	 * nothing is skipped; the results must agree all the same */
	sim_params(&p, "dambreak1d", 200, 20, 2, 2);
	sim_set(&p, "initial", "h_in", "2");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "200");
	compare("dambreak1d", &p, 0);

	/* dry bed filled through the boundaries: inflow from the west, a level
	 * on the south side, open north and east */
	sim_params(&p, "dambreak1d", 96, 64, 2, 3);
	sim_set(&p, "initial", "h_in", "0");
	sim_set(&p, "initial", "h_out", "0");
	sim_open_boundaries(&p);
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "200");
	compare("dry bed, inflow and level boundaries", &p, 0);

	/* rain on patches of a dry DEM, rasters that change in time, with a
	 * Manning raster (RK2 and Euler, one and three subdomains), and each
	 * alone: dry rows away from the water and the rain are skipped */
	{
		static const struct { int rain, manning, sub, euler; const char *name; } c[] = {
			{ 1, 1, 1, 0, "DEM, rain patches and Manning raster" },
			{ 1, 1, 3, 0, "DEM, rain patches and Manning raster, 3 subdomains" },
			{ 1, 1, 3, 1, "DEM, rain patches and Manning raster, Euler, 3 subdomains" },
			{ 1, 0, 1, 0, "DEM, rain patches" },
			{ 0, 1, 3, 0, "DEM, Manning raster, 3 subdomains" } };
		for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
			char dir[] = "/tmp/t_early.XXXXXX";
			sim_patch_dem(&p, dir, c[k].rain, c[k].manning);
			sim_set(&p, "run", "max_steps", "120");
			sim_set(&p, "parallel", "subdomains", "%d", c[k].sub);
			sim_set(&p, "physics", "integrator", "%s", c[k].euler ? "euler" : "rk2");
			compare(c[k].name, &p, 1);
			sim_patch_clean(dir);
		}
	}

	return sim_done("t_early");
}
