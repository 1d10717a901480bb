/* swe_floor.c: the arithmetic floor of a KP07 step on the CPU (swe_floor.h;
 * OpenMP threads where built with them), and the table it runs on, which
 * the GPU's (cuda/swe_cuda_floor.cu) shares. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>

#include "spate.h"
#include "swe_floor.h"

void swe_floor_fill(struct swe_floor_tab *t, struct swe_coef *c, real *dt)
{
	const double tau = 6.283185307179586;
	for (int k = 0; k < SWE_FLOOR_TAB; k++) {
		double x = k / (double)SWE_FLOOR_TAB;
		t->h[k] = (real)(1.5 + 0.4 * sin(tau * x));
		t->hu[k] = (real)(0.3 * cos(3 * tau * x));
		t->hv[k] = (real)(0.2 * sin(5 * tau * x));
		t->r[k] = 1 / t->h[k];
		t->fh[k] = (real)1.01 * t->h[k];
		t->fn[k] = t->hu[k];
		t->ft[k] = t->hv[k];
		t->f0[k] = (real)(0.01 * sin(7 * tau * x));
		t->ff[k] = (real)(9 + 0.1 * cos(2 * tau * x));
		t->fg[k] = (real)(0.02 * cos(9 * tau * x));
		t->b[k] = (real)(0.05 * sin(11 * tau * x));
	}
	/* the defaults of a run (kappa 1e-2 m, dry 1e-4 m), no friction */
	c->g = (real)9.81;
	c->theta = (real)1.3;
	c->kappa4 = (real)1e-8;
	c->dry = (real)1e-4;
	c->n2 = 0;
	*dt = (real)1e-3;
}

/* Kernel k (stage 1, 2, their inputs alone) on the CPU, reps times after
 * one untimed pass; seconds a pass. */
static double kernel(int k, const struct swe_floor_tab *t, struct swe_coef c, real dt,
	long threads, int reps, real *out)
{
	double t0 = 0;
	for (int r = 0; r <= reps; r++) {
		if (r == 1)
			t0 = spate_now();
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
		for (long i = 0; i < threads; i++)
			out[i] = swe_floor_cells(t, c, dt, (unsigned)i, k & 1, k >> 1);
	}
	return (spate_now() - t0) / reps;
}

int swe_cpu_floor(const struct swe_floor_tab *t, struct swe_coef c, real dt, long threads,
	int reps, double sec[4], real *res[2])
{
	if (threads < 1 || reps < 1) {
		spate_log_error("bench", "floor: %ld threads, %d repetitions", threads, reps);
		return -SPATE_EINVAL;
	}
	/* the table reads alone first: their results go where the stages' go after */
	for (int k = 3; k >= 0; k--)
		sec[k] = kernel(k, t, c, dt, threads, reps, res[k & 1]);
	return 0;
}
