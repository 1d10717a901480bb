/* hazard_kern.h: flood hazard classes of published schemes from the depth d
 * (m) and speed v (m/s) of one cell at one time, for the CPU loops and the
 * CUDA kernels alike (products_kern.h keeps the greatest class a cell
 * reaches).  Class 0 is dry (not deeper than the wet threshold: the caller
 * decides); a wet cell gets 1 or more.
 *
 * ARR2019: Australian Rainfall and Runoff 2019, Book 6 Chapter 7 (Smith,
 * Davey and Cox 2014, "Flood hazard", UNSW WRL TR 2014/07), the combined
 * hazard curves, Table 6.7.4: class Hk is the first k whose limits all hold
 * (each limit inclusive):
 *   H1  d <= 0.3, v <= 2.0, d v <= 0.3   generally safe for vehicles, people, buildings
 *   H2  d <= 0.5, v <= 2.0, d v <= 0.6   unsafe for small vehicles
 *   H3  d <= 1.2, v <= 2.0, d v <= 0.6   unsafe for vehicles, children and the elderly
 *   H4  d <= 2.0, v <= 2.0, d v <= 1.0   unsafe for vehicles and people
 *   H5  d <= 4.0, v <= 4.0, d v <= 4.0   unsafe for all; buildings vulnerable to damage
 *   H6  beyond                           unsafe for all; all buildings vulnerable to failure
 *
 * FD2320: Defra / Environment Agency R&D report FD2320/TR2 (HR Wallingford
 * 2006), "Flood risks to people", the hazard rating HR = d (v + 0.5) + DF
 * with the debris factor DF of the precautionary rule for unknown land use
 * (FD2320 supplementary note, 2008): 0.5 where d <= 0.25 m, 1.0 deeper.
 *   1 low          HR < 0.75          caution
 *   2 moderate     0.75 <= HR < 1.25  dangerous for some
 *   3 significant  1.25 <= HR <= 2.0  dangerous for most
 *   4 extreme      HR > 2.0           dangerous for all */
#ifndef SPATE_HAZARD_KERN_H
#define SPATE_HAZARD_KERN_H

#include "hostdevice.h"
#include "swe_kern.h"

/* [output] hazard_scheme, in the order of its choices. */
enum spate_hazard_scheme { SPATE_HAZARD_NONE = 0, SPATE_HAZARD_ARR2019 = 1,
	SPATE_HAZARD_FD2320 = 2 };

/* ARR2019 class 1..6 of a wet cell. */
HOSTDEVICE static inline int hazard_arr2019(real d, real v)
{
	real dv = d * v;
	if (d <= (real)0.3 && v <= (real)2.0 && dv <= (real)0.3)
		return 1;
	if (d <= (real)0.5 && v <= (real)2.0 && dv <= (real)0.6)
		return 2;
	if (d <= (real)1.2 && v <= (real)2.0 && dv <= (real)0.6)
		return 3;
	if (d <= (real)2.0 && v <= (real)2.0 && dv <= (real)1.0)
		return 4;
	if (d <= (real)4.0 && v <= (real)4.0 && dv <= (real)4.0)
		return 5;
	return 6;
}

/* FD2320 hazard rating HR = d (v + 0.5) + DF (dimensionless). */
HOSTDEVICE static inline real hazard_fd2320_rating(real d, real v)
{
	return d * (v + (real)0.5) + (d <= (real)0.25 ? (real)0.5 : (real)1.0);
}

/* FD2320 class 1..4 of a wet cell. */
HOSTDEVICE static inline int hazard_fd2320(real d, real v)
{
	real hr = hazard_fd2320_rating(d, v);
	if (hr < (real)0.75)
		return 1;
	if (hr < (real)1.25)
		return 2;
	return hr <= (real)2.0 ? 3 : 4;
}

#endif
