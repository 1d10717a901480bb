/* products_kern.h: the flood products of one cell, updated after every step,
 * for the CPU loops and the CUDA kernels alike. */
#ifndef SPATE_PRODUCTS_KERN_H
#define SPATE_PRODUCTS_KERN_H

#include "swe_kern.h"
#include "hazard_kern.h"

/* Products of one cell.  arrival < 0: never wetter than the threshold. */
struct swe_prod {
	float max_depth;    /* m */
	float max_speed;    /* m/s, where deeper than the threshold */
	float max_hazard;   /* depth x speed, m^2/s */
	float arrival;      /* first time the depth exceeds the threshold, s */
	float t_max_depth;  /* time of the maximum depth, s */
	float wet_duration; /* time deeper than the threshold, s */
	float class_arr2019; /* greatest ARR2019 hazard class of any step (0: dry) */
	float class_fd2320;  /* greatest FD2320 hazard class of any step (0: dry) */
};

/* Values of struct swe_prod (all float): a checkpoint stores them so. */
#define SWE_PROD_FLOATS 8

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
		/* the class of this step's depth and speed, kept at its greatest:
		 * not the class of the separate maxima of d and v, which may come
		 * at different times and would overstate the hazard */
		if ((float)hazard_arr2019(h, s) > p->class_arr2019)
			p->class_arr2019 = (float)hazard_arr2019(h, s);
		if ((float)hazard_fd2320(h, s) > p->class_fd2320)
			p->class_fd2320 = (float)hazard_fd2320(h, s);
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
	p->class_arr2019 = 0;
	p->class_fd2320 = 0;
}

#endif
