/* products_kern.h: the flood products of one cell, updated after every step,
 * for the CPU loops and the CUDA kernels alike. */
#ifndef SPATE_PRODUCTS_KERN_H
#define SPATE_PRODUCTS_KERN_H

#include "swe_kern.h"

/* Products of one cell.  arrival < 0: never wetter than the threshold. */
struct swe_prod {
	float max_depth;    /* m */
	float max_speed;    /* m/s, where deeper than the threshold */
	float max_hazard;   /* depth x speed, m^2/s */
	float arrival;      /* first time the depth exceeds the threshold, s */
	float t_max_depth;  /* time of the maximum depth, s */
	float wet_duration; /* time deeper than the threshold, s */
};

/* Update a cell's products with its state (h, hu, hv) at time t, reached by
 * a step of length dt.  thr: the wet threshold (default 0.05 m). */
HOSTDEVICE static inline void swe_prod_update(struct swe_prod *p, real h, real hu, real hv,
	real kappa4, real thr, double t, double dt)
{
	real r = kp07_inv_depth(h, kappa4), u = hu * r, v = hv * r;
	real s = R_SQRT(u * u + v * v);
	if (h > p->max_depth) {
		p->max_depth = (float)h;
		p->t_max_depth = (float)t;
	}
	if (h > thr) {
		if (p->arrival < 0)
			p->arrival = (float)t;
		p->wet_duration += (float)dt;
		if (s > p->max_speed)
			p->max_speed = (float)s;
	}
	if (h * s > p->max_hazard)
		p->max_hazard = (float)(h * s);
}

/* A cell's products before the first step. */
HOSTDEVICE static inline void swe_prod_reset(struct swe_prod *p)
{
	p->max_depth = 0;
	p->max_speed = 0;
	p->max_hazard = 0;
	p->arrival = -1;
	p->t_max_depth = 0;
	p->wet_duration = 0;
}

#endif
