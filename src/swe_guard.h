/* swe_guard.h: the instability guard's test of one cell, for the CPU loops
 * and the CUDA stage kernels alike: each place that stores a cell's new
 * state (h, hu, hv) calls swe_guard_note on the values it stored, and the
 * host looks at the flag every [run] guard_every steps (swe_guard.c).  Same
 * rules as swe_kern.h: static inline HOSTDEVICE, C99 and CUDA C++. */
#ifndef SPATE_SWE_GUARD_H
#define SPATE_SWE_GUARD_H

#include "hostdevice.h"

/* *bad = 1 when h, hu or hv is NaN or infinite.  Their sum s is then NaN
 * or +-inf, and s - s is not 0; a sum that overflows counts too (a state
 * near the largest real is lost anyway).  One add chain and a compare per
 * cell, no branch on the values' signs; a plain store of the same 1 by
 * every writer (no atomic needed: the host clears it, and only reads it
 * between steps).  Needs IEEE arithmetic: no -ffast-math, no
 * --use_fast_math. */
HOSTDEVICE static inline void swe_guard_note(real h, real hu, real hv, int *bad)
{
	real s = h + hu + hv;
	if (!(s - s == 0))
		*bad = 1;
}

#endif
