/* forcing.c: rain in time for the run driver: which rain raster (or the
 * uniform rate) is in force, and when it changes. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>

#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "forcing.h"

int swe_has_sources(const struct swe_state *s, const struct swe_params *p)
{
	return s->n2 != NULL || s->nrain > 0 || p->rain > 0;
}

double swe_max_dt(const struct swe_state *s, const struct swe_params *p)
{
	double d = s->dx < s->dy ? s->dx : s->dy;
	if (p->max_dt > 0)
		return p->max_dt;
	if (s->nrain > 0 || p->rain > 0)
		return 0.5 * p->cfl * d / sqrt(p->g * 1.0);
	return 0;
}

int swe_forcing_apply(const struct spate_backend *be, struct swe_backend_ctx *ctx,
	const struct swe_state *s, const struct swe_params *p, double t, double *next)
{
	const float *rate = NULL;
	double uniform = 0;
	int k;
	*next = INFINITY;
	if (s->nrain == 0 && !(p->rain > 0))
		return 0;
	if (!be->set_rain) {
		spate_log_error("run", "rain: the %s backend cannot take rain yet: run with one "
			"subdomain on one MPI rank", be->name);
		return -SPATE_EUNSUPPORTED;
	}
	if (s->nrain == 0)
		return be->set_rain(ctx, NULL, p->rain / 3.6e6);
	/* the last raster whose time has come (none before the first: no rain) */
	for (k = s->nrain - 1; k >= 0 && s->rain_t[k] > t; k--)
		;
	if (k >= 0)
		rate = s->rain[k];
	if (k + 1 < s->nrain)
		*next = s->rain_t[k + 1];
	return be->set_rain(ctx, rate, uniform);
}
