/* forcing.h: rain and split sources for the time loop */
#ifndef SPATE_FORCING_H
#define SPATE_FORCING_H

#include "swe_backend.h"

/* Sets the rain in force at time t on
 * the backend (when the run has rain) and returns in *next the time of the
 * next change (INFINITY: none).  0 or -SPATE_E*. */
int swe_forcing_apply(const struct spate_backend *be, struct swe_backend_ctx *ctx,
	const struct swe_state *s, const struct swe_params *p, double t, double *next);
/* Whether the run has sources split from the step (rain, Manning raster). */
int swe_has_sources(const struct swe_state *s, const struct swe_params *p);
/* The longest step of a run, s (0: none): [run] max_dt, else with rain the
 * CFL step of water 1 m deep, 0.5 cfl min(dx, dy) / sqrt(g 1 m), so that
 * rain on dry ground (no wave speed yet) does not fall in one step. */
double swe_max_dt(const struct swe_state *s, const struct swe_params *p);

#endif
