/* t_thacker.c: a moving shoreline with an exact solution, in 2D.
 *
 * Thacker's (1981) radially symmetric oscillation in a paraboloid bowl as
 * SWASHES gives it (Delestre et al. 2013, sec. 4.2.2; setup thacker_bowl):
 * a 4 m square, h0 = 0.1 m, a = 1 m, r0 = 0.8 m, no friction, walls, run
 * for one period T = 2 pi a / sqrt(8 g h0) with the default parameters (the
 * desingularisation depth and the dry tolerance included), on 50^2, 100^2
 * and 200^2 cells.  At T the water is back at rest where it started: the
 * shoreline has receded from r = 1.118 m to r = 0.894 m, draining the slope.
 * Checks:
 *   - the L1 depth error (mean |h - h_exact| over the domain, h_exact at
 *     the cell centres) falls with every refinement, and its observed order
 *     between the two finest grids is >= 1;
 *   - the shoreline (the radius of a disc of the area where h > 1 mm) is
 *     within two cells of the exact one (the 1 mm contour of the exact
 *     solution) on every grid. */
#include "simtest.h"
#include "swe_state.h"

#define NGRID 3
#define THR 1e-3

int main(void)
{
	static const int n[NGRID] = { 50, 100, 200 };
	const double L = 4, h0 = 0.1, g = 9.81, a = 1, r0 = 0.8;
	const double A = (a * a - r0 * r0) / (a * a + r0 * r0), w = sqrt(8 * g * h0) / a;
	const double T = 2 * M_PI / w, s = sqrt((1 + A) / (1 - A));
	/* exact at T (as at 0): h = h0 s (1 - s r^2/a^2); the shoreline and the
	 * 1 mm contour */
	const double r_shore = a / sqrt(s), r_thr = sqrt(a * a / s * (1 - THR / (h0 * s)));
	double err[NGRID], shore[NGRID];
	const char *kenv = getenv("T_THACKER_KAPPA");

	for (int q = 0; q < NGRID; q++) {
		struct swe_params p;
		struct swe_state st;
		struct swe_result r;
		double dx = L / n[q], sum = 0, wet = 0, kappa;
		sim_params(&p, "thacker_bowl", n[q], n[q], dx, dx);
		sim_set(&p, "initial", "h_in", "%g", h0);
		sim_set(&p, "physics", "manning", "0");
		sim_set(&p, "run", "end_time", "%.17g", T);
		if (kenv)
			sim_set(&p, "physics", "kappa", "%s", kenv);
		sim_run(&p, &st, &r);
		for (int j = 0; j < n[q]; j++)
			for (int i = 0; i < n[q]; i++) {
				double B, he, h = sim_h(&st, i, j);
				swe_thacker_bowl((i + 0.5) * dx, (j + 0.5) * dx, L, L, h0, T, g, &B, &he);
				sum += fabs(h - he);
				wet += h > THR;
			}
		err[q] = sum / ((double)n[q] * n[q]);
		shore[q] = sqrt(wet * dx * dx / M_PI);
		kappa = swe_kappa_of(&p, &st);
		printf("%d^2 cells of %g m: %ld steps to t = %.4f s (T), kappa %.3g m: L1 depth error "
			"%.4e m, shoreline (1 mm) r = %.4f m, exact %.4f m (shoreline %.4f m), "
			"%.2f cells off\n", n[q], dx, r.steps, r.sim_time, kappa, err[q], shore[q],
			r_thr, r_shore, (shore[q] - r_thr) / dx);
		sim_check(fabs(r.sim_time - T) < 1e-9, "%d^2: reached T = %.6f s", n[q], T);
		sim_check(fabs(shore[q] - r_thr) <= 2 * dx, "%d^2: shoreline %.4f m within two cells "
			"(%.3f m) of the exact %.4f m", n[q], shore[q], 2 * dx, r_thr);
		if (q > 0)
			sim_check(err[q] < err[q - 1], "%d^2: L1 error %.4e < %.4e on %d^2", n[q], err[q],
				err[q - 1], n[q - 1]);
		swe_state_free(&st);
	}
	{
		double order = log(err[NGRID - 2] / err[NGRID - 1]) / log(2.0);
		sim_check(order >= 1, "observed order of the L1 depth error, %d^2 -> %d^2: %.2f (>= 1)",
			n[NGRID - 2], n[NGRID - 1], order);
	}
	return sim_done("t_thacker");
}
