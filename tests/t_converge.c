/* t_converge.c: second-order accuracy on a smooth problem.
 *
 * Set-up smooth_wave: a Gaussian hump of water (amplitude 0.05 m, width 100 m)
 * on a 1 m deep lake over a smooth bed, in a 1000 m square with walls; at
 * t = 20 s the wave has travelled ~70 m: nothing reaches a wall, no shock
 * forms.  Grids N = 50, 100, 200, 400 on the same square (dx = 1000 m / N).
 *
 * Self-convergence: e(N) = mean over the coarse cells of |q_N - R q_2N|,
 * where R averages each 2 x 2 block of fine cells, in double; observed order
 * p = log2(e(N) / e(2N)).  The finest triple (100/200/400) must reach
 * p >= 1.8 for each of
 *   h      the depth (its error is dominated by the static O(dx^2) error of
 *          sampling the bed, hence the others);
 *   w      the absolute surface level (w + bref: bref, the minimum of the
 *          sampled bed, differs between grids);
 *   w-w0   the change of the surface since t = 0: the dynamics alone;
 *   hu, hv the momenta. */
#include "simtest.h"
#include "swe_state.h"
#include "setup.h"

#define L 1000.0
#define T_END 20.0
#define P_MIN 1.8

enum { Q_H, Q_W, Q_DW, Q_HU, Q_HV, NQ };
static const char *const qname[NQ] = { "h", "w", "w-w0", "hu", "hv" };

/* Initial states, for the change w - w0 (the dynamics alone, without the
 * static error of sampling the bed and the initial hump). */
static struct swe_state init[8];

static double value(const struct swe_state *s, int q, int i, int j)
{
	long k = swe_idx(s, i, j);
	switch (q) {
	case Q_H: return (double)s->w[k];
	case Q_DW:
		for (int g = 0; g < 8; g++)
			if (init[g].nx == s->nx)
				return (double)s->w[k] - (double)init[g].w[k];
		abort();
	case Q_W: return (double)s->w[k] + (double)s->Bm[k] + s->bref; /* absolute: bref depends on the grid */
	case Q_HU: return (double)s->hu[k];
	default: return (double)s->hv[k];
	}
}

static void solve(int n, struct swe_state *s, struct swe_state *s0)
{
	struct swe_params p;
	struct swe_result r;
	sim_params(&p, "smooth_wave", n, n, L / n, L / n);
	sim_set(&p, "initial", "amplitude", "0.05");
	sim_set(&p, "physics", "manning", "0");
	sim_set(&p, "physics", "integrator", "rk2");
	sim_set(&p, "run", "end_time", "%g", T_END);
	if (swe_setup_builtin(s0, &p)) {
		fprintf(stderr, "test error: set-up failed\n");
		exit(99);
	}
	sim_run(&p, s, &r);
	printf("N = %3d: dx = %6.2f m, %4ld steps to t = %g s, max speed %.4f m/s\n", n, L / n,
		r.steps, r.sim_time, r.max_speed);
	if (fabs(r.sim_time - T_END) > 1e-9) {
		fprintf(stderr, "test error: run ended at %g s\n", r.sim_time);
		exit(99);
	}
}

/* Mean |coarse - R fine| over the coarse grid, in double. */
static double error(const struct swe_state *c, const struct swe_state *f, int q)
{
	double e = 0;
	for (int j = 0; j < c->ny; j++)
		for (int i = 0; i < c->nx; i++) {
			double r = 0.25 * (value(f, q, 2 * i, 2 * j) + value(f, q, 2 * i + 1, 2 * j) +
				value(f, q, 2 * i, 2 * j + 1) + value(f, q, 2 * i + 1, 2 * j + 1));
			e += fabs(value(c, q, i, j) - r);
		}
	return e / ((double)c->nx * c->ny);
}

int main(void)
{
	enum { NG = 4 };
	static const int n[NG] = { 50, 100, 200, 400 };
	struct swe_state s[NG];
	double e[NG - 1][NQ];

	for (int k = 0; k < NG; k++)
		solve(n[k], &s[k], &init[k]);
	for (int k = 0; k + 1 < NG; k++) {
		printf("e(%3d):", n[k]);
		for (int q = 0; q < NQ; q++) {
			e[k][q] = error(&s[k], &s[k + 1], q);
			printf("  %s %.3e", qname[q], e[k][q]);
		}
		putchar('\n');
	}
	for (int k = 0; k + 2 < NG; k++) {
		printf("order %3d/%3d/%3d:", n[k], n[k + 1], n[k + 2]);
		for (int q = 0; q < NQ; q++)
			printf("  %s %.2f", qname[q], log2(e[k][q] / e[k + 1][q]));
		putchar('\n');
	}
	for (int q = 0; q < NQ; q++) {
		double p = log2(e[NG - 3][q] / e[NG - 2][q]);
		sim_check(p >= P_MIN, "order of %s on N = %d/%d/%d: %.3f (>= %.1f)", qname[q],
			n[NG - 3], n[NG - 2], n[NG - 1], p, P_MIN);
	}
	for (int k = 0; k < NG; k++) {
		swe_state_free(&s[k]);
		swe_state_free(&init[k]);
	}
	return sim_done("t_converge");
}
