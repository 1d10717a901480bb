/* gauge_kern.h: the running maxima of one sampled gauge cell, updated after
 * every step, for the host (gauge.c) and the CUDA kernels alike.
 *
 * A gauge samples its centre cell and the cells of a square around it.
 * Every sample keeps the highest level it had while wetter than the
 * threshold; the centre also its arrival time, the time of that highest
 * level and its largest depth.  The gauge's values (gauge.h) follow:
 * max_level and the rest from the centre's track, max_level_nb the largest
 * level of all its tracks (and of what a restart brought). */
#ifndef SPATE_GAUGE_KERN_H
#define SPATE_GAUGE_KERN_H

#include "swe_kern.h"

/* NAN: never wetter than the threshold. */
struct gauge_track {
	double level;     /* highest level (w + bref) while wet, m */
	double arrival;   /* first time the depth exceeds the threshold, s */
	double t_max;     /* time of the highest level, s (centre) */
	double depth;     /* largest depth while wet, m (centre; 0: never) */
};

/* A track before the first sample (or with a restart's values, centre). */
HOSTDEVICE static inline void gauge_track_reset(struct gauge_track *g)
{
	g->level = g->arrival = g->t_max = (double)NAN;
	g->depth = 0;
}

/* The sample (depth h, bed Bm) at time t of a centre cell (centre = 1) or
 * of a cell around it; bref: the level of Bm = 0, thr: the arrival depth. */
HOSTDEVICE static inline void gauge_track_update(struct gauge_track *g, real w, real Bm,
	double bref, double thr, double t, int centre)
{
	double h = (double)w, L = (double)w + (double)Bm + bref;
	if (!(h > thr))
		return;
	if (!(L <= g->level)) { /* NAN: the first */
		g->level = L;
		if (centre)
			g->t_max = t;
	}
	if (!centre)
		return;
	if (g->arrival != g->arrival)
		g->arrival = t;
	if (h > g->depth)
		g->depth = h;
}

/* The time of the next time-series row, after the row due at `next` was
 * written at time t >= next: `interval` on, past t (interval <= 0: never). */
HOSTDEVICE static inline double gauge_next_row(double next, double t, double interval)
{
	next += interval > 0 ? interval : 1e300;
	while (next <= t)
		next += interval;
	return next;
}

#endif
