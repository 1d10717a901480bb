/* t_stoker.c: 1D dam breaks against their exact solutions.
 *
 * Set-up dambreak1d: a 1000 m channel, ny = 4 cells across, walls on every
 * side, a dam at x = 500 m holding h_in = 10 m; t = 20 s, so that no wave
 * reaches either end (the rarefaction head is at 500 - 20 sqrt(g h_in) =
 * 302 m, the fronts at 690 m (wet) and 896 m (dry)).
 *   - wet bed, h_out = 1 m: Stoker's solution (rarefaction, constant state
 *     h_m, u_m, shock);
 *   - dry bed, h_out = 0: Ritter's solution (rarefaction to a dry front).
 * On nx = 400, 800, 1600 (dx = 2.5, 1.25, 0.625 m) the test checks:
 *   - the L1 error of h (sum |h - h_exact(x_i)| dx / 1000 m) decreases with
 *     every refinement (observed orders printed);
 *   - the front is near the exact one: for the wet bed the point where h
 *     crosses (h_m + h_out)/2, within two cells; for the dry bed the point
 *     where h crosses FRONT_H = 1% of h_in (compared with where the exact h
 *     does), within two cells, its error in metres shrinking with every
 *     refinement (the exact profile touches zero quadratically, so a depth
 *     threshold is ill-conditioned near the tip: see the info lines);
 *   - the solution is one-dimensional: all rows agree, hv stays ~0;
 *   - the volume is kept. */
#include "simtest.h"
#include "swe_state.h"
#include "setup.h"

#define LENGTH 1000.0
#define DAM 500.0
#define H_IN 10.0
#define T_END 20.0
#define G 9.81
/* depth that marks the dry front: 1% of h_in, deep enough that the position
 * is not set by the desingularisation depth kappa or the dry tolerance, and
 * where the exact profile has a usable slope (3.3e-3) */
#define FRONT_H (0.01 * H_IN)
/* the leading edge, reported only: easternmost cell deeper than this */
#define EDGE_H 1e-3

struct exact {
	double h_out, c0, hm, um, cm, S;
};

/* Intermediate state of Stoker's solution: the rarefaction's Riemann
 * invariant u + 2c = 2 c0 and the shock's Rankine-Hugoniot conditions into
 * still water h1: u_m = (h_m - h1) sqrt(g (h_m + h1) / (2 h_m h1)).
 * Bisection in double on [h1, h0], where the difference changes sign. */
static struct exact exact_init(double h_out)
{
	struct exact e;
	e.h_out = h_out;
	e.c0 = sqrt(G * H_IN);
	if (h_out <= 0) {
		e.hm = e.um = e.cm = 0;
		e.S = 2 * e.c0;
		return e;
	}
	double lo = h_out, hi = H_IN;
	for (int it = 0; it < 200; it++) {
		double h = 0.5 * (lo + hi);
		double f = 2 * (e.c0 - sqrt(G * h)) -
			(h - h_out) * sqrt(G * (h + h_out) / (2 * h * h_out));
		if (f > 0)
			lo = h;
		else
			hi = h;
	}
	e.hm = 0.5 * (lo + hi);
	e.cm = sqrt(G * e.hm);
	e.um = 2 * (e.c0 - e.cm);
	e.S = e.hm * e.um / (e.hm - h_out);
	return e;
}

/* Exact depth at x (m from the channel's west end) at time t. */
static double exact_h(const struct exact *e, double x, double t)
{
	double xi = (x - DAM) / t;
	if (xi <= -e->c0)
		return H_IN;
	if (e->h_out <= 0) {
		if (xi >= 2 * e->c0)
			return 0;
		return (2 * e->c0 - xi) * (2 * e->c0 - xi) / (9 * G);
	}
	if (xi <= e->um - e->cm)
		return (2 * e->c0 - xi) * (2 * e->c0 - xi) / (9 * G);
	if (xi <= e->S)
		return e->hm;
	return e->h_out;
}

/* Position where the profile h[0..n) last crosses `level` going east: the
 * easternmost cell above it and its neighbour, interpolated linearly. */
static double crossing(const double *h, int n, double dx, double level)
{
	for (int i = n - 2; i >= 0; i--)
		if (h[i] > level) {
			double f = (h[i] - level) / (h[i] - h[i + 1]);
			return (i + 0.5 + f) * dx;
		}
	return -1;
}

struct result {
	double l1, front, front_exact, dx;
};

static struct result dambreak(const char *name, const struct exact *e, int nx)
{
	struct swe_params p;
	struct swe_state s;
	struct swe_result r;
	struct result res;
	double dx = LENGTH / nx, l1 = 0, rowdiff = 0, hvmax = 0, *h = malloc(nx * sizeof *h);
	int ny = 4;

	sim_params(&p, "dambreak1d", nx, ny, dx, dx);
	sim_set(&p, "initial", "h_in", "%g", H_IN);
	sim_set(&p, "initial", "h_out", "%g", e->h_out);
	sim_set(&p, "initial", "dam_x", "%g", DAM);
	sim_set(&p, "physics", "manning", "0");
	sim_set(&p, "run", "end_time", "%g", T_END);
	sim_set(&p, "run", "threads", "1");   /* 4 rows: threads would only wait */
	sim_run(&p, &s, &r);
	if (!h || fabs(r.sim_time - T_END) > 1e-9) {
		fprintf(stderr, "test error: run ended at %g s\n", r.sim_time);
		exit(99);
	}
	for (int i = 0; i < nx; i++) {
		double sum = 0, h0 = sim_h(&s, i, 0);
		for (int j = 0; j < ny; j++) {
			double d = fabs(sim_h(&s, i, j) - h0);
			double hv = fabs((double)s.hv[swe_idx(&s, i, j)]);
			sum += sim_h(&s, i, j);
			rowdiff = d > rowdiff ? d : rowdiff;
			hvmax = hv > hvmax ? hv : hvmax;
		}
		h[i] = sum / ny;
		l1 += fabs(h[i] - exact_h(e, (i + 0.5) * dx, T_END)) * dx;
	}
	res.l1 = l1 / LENGTH;
	res.dx = dx;
	if (e->h_out > 0) {
		res.front = crossing(h, nx, dx, 0.5 * (e->hm + e->h_out));
		res.front_exact = DAM + e->S * T_END;
	} else {
		int edge = nx - 1;
		res.front = crossing(h, nx, dx, FRONT_H);
		res.front_exact = DAM + T_END * (2 * e->c0 - 3 * sqrt(G * FRONT_H));
		while (edge > 0 && !(h[edge] > EDGE_H))
			edge--;
		printf("info %s nx = %d: leading edge (last cell with h > %g m) at %.2f m; exact "
			"%.2f m (tip at %.2f m): %+.1f cells\n", name, nx, EDGE_H, (edge + 0.5) * dx,
			DAM + T_END * (2 * e->c0 - 3 * sqrt(G * EDGE_H)), DAM + T_END * 2 * e->c0,
			((edge + 0.5) * dx - (DAM + T_END * (2 * e->c0 - 3 * sqrt(G * EDGE_H)))) / dx);
	}
	printf("%s nx = %4d: %ld steps, L1(h) = %.4e m, front at %.2f m (exact %.2f m, "
		"%+.2f cells)\n", name, nx, r.steps, res.l1, res.front, res.front_exact,
		(res.front - res.front_exact) / dx);
	sim_check(rowdiff < 1e-4, "%s nx = %d: rows differ by %.2e m (< 1e-4)", name, nx, rowdiff);
	sim_check(hvmax < 1e-4, "%s nx = %d: max |hv| = %.2e m^2/s (< 1e-4)", name, nx, hvmax);
	{
		int cells = 2;
		sim_check(fabs(res.front - res.front_exact) <= cells * dx, "%s nx = %d: front error "
			"%.2f m (<= %d cells = %.2f m)", name, nx, res.front - res.front_exact, cells,
			cells * dx);
	}
	/* Single precision stores levels relative to the reference level (here
	 * the reservoir's, 10 m above the dry bed), so the thin film spreading on
	 * the dry bed is quantised to ~1e-6 m: over the 2900 steps of the finest
	 * grid that is a few 1e-6 of the volume.  Double precision is exact. */
#ifdef SPATE_DOUBLE
	const double vol_tol = 1e-12;
#else
	const double vol_tol = 1e-5;
#endif
	sim_check(fabs(r.volume_final - r.volume_initial) < vol_tol * r.volume_initial,
		"%s nx = %d: volume relative change %.2e (< %g)", name, nx,
		(r.volume_final - r.volume_initial) / r.volume_initial, vol_tol);
	free(h);
	swe_state_free(&s);
	return res;
}

static void series(const char *name, double h_out)
{
	struct exact e = exact_init(h_out);
	struct result res[3];
	int nx[3] = { 400, 800, 1600 };
	if (h_out > 0)
		printf("%s: exact h_m = %.6f m, u_m = %.6f m/s, shock speed %.6f m/s\n", name, e.hm,
			e.um, e.S);
	for (int k = 0; k < 3; k++)
		res[k] = dambreak(name, &e, nx[k]);
	for (int k = 1; k < 3; k++) {
		double f0 = fabs(res[k - 1].front - res[k - 1].front_exact);
		double f1 = fabs(res[k].front - res[k].front_exact);
		sim_check(res[k].l1 < res[k - 1].l1, "%s: L1 error %.4e -> %.4e from nx = %d to %d, "
			"observed order %.2f (must decrease)", name, res[k - 1].l1, res[k].l1,
			nx[k - 1], nx[k], log2(res[k - 1].l1 / res[k].l1));
		if (h_out <= 0)
			sim_check(f1 < f0, "%s: front error %.3f m -> %.3f m from nx = %d to %d, "
				"observed order %.2f (must decrease)", name, f0, f1, nx[k - 1], nx[k],
				log2(f0 / f1));
	}
}

int main(void)
{
	struct exact e = exact_init(1);
	/* the exact solution itself: h_m / h0 = 0.3962 for h1 / h0 = 0.1 (the
	 * classic number), and the shock conserves momentum:
	 * S (h_m u_m) = h_m u_m^2 + g (h_m^2 - h1^2) / 2 */
	double rh = e.S * e.hm * e.um - (e.hm * e.um * e.um + 0.5 * G * (e.hm * e.hm - 1));
	sim_check(fabs(e.hm / H_IN - 0.3962) < 1e-4 && fabs(rh) < 1e-9 * e.S * e.hm * e.um,
		"exact Stoker state: h_m / h0 = %.5f (0.3962), momentum jump residual %.1e",
		e.hm / H_IN, rh);
	series("Stoker (wet bed)", 1);
	series("Ritter (dry bed)", 0);
	return sim_done("t_stoker");
}
