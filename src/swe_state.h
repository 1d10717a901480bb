/* swe_state.h: a domain's state on the host: allocation, the derived bed,
 * water at rest at a level, copies (swe_state.c). */
#ifndef SPATE_SWE_STATE_H
#define SPATE_SWE_STATE_H

#include "swe.h"

/* Allocate the arrays of an nx x ny state of cells dx x dy (zeroed); 0 or
 * -SPATE_ENOMEM.  swe_state_free frees every array the state holds. */
int swe_state_alloc(struct swe_state *s, int nx, int ny, double dx, double dy);
void swe_state_free(struct swe_state *s);
/* The stored value w (the DEPTH) of cell (i, j) holding water at rest at
 * level L (relative): L - Bm where the cell is fully flooded, else the depth
 * of a partially flooded cell at that level (swe_depth_at_level). */
real swe_level_to_w(const struct swe_state *s, int i, int j, real L);
/* Derive Bm and the ghost corners from interior corners. */
void swe_state_finish_bed(struct swe_state *s);
/* Allocate dst and copy src into it (all cells, bed included). */
int swe_state_copy_interior(struct swe_state *dst, const struct swe_state *src);
/* The bed as the solver sees it, absolute (bref added back), NAN on masked
 * cells: nx * ny values, row-major from the southern row (malloc'd; NULL
 * when out of memory). */
double *swe_bed_values(const struct swe_state *s);

#endif
