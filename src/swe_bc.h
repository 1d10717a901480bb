/* swe_bc.h: the boundary conditions as the kernels see them (swe_bc.c). */
#ifndef SPATE_SWE_BC_H
#define SPATE_SWE_BC_H

#include "swe.h"

/* Fill the kernels' view of the boundaries. */
void swe_bcdev_fill(struct swe_bcdev *d, const struct swe_state *s, const struct swe_params *p);

#endif
