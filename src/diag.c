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

double swe_cell_speed(const struct swe_state *s, long k, double kappa)
{
	real k4 = (real)(kappa * kappa * kappa * kappa), h = s->w[k];
	double u = kp07_velocity(h, s->hu[k], k4), v = kp07_velocity(h, s->hv[k], k4);
	return sqrt(u * u + v * v);
}

double swe_max_speed(const struct swe_state *s, double kappa)
{
	double m = 0;
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			double sp = swe_cell_speed(s, swe_idx(s, i, j), kappa);
			m = sp > m ? sp : m;
		}
	return m;
}

int swe_first_nonfinite(const struct swe_state *s, int *i, int *j, const char **var)
{
	for (int b = 0; b < s->ny; b++)
		for (int a = 0; a < s->nx; a++) {
			long k = swe_idx(s, a, b);
			const char *v = !isfinite(s->w[k]) ? "h" : !isfinite(s->hu[k]) ? "hu" :
				!isfinite(s->hv[k]) ? "hv" : NULL;
			if (v) {
				*i = a;
				*j = b;
				*var = v;
				return 1;
			}
		}
	return 0;
}

int swe_check_finite(const struct swe_state *s)
{
	int i, j;
	const char *v;
	return swe_first_nonfinite(s, &i, &j, &v) ? -SPATE_ENUMERIC : 0;
}
