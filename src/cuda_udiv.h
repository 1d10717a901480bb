/* cuda_udiv.h: integer quotients by a number known only at run time, for
 * CUDA kernels bound by the instructions they issue (CUDA C++ only).  A
 * division of 32-bit integers is a sequence of some twenty instructions;
 * here it is a product by the divisor's reciprocal rounded to a float,
 * within one of the quotient, then one step either way. */
#ifndef SPATE_CUDA_UDIV_H
#define SPATE_CUDA_UDIV_H

/* t / d and its remainder (*rem) for 0 <= t < 2^24, d > 0 and t / d < 2^22,
 * from r = 1 / d rounded to a float: t and r are exact to 2^-24 relative
 * and their product to 2^-23, so within one of t / d in that range.  Users:
 * the flood's tile coordinates (tile_stage, swe_cuda_tile.cu) and the
 * Boussinesq tail's cell coordinates (udiv below, bsq_cuda_tail.cu). */
__device__ static __forceinline__ int idiv(int t, int d, float r, int *rem)
{
	int q = (int)((float)t * r), m = t - q * d;
	if (m < 0) {
		q--;
		m += d;
	} else if (m >= d) {
		q++;
		m -= d;
	}
	*rem = m;
	return q;
}

/* The same on unsigned values in that range. */
__device__ static __forceinline__ unsigned udiv(unsigned t, unsigned d, float r)
{
	int m;
	return (unsigned)idiv((int)t, (int)d, r, &m);
}

#endif
