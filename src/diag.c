/* diag.c: diagnostics of a host state, accumulated in double precision. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>

#include "spate.h"
#include "swe.h"
#include "diag.h"

double swe_volume(const struct swe_state *s)
{
	double v = 0;
	for (int j = 0; j < s->ny; j++) {
		double row = 0;
		for (int i = 0; i < s->nx; i++) {
			long k = swe_idx(s, i, j);
			row += (double)s->w[k];
		}
		v += row;
	}
	return v * s->dx * s->dy;
}

double swe_max_depth(const struct swe_state *s)
{
	double m = 0;
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			long k = swe_idx(s, i, j);
			double h = (double)s->w[k];
			m = h > m ? h : m;
		}
	return m;
}

double swe_max_speed(const struct swe_state *s, double kappa)
{
	double m = 0;
	real k4 = (real)(kappa * kappa * kappa * kappa);
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			long k = swe_idx(s, i, j);
			real h = s->w[k];
			double u = kp07_velocity(h, s->hu[k], k4), v = kp07_velocity(h, s->hv[k], k4);
			double sp = sqrt(u * u + v * v);
			m = sp > m ? sp : m;
		}
	return m;
}

int swe_check_finite(const struct swe_state *s)
{
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			long k = swe_idx(s, i, j);
			if (!isfinite(s->w[k]) || !isfinite(s->hu[k]) || !isfinite(s->hv[k]))
				return -SPATE_ENUMERIC;
		}
	return 0;
}
