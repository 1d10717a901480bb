/* t_mass.c: mass conservation and positivity of the CPU backend.
 *
 * Closed domains (walls on every side), driven step by step through the
 * backend table (init / advance one step / download):
 *   - circular dam break (flat bed, 1 m in 0.1 m), 200 x 200 cells of 10 m;
 *   - dam break over three bumps (wet/dry fronts on slopes, Manning 0.02).
 * After every step: no cell depth below zero, every value finite.  At the
 * end: |V - V0| / V0 < 1e-6.  The CFL number is the default one, so this
 * also checks that the default keeps depths positive (KP07 Theorem 2.1). */
#include "simtest.h"

#define MAX_STEPS 300

static void mass(const char *name, const char *setup, double h_out, double end_time,
	double manning)
{
	const struct spate_backend *be = &spate_backend_cpu;
	struct swe_backend_ctx *ctx = NULL;
	struct swe_params p;
	struct swe_state s;
	struct swe_stats st;
	double v0, v1, hmin = INFINITY, vdev = 0;
	long neg_steps = 0, first_neg = -1;
	int rc;

	sim_params(&p, setup, 200, 200, 10, 10);
	sim_set(&p, "initial", "h_in", "1");
	sim_set(&p, "initial", "h_out", "%g", h_out);
	sim_set(&p, "initial", "radius", "200");
	sim_set(&p, "physics", "manning", "%g", manning);
	sim_set(&p, "run", "end_time", "%g", end_time);
	if (swe_params_validate(&p) || swe_setup_builtin(&s, &p)) {
		fprintf(stderr, "test error: set-up failed\n");
		exit(99);
	}
	v0 = swe_volume(&s);
	memset(&st, 0, sizeof st);
	if ((rc = be->init(&ctx, &s, &p, 0))) {
		fprintf(stderr, "test error: init: %s\n", spate_strerror(rc));
		exit(99);
	}
	while (st.t < end_time && st.steps < MAX_STEPS) {
		double smin = INFINITY, v;
		if ((rc = be->advance(ctx, end_time, 1, &st)) || (rc = be->download(ctx, &s))) {
			fprintf(stderr, "test error: step %ld: %s\n", st.steps, spate_strerror(rc));
			exit(99);
		}
		if (swe_check_finite(&s)) {
			sim_check(0, "%s: NaN or infinity after step %ld", name, st.steps);
			break;
		}
		for (int j = 0; j < s.ny; j++)
			for (int i = 0; i < s.nx; i++) {
				double h = sim_h(&s, i, j);
				smin = h < smin ? h : smin;
			}
		if (smin < 0) {
			neg_steps++;
			if (first_neg < 0)
				first_neg = st.steps;
		}
		hmin = smin < hmin ? smin : hmin;
		v = swe_volume(&s);
		vdev = fabs(v - v0) > vdev ? fabs(v - v0) : vdev;
	}
	be->fini(ctx);
	v1 = swe_volume(&s);
	printf("%s: %ld steps to t = %.2f s, max speed %.3g m/s, max depth %.4g m\n", name,
		st.steps, st.t, swe_max_speed(&s, p.kappa), swe_max_depth(&s));
	sim_check(st.steps >= 100, "%s: %ld steps (>= 100)", name, st.steps);
	sim_check(hmin >= 0, "%s: min depth over all steps = %.3e m (>= 0; negative in %ld "
		"steps, first at step %ld)", name, hmin, neg_steps, first_neg);
	sim_check(fabs(v1 - v0) < 1e-6 * v0, "%s: volume %.10g -> %.10g m^3, relative change "
		"%.2e (< 1e-6); largest during the run %.2e", name, v0, v1, (v1 - v0) / v0,
		vdev / v0);
	swe_state_free(&s);
}

int main(void)
{
	mass("circular dam break", "circular_dambreak", 0.1, 100, 0);
	mass("circular dam break, dry bed", "circular_dambreak", 0, 100, 0);
	mass("bumps dam break", "bumps_dambreak", 0.1, 100, 0.02);
	mass("bumps dam break, dry bed", "bumps_dambreak", 0, 200, 0.02);
	return sim_done("t_mass");
}
