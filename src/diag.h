/* diag.h: diagnostics of a host state */
#ifndef SPATE_DIAG_H
#define SPATE_DIAG_H

#include "swe.h"

/* Volume (m^3), max depth, max speed of a host state, in double. */
double swe_volume(const struct swe_state *s);
double swe_max_depth(const struct swe_state *s);
double swe_max_speed(const struct swe_state *s, double kappa);
int swe_check_finite(const struct swe_state *s);
/* The first interior cell (row-major from the south-west) holding a NaN or
 * infinite value: 1 and its (*i, *j) and the variable ("h", "hu", "hv"),
 * or 0 when every value is finite. */
int swe_first_nonfinite(const struct swe_state *s, int *i, int *j, const char **var);
/* The speed |(hu, hv)| / h of the cell at state index k, with KP07's
 * desingularised velocities (kappa: the desingularisation depth, m). */
double swe_cell_speed(const struct swe_state *s, long k, double kappa);

#endif
