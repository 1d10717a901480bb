/* bsq.h: the Boussinesq module's public interface (CPU solver).
 *
 * Incompressible Navier-Stokes with Boussinesq buoyancy and a temperature
 * equation (shared/BSQ.md "Equations"):
 *   du/dt + (u.grad)u = -grad p + nu lap u + g beta (T - T0) z,   div u = 0,
 *   dT/dt + (u.grad)T = kappa lap T,
 * on a staggered MAC grid (Harlow & Welch 1965), Adams-Bashforth 2 and a
 * projection (Chorin 1968) with a Jacobi or geometric multigrid pressure
 * solve.
 *
 * Use: bsq_params_default, then a set-up (bsq_setup_*) or your own values,
 * bsq_init (validates, allocates, sets the initial fields), bsq_step as
 * often as needed, bsq_free.  Diagnostics read a state (bsq_diag_*).
 *
 * Storage: every field, face or centred, is an array of (nx+2)(ny+2)(nz+2)
 * values with one ghost layer, a stack of x-y planes along z, each plane
 * contiguous: index (k (ny+2) + j)(nx+2) + i, interior 1..n.  Centre (i, j, k)
 * is at ((i - 1/2) dx, (j - 1/2) dy, (k - 1/2) dz); u[i, j, k] lives on the
 * x face at (i - 1) dx (the cell's low face), v and w likewise, so a plane k
 * owns w on its lower face and slabs of whole planes can be cut later. */
#ifndef SPATE_BSQ_H
#define SPATE_BSQ_H

#include <stddef.h>

#include "hostdevice.h"
#include "bsq_kern.h"

/* The six faces of the box. */
enum bsq_face { BSQ_XM = 0, BSQ_XP, BSQ_YM, BSQ_YP, BSQ_ZM, BSQ_ZP, BSQ_NFACE };

/* Velocity boundary kinds per face (BSQ.md "Boundaries").  Periodic only in
 * pairs (both faces of an axis); in z, one process stands for the halo
 * between the first and last slab. */
enum bsq_vel_bc { BSQ_NOSLIP = 0, BSQ_FREESLIP, BSQ_LID, BSQ_PERIODIC,
	/* not a boundary: the z face of a slab inside the stack, whose ghost
	 * planes are its neighbour's planes (bsq_slab.h); never in a scenario */
	BSQ_SLAB };
/* Temperature kinds per face (ignored on periodic axes). */
enum bsq_temp_bc { BSQ_T_INSULATED = 0, BSQ_T_FIXED };
enum bsq_solver { BSQ_SOLVER_MG = 0, BSQ_SOLVER_JACOBI };
/* Multigrid prolongation: trilinear, or piecewise constant. */
enum bsq_interp { BSQ_INTERP_PL = 0, BSQ_INTERP_PC };
/* First guess of each step's pressure solve: the last step's pressure
 * extrapolated linearly in time from the two before, or the last one. */
enum bsq_warm { BSQ_WARM_LINEAR = 0, BSQ_WARM_PREVIOUS };
/* Built-in set-ups (bsq_setup.c): initial fields chosen by bsq_init. */
enum bsq_setup_kind { BSQ_SETUP_REST = 0, BSQ_SETUP_CAVITY, BSQ_SETUP_DHC, BSQ_SETUP_RB,
	BSQ_SETUP_TG };

/* Largest number of multigrid levels. */
#define BSQ_MG_MAXLEV 16

struct bsq_params {
	int nx, ny, nz;          /* cells; >= 1 */
	double lx, ly, lz;       /* box size; dx = lx / nx etc. */
	double nu, kappa;        /* viscosity, thermal diffusivity (>= 0) */
	double gbeta, T0;        /* buoyancy g beta and reference temperature */
	int thermal;             /* 1: advance T (and buoyancy); 0: T stays */
	int vel_bc[BSQ_NFACE];   /* enum bsq_vel_bc */
	double lid[BSQ_NFACE][3]; /* wall velocity (u, v, w) of a BSQ_LID face */
	int temp_bc[BSQ_NFACE];  /* enum bsq_temp_bc */
	double wall_T[BSQ_NFACE]; /* temperature of a BSQ_T_FIXED face */
	int solver;              /* enum bsq_solver */
	int interp;              /* enum bsq_interp */
	int pre, post;           /* RB-GS sweeps before/after the coarse correction */
	int fmg;                 /* 1: full multigrid on the first step */
	int warm;                /* enum bsq_warm */
	double tol;              /* stop when max |div u| <= tol (after projection) */
	int max_cycles;          /* V-cycles per step (multigrid) */
	int max_sweeps;          /* sweeps per step (Jacobi) */
	double dt;               /* > 0: fixed step; 0: from cfl and diff */
	double cfl, diff;        /* C and D of BSQ.md "Time stepping" */
	int setup;               /* enum bsq_setup_kind */
	double amp;              /* set-up perturbation amplitude (RB) */
	double wavenumber;       /* set-up horizontal wavenumber (RB) */
};

/* Cells and spacing of one grid (the state's or a multigrid level's). */
struct bsq_grid {
	int nx, ny, nz;
	double dx, dy, dz;
};

/* One multigrid level (the finest holds the pressure): vectors by id, as in
 * HPGMG; cx, cy, cz: 2 where the next coarser level halves that direction.
 * BSQ_PREV: on the finest level, the pressure of the step before the last
 * (the warm start's extrapolation, bsq_step.c); a level vector so that
 * slabs, ranks and GPUs move it with the others.  Only level 0 holds it,
 * and only with warm_start = linear (bsq_vec_held); elsewhere it is NULL. */
enum { BSQ_PHI = 0, BSQ_RHS, BSQ_RES, BSQ_TMP, BSQ_PREV, BSQ_NVEC };
struct bsq_level {
	struct bsq_grid g;
	struct bsq_h h;
	int cx, cy, cz;
	int ghost[BSQ_NFACE];    /* pressure ghost kinds (bsq_bc.c) */
	bsq_real *v[BSQ_NVEC];
	int k0;                  /* planes below this one's first in the whole stack
	                          * (a slab's; 0 for a whole level): the colour of
	                          * a cell is that of (i, j, k0 + k) */
	void *slabs;             /* the slab set whose stand-in this level is
	                          * (bsq_slab.c), else NULL */
};

/* Whether level l of a state made with p holds vector v (else NULL): the
 * others everywhere, PREV only where the warm start reads it.  The same on
 * every rank, which may hold only the state's shape (bsq_init_shape). */
static inline int bsq_vec_held(const struct bsq_params *p, int l, int v)
{
	return v != BSQ_PREV || (l == 0 && p->warm == BSQ_WARM_LINEAR);
}

/* What one step did. */
struct bsq_stats {
	double t, dt;            /* time after the step, step taken */
	int cycles;              /* V-cycles (multigrid) or sweeps (Jacobi) */
	int fmg;                 /* 1 if this step started with full multigrid */
	double residual;         /* final max |lap phi - b| of the pressure solve */
	double div_max, div_l2;  /* max and RMS of div u after the projection */
};

struct bsq_state {
	struct bsq_grid g;
	size_t n;                /* values per field, ghosts included */
	bsq_real *u, *v, *w, *T; /* velocities on faces, temperature at centres */
	bsq_real *p;             /* pressure at centres (= lev[0].v[BSQ_PHI]) */
	bsq_real *F[4], *Fold[4]; /* explicit terms of u, v, w, T: now, before */
	int nlev;
	struct bsq_level lev[BSQ_MG_MAXLEV];
	double t, dt_prev;       /* time; last step (0 before the first) */
	long step;
};

/* Defaults: 32^3 unit box at rest, no-slip walls, insulated, nu = kappa =
 * 1e-2, no buoyancy, multigrid V(2,2) with trilinear prolongation, tol
 * 1e-8, C = 0.3, D = 0.9.  Returns nothing. */
void bsq_params_default(struct bsq_params *p);

/* Validates p; on a bad value prints "spate: bsq: KEY = VALUE: why" and
 * returns -SPATE_EINVAL, else 0. */
int bsq_check(const struct bsq_params *p);

/* Built-in set-ups: each fills p (over defaults already there) and returns 0
 * or -SPATE_EINVAL.  Two-dimensional ones are x-z planes with one periodic
 * cell in y; gravity along z.
 * Lid-driven cavity, unit box, lid z = 1 moving +x at 1, nu = 1/re;
 * three_d: n cells in y with no-slip walls. */
int bsq_setup_cavity(struct bsq_params *p, int n, double re, int three_d);
/* Differentially heated cavity in diffusive scaling (de Vahl Davis 1983):
 * T = +1/2 at x = 0, -1/2 at x = 1, insulated z walls, nu = pr, kappa = 1,
 * g beta = ra pr. */
int bsq_setup_dhc(struct bsq_params *p, int n, double ra, double pr);
/* Rayleigh-Benard: periodic x (and y), plates z = 0 (T = 1/2) and 1 (-1/2),
 * free_slip or no-slip plates, one wavelength 2 pi / k long, conduction plus
 * amp cos(k x) sin(pi z).  ny = 1 for 2D. */
int bsq_setup_rb(struct bsq_params *p, int nx, int ny, int nz, double ra, double pr,
	int free_slip, double k, double amp);
/* Taylor-Green vortex on the periodic [0, 2 pi]^2 in x-z (README of
 * shared/data/reference): u = -cos x sin z e^(-2 nu t), w = sin x cos z e^(-2 nu t). */
int bsq_setup_tg(struct bsq_params *p, int n, double nu);

/* Validates p, allocates the state, sets the set-up's initial fields and
 * builds the multigrid levels.  Returns 0, -SPATE_EINVAL or -SPATE_ENOMEM
 * (with a message); on failure nothing stays allocated. */
int bsq_init(struct bsq_state *s, const struct bsq_params *p);
/* The same without arrays: the grid, the levels' shapes, t = 0 (a state
 * that bsq_slabs_init fills from rank 0 on the other ranks). */
int bsq_init_shape(struct bsq_state *s, const struct bsq_params *p);
/* One AB2 + projection step.  p is the set given to bsq_init: dt, cfl,
 * diff, tol, max_cycles, max_sweeps, pre, post, interp and the physical
 * coefficients may change between steps; the grid, the boundary kinds, the
 * solver and warm_start (whether PREV exists) may not.  Fills *st (may be
 * NULL); returns 0, or -SPATE_ENUMERIC when the pressure solve missed its
 * tolerance or a value is not finite (with a message). */
int bsq_step(struct bsq_state *s, const struct bsq_params *p, struct bsq_stats *st);
void bsq_free(struct bsq_state *s);

/* Solves lap(phi) = b on the state's levels (lev[0] RHS in, PHI in as the
 * first guess and out) until max |residual| <= rtol: multigrid or Jacobi as
 * p->solver says, full multigrid first when fmg.  Singular (all Neumann or
 * periodic): b must have zero mean; phi leaves with zero mean.  Fills
 * cycles and residual of *st; returns 0 or -SPATE_ENUMERIC. */
int bsq_poisson(struct bsq_state *s, const struct bsq_params *p, double rtol, int fmg,
	struct bsq_stats *st);
/* n V-cycles of the multigrid solve of level 0 from its phi and b as they
 * are, with no test of the residual (for timing one cycle: spate bench
 * --physics=boussinesq --case=vcycle).  Returns 0. */
int bsq_vcycles(struct bsq_state *s, const struct bsq_params *p, int n);

/* ---- diagnostics (bsq_diag.c); ghosts must be current (after bsq_step or
 * bsq_init). */
/* max |div u| and its RMS over the cells. */
void bsq_diag_div(const struct bsq_state *s, double *max, double *l2);
/* Kinetic energy 1/2 sum (ū^2 + v̄^2 + w̄^2) dV, centre averages. */
double bsq_diag_energy(const struct bsq_state *s);
/* Nusselt number on the face x = 0 held at wall_T[BSQ_XM]:
 * (lx / dT) mean over the wall of -dT/dx, second-order one-sided. */
double bsq_diag_nusselt_wall(const struct bsq_state *s, const struct bsq_params *p, double dT);
/* Rayleigh-Benard volume form: 1 + <w theta> / (kappa dT / lz). */
double bsq_diag_nusselt_volume(const struct bsq_state *s, const struct bsq_params *p, double dT);
/* Which Nusselt number a run reports: 1 the x = 0 wall's when both x walls
 * have fixed temperatures (*dT their difference), else 2 the volume form
 * when both z walls do, else 0. */
int bsq_diag_nusselt_kind(const struct bsq_params *p, double *dT);
/* What the series' energy and Nusselt number are sums of, plane by plane
 * (BSQ_SERIES_PER doubles a plane): the plane's sum of the squared centre
 * velocities, its sum of w T, and the x = 0 wall's -dT/dx terms of its rows;
 * for planes 1..nz of s into d.  bsq_diag_series_of adds the data of all
 * planes of grid g in their order: the bits of bsq_diag_energy and of the
 * Nusselt number of the whole state, from slabs of planes too. */
#define BSQ_SERIES_PER(g) (2 + (size_t)(g)->ny)
void bsq_diag_series_planes(const struct bsq_state *s, const struct bsq_params *p, double *d);
void bsq_diag_series_of(const struct bsq_grid *g, const struct bsq_params *p, const double *d,
	double *energy, double *nusselt);
/* Field 0..4 (u, v, w, T, p) at the point (x, y, z), trilinear between its own
 * (staggered) sample points, ghosts included. */
double bsq_diag_sample(const struct bsq_state *s, int field, double x, double y, double z);
/* A profile: field (as above) at the n points that share (x, y, z) but for
 * their coordinate along axis (0 x, 1 y, 2 z), which is at[0..n); into
 * out[0..n).  E.g. Ghia's u on the vertical centreline of an x-z cavity:
 * axis 2 through (0.5, dy/2, .). */
void bsq_diag_line(const struct bsq_state *s, int field, int axis, double x, double y, double z,
	int n, const double *at, double *out);

#endif
