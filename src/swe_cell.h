/* swe_cell.h: one cell of the shallow-water step after its fluxes (KP07.md),
 * for the CPU loops and the CUDA kernels alike: the CFL time step, the
 * right-hand side, the depth updates of Euler and SSP-RK2, Manning friction
 * and rain, the boundary ghosts and hydrographs.  The fluxes and
 * reconstruction it builds on are swe_kern.h's.  Same rules as there:
 * static inline HOSTDEVICE functions on scalars, C99 and CUDA C++. */
#ifndef SPATE_SWE_CELL_H
#define SPATE_SWE_CELL_H

#include "swe_kern.h"
#include <stdint.h>
#include <string.h>

/* Local time-step bound from the largest face speeds in x and y:
 * dt = cfl/2 * min(dx/ax, dy/ay).  The factor 1/2 makes cfl = 0.5 the KP07
 * positivity bound dt <= 1/4 min(dx/a, dy/b) (KP07 Theorem 2.1).
 * Returns `cap` when both speeds vanish.  In two parts: the bound of one
 * direction, cfl/2 d/a, NaN where a is not > 0 (no bound); and dt from
 * the two bounds and the cap.  The quotient decreases as a grows, to the
 * bit (a correctly rounded division), so the bound of the largest speed
 * is the least of the bounds of several speeds: the GPU's per-cell
 * kernels take it so (swe_cuda_tile.cu). */
HOSTDEVICE static inline double swe_cfl_q(double a, double d, double cfl)
{
	return a > 0 ? 0.5 * cfl * d / a : (double)NAN;
}

HOSTDEVICE static inline double swe_cfl_min(double qx, double qy, double cap)
{
	double dt = cap;
	if (qx < dt)
		dt = qx;
	if (qy < dt)
		dt = qy;
	return dt;
}

HOSTDEVICE static inline double swe_cfl_dt(double ax, double ay, double dx, double dy,
	double cfl, double cap)
{
	return swe_cfl_min(swe_cfl_q(ax, dx, cfl), swe_cfl_q(ay, dy, cfl), cap);
}

/* Manning friction on a wet cell of depth h > 0, semi-implicit:
 * hu <- hu / (1 + dt g n^2 |u| / h^(4/3)) (BSA12 eq. 9); n2 = n^2. */
HOSTDEVICE static inline void swe_friction(real h, real *hu, real *hv, real n2, real dt,
	struct swe_coef c)
{
	real r = kp07_inv_depth(h, c.kappa4), u = *hu * r, v = *hv * r;
	/* still water (s = 0) without the GPU's slow paths (swe_sqrt0) */
	real s = swe_sqrt0(u * u + v * v);
	real q = 1 + swe_div0(dt * c.g * n2 * s, h * R_CBRT(h)); /* >= 1, or NaN */
	real d = swe_recip(q);
	*hu *= d;
	*hv *= d;
}

/* Finish an explicit update of one cell of depth *h: zero the momentum of
 * (nearly) dry cells, and set a negative depth to 0.  In exact arithmetic
 * KP07's CFL bound keeps depths >= 0 (KP07 Theorem 2.1); in floating point
 * the face depths of a cell are rounded relative to its own depth and bed
 * steps (see the top of the file), so a depth that comes out negative is
 * so by a few ulps of the depths around it, and the water this adds is of
 * that order (measured: see doc/validation/mass.md). */
HOSTDEVICE static inline void swe_finish(real *h, real *hu, real *hv, real dt,
	struct swe_coef c)
{
	if (*h <= c.dry) {
		if (*h < 0)
			*h = 0;
		*hu = 0;
		*hv = 0;
		return;
	}
	if (c.n2 > 0)
		swe_friction(*h, hu, hv, c.n2, dt, c);
}


/* One cell's right-hand side L(U) from the fluxes through its faces and the
 * bed sources: dU/dt = -(Fe - Fw)/dx - (Gn - Gs)/dy + S (KP07 eq. 2.1). */
HOSTDEVICE static inline void swe_rhs(struct kp07_flux Fw, struct kp07_flux Fe,
	struct kp07_flux Gs, struct kp07_flux Gn, real Sx, real Sy, real inv_dx, real inv_dy,
	real *Lw, real *Lhu, real *Lhv)
{
	*Lw = -(Fe.f0 - Fw.f0) * inv_dx - (Gn.f0 - Gs.f0) * inv_dy;
	*Lhu = -(Fe.fn - Fw.fn) * inv_dx - (Gn.ft - Gs.ft) * inv_dy + Sx;
	*Lhv = -(Fe.ft - Fw.ft) * inv_dx - (Gn.fn - Gs.fn) * inv_dy + Sy;
}

/* Unbiased rounding of the depth updates.  A depth h takes a change d each
 * stage; h + d rounds to the nearest float, at the ulp of h (4e-6 m at 50 m
 * deep in single precision).  Where d is the same in many cells, as in a
 * reservoir that drains evenly, every cell rounds the same way, step after
 * step: a bias, not a random walk, which made 5e-6 of the Malpasset
 * reservoir at 10 m over 4000 s (doc/validation/mass.md).  So h + d is
 * rounded up or down with the probability that makes its expectation exact
 * (stochastic rounding): with s = fl(h + d) and e the exact rest (TwoSum,
 * exact in round-to-nearest without contraction: the CPU build has no FMA
 * and nvcc is given -fmad=false), s moves one ulp towards e with
 * probability |e| / ulp.  The uniform number comes from a hash of the bits
 * of the cell's state and of d, nothing else: the same in every backend,
 * decomposition and rerun.  d = 0 (a lake at rest) leaves h to the bit; a
 * result between 0 and a positive exact value stays >= 0. */
HOSTDEVICE static inline uint32_t swe_bits32(real x)
{
#ifdef SPATE_DOUBLE
	uint64_t b;
	memcpy(&b, &x, sizeof b);
	return (uint32_t)(b ^ (b >> 32));
#else
	uint32_t b;
	memcpy(&b, &x, sizeof b);
	return b;
#endif
}

/* The float next to s != 0 (finite) away from zero (up = 1) or towards it. */
HOSTDEVICE static inline real swe_next_towards(real s, int up)
{
#ifdef SPATE_DOUBLE
	uint64_t b;
#else
	uint32_t b;
#endif
	memcpy(&b, &s, sizeof b);
	b = up ? b + 1 : b - 1;
	memcpy(&s, &b, sizeof b);
	return s;
}

/* h + d rounded without bias (above); hu, hv: the cell's momentum before
 * the update and salt (the stage) only feed the hash.  The neighbour of s
 * towards e is one step of the bits of s (|e| <= ulp(s) / 2, so it never
 * crosses 0 or reaches infinity); the hash is short (one multiply, shifts)
 * because the stage kernels are bound by the latency of each row. */
HOSTDEVICE static inline real swe_add_unbiased(real h, real d, real hu, real hv,
	uint32_t salt)
{
	real s = h + d, bb = s - h, e = (h - (s - bb)) + (d - bb), n;
	uint32_t x;
	if (e == 0 || s == 0 || !(s - s == 0))
		return s;
	n = swe_next_towards(s, (e > 0) == (s > 0));
	x = (swe_bits32(h) ^ swe_bits32(d) << 9 ^ swe_bits32(hu) << 3 ^ swe_bits32(hv) << 17 ^
		salt) * 0x9e3779b1u;
	x ^= x >> 15;
	x *= 0x85ebca6bu;
	/* u = (x >> 8) / 2^24 in [0, 1): n when u |n - s| < |e| (exact) */
	return (real)(x >> 8) * (real)(1.0 / 16777216.0) * R_ABS(n - s) < R_ABS(e) ? n : s;
}

/* The depth after a forward-Euler update, h + dt L (L = dh/dt), rounded
 * without bias; (hu, hv) the cell's momentum, salt the stage. */
HOSTDEVICE static inline real swe_depth_euler(real h, real L, real dt, real hu, real hv,
	uint32_t salt)
{
	return swe_add_unbiased(h, dt * L, hu, hv, salt);
}

/* The depth after the SSP-RK2 second stage, (h^n + h* + dt L*) / 2, written
 * h^n + ((h* - h^n) + dt L*) / 2 so that it rounds once, at the ulp of h^n,
 * and without bias. */
HOSTDEVICE static inline real swe_depth_rk2(real h0, real hs, real L, real dt, real hu0,
	real hv0)
{
	return swe_add_unbiased(h0, (real)0.5 * ((hs - h0) + dt * L), hu0, hv0, 2u);
}

/* The sources split from the step, applied to each cell once after it when
 * the run has rain or a Manning raster: rain of rate r (m/s, >= 0) adds
 * r dt to the depth h, then friction with this cell's n2 (0: none here;
 * with a constant n the stages apply it). */
HOSTDEVICE static inline void swe_sources(real *h, real *hu, real *hv, real r,
	real n2, real dt, struct swe_coef c)
{
	if (r > 0)
		*h = swe_depth_euler(*h, r, dt, *hu, *hv, 3u);
	if (n2 > 0 && *h > c.dry)
		swe_friction(*h, hu, hv, n2, dt, c);
}

/* Ghost value of a cell outside the domain, from the interior cell it mirrors
 * (wall) or copies (others): (h, hn, ht) in, the ghost's out.  sign = +1
 * when the side's inward normal points along +x or +y (west, south), -1
 * otherwise.  Bg: bed at the ghost cell's centre.  value: inflow discharge
 * per unit width (m^2/s) for SWE_BC_INFLOW, level (relative) for
 * SWE_BC_LEVEL.  g: gravity, for the inflow's critical depth. */
HOSTDEVICE static inline void swe_bc_ghost(int kind, int sign, real value, real Bg,
	real g, real *h, real *hn, real *ht)
{
	switch (kind) {
	case SWE_BC_WALL:
		*hn = -*hn;
		break;
	case SWE_BC_LEVEL:
		*h = swe_max(value - Bg, 0);
		break;
	case SWE_BC_INFLOW:
		/* depth: the interior's, at least the critical depth (q^2/g)^(1/3) of
		 * the inflow, so that water enters a dry bed */
		*h = swe_max(*h, R_CBRT(value * value / g));
		*hn = sign * value;
		*ht = 0;
		break;
	default: /* SWE_BC_OUTFLOW: zero gradient */
		*h = swe_max(*h, 0);
		break;
	}
}

/* The same boundary map applied to a rate of change L = dU/dt, so that a
 * ghost of U + dt L equals the ghost of the updated interior. */
HOSTDEVICE static inline void swe_bc_ghost_rate(int kind, real *Lw, real *Ln, real *Lt)
{
	switch (kind) {
	case SWE_BC_WALL:
		*Ln = -*Ln;
		break;
	case SWE_BC_LEVEL:
		*Lw = 0;
		break;
	case SWE_BC_INFLOW:
		*Lw = 0;
		*Ln = 0;
		*Lt = 0;
		break;
	default:
		break;
	}
}

/* Interior source index of ghost layer k (0 = next to the edge) for a side:
 * walls mirror (k -> k), the others copy the edge cell. */
HOSTDEVICE static inline int swe_bc_source(int kind, int k)
{
	return kind == SWE_BC_WALL ? k : 0;
}

/* Piecewise-linear hydrograph q(t) from n (time, value) pairs, held constant
 * outside the table.  t must be sorted ascending (checked by the reader). */
HOSTDEVICE static inline double swe_hydrograph(const double *t, const double *q, int n,
	double time)
{
	int i;
	if (n <= 0)
		return 0;
	if (time <= t[0])
		return q[0];
	for (i = 1; i < n; i++)
		if (time <= t[i])
			return q[i - 1] + (q[i] - q[i - 1]) * (time - t[i - 1]) / (t[i] - t[i - 1]);
	return q[n - 1];
}

#endif
