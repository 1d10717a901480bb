/* bsq_waves.h: the planes a block of the GPU's Gauss-Seidel sweeps walks
 * (cuda/bsq_cuda_walk.cu), host arithmetic only, here so that the CPU's
 * tests check it (t_bsq_kern). */
#ifndef SPATE_BSQ_WAVES_H
#define SPATE_BSQ_WAVES_H

#include <limits.h>

/* Planes a chunk of a level of nz planes whose planes are cut into tiles
 * (blocks a chunk), slots blocks running at once, a walk recomputing h
 * planes below and above its chunk, least to most planes.  A walk is a
 * chain of barriers, one a plane, so a launch takes about as long as its
 * waves of blocks (ceil(tiles c / slots) for c = ceil(nz / n) chunks) times
 * the planes a walk takes (n + 2h): the n of the least product, the
 * smallest of equals. */
static inline int bsq_wave_planes(int nz, long tiles, long slots, int h, int least, int most)
{
	long best = LONG_MAX;
	int n, pick = least;
	if (slots < 1)
		slots = 1;
	for (n = least; n <= most && n < nz + least; n++) {
		long c = (nz + n - 1) / n, cost = (tiles * c + slots - 1) / slots * (n + 2L * h);
		if (cost < best)
			best = cost, pick = n;
		if (c == 1)
			break;
	}
	return pick;
}

#endif
