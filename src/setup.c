/* setup.c: the initial state of a run: the built-in analytic set-ups, or a
 * DEM (terrain_setup); the kernels' coefficients from the parameters, with
 * the desingularisation depth and dry tolerance that scale with the problem. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "setup.h"
#include "swe_state.h"
#include "terrain.h"

/* kappa = H max(SWE_KAPPA_GRID dx / L, SWE_KAPPA_FLOOR): swe_kappa_of */
#define SWE_KAPPA_GRID 0.25
#define SWE_KAPPA_FLOOR 1e-3

/* The desingularisation depth, m: [physics] kappa, or when that is 0
 * (auto, the default)
 *     kappa = H max(dx / (4 L), 1e-3),
 * H the mean depth of the initially wet cells (1 m when there are none), dx
 * the smaller cell side, L the longer side of the domain.  H dx / L is
 * KP07's eps = dx^4 of a grid of unit size and unit depth (KP07 sec. 2) in
 * metres: the depth by which the water surface changes across one cell
 * when it tilts by H over the domain.  Water thinner than kappa moves slower
 * than q/h (by (h/kappa)^2 when much thinner); with kappa of that size the
 * film so held on a draining slope is about a cell wide and narrows as the
 * grid is refined.  The floor 1e-3 H keeps thin tips honest on fine grids:
 * below it the velocity q/h of a front's first cells runs away (Ritter's
 * dry-bed dam break, t_stoker, at 1600 cells: the 1 mm edge 63 cells ahead of
 * the exact tip with kappa = 1.6e-4 H, 9 cells with 1e-3 H).  Both terms are
 * the same relative to the depth for a 10 cm laboratory bowl and a 50 m dam
 * break (Froude similarity: kappa / H depends on the grid alone).  The 1/4
 * and 1e-3 from Thacker's bowl (t_thacker: L1 order >= 1, shoreline within a
 * cell) and Ritter's (t_stoker: front within two cells). */
double swe_kappa_of(const struct swe_params *p, const struct swe_state *s)
{
	double H = 0, dx, L, f;
	long wet = 0;
	if (p->kappa > 0)
		return p->kappa;
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			double h = s->w[swe_idx(s, i, j)];
			H += h > 0 ? h : 0;
			wet += h > 0;
		}
	H = wet ? H / (double)wet : 1;
	dx = s->dx < s->dy ? s->dx : s->dy;
	L = s->nx * s->dx > s->ny * s->dy ? s->nx * s->dx : s->ny * s->dy;
	f = SWE_KAPPA_GRID * dx / L;
	return H * (f > SWE_KAPPA_FLOOR ? f : SWE_KAPPA_FLOOR);
}

/* The dry tolerance, m: [physics] dry_tol, or when that is 0 (auto, the
 * default) kappa / 100, where the desingularised velocity is 1.4e-4 of q/h. */
double swe_dry_of(const struct swe_params *p, double kappa)
{
	return p->dry_tol > 0 ? p->dry_tol : 0.01 * kappa;
}

void swe_params_resolve(struct swe_params *p, const struct swe_state *s)
{
	p->kappa = swe_kappa_of(p, s);
	p->dry_tol = swe_dry_of(p, p->kappa);
}

struct swe_coef swe_coef_of(const struct swe_params *p)
{
	struct swe_coef c;
	/* unresolved (swe_params_resolve): the depths of the built-in tests */
	double kappa = p->kappa > 0 ? p->kappa : 1e-2;
	c.g = (real)p->g;
	c.theta = (real)p->theta;
	c.kappa4 = (real)(kappa * kappa * kappa * kappa);
	c.dry = (real)swe_dry_of(p, kappa);
	c.n2 = (real)(p->manning * p->manning);
	return c;
}

static double bumps(double x, double y, double L)
{
	static const double bx[3] = { 0.25, 0.75, 0.7 }, by[3] = { 0.3, 0.25, 0.75 };
	static const double bh[3] = { 0.8, 1.2, 0.6 }, bs[3] = { 0.08, 0.1, 0.07 };
	double b = 0;
	for (int k = 0; k < 3; k++) {
		double dx = x / L - bx[k], dy = y / L - by[k];
		b += bh[k] * exp(-(dx * dx + dy * dy) / (bs[k] * bs[k]));
	}
	return b;
}

/* Smooth bed for the convergence test. */
static double smooth_bed(double x, double y, double Lx, double Ly)
{
	return 0.2 * sin(2 * M_PI * x / Lx) * cos(2 * M_PI * y / Ly) + 0.1 * x / Lx;
}

/* Thacker's (1981) radially symmetric oscillation in a paraboloid bowl, as
 * SWASHES gives it (Delestre et al. 2013, sec. 4.2.2): bed
 * z = h0 (r^2/a^2 - 1), depth h = h0 s (1 - s r^2/a^2) where positive, with
 * s(t) = sqrt(1 - A^2) / (1 - A cos wt), A = (a^2 - r0^2) / (a^2 + r0^2),
 * w = sqrt(8 g h0) / a; at rest at t = 0 and t = 2 pi / w.  Centred in the
 * domain, a = L/4 (L = min(Lx, Ly)), r0 = 0.8 a, h0 = h_in (SWASHES: L = 4 m,
 * h0 = 0.1 m).  The bed and depth at (x, y), r measured from the centre. */
void swe_thacker_bowl(double x, double y, double Lx, double Ly, double h0, double t, double g,
	double *B, double *h)
{
	double L = Lx < Ly ? Lx : Ly, a = 0.25 * L, r0 = 0.8 * a;
	double A = (a * a - r0 * r0) / (a * a + r0 * r0), w = sqrt(8 * g * h0) / a;
	double s = sqrt(1 - A * A) / (1 - A * cos(w * t));
	double q = ((x - 0.5 * Lx) * (x - 0.5 * Lx) + (y - 0.5 * Ly) * (y - 0.5 * Ly)) / (a * a);
	*B = h0 * (q - 1);
	*h = h0 * s * (1 - s * q);
	*h = *h > 0 ? *h : 0;
}

/* Bed and initial water level at a point (relative to x0, y0). */
static void point_state(const struct swe_params *p, double x, double y, double Lx, double Ly,
	double *B, double *w)
{
	double cx = 0.5 * Lx, cy = 0.5 * Ly;
	const char *s = p->setup;
	*B = 0;
	if (strcmp(s, "circular_dambreak") == 0 || strcmp(s, "bumps_dambreak") == 0) {
		double r = hypot(x - (p->dam_x >= 0 ? p->dam_x : cx),
			y - (p->dam_y >= 0 ? p->dam_y : cy));
		if (s[0] == 'b')
			*B = bumps(x, y, Lx < Ly ? Lx : Ly);
		*w = r < p->radius ? p->h_in : p->h_out;
	} else if (strcmp(s, "lake_at_rest") == 0) {
		*B = bumps(x, y, Lx < Ly ? Lx : Ly);
		*w = p->level;
	} else if (strcmp(s, "thacker_bowl") == 0) {
		swe_thacker_bowl(x, y, Lx, Ly, p->h_in, 0, p->g, B, w);
	} else if (strcmp(s, "dambreak1d") == 0) {
		double xd = p->dam_x >= 0 ? p->dam_x : cx;
		*w = x < xd ? p->h_in : p->h_out;
	} else { /* smooth_wave */
		double rx = (x - 0.4 * Lx) / (0.1 * Lx), ry = (y - 0.45 * Ly) / (0.1 * Ly);
		*B = smooth_bed(x, y, Lx, Ly);
		*w = 1.0 + p->amplitude * exp(-(rx * rx + ry * ry));
	}
}

/* The reference level that w and B are stored relative to: the median initial
 * water level of the wet cells (sampled), or the lowest bed when all is dry.
 * Single precision resolves depth best near the reference, and shores (where
 * depth matters most) sit at the water level, not at the lowest bed. */
static double reference_level(const struct swe_params *p, double Lx, double Ly, int depth_given,
	double bmin)
{
	enum { SAMPLES = 65536 };
	double *lv = malloc(SAMPLES * sizeof *lv), B, w, ref = bmin;
	long n = (long)p->nx * p->ny, step = n / SAMPLES + 1, m = 0;
	if (!lv)
		return bmin;
	for (long k = 0; k < n && m < SAMPLES; k += step) {
		double x = (k % p->nx + 0.5) * p->dx, y = (k / p->nx + 0.5) * p->dy;
		point_state(p, x, y, Lx, Ly, &B, &w);
		if (depth_given ? w > 0 : w > B)
			lv[m++] = depth_given ? B + w : w;
	}
	if (m > 0)
		ref = spate_median(lv, m);
	free(lv);
	return ref;
}

int swe_setup_builtin(struct swe_state *s, const struct swe_params *p)
{
	int rc = swe_state_alloc(s, p->nx, p->ny, p->dx, p->dy);
	double Lx = p->nx * p->dx, Ly = p->ny * p->dy, bmin = INFINITY, B, w;
	int flat_level = strcmp(p->setup, "circular_dambreak") == 0 ||
		strcmp(p->setup, "bumps_dambreak") == 0 || strcmp(p->setup, "dambreak1d") == 0 ||
		strcmp(p->setup, "thacker_bowl") == 0;
	if (rc)
		return rc;
	s->x0 = p->x0;
	s->y0 = p->y0;
	for (int J = 0; J <= s->ny; J++)
		for (int I = 0; I <= s->nx; I++) {
			point_state(p, I * p->dx, J * p->dy, Lx, Ly, &B, &w);
			bmin = B < bmin ? B : bmin;
		}
	s->bref = reference_level(p, Lx, Ly, flat_level, bmin);
	for (int J = 0; J <= s->ny; J++)
		for (int I = 0; I <= s->nx; I++) {
			point_state(p, I * p->dx, J * p->dy, Lx, Ly, &B, &w);
			s->Bc[swe_cidx(s, I, J)] = (real)(B - s->bref);
		}
	swe_state_finish_bed(s);
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			long k = swe_idx(s, i, j);
			point_state(p, (i + 0.5) * p->dx, (j + 0.5) * p->dy, Lx, Ly, &B, &w);
			/* dam breaks give depths over the bed; the others levels */
			if (flat_level)
				s->w[k] = (real)w;
			else
				s->w[k] = swe_level_to_w(s, i, j, (real)(w - s->bref));
			s->hu[k] = 0;
			s->hv[k] = 0;
		}
	return 0;
}

int swe_setup(struct swe_state *s, const struct swe_params *p)
{
	if (strcmp(p->setup, "dem") == 0)
		return terrain_setup(s, p);
	return swe_setup_builtin(s, p);
}
