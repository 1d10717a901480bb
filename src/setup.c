/* setup.c: the initial state of a run: the built-in analytic set-ups, or a
 * DEM (terrain_setup); the kernels' coefficients from the parameters. */
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

struct swe_coef swe_coef_of(const struct swe_params *p)
{
	struct swe_coef c;
	c.g = (real)p->g;
	c.theta = (real)p->theta;
	c.kappa4 = (real)(p->kappa * p->kappa * p->kappa * p->kappa);
	c.dry = (real)p->dry_tol;
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
		strcmp(p->setup, "bumps_dambreak") == 0 || strcmp(p->setup, "dambreak1d") == 0;
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
			double Bm = s->Bm[k];
			point_state(p, (i + 0.5) * p->dx, (j + 0.5) * p->dy, Lx, Ly, &B, &w);
			/* dam breaks give depths over the bed; the others levels */
			if (flat_level)
				s->w[k] = (real)(Bm + w);
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
