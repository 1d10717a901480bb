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
 * (w, hn, ht): surface level, momentum normal to the faces considered, and
 * momentum tangential to them.  In x, (hn, ht) = (hu, hv); in y, (hv, hu).
 * Levels (w, B) are relative to the domain's reference level (the minimum
 * bed), so single precision resolves depth to ~1e-6 m on any terrain. */
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
	real w;   /* surface level at the face */
	real h;   /* depth at the face, >= 0 */
	real eta; /* water level at the face for the bed-slope source: w, or the
	             level L of a partially flooded cell (also where it is dry) */
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
/* x limited to [-m, m] (m >= 0). */
HOSTDEVICE static inline real swe_clamp(real x, real m) { return x > m ? m : x < -m ? -m : x; }

/* minmod(a, b, c) = min if all > 0, max if all < 0, else 0 (KP07 eq. 2.3):
 * all are > 0 exactly when their minimum is, all < 0 when their maximum is
 * (written so, it compiles without branches). */
HOSTDEVICE static inline real kp07_minmod(real a, real b, real c)
{
	real lo = swe_min(a, swe_min(b, c)), hi = swe_max(a, swe_max(b, c));
	return lo > 0 ? lo : hi < 0 ? hi : 0;
}

/* Half a cell's reconstructed increment, (dx/2) U_x, by the generalised
 * minmod limiter (KP07 eq. 2.2-2.3).  Differences, not slopes: dx cancels. */
HOSTDEVICE static inline real kp07_half_slope(real qm, real q0, real qp, real theta)
{
	real s = kp07_minmod(theta * (q0 - qm), (real)0.5 * (qp - qm), theta * (qp - q0));
	return (real)0.5 * s;
}

/* Desingularised inverse depth (KP07 eq. 2.21): u = q * kp07_inv_depth(h)
 * is q / h for h >> kappa and -> 0 as h -> 0.  kappa4 = kappa^4 > 0.  One
 * square root and one division per face state, shared by both momenta. */
HOSTDEVICE static inline real kp07_inv_depth(real h, real kappa4)
{
	real h2 = h * h, h4 = h2 * h2;
	return (real)1.41421356237309515 * h / R_SQRT(h4 + swe_max(h4, kappa4));
}

/* The desingularised inverse depth of a cell at level w over its stored
 * centre bed B, as kp07_reconstruct takes it. */
HOSTDEVICE static inline real kp07_cell_inv_depth(real w, real B, real kappa4)
{
	return kp07_inv_depth(swe_max(w - B, 0), kappa4);
}

/* Desingularised velocity (KP07 eq. 2.21) of momentum hq at depth h. */
HOSTDEVICE static inline real kp07_velocity(real h, real hq, real kappa4)
{
	return hq * kp07_inv_depth(h, kappa4);
}

/* Reconstruct one cell in one direction from its neighbours (m: minus side,
 * p: plus side).  Bm, Bp: bed at the cell's minus and plus faces.  rm, r0, rp:
 * the desingularised inverse depths kp07_cell_inv_depth(w, B, kappa4) of
 * the minus neighbour, the cell and the plus neighbour (B the stored centre
 * bed); the caller computes them once per cell, as every cell's is used by
 * itself and both neighbours in both directions.  Gives the states at the
 * minus face (fm) and the plus face (fp).
 * KP07 sec. 2.2: if a face level falls below the bed there, the reconstruction
 * of w is tilted so that it touches the bed; the cell mean is kept, so both
 * face depths are >= 0 whenever the cell depth is. */
HOSTDEVICE static inline void kp07_reconstruct(real wm, real w0, real wp,
	real nm, real n0, real np, real tm, real t0, real tp,
	real Bm, real Bp, real rm, real r0, real rp, real theta, struct kp07_face *fm,
	struct kp07_face *fp)
{
	real dw = kp07_half_slope(wm, w0, wp, theta);
	real dn = kp07_half_slope(nm, n0, np, theta);
	real dt = kp07_half_slope(tm, t0, tp, theta);
	real wM = w0 - dw, wP = w0 + dw;
	int tilted = 1;

	if (wP < Bp) {
		wP = Bp;
		wM = 2 * w0 - Bp;
	} else if (wM < Bm) {
		wM = Bm;
		wP = 2 * w0 - Bm;
	} else {
		tilted = 0;
	}
	fm->w = wM;
	fm->h = swe_max(wM - Bm, 0);
	fm->eta = wM;
	fp->w = wP;
	fp->h = swe_max(wP - Bp, 0);
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
		real umax = 2 * swe_max(swe_max(R_ABS(nm * rm), R_ABS(n0 * r0)), R_ABS(np * rp));
		real vmax = 2 * swe_max(swe_max(R_ABS(tm * rm), R_ABS(t0 * r0)), R_ABS(tp * rp));
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
	return (real)0.25 * (swe_max(L - b1, 0) + swe_max(L - b2, 0) + swe_max(L - b3, 0) +
		swe_max(L - b4, 0));
}

/* The level L of a partially flooded cell from its mean depth h >= 0: the
 * inverse of swe_depth_at_level. */
HOSTDEVICE static inline real kp07_cell_level(real h, real b1, real b2, real b3, real b4)
{
	real L;
	swe_sort4(&b1, &b2, &b3, &b4);
	L = 4 * h + b1;
	if (L <= b2)
		return L;
	L = (4 * h + b1 + b2) * (real)0.5;
	if (L <= b3)
		return L;
	L = (4 * h + b1 + b2 + b3) * (real)(1.0 / 3.0);
	if (L <= b4)
		return L;
	return h + (real)0.25 * (b1 + b2 + b3 + b4);
}

/* Reconstruction of one cell in one direction, wet/dry aware: Bm, Bp are the
 * beds at the faces in this direction, Bo1, Bo2 those of the other
 * direction, Bc the bed at the centre (their mean, as stored); rm, r0, rp the
 * inverse depths as for kp07_reconstruct (r0 from w0 - Bc).  Fully
 * flooded cells (mean level at or above all four face beds) use KP07's
 * limited linear reconstruction; partially flooded ones are flat at their
 * level L (see above) and move with the cell's (desingularised) velocity, so
 * the momentum at a face is its depth times that velocity: a thin face never
 * carries the momentum of the whole cell. */
HOSTDEVICE static inline void kp07_reconstruct_wd(real wm, real w0, real wp,
	real nm, real n0, real np, real tm, real t0, real tp,
	real Bm, real Bp, real Bo1, real Bo2, real Bc, real rm, real r0, real rp, real theta,
	struct kp07_face *fm, struct kp07_face *fp)
{
	real top = swe_max(swe_max(Bm, Bp), swe_max(Bo1, Bo2));
	real L, r = r0;
	/* A dry cell (w0 <= Bc) at or above all its face beds has a flat bed in
	 * exact arithmetic (the centre bed is their mean); where the mean only
	 * rounds up to the highest face bed it is treated as partially flooded,
	 * so that a cell of depth 0 reconstructs to depth 0 at every face on
	 * every bed (the early exit relies on it). */
	if (w0 >= top &&
		(w0 > Bc || top == swe_min(swe_min(Bm, Bp), swe_min(Bo1, Bo2)))) {
		kp07_reconstruct(wm, w0, wp, nm, n0, np, tm, t0, tp, Bm, Bp, rm, r0, rp, theta,
			fm, fp);
		return;
	}
	L = kp07_cell_level(swe_max(w0 - Bc, 0), Bm, Bp, Bo1, Bo2);
	fm->w = swe_max(L, Bm);
	fm->h = swe_max(L - Bm, 0);
	fm->eta = L;
	fm->hn = fm->h * (n0 * r);
	fm->ht = fm->h * (t0 * r);
	fp->w = swe_max(L, Bp);
	fp->h = swe_max(L - Bp, 0);
	fp->eta = L;
	fp->hn = fp->h * (n0 * r);
	fp->ht = fp->h * (t0 * r);
}

/* Central-upwind flux through the face between L (the minus cell's plus face)
 * and R (the plus cell's minus face): KP07 eq. 2.11 with the speeds of eq.
 * 2.12 and velocities desingularised, momenta recomputed as h*u (eq. 2.22). */
HOSTDEVICE static inline struct kp07_flux kp07_central_upwind(struct kp07_face L,
	struct kp07_face R, struct swe_coef c)
{
	struct kp07_flux F;
	real rL = kp07_inv_depth(L.h, c.kappa4), rR = kp07_inv_depth(R.h, c.kappa4);
	real uL = L.hn * rL, vL = L.ht * rL, uR = R.hn * rR, vR = R.ht * rR;
	real nL = L.h * uL, nR = R.h * uR;
	real cL = R_SQRT(c.g * L.h), cR = R_SQRT(c.g * R.h);
	real ap = swe_max(swe_max(uL + cL, uR + cR), 0);
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
		real inv = 1 / span, apam = ap * am;
		real pL = (real)0.5 * c.g * L.h * L.h, pR = (real)0.5 * c.g * R.h * R.h;
		F.f0 = (ap * nL - am * nR) * inv + apam * inv * (R.w - L.w);
		F.fn = (ap * (nL * uL + pL) - am * (nR * uR + pR)) * inv + apam * inv * (nR - nL);
		F.ft = (ap * (nL * vL) - am * (nR * vR)) * inv + apam * inv * (R.h * vR - L.h * vL);
	}
	return F;
}

/* Well-balanced bed-slope source for the normal momentum, per unit time,
 * integrated over the cell and divided by its width (KP07 eq. 2.16):
 * -g (h_minus + h_plus)/2 (B_plus - B_minus) / dx.  With B = eta - h at each
 * face this is written
 *     g (h_minus + h_plus)/2 ((h_plus - h_minus) - (eta_plus - eta_minus)) / dx,
 * the same value, but exactly the pressure difference g (h_plus^2 - h_minus^2)/2
 * whenever the level is flat (eta_plus == eta_minus): so a lake at rest stays
 * at rest to round-off in the fluxes, not in the levels, and thin water at a
 * shore feels no spurious force.  At a dry face of a partially flooded cell
 * eta is the cell's level, h = 0: only the wetted bed pushes the water. */
HOSTDEVICE static inline real kp07_bed_source(struct kp07_face fm, struct kp07_face fp, real g,
	real inv_dx)
{
	return g * (real)0.5 * (fm.h + fp.h) * ((fp.h - fm.h) - (fp.eta - fm.eta)) * inv_dx;
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

/* Local time-step bound from the largest face speeds in x and y:
 * dt = cfl/2 * min(dx/ax, dy/ay).  The factor 1/2 makes cfl = 0.5 the KP07
 * positivity bound dt <= 1/4 min(dx/a, dy/b) (KP07 Theorem 2.1).
 * Returns `cap` when both speeds vanish. */
HOSTDEVICE static inline double swe_cfl_dt(double ax, double ay, double dx, double dy,
	double cfl, double cap)
{
	double dt = cap;
	if (ax > 0 && 0.5 * cfl * dx / ax < dt)
		dt = 0.5 * cfl * dx / ax;
	if (ay > 0 && 0.5 * cfl * dy / ay < dt)
		dt = 0.5 * cfl * dy / ay;
	return dt;
}

/* Finish an explicit update of one cell: keep the depth non-negative (a
 * round-off guard; KP07's CFL bound keeps it so in exact arithmetic), zero
 * the momentum of (nearly) dry cells, then Manning friction, semi-implicit:
 * hu <- hu / (1 + dt g n^2 |u| / h^(4/3)) (BSA12 eq. 9). */
/* Manning friction on a wet cell of depth h > 0, semi-implicit:
 * hu <- hu / (1 + dt g n^2 |u| / h^(4/3)) (BSA12 eq. 9); n2 = n^2. */
HOSTDEVICE static inline void swe_friction(real h, real *hu, real *hv, real n2, real dt,
	struct swe_coef c)
{
	real r = kp07_inv_depth(h, c.kappa4), u = *hu * r, v = *hv * r;
	real s = R_SQRT(u * u + v * v);
	real d = 1 / (1 + dt * c.g * n2 * s / (h * R_CBRT(h)));
	*hu *= d;
	*hv *= d;
}

HOSTDEVICE static inline void swe_finish(real *w, real *hu, real *hv, real Bc, real dt,
	struct swe_coef c)
{
	real h = *w - Bc;
	if (h <= c.dry) {
		if (h < 0)
			*w = Bc;
		*hu = 0;
		*hv = 0;
		return;
	}
	if (c.n2 > 0)
		swe_friction(h, hu, hv, c.n2, dt, c);
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

/* The level after a forward-Euler update, w + dt L, computed in depth form
 * B + ((w - B) + dt L): the same value in exact arithmetic, but rounded
 * relative to the depth rather than the level, so a new depth that is >= 0
 * never comes out < 0 by round-off (in level form, a cell drained to zero
 * went negative by an ulp of the level, and swe_finish's clamp refilled it).
 * Depths under about one ulp of the level stay quantised to it all the same:
 * single precision is not mass-exact where thin films spread over high
 * terrain (see the notes on Malpasset); double precision is. */
HOSTDEVICE static inline real swe_level_euler(real w, real B, real L, real dt)
{
	return B + ((w - B) + dt * L);
}

/* The level after the SSP-RK2 second stage, (w^n + w* + dt L*) / 2, in the
 * same depth form. */
HOSTDEVICE static inline real swe_level_rk2(real w0, real ws, real B, real L, real dt)
{
	return B + (real)0.5 * ((w0 - B) + ((ws - B) + dt * L));
}

/* The sources split from the step, applied to each cell once after it when
 * the run has rain or a Manning raster: rain of rate r (m/s, >= 0) adds
 * r dt to the depth (in the depth form of swe_level_euler), then friction
 * with this cell's n2 (0: none here; with a constant n the stages apply it). */
HOSTDEVICE static inline void swe_sources(real *w, real *hu, real *hv, real Bc, real r,
	real n2, real dt, struct swe_coef c)
{
	real h;
	if (r > 0)
		*w = swe_level_euler(*w, Bc, r, dt);
	h = *w - Bc;
	if (n2 > 0 && h > c.dry)
		swe_friction(h, hu, hv, n2, dt, c);
}

/* Ghost value of a cell outside the domain, from the interior cell it mirrors
 * (wall) or copies (others).  sign = +1 when the side's inward normal points
 * along +x or +y (west, south), -1 otherwise.  Bs: bed at the source cell's
 * centre, Bg: bed at the ghost cell's centre.  qin: inflow discharge per unit
 * width (m^2/s) for SWE_BC_INFLOW, level (relative) for SWE_BC_LEVEL.
 * g: gravity, for the inflow's critical depth. */
HOSTDEVICE static inline void swe_bc_ghost(int kind, int sign, real value, real Bs, real Bg,
	real g, real *w, real *hn, real *ht)
{
	switch (kind) {
	case SWE_BC_WALL:
		*hn = -*hn;
		break;
	case SWE_BC_LEVEL:
		*w = swe_max(value, Bg);
		break;
	case SWE_BC_INFLOW:
		/* depth: the interior's, at least the critical depth (q^2/g)^(1/3) of
		 * the inflow, so that water enters a dry bed */
		*w = Bg + swe_max(*w - Bs, R_CBRT(value * value / g));
		*hn = sign * value;
		*ht = 0;
		break;
	default: /* SWE_BC_OUTFLOW: zero gradient */
		*w = Bg + swe_max(*w - Bs, 0);
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
