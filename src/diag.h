/* diag.h: diagnostics of a host state */
#ifndef SPATE_DIAG_H
#define SPATE_DIAG_H

#include "swe.h"

/* Volume (m^3), max depth, max speed of a host state, in double. */
double swe_volume(const struct swe_state *s);
double swe_max_depth(const struct swe_state *s);
double swe_max_speed(const struct swe_state *s, double kappa);
int swe_check_finite(const struct swe_state *s);

#endif
