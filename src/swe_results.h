/* swe_results.h: the flood module's results file, results.nc (CF-1.8,
 * through the physics-neutral writer ncout.h): the bed, snapshots h, w, u,
 * v along time, the flood products, the gauges' series and maxima, the
 * resolved parameters as global attributes.  Every function returns 0 or
 * -SPATE_E* (a failure of the file after a message). */
#ifndef SPATE_SWE_RESULTS_H
#define SPATE_SWE_RESULTS_H

#include "swe.h"

struct gauge_set;
struct spate_nc;
struct swe_prod;

/* Create the results file at path for the state s: snapshots when
 * p->write_grids, products when p->products, the gauges of gs (or NULL);
 * append: a restart, continuing the file there if it fits. */
int swe_results_open(struct spate_nc **nc, const char *path, const struct swe_params *p,
	const struct swe_state *s, const struct gauge_set *gs, int append);

/* Write snapshot rec at time t (s) of snap, whose w, hu, hv become the
 * level, u and v (swe_snap_fields). */
int swe_results_snapshot(struct spate_nc *nc, long rec, double t, struct swe_state *snap,
	double kappa);

/* At the end (time t_end): the products pr (or NULL), the maxima of the
 * gauges gs (or NULL) and the global attribute spate_t_end. */
int swe_results_final(struct spate_nc *nc, const struct swe_state *s, const struct swe_prod *pr,
	const struct gauge_set *gs, double t_end, int scheme);

#endif
