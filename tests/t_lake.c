/* t_lake.c: lake at rest (well-balancing).  A level surface over three
 * Gaussian bumps must stay level and still for 1000 steps:
 *   - islands (scenarios/lake_at_rest.conf: level 0.5 m, bumps up to 1.2 m,
 *     so wet/dry contacts), on a 100 x 100 grid of 20 m cells (the same
 *     2 km square);
 *   - fully wet (level 1.5 m, above every bump).
 * Checks: max |velocity| < 1e-5 m/s in single precision (1e-10 in double),
 * the surface in every initially wet cell within 1e-5 m of the initial level
 * (1e-10 m in double), and the volume kept. */
#include "simtest.h"

#ifdef SPATE_DOUBLE
#define SPEED_TOL 1e-10
#define LEVEL_TOL 1e-10
#else
#define SPEED_TOL 1e-5
#define LEVEL_TOL 1e-5
#endif

static void lake(const char *name, double level)
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

	if (swe_setup_builtin(&s0, &p)) {
		fprintf(stderr, "test error: set-up failed\n");
		exit(99);
	}
	sim_run(&p, &s1, &r);
	speed = swe_max_speed(&s1, p.kappa);
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
	sim_check(speed < SPEED_TOL, "%s: max speed = %.3e m/s (< %.0e)", name, speed, SPEED_TOL);
	sim_check(dw_wet < LEVEL_TOL, "%s: max |w - w0| in wet cells = %.3e m (< %.0e)", name,
		dw_wet, LEVEL_TOL);
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

int main(void)
{
	lake("lake with islands", 0.5);
	lake("fully wet lake", 1.5);
	return sim_done("t_lake");
}
