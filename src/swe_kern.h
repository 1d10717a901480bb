/* swe_kern.h: every formula of the Kurganov-Petrova (2007) shallow-water
 * scheme, once, for the CPU backend and the CUDA kernels alike.
 *
 * References: KP07 = Kurganov & Petrova, Commun. Math. Sci. 5(1), 2007;
 * BSA12 = Brodtkorb, Saetra & Altinakar, Computers & Fluids 55, 2012;
 * the restatement in shared/KP07.md.
 *
 * Everything here is a static inline HOSTDEVICE function of scalars and
 * small structs: no arrays (but for the read-only hydrograph table), no
 * globals, no allocation, no I/O.  The header compiles as C99 and as CUDA
 * C++, so it avoids compound literals and designated initialisers.
 *
 * Conventions: one direction at a time.  A cell's state in that direction is
 * (h, hn, ht): DEPTH, momentum normal to the faces considered, and momentum
 * tangential to them.  In x, (hn, ht) = (hu, hv); in y, (hv, hu).
 *
 * The state holds the depth h, not the level w = h + B (KP07's unknown):
 * the mass update h += dt L is then rounded relative to the depth, so the
 * fluxes, each computed once and shared by the two cells of a face,
 * telescope to round-off of the depths, and no depth is ever born negative
 * of the cancellation w - B.  (With the level stored, single precision gave
 * depths in quanta of one ulp of the level, ~1e-5 m at 100 m, and the
 * clamping of the negative ones made water: +3.1e-3 of the volume at
 * Malpasset 10 m, 4000 s.)  The reconstruction still works on levels, as
 * KP07 does, but on levels relative to the cell's own centre bed:
 * the level of a neighbour is h_nb + (B_nb - B_c), of a face h_c +/- slope,
 * and a face depth is that minus (B_face - B_c).  Bed differences of
 * neighbouring cells are exact (or rounded relative to themselves), so every
 * face depth is rounded relative to the depths and bed steps of the cell,
 * never to the height of the terrain; a lake at rest (h_nb + B_nb = h_c + B_c)
 * reconstructs to a flat surface.  Levels and beds (B) are relative to the
 * domain's reference level bref. */
#ifndef SPATE_SWE_KERN_H
#define SPATE_SWE_KERN_H

#include "hostdevice.h"

/* Ghost layers on each side: the reconstruction stencil is 2 cells wide. */
#define SWE_GHOST 2

/* Boundary kinds, per side. */
enum swe_bc_kind { SWE_BC_WALL = 0, SWE_BC_OUTFLOW = 1, SWE_BC_LEVEL = 2, SWE_BC_INFLOW = 3 };

/* Physical constants and scheme parameters, in the solver's precision. */
struct swe_coef {
	real g;        /* gravity, m/s^2 */
	real theta;    /* minmod parameter, 1 <= theta <= 2 */
	real kappa4;   /* desingularisation depth to the 4th power, m^4 */
	real dry;      /* depth under which momentum is zeroed, m */
	real n2;       /* Manning coefficient squared, s^2 m^(-2/3) */
};

/* Reconstructed state on one face of a cell. */
struct kp07_face {
	real h;   /* depth at the face, >= 0 */
	real eta; /* water level at the face for the bed-slope source, relative
	             to a level of its cell's own (only differences within the
	             cell are used): the face level, or the level L of a
	             partially flooded cell (also where it is dry) */
	real hn;  /* normal momentum */
	real ht;  /* tangential momentum */
};

/* Numerical flux through one face (normal, tangential components). */
struct kp07_flux {
	real f0;  /* mass */
	real fn;  /* normal momentum */
	real ft;  /* tangential momentum */
	real a;   /* max(a+, -a-): the face's largest wave speed, m/s */
};

HOSTDEVICE static inline real swe_min(real a, real b) { return a < b ? a : b; }
HOSTDEVICE static inline real swe_max(real a, real b) { return a > b ? a : b; }
/* Minimum and maximum of two numbers where the sign of a zero result
 * cannot matter (each caller says why): in single precision one
 * instruction on the GPU (fminf: IEEE minNum), the comparison above on the
 * CPU (minss).  For numbers (not NaN) the two differ at most in the sign of
 * a zero, so the callers give the same bits on both.  The stage kernels
 * are bound by the instructions they issue; swe_min is a compare and a
 * select there.  In double precision the comparison on both: the GPU's
 * fmin of doubles is a compare, two selects and a NaN fix-up. */
HOSTDEVICE static inline real swe_min_nz(real a, real b)
{
#if defined(__CUDA_ARCH__) && !defined(SPATE_DOUBLE)
	return R_FMIN(a, b);
#else
	return swe_min(a, b);
#endif
}
HOSTDEVICE static inline real swe_max_nz(real a, real b)
{
#if defined(__CUDA_ARCH__) && !defined(SPATE_DOUBLE)
	return R_FMAX(a, b);
#else
	return swe_max(a, b);
#endif
}
/* max(x, 0) for numbers, a zero result +0.  In double precision a test of
 * the sign bit (integer instructions on the GPU, not a compare of doubles);
 * a NaN with its sign bit clear is kept there, where max gives 0. */
HOSTDEVICE static inline real swe_pos(real x)
{
#ifdef SPATE_DOUBLE
	return signbit(x) ? 0 : x;
#else
	return swe_max(x, 0);
#endif
}
/* x limited to [-m, m] (m >= +0).  In double precision m with the sign of
 * x where |x| > m, the same bits with one compare of doubles, not two (in
 * single precision that form was 0.5% slower on the GPU). */
HOSTDEVICE static inline real swe_clamp(real x, real m)
{
#ifdef SPATE_DOUBLE
	return R_ABS(x) > m ? R_COPYSIGN(m, x) : x;
#else
	return x > m ? m : x < -m ? -m : x;
#endif
}

/* minmod(a, b, c) = min if all > 0, max if all < 0, else 0 (KP07 eq. 2.3):
 * all are > 0 exactly when their minimum is, all < 0 when their maximum is
 * (written so, it compiles without branches).  The sign of a zero minimum
 * or maximum never shows: lo > 0 or hi < 0 only when no value is a zero,
 * else the result is the constant 0 (swe_min_nz). */
HOSTDEVICE static inline real kp07_minmod(real a, real b, real c)
{
	real lo = swe_min_nz(a, swe_min_nz(b, c)), hi = swe_max_nz(a, swe_max_nz(b, c));
	return lo > 0 ? lo : hi < 0 ? hi : 0;
}

/* Half a cell's reconstructed increment, (dx/2) U_x, by the generalised
 * minmod limiter (KP07 eq. 2.2-2.3).  Differences, not slopes: dx cancels. */
HOSTDEVICE static inline real kp07_half_slope(real qm, real q0, real qp, real theta)
{
	real s = kp07_minmod(theta * (q0 - qm), (real)0.5 * (qp - qm), theta * (qp - q0));
	return (real)0.5 * s;
}

/* Smallest argument swe_sqrt0 takes as it is: 2^-101 in single precision
 * (a depth of 4e-32 m under gravity), 2^-960 in double (where 2^-101 let
 * thin films spread otherwise: Malpasset 10 m took a step more); the
 * GPU's fast paths hold from 2^-101 and 2^-970. */
#ifdef SPATE_DOUBLE
#define SWE_SQRT_MIN 0x1p-960
#else
#define SWE_SQRT_MIN 0x1p-101f
#endif

#ifdef __CUDA_ARCH__
/* The fast paths of the GPU's correctly rounded square root and quotient
 * (sqrt.rn, div.rn), step by step as the compiler emits them (nvcc 13,
 * sm_90) but without their range checks and branches, so the same bits
 * wherever those checks pass.  Single precision: the estimate of 1 /
 * sqrt(x) and one correction in fused multiply-adds, for x in [2^-101,
 * FLT_MAX]; the quotient below (swe_div_fast).  Double precision: for the
 * root x in [2^-970, DBL_MAX], for the quotient a / b |a| >= 2^-967 and b
 * far from the ends of the range; the estimates' low words are those the
 * compiler sets (the root's: the argument's high word less 0x03500000; the
 * reciprocal's: 1). */
#ifdef SPATE_DOUBLE
__device__ static inline double swe_sqrt_fast(double x)
{
	double r, e, p, s;
	asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
	r = __hiloint2double(__double2hiint(r), __double2hiint(x) - 0x03500000);
	e = fma(x, -__dmul_rn(r, r), 1.0);
	p = fma(e, 0.375, 0.5);
	r = fma(p, __dmul_rn(r, e), r);
	s = __dmul_rn(x, r);
	/* r / 2, by the exponent */
	r = __hiloint2double(__double2hiint(r) - 0x00100000, __double2loint(r));
	return fma(fma(s, -s, x), r, s);
}
#else
__device__ static inline float swe_sqrt_fast(float x)
{
	float r, s;
	asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
	s = __fmul_rn(x, r);
	return fmaf(fmaf(-s, s, x), __fmul_rn(r, 0.5f), s);
}
#endif
#endif

/* sqrt(x) for x >= 0 (or NaN), the same bits on the CPU and the GPU; a
 * zero is returned as it is (its sign too), a positive x under
 * SWE_SQRT_MIN is taken as SWE_SQRT_MIN, and an infinite x gives NaN (a
 * state gone bad either way: the guard reports it).  On the GPU this is
 * the fast path of the correctly rounded square root alone
 * (swe_sqrt_fast), exact for arguments of normal size; the compiler's sqrt
 * checks the range and branches to a slow path (a call of some 30
 * instructions, taken by every zero) at each of the four calls a cell and
 * stage of the stage kernels, which are bound by the instructions they
 * issue.  The zero's root is the root of
 * SWE_SQRT_MIN, replaced by the zero after: two selects and no branch (on
 * Malpasset every dry face took the slow path before; doc/bench/kernel.md). */
HOSTDEVICE static inline real swe_sqrt0(real x)
{
	/* not x >= MIN ? x : MIN, which would turn a NaN into MIN */
	real y = x < SWE_SQRT_MIN ? SWE_SQRT_MIN : x, s;
#ifdef __CUDA_ARCH__
	s = swe_sqrt_fast(y);
#else
	s = isinf(y) ? (real)NAN : R_SQRT(y);
#endif
	return x == 0 ? x : s;
}

/* a / b for b > 0 (or NaN a), the same bits; a zero a is returned as it
 * is, without the GPU's slow path of a division of a zero (as swe_sqrt0). */
HOSTDEVICE static inline real swe_div0(real a, real b)
{
	real q = (a == 0 ? (real)1 : a) / b;
	return a == 0 ? a : q;
}

/* Largest argument of swe_recip_of: 2^100 (no valid state comes near). */
#define SWE_RECIP_MAX ((real)1.2676506002282294e30)

/* 1 / x, correctly rounded, for x in [2^-120, SWE_RECIP_MAX] (and NaN).  On
 * the GPU in single precision the fast path of its correctly rounded
 * reciprocal (rcp.rn.f32): an estimate refined by one Newton step in fused
 * multiply-adds, which is exact for arguments of normal size.  The
 * compiler's rcp.rn checks the exponent and branches to a slow path at every
 * call (7 of its 10 instructions a call, 5 calls a cell and stage in the
 * stage kernels, which are bound by the instructions they issue); the
 * callers bound the argument instead.  The CPU and double precision divide:
 * the same bits (t_cuda compares the two over the range). */
HOSTDEVICE static inline real swe_recip_of(real x)
{
#if defined(__CUDA_ARCH__) && !defined(SPATE_DOUBLE)
	float r, e;
	asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
	e = fmaf(x, r, -1.0f);
	return fmaf(-e, r, r);
#else
	return 1 / x;
#endif
}

/* 1 / x for x >= 2^-120, +infinity or NaN; in single precision an x above
 * SWE_RECIP_MAX is taken as SWE_RECIP_MAX (NaN stays NaN). */
HOSTDEVICE static inline real swe_recip(real x)
{
#ifdef SPATE_DOUBLE
	return 1 / x;
#else
	return swe_recip_of(x > SWE_RECIP_MAX ? SWE_RECIP_MAX : x);
#endif
}

#ifdef __CUDA_ARCH__
/* a / b by the fast path of div.rn alone (see swe_sqrt_fast): in single
 * precision the reciprocal of b (swe_recip_of), the quotient, and one
 * correction by the exact remainder in fused multiply-adds. */
__device__ static inline real swe_div_fast(real a, real b)
{
#ifdef SPATE_DOUBLE
	double y, e, q;
	asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(b));
	y = __hiloint2double(__double2hiint(y), 1);
	e = fma(-b, y, 1.0);
	e = fma(e, e, e);
	y = fma(y, e, y);
	y = fma(y, fma(-b, y, 1.0), y);
	q = __dmul_rn(a, y);
	return fma(y, fma(-b, q, a), q);
#else
	float r = swe_recip_of(b), q = __fmul_rn(a, r);
	return fmaf(r, fmaf(-b, q, a), q);
#endif
}
#endif

/* Largest wave-speed span that kp07_speed_ratio divides by in single
 * precision: 2^26 m/s. */
#define SWE_SPAN_MAX ((real)67108864)

/* am / span for am <= 0, |am| <= span and span > 0: the central-upwind
 * flux's a- / (a+ - a-), the same bits on the CPU and the GPU; a zero am
 * is returned as it is (as swe_div0), and in single precision a span
 * above SWE_SPAN_MAX (a state gone bad) is taken as SWE_SPAN_MAX (in
 * double precision the bound cost 1.6% on the wet grid).  On the GPU the
 * quotient is the fast path of div.rn without its range check (FCHK) and
 * branch (swe_div_fast), which gives the correctly rounded quotient
 * (Markstein's theorem) while the span lies in [2^-100, 2^26] and am is 0
 * or at least 2^-100 in magnitude.  Both hold: on a face with water on a
 * side, span >= 2 sqrt(g h) >= 2^-49.5 (swe_sqrt0 bounds the root), and a
 * nonzero am is a difference u - sqrt(g h) of such a root, so at least
 * 2^-74 in magnitude; a face dry on both sides has span 0 and divides
 * nothing.  Two calls a cell and stage in the stage kernels. */
HOSTDEVICE static inline real kp07_speed_ratio(real am, real span)
{
#ifdef SPATE_DOUBLE
	real s = span;
#else
	/* a NaN span is taken as the bound on both (swe_min_nz, swe_min); am
	 * or a+ carry the NaN into the flux */
	real s = swe_min_nz(span, SWE_SPAN_MAX);
#endif
#ifdef __CUDA_ARCH__
	real q = swe_div_fast(am, s);
	return am == 0 ? am : q;
#else
	return swe_div0(am, s);
#endif
}

/* Desingularised inverse depth (KP07 eq. 2.21): u = q * kp07_inv_depth(h)
 * is q / h for h >> kappa and -> 0 as h -> 0.  kappa4 = kappa^4 > 0.
 * KP07's sqrt(2) h / sqrt(h^4 + max(h^4, kappa^4)) is exactly 1 / h where
 * h^4 > kappa^4, and is computed so there: one reciprocal per face state
 * (swe_recip_of), shared by both momenta, and a square root only where the
 * water is thinner than kappa (the stage kernels are bound by the
 * instructions they issue; 5 such values a cell and stage).  Continuous at
 * h = kappa. */
HOSTDEVICE static inline real kp07_inv_depth(real h, real kappa4)
{
	real h2 = h * h, h4 = h2 * h2;
	/* h^4 > kappa4 >= 0: h > 2^-38 and not NaN, so bounded above by one
	 * instruction (swe_min_nz) on the GPU, within swe_recip_of's range */
	if (h4 > kappa4) {
#ifdef SPATE_DOUBLE
		return 1 / h;
#else
		return swe_recip_of(swe_min_nz(h, SWE_RECIP_MAX));
#endif
	}
	/* a dry face or cell: (+-)0, what the quotient gives, without the
	 * GPU's slow path of a division whose numerator is 0 */
	if (h == 0)
		return h;
	return (real)1.41421356237309515 * h / R_SQRT(h4 + kappa4);
}

/* The desingularised inverse depth of a cell of stored depth h, as
 * kp07_reconstruct takes it. */
HOSTDEVICE static inline real kp07_cell_inv_depth(real h, real kappa4)
{
	return kp07_inv_depth(swe_pos(h), kappa4);
}

/* Desingularised velocity (KP07 eq. 2.21) of momentum hq at depth h. */
HOSTDEVICE static inline real kp07_velocity(real h, real hq, real kappa4)
{
	return hq * kp07_inv_depth(h, kappa4);
}

/* Depth at a face of level eta over face bed Bf, both given relative to a
 * level Bref of the cell (dBf = Bf - Bref): eta + Bref - Bf.  Where the level
 * eta + Bref is a number (it is, but for thin films on high ground), the
 * depth is that level less Bf, rounded once: the face depths of a lake at
 * rest are then the same bits from both sides of every face, whatever the
 * beds (Bf - Bref is not exact across cliffs); else eta - dBf, rounded
 * relative to the water and the bed step. */
HOSTDEVICE static inline real kp07_face_depth(real eta, real dBf, real Bf, real Bref)
{
	real a = eta + Bref;
	return swe_pos(a - Bref == eta ? a - Bf : eta - dBf);
}

/* The level of a neighbour (depth hn over centre bed Bn) relative to the
 * centre bed Bc of a cell of depth h0: hn + Bn - Bc.  Where both cells'
 * levels are numbers (kp07_face_depth), their difference is taken, so that
 * cells of a lake at rest see a flat surface to the bit; else hn + (Bn - Bc),
 * rounded relative to the water and the bed step. */
HOSTDEVICE static inline real kp07_nb_level(real hn, real Bn, real h0, real Bc)
{
	real an = hn + Bn, a0 = h0 + Bc;
	return an - Bn == hn && a0 - Bc == h0 ? h0 + (an - a0) : hn + (Bn - Bc);
}

/* Reconstruct one cell in one direction from its neighbours (m: minus side,
 * p: plus side).  wm, w0, wp: levels relative to the level Bref (kp07_reconstruct_wd
 * takes the cell's centre bed, so w0 is its depth); Bm, Bp: bed at the
 * cell's minus and plus faces (not relative).  rm, r0, rp:
 * the desingularised inverse depths kp07_cell_inv_depth(h, kappa4) of
 * the minus neighbour, the cell and the plus neighbour (B the stored centre
 * bed); the caller computes them once per cell, as every cell's is used by
 * itself and both neighbours in both directions.  Gives the states at the
 * minus face (fm) and the plus face (fp).
 * KP07 sec. 2.2: if a face level falls below the bed there, the reconstruction
 * of w is tilted so that it touches the bed; the cell mean is kept, so both
 * face depths are >= 0 whenever the cell depth is. */
HOSTDEVICE static inline void kp07_reconstruct(real wm, real w0, real wp,
	real nm, real n0, real np, real tm, real t0, real tp,
	real Bm, real Bp, real Bref, real rm, real r0, real rp, real theta, struct kp07_face *fm,
	struct kp07_face *fp)
{
	real dw = kp07_half_slope(wm, w0, wp, theta);
	real dn = kp07_half_slope(nm, n0, np, theta);
	real dt = kp07_half_slope(tm, t0, tp, theta);
	real wM = w0 - dw, wP = w0 + dw, dBm = Bm - Bref, dBp = Bp - Bref;
	int tilted = 1;

	if (wP < dBp) {
		wP = dBp;
		wM = 2 * w0 - dBp;
	} else if (wM < dBm) {
		wM = dBm;
		wP = 2 * w0 - dBm;
	} else {
		tilted = 0;
	}
	fm->h = kp07_face_depth(wM, dBm, Bm, Bref);
	fm->eta = wM;
	fp->h = kp07_face_depth(wP, dBp, Bp, Bref);
	fp->eta = wP;
	if (tilted) {
		/* The surface was tilted onto the bed: one face is (nearly) dry.
		 * Limited momenta would give that thin face the momentum of the
		 * whole cell and a velocity of thousands of m/s on steep fronts (seen
		 * on Malpasset), so both faces move with the cell's velocity. */
		fm->hn = fm->h * (n0 * r0);
		fm->ht = fm->h * (t0 * r0);
		fp->hn = fp->h * (n0 * r0);
		fp->ht = fp->h * (t0 * r0);
		return;
	}
	{
		/* Limited momenta, with the face velocity kept within twice the
		 * largest of the three cells' velocities: where the limited surface
		 * leaves a face thin (steep drops), the momentum must thin with it
		 * (else thin faces ran at 1000 m/s on Malpasset).  Twice, not once:
		 * a front running onto dry ground is faster than the cells behind
		 * it (Ritter's tip moves at 2 sqrt(g h0)); a bound of once held the
		 * dry-bed dam break's front two cells back. */
		/* maxima of absolute values: every zero among them is +0 */
		real umax = 2 * swe_max_nz(swe_max_nz(R_ABS(nm * rm), R_ABS(n0 * r0)),
			R_ABS(np * rp));
		real vmax = 2 * swe_max_nz(swe_max_nz(R_ABS(tm * rm), R_ABS(t0 * r0)),
			R_ABS(tp * rp));
		fm->hn = swe_clamp(n0 - dn, fm->h * umax);
		fm->ht = swe_clamp(t0 - dt, fm->h * vmax);
		fp->hn = swe_clamp(n0 + dn, fp->h * umax);
		fp->ht = swe_clamp(t0 + dt, fp->h * vmax);
	}
}

/* Sort four values ascending (a five-comparator network). */
HOSTDEVICE static inline void swe_sort4(real *a, real *b, real *c, real *d)
{
	real t;
#define SWE_CSWAP(x, y) if (*(y) < *(x)) { t = *(x); *(x) = *(y); *(y) = t; }
	SWE_CSWAP(a, b) SWE_CSWAP(c, d) SWE_CSWAP(a, c) SWE_CSWAP(b, d) SWE_CSWAP(b, c)
#undef SWE_CSWAP
}

/* Wet/dry fronts.  A cell whose mean level lies below the bed at one of its
 * four face midpoints is partially flooded.  spate relates its mean depth to
 * a flat water level L by the same quadrature that defines the bed at the
 * centre (the mean of the four face beds):
 *     h(L) = 1/4 sum_f max(L - B_f, 0),
 * which is h = L - B_centre for a fully flooded cell (KP07's relation) and
 * continuous, increasing, and so invertible, below.  Reconstructing partially
 * flooded cells as flat at L, with depth max(L - B_f, 0) at each face, keeps a
 * lake at rest exactly at rest across wet/dry contacts in 2D (the face states
 * of neighbours at the same level agree, and the bed source below balances
 * the pressure flux), conserves mass (the fluxes are shared), and keeps
 * depths positive under the same CFL bound (the four face depths average to
 * the cell depth, which is what KP07's 2D positivity proof uses).
 * Compare Bollermann, Chen, Kurganov & Noelle (2013), who reconstruct such
 * cells from a 1D wedge of water instead. */

/* Mean depth of a cell with face beds b1..b4 under a level L. */
HOSTDEVICE static inline real swe_depth_at_level(real L, real b1, real b2, real b3, real b4)
{
	return (real)0.25 * (swe_pos(L - b1) + swe_pos(L - b2) + swe_pos(L - b3) + swe_pos(L - b4));
}

/* The level L of a partially flooded cell from its mean depth h >= 0 (the
 * inverse of swe_depth_at_level), as its height L - b above the lowest face
 * bed b, which goes to *bmin.  Computed in double precision from the steps
 * d = b_f - b between face beds and rounded once, so that the face depths
 * L - b_f = (L - b) - d are rounded relative to the water and the steps of
 * this cell, not to the height of the terrain (a film of 1e-7 m on beds
 * 100 m above the reference keeps its depth), and so that a depth exists
 * for every level L - b, to the bit (swe_level_to_w: a lake at rest). */
HOSTDEVICE static inline real swe_real_of(double x)
{
#ifdef SPATE_DOUBLE
	return x;
#else
	/* ties (x exactly between two floats) rounded away from zero: a level
	 * of 2h + d/2 is such a tie for every h when d/2 is an odd half-ulp,
	 * and ties to even would skip every other level */
	return (real)(x * (1 + 0x1p-40));
#endif
}

HOSTDEVICE static inline real kp07_cell_level(real h, real b1, real b2, real b3, real b4,
	real *bmin)
{
	double L, d2, d3, d4, h4;
	swe_sort4(&b1, &b2, &b3, &b4);
	*bmin = b1;
	d2 = (double)b2 - (double)b1;
	d3 = (double)b3 - (double)b1;
	d4 = (double)b4 - (double)b1;
	h4 = 4 * (double)h;
	if (h4 <= d2)
		return swe_real_of(h4);
	L = (h4 + d2) * 0.5;
	if (L <= d3)
		return swe_real_of(L);
	L = (h4 + d2 + d3) * (1.0 / 3.0);
	if (L <= d4)
		return swe_real_of(L);
	return swe_real_of((double)h + 0.25 * (d2 + d3 + d4));
}

/* Reconstruction of one cell in one direction, wet/dry aware: hm, h0, hp
 * the depths of the minus neighbour, the cell and the plus neighbour, Bnm,
 * Bnp the neighbours' centre beds, Bc the cell's (the mean of its four face
 * beds, as stored); Bm, Bp the beds at the faces in this direction, Bo1, Bo2
 * those of the other direction; rm, r0, rp the inverse depths as for
 * kp07_reconstruct.  Fully flooded cells (level h0 + Bc at or above all four
 * face beds) use KP07's limited linear reconstruction of the level, relative
 * to Bc (see the top of the file); partially flooded ones are flat at their
 * level L (see above) and move with the cell's (desingularised) velocity,
 * so the momentum at a face is its depth times that velocity: a thin face
 * never carries the momentum of the whole cell. */
HOSTDEVICE static inline void kp07_reconstruct_wd(real hm, real h0, real hp,
	real nm, real n0, real np, real tm, real t0, real tp, real Bnm, real Bnp,
	real Bm, real Bp, real Bo1, real Bo2, real Bc, real rm, real r0, real rp, real theta,
	struct kp07_face *fm, struct kp07_face *fp)
{
	/* top and the lowest face bed are only compared (swe_max_nz) */
	real top = swe_max_nz(swe_max_nz(Bm, Bp), swe_max_nz(Bo1, Bo2));
	real L, b, r = r0;
	/* A dry cell (h0 = 0) at or above all its face beds has a flat bed in
	 * exact arithmetic (the centre bed is their mean); where the mean only
	 * rounds up to the highest face bed it is treated as partially flooded,
	 * so that a cell of depth 0 reconstructs to depth 0 at every face on
	 * every bed (the early exit relies on it). */
	if (h0 >= top - Bc &&
		(h0 > 0 || top == swe_min_nz(swe_min_nz(Bm, Bp), swe_min_nz(Bo1, Bo2)))) {
		kp07_reconstruct(kp07_nb_level(hm, Bnm, h0, Bc), h0, kp07_nb_level(hp, Bnp, h0, Bc),
			nm, n0, np, tm, t0, tp,
			Bm, Bp, Bc, rm, r0, rp, theta, fm, fp);
		return;
	}
	L = kp07_cell_level(swe_pos(h0), Bm, Bp, Bo1, Bo2, &b);
	fm->h = kp07_face_depth(L, Bm - b, Bm, b);
	fm->eta = L;
	fm->hn = fm->h * (n0 * r);
	fm->ht = fm->h * (t0 * r);
	fp->h = kp07_face_depth(L, Bp - b, Bp, b);
	fp->eta = L;
	fp->hn = fp->h * (n0 * r);
	fp->ht = fp->h * (t0 * r);
}

/* Hydrostatic pressure force per unit width at a face of depth h, g h^2 / 2:
 * one expression for the flux and the bed source alike (kp07_bed_source). */
HOSTDEVICE static inline real kp07_pressure(real h, real g)
{
	return (real)0.5 * g * h * h;
}

/* Central-upwind flux through the face between L (the minus cell's plus face)
 * and R (the plus cell's minus face): KP07 eq. 2.11 with the speeds of eq.
 * 2.12 and velocities desingularised, momenta recomputed as h*u (eq. 2.22).
 * KP07's H = (a+ F_L - a- F_R + a+ a- (U_R - U_L)) / (a+ - a-) is computed as
 *     H = F_L + a- / (a+ - a-) ((F_L - F_R) + a+ (U_R - U_L)),
 * the same in exact arithmetic, but exactly F_L when both sides agree: a
 * lake at rest gets exactly the pressure of its face depth, which the bed
 * source cancels to the bit.  The mass diffusion uses depths: both sides of
 * a face stand on the same face bed, so w_R - w_L = h_R - h_L. */
HOSTDEVICE static inline struct kp07_flux kp07_central_upwind(struct kp07_face L,
	struct kp07_face R, struct swe_coef c)
{
	struct kp07_flux F;
	real rL = kp07_inv_depth(L.h, c.kappa4), rR = kp07_inv_depth(R.h, c.kappa4);
	real uL = L.hn * rL, vL = L.ht * rL, uR = R.hn * rR, vR = R.ht * rR;
	real nL = L.h * uL, nR = R.h * uR;
	real cL = swe_sqrt0(c.g * L.h), cR = swe_sqrt0(c.g * R.h);
	real ap = swe_pos(swe_max(uL + cL, uR + cR));
	real am = swe_min(swe_min(uL - cL, uR - cR), 0);
	real span = ap - am;

	F.a = swe_max(ap, -am);
	if (span <= 0) {
		F.f0 = 0;
		F.fn = 0;
		F.ft = 0;
		return F;
	}
	{
		real k = kp07_speed_ratio(am, span);
		real fL = nL * uL + kp07_pressure(L.h, c.g), fR = nR * uR + kp07_pressure(R.h, c.g);
		real tL = nL * vL, tR = nR * vR;
		F.f0 = nL + k * ((nL - nR) + ap * (R.h - L.h));
		F.fn = fL + k * ((fL - fR) + ap * (nR - nL));
		F.ft = tL + k * ((tL - tR) + ap * (R.h * vR - L.h * vL));
	}
	return F;
}

/* Well-balanced bed-slope source for the normal momentum, per unit time,
 * integrated over the cell and divided by its width (KP07 eq. 2.16):
 * -g (h_minus + h_plus)/2 (B_plus - B_minus) / dx.  With B = eta - h at each
 * face this is written
 *     [p(h_plus) - p(h_minus) - g (h_minus + h_plus)/2 (eta_plus - eta_minus)] / dx,
 * p(h) = g h^2 / 2 (kp07_pressure), the same value, but exactly the pressure
 * difference the fluxes carry whenever the level is flat (eta_plus ==
 * eta_minus) and the fluxes are those of still water (kp07_central_upwind
 * gives p of the face depth exactly): so a lake at rest stays at rest to the
 * bit where its face depths agree, and thin water at a shore feels no
 * spurious force.  At a dry face of a partially flooded cell eta is the
 * cell's level, h = 0: only the wetted bed pushes the water. */
HOSTDEVICE static inline real kp07_bed_source(struct kp07_face fm, struct kp07_face fp, real g,
	real inv_dx)
{
	return ((kp07_pressure(fp.h, g) - kp07_pressure(fm.h, g)) -
		g * (real)0.5 * (fm.h + fp.h) * (fp.eta - fm.eta)) * inv_dx;
}

/* Bed at the cell centre from its four corners (KP07 eq. 2.5). */
HOSTDEVICE static inline real swe_bed_centre(real b00, real b10, real b01, real b11)
{
	return (real)0.25 * (b00 + b10 + b01 + b11);
}

/* Bed at a face midpoint from the face's two corners. */
HOSTDEVICE static inline real swe_bed_face(real ba, real bb)
{
	return (real)0.5 * (ba + bb);
}

#endif
