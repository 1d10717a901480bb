/* bsq_params.c: the Boussinesq module's parameter defaults and their
 * validation, in one place (STYLE.md "Parameters").  Messages name the key
 * as a scenario file will spell it, its value and what is allowed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bsq_impl.h"
#include "spate.h"

static const char *const face_name[BSQ_NFACE] = { "xm", "xp", "ym", "yp", "zm", "zp" };

void bsq_params_default(struct bsq_params *p)
{
	int f;
	memset(p, 0, sizeof *p);
	p->nx = p->ny = p->nz = 32;
	p->lx = p->ly = p->lz = 1;
	p->nu = p->kappa = 1e-2;
	for (f = 0; f < BSQ_NFACE; f++) {
		p->vel_bc[f] = BSQ_NOSLIP;
		p->temp_bc[f] = BSQ_T_INSULATED;
	}
	p->solver = BSQ_SOLVER_MG;
	p->interp = BSQ_INTERP_PL;
	p->warm = BSQ_WARM_LINEAR;
	p->pre = p->post = 2;
	p->fmg = 1;
	p->tol = BSQ_TOL_DEFAULT;
	p->max_cycles = 50;
	p->max_sweeps = 200000;
	p->cfl = 0.3;
	p->diff = 0.9;
	p->setup = BSQ_SETUP_REST;
}

static int bad(const char *key, double value, const char *why)
{
	spate_log_error("bsq", "%s = %g: %s", key, value, why);
	return -SPATE_EINVAL;
}

static int check_grid(const struct bsq_params *p)
{
	const int n[3] = { p->nx, p->ny, p->nz };
	const double l[3] = { p->lx, p->ly, p->lz };
	const char *const nk[3] = { "nx", "ny", "nz" }, *const lk[3] = { "lx", "ly", "lz" };
	double cells = 1;
	int d;
	for (d = 0; d < 3; d++) {
		if (n[d] < 1)
			return bad(nk[d], n[d], "must be >= 1");
		if (!(l[d] > 0) || !isfinite(l[d]))
			return bad(lk[d], l[d], "must be > 0 and finite");
		cells *= n[d] + 2.0;
	}
	if (p->nx == 1 && p->ny == 1 && p->nz == 1)
		return bad("nx", p->nx, "one cell in all of nx, ny, nz: at least one needs 2 or more");
	if (cells > 2e9)
		return bad("nx", p->nx, "nx ny nz too large: more than 2e9 cells with ghosts");
	return 0;
}

static int check_physics(const struct bsq_params *p)
{
	if (!(p->nu >= 0) || !isfinite(p->nu))
		return bad("nu", p->nu, "viscosity must be >= 0 and finite");
	if (!(p->kappa >= 0) || !isfinite(p->kappa))
		return bad("kappa", p->kappa, "diffusivity must be >= 0 and finite");
	if (!isfinite(p->gbeta))
		return bad("gbeta", p->gbeta, "must be finite");
	if (!isfinite(p->T0))
		return bad("T0", p->T0, "must be finite");
	if (p->thermal != 0 && p->thermal != 1)
		return bad("thermal", p->thermal, "must be 0 or 1");
	return 0;
}

/* Boundary kinds in range, periodic faces in pairs, finite wall values;
 * messages name the scenario keys ([boundary] xm, xm_u, xm_T, ...). */
static int check_bc(const struct bsq_params *p)
{
	static const char *const kinds[] = { "noslip", "freeslip", "lid", "periodic" };
	static const char *const comp[3] = { "u", "v", "w" };
	char key[32];
	int f, c;
	for (f = 0; f < BSQ_NFACE; f++) {
		if (p->vel_bc[f] < BSQ_NOSLIP || p->vel_bc[f] > BSQ_PERIODIC)
			return bad(face_name[f], p->vel_bc[f], "not a velocity boundary kind");
		if ((p->vel_bc[f] == BSQ_PERIODIC) != (p->vel_bc[f ^ 1] == BSQ_PERIODIC)) {
			spate_log_error("bsq", "%s = %s: periodic on one face of an axis needs the "
				"opposite face (%s = %s) periodic too", face_name[f], kinds[p->vel_bc[f]],
				face_name[f ^ 1], kinds[p->vel_bc[f ^ 1]]);
			return -SPATE_EINVAL;
		}
		for (c = 0; c < 3; c++) {
			snprintf(key, sizeof key, "%s_%s", face_name[f], comp[c]);
			if (!isfinite(p->lid[f][c]))
				return bad(key, p->lid[f][c], "lid velocity must be finite");
		}
		snprintf(key, sizeof key, "%s_T", face_name[f]);
		if (p->temp_bc[f] != BSQ_T_INSULATED && p->temp_bc[f] != BSQ_T_FIXED)
			return bad(key, p->temp_bc[f], "not a temperature boundary kind");
		if (!isfinite(p->wall_T[f]))
			return bad(key, p->wall_T[f], "wall temperature must be finite");
	}
	return 0;
}

static int check_solver(const struct bsq_params *p)
{
	if (p->solver != BSQ_SOLVER_MG && p->solver != BSQ_SOLVER_JACOBI)
		return bad("solver", p->solver, "must be multigrid (0) or jacobi (1)");
	if (p->interp != BSQ_INTERP_PL && p->interp != BSQ_INTERP_PC)
		return bad("interp", p->interp, "must be trilinear (0) or constant (1)");
	if (p->warm != BSQ_WARM_LINEAR && p->warm != BSQ_WARM_PREVIOUS)
		return bad("warm_start", p->warm, "must be linear (0) or previous (1)");
	if (p->pre < 0 || p->pre > 100)
		return bad("pre", p->pre, "must be in 0..100");
	if (p->post < 0 || p->post > 100 || p->pre + p->post < 1)
		return bad("post", p->post, "must be in 0..100, with pre + post >= 1");
	if (!(p->tol > 0) || !isfinite(p->tol))
		return bad("tol", p->tol, "must be > 0");
	if (p->max_cycles < 1)
		return bad("max_cycles", p->max_cycles, "must be >= 1");
	if (p->max_sweeps < 1)
		return bad("max_sweeps", p->max_sweeps, "must be >= 1");
	if (!(p->dt >= 0) || !isfinite(p->dt))
		return bad("dt", p->dt, "must be >= 0 (0: from cfl and diff)");
	if (!(p->cfl > 0 && p->cfl <= 1))
		return bad("cfl", p->cfl, "must be in (0, 1]");
	if (!(p->diff > 0 && p->diff < 1))
		return bad("diff", p->diff, "must be in (0, 1): AB2 reaches -1 on the real axis");
	if (p->setup < BSQ_SETUP_REST || p->setup > BSQ_SETUP_TG)
		return bad("setup", p->setup, "not a built-in set-up");
	return 0;
}

int bsq_check(const struct bsq_params *p)
{
	int err;
	if ((err = check_grid(p)) || (err = check_physics(p)) || (err = check_bc(p)) ||
		(err = check_solver(p)))
		return err;
	return p->solver == BSQ_SOLVER_MG ? bsq_mg_check(p) : 0;
}
