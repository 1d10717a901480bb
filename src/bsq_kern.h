/* bsq_kern.h: every formula of the Boussinesq projection solver, once, for
 * the CPU loops (bsq_*.c) and a later CUDA backend alike.
 *
 * Discretisation restated in shared/BSQ.md: staggered MAC grid (Harlow &
 * Welch, Phys. Fluids 8, 1965), second-order central differences, flux-form
 * advection with two-point averages, Adams-Bashforth 2 for the explicit
 * terms, projection (Chorin, Math. Comp. 22, 1968) with a cell-centred
 * pressure Poisson equation solved by Jacobi or geometric multigrid.
 *
 * Everything here is a static inline HOSTDEVICE function of scalars and small
 * structs: no arrays, globals, allocation or I/O.  The header compiles as C99
 * and as CUDA C++ (no VLAs, compound literals or designated initialisers).
 *
 * Conventions: a control volume (a cell for p and T, a face-centred volume
 * for u, v, w) sees its value c and six neighbours (struct bsq_st7), and the
 * velocities normal to its six faces (struct bsq_face6). */
#ifndef SPATE_BSQ_KERN_H
#define SPATE_BSQ_KERN_H

#include "hostdevice.h"

/* The module's precision: fp64 by default (Cohen & Molemaker 2009 need it for
 * divergence tolerances of 1e-8), fp32 when configured with
 * --enable-bsq-single (-DBSQ_SINGLE).  BSQ_TOL_DEFAULT is the default of
 * [solver] tol, max |div u| after a projection: in fp32 a velocity U carries
 * a rounding error of about 6e-8 U, so the correction u - dt grad phi leaves
 * max |div u| at a few 1e-8 U/h whatever the solve did (4e-6 on 64 cells of
 * a unit box at U = 1); 1e-4 there. */
#ifdef BSQ_SINGLE
typedef float bsq_real;
#define BSQ_PRECISION "single"
#define BSQ_TOL_DEFAULT 1e-4
#else
typedef double bsq_real;
#define BSQ_PRECISION "double"
#define BSQ_TOL_DEFAULT 1e-8
#endif

/* A value c at the centre of a control volume and its six neighbours. */
struct bsq_st7 {
	bsq_real c, xm, xp, ym, yp, zm, zp;
};

/* Velocities normal to the six faces of a control volume (outward order:
 * low face, high face in each direction). */
struct bsq_face6 {
	bsq_real xm, xp, ym, yp, zm, zp;
};

/* Inverse spacings and their squares.  A multigrid level sets the square
 * of a direction one cell thick (a "2D-like" grid) to 0: with the pressure's
 * mirrored or periodic ghosts that term is exactly zero, and leaving it out
 * keeps the point relaxation undamped. */
struct bsq_h {
	bsq_real idx, idy, idz;
	bsq_real idx2, idy2, idz2;
	bsq_real irelax; /* 1 / (2 (idx2 + idy2 + idz2)): bsq_h_relax */
};

/* Sets h->irelax from the squares (again after one of them is set to 0).
 * The point relaxation multiplies by it: a division a cell was the largest
 * part of the single-precision sweep's instructions. */
HOSTDEVICE static inline void bsq_h_relax(struct bsq_h *h)
{
	h->irelax = (bsq_real)1 / (2 * (h->idx2 + h->idy2 + h->idz2));
}

/* The spacing struct of cells dx, dy, dz. */
HOSTDEVICE static inline struct bsq_h bsq_h_of(double dx, double dy, double dz)
{
	struct bsq_h h;
	h.idx = (bsq_real)(1.0 / dx);
	h.idy = (bsq_real)(1.0 / dy);
	h.idz = (bsq_real)(1.0 / dz);
	h.idx2 = (bsq_real)(1.0 / (dx * dx));
	h.idy2 = (bsq_real)(1.0 / (dy * dy));
	h.idz2 = (bsq_real)(1.0 / (dz * dz));
	bsq_h_relax(&h);
	return h;
}

/* Two-point average, BSQ.md "Advection": ū[i] = (u[i-1/2] + u[i+1/2]) / 2. */
HOSTDEVICE static inline bsq_real bsq_avg(bsq_real a, bsq_real b)
{
	return (bsq_real)0.5 * (a + b);
}

/* Divergence at a centre from the six face velocities, BSQ.md "Grid":
 * D = (u[i+1/2] - u[i-1/2])/dx + (v[j+1/2] - v[j-1/2])/dy + (w[k+1/2] - w[k-1/2])/dz. */
HOSTDEVICE static inline bsq_real bsq_div(const struct bsq_face6 *f, const struct bsq_h *h)
{
	return (f->xp - f->xm) * h->idx + (f->yp - f->ym) * h->idy + (f->zp - f->zm) * h->idz;
}

/* Gradient on the face between centres pm (low) and pp (high):
 * (dp/dx)[i-1/2] = (p[i] - p[i-1]) / dx. */
HOSTDEVICE static inline bsq_real bsq_grad(bsq_real pm, bsq_real pp, bsq_real ih)
{
	return (pp - pm) * ih;
}

/* 7-point Laplacian, BSQ.md "Grid":
 * (q[i+1] - 2q[i] + q[i-1])/dx^2 + (same in y) + (same in z). */
HOSTDEVICE static inline bsq_real bsq_lap7(const struct bsq_st7 *q, const struct bsq_h *h)
{
	return (q->xm - 2 * q->c + q->xp) * h->idx2 + (q->ym - 2 * q->c + q->yp) * h->idy2 +
		(q->zm - 2 * q->c + q->zp) * h->idz2;
}

/* Flux-form advection div(a q) of the control volume, BSQ.md "Advection":
 * on each face the advecting velocity a times the two-point average of q,
 * e.g. d(uu)/dx ~ (ū[i]^2 - ū[i-1]^2)/dx for u (a = ū there).  Energy
 * conserving on a uniform grid when a is discretely divergence free. */
HOSTDEVICE static inline bsq_real bsq_advect(const struct bsq_face6 *a, const struct bsq_st7 *q,
	const struct bsq_h *h)
{
	return (a->xp * bsq_avg(q->c, q->xp) - a->xm * bsq_avg(q->xm, q->c)) * h->idx +
		(a->yp * bsq_avg(q->c, q->yp) - a->ym * bsq_avg(q->ym, q->c)) * h->idy +
		(a->zp * bsq_avg(q->c, q->zp) - a->zm * bsq_avg(q->zm, q->c)) * h->idz;
}

/* Explicit right-hand side F = -advection + diffusivity * Laplacian + force
 * (BSQ.md "Time stepping"), for u, v, w (diffusivity nu) and T (kappa). */
HOSTDEVICE static inline bsq_real bsq_explicit(const struct bsq_face6 *a, const struct bsq_st7 *q,
	const struct bsq_h *h, bsq_real diffusivity, bsq_real force)
{
	return -bsq_advect(a, q, h) + diffusivity * bsq_lap7(q, h) + force;
}

/* Boussinesq buoyancy on a w face between centres Tm (below) and Tp (above):
 * g beta ((T[k] + T[k-1])/2 - T0), BSQ.md "Advection". */
HOSTDEVICE static inline bsq_real bsq_buoyancy(bsq_real gbeta, bsq_real Tm, bsq_real Tp,
	bsq_real T0)
{
	return gbeta * (bsq_avg(Tm, Tp) - T0);
}

/* Adams-Bashforth 2 with variable steps, BSQ.md "Time stepping":
 * q* = q + dt [(1 + r/2) F - (r/2) Fold], r = dt^n / dt^(n-1); r = 0 is the
 * forward Euler first step. */
HOSTDEVICE static inline bsq_real bsq_ab2(bsq_real q, bsq_real dt, bsq_real r, bsq_real F,
	bsq_real Fold)
{
	return q + dt * ((1 + (bsq_real)0.5 * r) * F - (bsq_real)0.5 * r * Fold);
}

/* The first guess of a pressure solve from the last two steps' pressures,
 * linear in time: phi + r (phi - prev), r = dt^n / dt^(n-1).  A pressure
 * that changes smoothly over a step is then known to O(dt^2) instead of
 * O(dt) before the first cycle (Rayleigh-Benard: the initial residual about
 * 13 times lower, a V-cycle less a step). */
HOSTDEVICE static inline bsq_real bsq_extrapolated(bsq_real phi, bsq_real prev, bsq_real r)
{
	return phi + r * (phi - prev);
}

/* Projection correction u = u* - dt dphi/dn on a face (Chorin 1968). */
HOSTDEVICE static inline bsq_real bsq_correct(bsq_real q, bsq_real dt, bsq_real grad)
{
	return q - dt * grad;
}

/* Residual of the Poisson equation lap(phi) = b at a centre: b - lap7(phi). */
HOSTDEVICE static inline bsq_real bsq_residual(const struct bsq_st7 *phi, bsq_real b,
	const struct bsq_h *h)
{
	return b - bsq_lap7(phi, h);
}

/* Point relaxation of lap(phi) = b (Jacobi, or Gauss-Seidel when the
 * neighbours are already new), BSQ.md "Pressure solvers" with anisotropic
 * weights: phi = (sum_d (phi[d-] + phi[d+]) / h_d^2 - b) / (2 sum_d 1/h_d^2),
 * the division a product with h->irelax.  phi->c is not used. */
HOSTDEVICE static inline bsq_real bsq_relax(const struct bsq_st7 *phi, bsq_real b,
	const struct bsq_h *h)
{
	return ((phi->xm + phi->xp) * h->idx2 + (phi->ym + phi->yp) * h->idy2 +
		(phi->zm + phi->zp) * h->idz2 - b) * h->irelax;
}

/* Restriction, cell-centred: the mean of the n children (n = 8 when all
 * three directions are coarsened) given their sum. */
HOSTDEVICE static inline bsq_real bsq_restrict(bsq_real sum, int n)
{
	return sum / (bsq_real)n;
}

/* Linear prolongation in one direction, cell-centred: a fine cell lies a
 * quarter of a coarse cell from its parent (near) towards the next coarse
 * cell (far): 3/4 near + 1/4 far.  Nested over x, y, z it gives the
 * trilinear weights 27/64, 9/64, 3/64, 1/64 of BSQ.md; far == near in a
 * direction that is not coarsened. */
HOSTDEVICE static inline bsq_real bsq_pl(bsq_real near, bsq_real far)
{
	return (bsq_real)0.75 * near + (bsq_real)0.25 * far;
}

/* Ghost value that puts value `wall` on the wall halfway between the ghost
 * and the interior value `in` (BSQ.md "Boundaries": no-slip 0, moving lid U,
 * fixed temperature T_w): 2 wall - in. */
HOSTDEVICE static inline bsq_real bsq_ghost_dirichlet(bsq_real wall, bsq_real in)
{
	return 2 * wall - in;
}

/* Wall-normal derivative from the wall value and the first two centres at
 * h/2 and 3h/2 into the domain, second order (BSQ.md "Diagnostics"):
 * dT/dn ~ (-8 Tw + 9 T1 - T2) / (3 h). */
HOSTDEVICE static inline double bsq_dtdn_wall(double Tw, double T1, double T2, double h)
{
	return (-8 * Tw + 9 * T1 - T2) / (3 * h);
}

/* Advective limit dt <= C h / |u|max in one direction (infinite for |u| = 0). */
HOSTDEVICE static inline double bsq_dt_cfl(double C, double h, double umax)
{
	return umax > 0 ? C * h / umax : 1e300;
}

/* Diffusive limit dt <= D / (max(nu, kappa) (4/dx^2 + 4/dy^2 + 4/dz^2)): the
 * 7-point Laplacian's largest eigenvalue against AB2's reach of -1 on the
 * negative real axis (BSQ.md "Time stepping"). */
HOSTDEVICE static inline double bsq_dt_diff(double D, double diffusivity, const struct bsq_h *h)
{
	double s = 4 * ((double)h->idx2 + (double)h->idy2 + (double)h->idz2);
	return diffusivity > 0 && s > 0 ? D / (diffusivity * s) : 1e300;
}

/* Linear interpolation a + t (b - a), 0 <= t <= 1. */
HOSTDEVICE static inline double bsq_lerp(double a, double b, double t)
{
	return a + t * (b - a);
}

#endif
