/* t_mass.c: mass conservation and positivity of the CPU backend.
 *
 * Closed domains (walls on every side), driven step by step through the
 * backend table (init / advance one step / download):
 *   - circular dam break (flat bed, 1 m in 0.1 m), 200 x 200 cells of 10 m;
 *   - dam break over three bumps (wet/dry fronts on slopes, Manning 0.02).
 * After every step: no cell depth below zero, every value finite.  At the
 * end: |V - V0| / V0 < 1e-6.
 *
 * The backend's depths cannot go negative: swe_finish clamps them.  So the
 * positivity of the scheme itself (KP07 Theorem 2.1: the update stays
 * non-negative for cfl <= 0.5) is checked apart: positivity() drives the
 * swe_step.h functions directly, as swe_cpu.c does (ghost fill, fluxes,
 * L, dt from the default CFL number, SSP-RK2), and looks at each stage's
 * depth U + dt L (in double, from the solver's values) before swe_finish
 * clamps it: it must be >= -1e-7 * (largest depth). */
#include "simtest.h"
#include "swe_state.h"
#include "swe_bc.h"
#include "swe_backend.h"
#include "params.h"
#include "setup.h"
#include "diag.h"
#include "swe_step.h"

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
	swe_params_resolve(&p, &s);
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

/* Largest face speeds over every face of the interior (boundary faces too),
 * and L on every interior cell, by the per-cell functions of swe_step.h. */
static void rhs(const struct swe_view *v, struct swe_coef c, real *Lw, real *Lhu, real *Lhv,
	double *ax, double *ay)
{
	*ax = *ay = 0;
	for (int j = 0; j < v->ny; j++)
		for (int i = -1; i < v->nx; i++) {
			double a = swe_flux_x(v, c, i, j).a;
			*ax = a > *ax ? a : *ax;
		}
	for (int j = -1; j < v->ny; j++)
		for (int i = 0; i < v->nx; i++) {
			double a = swe_flux_y(v, c, i, j).a;
			*ay = a > *ay ? a : *ay;
		}
	for (int j = 0; j < v->ny; j++)
		for (int i = 0; i < v->nx; i++) {
			long k = swe_vidx(v, i, j);
			swe_cell_rhs(v, c, i, j, swe_flux_x(v, c, i - 1, j), swe_flux_x(v, c, i, j),
				swe_flux_y(v, c, i, j - 1), swe_flux_y(v, c, i, j), &Lw[k], &Lhu[k], &Lhv[k]);
		}
}

/* Positivity of the update before the clamp (see the top of the file):
 * `steps` SSP-RK2 steps of `setup` on nx x nx cells over 2000 m. */
static void positivity(const char *name, const char *setup, double h_out, int nx, long steps)
{
	struct swe_params p;
	struct swe_state s;
	struct swe_bcdev bcd;
	struct swe_coef c;
	struct swe_view u, us;
	size_t n;
	real *ws, *hus, *hvs, *Lw, *Lhu, *Lhv;
	double t = 0, worst = 0, hmax_run = 0;
	long step, worst_step = -1, nneg = 0;
	int G = SWE_GHOST, worst_stage = 0;

	sim_params(&p, setup, nx, nx, 2000.0 / nx, 2000.0 / nx);
	sim_set(&p, "initial", "h_in", "1");
	sim_set(&p, "initial", "h_out", "%g", h_out);
	sim_set(&p, "initial", "radius", "200");
	sim_set(&p, "physics", "manning", "0.02");
	sim_set(&p, "physics", "integrator", "rk2");
	if (swe_params_validate(&p) || swe_setup_builtin(&s, &p)) {
		fprintf(stderr, "test error: set-up failed\n");
		exit(99);
	}
	swe_params_resolve(&p, &s);
	c = swe_coef_of(&p);
	swe_bcdev_fill(&bcd, &s, &p);
	n = (size_t)(s.ny + 2 * G) * s.pitch;
	ws = calloc(n, sizeof *ws);
	hus = calloc(n, sizeof *hus);
	hvs = calloc(n, sizeof *hvs);
	Lw = calloc(n, sizeof *Lw);
	Lhu = calloc(n, sizeof *Lhu);
	Lhv = calloc(n, sizeof *Lhv);
	if (!ws || !hus || !hvs || !Lw || !Lhu || !Lhv) {
		fprintf(stderr, "test error: out of memory\n");
		exit(99);
	}
	u.w = s.w; u.hu = s.hu; u.hv = s.hv; u.Bc = s.Bc; u.Bm = s.Bm;
	u.nx = s.nx; u.ny = s.ny; u.pitch = s.pitch; u.cpitch = s.cpitch;
	u.inv_dx = (real)(1.0 / s.dx);
	u.inv_dy = (real)(1.0 / s.dy);
	us = u;
	us.w = ws; us.hu = hus; us.hv = hvs;
	for (step = 0; step < steps; step++) {
		double ax, ay, dt, hmax = 0;
		real rdt;
		for (int j = 0; j < s.ny; j++)
			for (int i = 0; i < s.nx; i++) {
				double h = sim_h(&s, i, j);
				hmax = h > hmax ? h : hmax;
			}
		hmax_run = hmax > hmax_run ? hmax : hmax_run;
		swe_bc_fill(&u, &bcd, &p, t);
		rhs(&u, c, Lw, Lhu, Lhv, &ax, &ay);
		dt = swe_cfl_dt(ax, ay, s.dx, s.dy, p.cfl, 1e9);
		rdt = (real)dt;
		/* stage 1: U* = U + dt L(U) on every cell, ghosts included */
		swe_bc_fill_rate(&u, &bcd, Lw, Lhu, Lhv);
		for (int j = -G; j < s.ny + G; j++)
			for (int i = -G; i < s.nx + G; i++) {
				long k = swe_vidx(&u, i, j);
				double h = (double)s.w[k] + (double)rdt * Lw[k];
				if (i >= 0 && i < s.nx && j >= 0 && j < s.ny) {
					if (h < worst) {
						worst = h;
						worst_step = step;
						worst_stage = 1;
					}
					nneg += h < -1e-7 * hmax;
				}
				swe_euler_cell(&u, Lw, Lhu, Lhv, k, rdt, c, &ws[k], &hus[k], &hvs[k]);
			}
		/* stage 2: U^{n+1} = (U + U* + dt L(U*)) / 2 */
		rhs(&us, c, Lw, Lhu, Lhv, &ax, &ay);
		for (int j = 0; j < s.ny; j++)
			for (int i = 0; i < s.nx; i++) {
				long k = swe_vidx(&u, i, j);
				double h = 0.5 * ((double)s.w[k] + (double)ws[k] + (double)rdt * Lw[k]);
				if (h < worst) {
					worst = h;
					worst_step = step;
					worst_stage = 2;
				}
				nneg += h < -1e-7 * hmax;
				swe_rk2_cell(&u, &us, Lw, Lhu, Lhv, k, rdt, c, &s.w[k], &s.hu[k], &s.hv[k]);
			}
		t += dt;
		if (swe_check_finite(&s)) {
			sim_check(0, "%s: NaN or infinity after step %ld", name, step + 1);
			break;
		}
	}
	printf("%s: %ld RK2 steps of %d x %d cells to t = %.1f s, cfl %g, max depth %.3g m\n",
		name, step, nx, nx, t, p.cfl, hmax_run);
	sim_check(nneg == 0, "%s: depth before the clamp >= -1e-7 x max depth in every cell and "
		"stage: lowest %.3e m (step %ld, stage %d), %ld cell-stages below", name, worst,
		worst_step + 1, worst_stage, nneg);
	free(ws);
	free(hus);
	free(hvs);
	free(Lw);
	free(Lhu);
	free(Lhv);
	swe_state_free(&s);
}

int main(void)
{
	mass("circular dam break", "circular_dambreak", 0.1, 100, 0);
	mass("circular dam break, dry bed", "circular_dambreak", 0, 100, 0);
	mass("bumps dam break", "bumps_dambreak", 0.1, 100, 0.02);
	mass("bumps dam break, dry bed", "bumps_dambreak", 0, 200, 0.02);
	positivity("positivity, bumps dam break, dry bed", "bumps_dambreak", 0, 80, 300);
	return sim_done("t_mass");
}
