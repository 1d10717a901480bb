/* setup.h: the initial state of a flood run: built-in set-ups or a DEM */
#ifndef SPATE_SETUP_H
#define SPATE_SETUP_H

#include "swe.h"

/* Allocate and fill the state of a built-in set-up. */
int swe_setup_builtin(struct swe_state *s, const struct swe_params *p);
/* The state of any set-up: built-in, or from a DEM (terrain_setup). */
int swe_setup(struct swe_state *s, const struct swe_params *p);
struct swe_coef swe_coef_of(const struct swe_params *p);

#endif
