/* bsq_scenario.c: the Boussinesq module's scenario keys (bsq_scenario.h):
 * one table, each key with its section, type, range and place; a key is
 * checked when it is read, and a misspelt one gets a "did you mean". */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spate.h"
#include "bsq_scenario.h"
#include "scenario.h"
#include "decomp.h"

enum kind { K_INT, K_LONG, K_REAL, K_BOOL, K_STR, K_ENUM, K_TEMP };

static const char *const setups[] = { "none", "cavity", "cavity3d", "heated_cavity",
	"rayleigh_benard", "taylor_green", NULL };
static const char *const vel_kinds[] = { "noslip", "freeslip", "lid", "periodic", NULL };
static const char *const solvers[] = { "multigrid", "jacobi", NULL };
static const char *const interps[] = { "trilinear", "constant", NULL };
static const char *const warms[] = { "linear", "previous", NULL };
static const char *const plates[] = { "no_slip", "free_slip", NULL };
static const char *const models[] = { "boussinesq", NULL };
static const char *const devices[] = { "cpu", "cuda", "auto", NULL };
static const char *const overlaps[] = { "none", "compute", "streams", NULL };
/* By enum halo_transport (decomp.h), as the flood's [parallel] transport. */
static const char *const transports[] = { "auto", "mpi", "nccl", NULL };

struct key {
	const char *section, *name;
	int kind;
	size_t off;             /* in struct bsq_config */
	double lo, hi;          /* range of numbers */
	const char *const *names; /* K_ENUM: the values, by index */
	size_t off2;            /* K_TEMP: the wall temperature */
	const char *help;       /* what it is, with units */
};

#define C(f) offsetof(struct bsq_config, f)
#define P(f) offsetof(struct bsq_config, p.f)
#define FACE(f, F) \
	{ "boundary", #f, K_ENUM, P(vel_bc[F]), 0, 0, vel_kinds, 0, "velocity condition" }, \
	{ "boundary", #f "_u", K_REAL, P(lid[F][0]), -1e30, 1e30, NULL, 0, "lid velocity, x" }, \
	{ "boundary", #f "_v", K_REAL, P(lid[F][1]), -1e30, 1e30, NULL, 0, "lid velocity, y" }, \
	{ "boundary", #f "_w", K_REAL, P(lid[F][2]), -1e30, 1e30, NULL, 0, "lid velocity, z" }, \
	{ "boundary", #f "_T", K_TEMP, P(temp_bc[F]), -1e30, 1e30, NULL, P(wall_T[F]), \
		"insulated, or the wall temperature" }

static const struct key keys[] = {
	{ "domain", "setup", K_STR, C(setup), 0, 32, setups, 0, "built-in set-up" },
	{ "domain", "n", K_INT, C(n), 1, 1 << 14, NULL, 0, "cells per side of a set-up" },
	{ "domain", "nx", K_INT, P(nx), 1, 1 << 14, NULL, 0, "cells in x" },
	{ "domain", "ny", K_INT, P(ny), 1, 1 << 14, NULL, 0, "cells in y" },
	{ "domain", "nz", K_INT, P(nz), 1, 1 << 14, NULL, 0, "cells in z" },
	{ "domain", "lx", K_REAL, P(lx), 1e-300, 1e30, NULL, 0, "box length in x" },
	{ "domain", "ly", K_REAL, P(ly), 1e-300, 1e30, NULL, 0, "box length in y" },
	{ "domain", "lz", K_REAL, P(lz), 1e-300, 1e30, NULL, 0, "box length in z" },
	{ "physics", "model", K_STR, 0, 0, 32, models, 0, "the physics module" },
	{ "physics", "re", K_REAL, C(re), 1e-300, 1e12, NULL, 0, "Reynolds number U L / nu" },
	{ "physics", "ra", K_REAL, C(ra), 1e-300, 1e20, NULL, 0, "Rayleigh number" },
	{ "physics", "pr", K_REAL, C(pr), 1e-300, 1e6, NULL, 0, "Prandtl number nu / kappa" },
	{ "physics", "plates", K_ENUM, C(plates), 0, 0, plates, 0, "Rayleigh-Benard plates" },
	{ "physics", "wavenumber", K_REAL, C(wavenumber), 1e-300, 1e6, NULL, 0,
		"Rayleigh-Benard perturbation wavenumber" },
	{ "physics", "amplitude", K_REAL, C(amplitude), 0, 1e6, NULL, 0,
		"Rayleigh-Benard perturbation amplitude" },
	{ "physics", "nu", K_REAL, P(nu), 0, 1e30, NULL, 0, "kinematic viscosity" },
	{ "physics", "kappa", K_REAL, P(kappa), 0, 1e30, NULL, 0, "thermal diffusivity" },
	{ "physics", "gbeta", K_REAL, P(gbeta), -1e30, 1e30, NULL, 0, "g times beta" },
	{ "physics", "T0", K_REAL, P(T0), -1e30, 1e30, NULL, 0, "reference temperature" },
	{ "physics", "thermal", K_BOOL, P(thermal), 0, 1, NULL, 0, "advance the temperature" },
	FACE(xm, BSQ_XM), FACE(xp, BSQ_XP), FACE(ym, BSQ_YM), FACE(yp, BSQ_YP),
	FACE(zm, BSQ_ZM), FACE(zp, BSQ_ZP),
	{ "solver", "pressure", K_ENUM, P(solver), 0, 0, solvers, 0, "pressure solver" },
	{ "solver", "tol", K_REAL, P(tol), 1e-300, 1, NULL, 0, "max |div u| after a projection" },
	{ "solver", "max_cycles", K_INT, P(max_cycles), 1, 100000, NULL, 0,
		"V-cycles per step at most" },
	{ "solver", "max_sweeps", K_INT, P(max_sweeps), 1, 1000000000, NULL, 0,
		"Jacobi sweeps per step at most" },
	{ "solver", "prolongation", K_ENUM, P(interp), 0, 0, interps, 0, "multigrid prolongation" },
	{ "solver", "pre", K_INT, P(pre), 0, 64, NULL, 0, "smoothing sweeps before" },
	{ "solver", "post", K_INT, P(post), 0, 64, NULL, 0, "smoothing sweeps after" },
	{ "solver", "fmg", K_BOOL, P(fmg), 0, 1, NULL, 0, "full multigrid on the first step" },
	{ "solver", "warm_start", K_ENUM, P(warm), 0, 0, warms, 0,
		"first guess: pressure extrapolated in time, or the last" },
	{ "run", "end_time", K_REAL, C(end_time), 0, 1e30, NULL, 0, "time to run to" },
	{ "run", "max_steps", K_LONG, C(max_steps), 0, 1e15, NULL, 0, "steps at most (0: any)" },
	{ "run", "dt", K_REAL, P(dt), 0, 1e30, NULL, 0, "fixed step (0: from cfl and diff)" },
	{ "run", "cfl", K_REAL, P(cfl), 1e-6, 1, NULL, 0, "advective limit C" },
	{ "run", "diff", K_REAL, P(diff), 1e-6, 1, NULL, 0, "diffusive limit D" },
	{ "run", "threads", K_INT, C(threads), 0, 4096, NULL, 0, "OpenMP threads (0: default)" },
	{ "run", "device", K_ENUM, C(device), 0, 0, devices, 0, "cpu, cuda or auto" },
	{ "parallel", "subdomains", K_INT, C(subdomains), 1, 256, NULL, 0,
		"slabs of whole x-y planes (CPU; under mpirun at least the ranks)" },
	{ "parallel", "overlap", K_ENUM, C(overlap), 0, 0, overlaps, 0,
		"none, compute or streams: halo exchange against work" },
	{ "parallel", "transport", K_ENUM, C(transport), 0, 0, transports, 0,
		"auto, mpi or nccl: halos between ranks' GPUs" },
	{ "output", "dir", K_STR, C(out_dir), 0, BSQ_PATH_MAX, NULL, 0, "output folder" },
	{ "output", "interval", K_REAL, C(out_interval), 0, 1e30, NULL, 0,
		"time between snapshots (0: only the end)" },
	{ "output", "netcdf", K_BOOL, C(netcdf), 0, 1, NULL, 0, "write results.nc" },
	{ "output", "profiles", K_BOOL, C(profiles), 0, 1, NULL, 0, "centreline profiles (CSV)" },
	{ "output", "series_interval", K_REAL, C(series_interval), 0, 1e30, NULL, 0,
		"time between rows of series.csv (0: every step)" },
	{ "output", "checkpoint_every", K_REAL, C(checkpoint_every), 0, 1e30, NULL, 0,
		"time between checkpoints (0: none)" },
};
#define NKEYS (sizeof keys / sizeof keys[0])
_Static_assert(NKEYS <= sizeof ((struct bsq_config *)0)->set, "bsq_config.set too small");

static int quiet;

void bsq_config_quiet(int on)
{
	quiet = on;
}

void bsq_config_defaults(struct bsq_config *c)
{
	memset(c, 0, sizeof *c);
	snprintf(c->setup, sizeof c->setup, "none");
	c->n = 32;
	c->re = 100;
	c->ra = 1e4;
	c->pr = 0.71;
	c->amplitude = 1e-4;
	bsq_params_default(&c->p);
	c->end_time = 1;
	snprintf(c->out_dir, sizeof c->out_dir, "bsq-out");
	c->netcdf = 1;
	c->profiles = 1;
	c->subdomains = 1;
	c->overlap = 2;     /* streams, as the flood's default */
	c->transport = 0;   /* auto: NCCL where built and usable, as the flood */
}

/* "origin:line" of a message into buf, or origin alone for line 0 (the
 * command line). */
static const char *where(char *buf, size_t n, const char *origin, int line)
{
	if (line > 0)
		snprintf(buf, n, "%s:%d", origin, line);
	else
		snprintf(buf, n, "%s", origin);
	return buf;
}

/* The message for a key the table does not know. */
static int unknown(const char *section, const char *key, const char *origin, int line)
{
	const struct key *best = NULL;
	char w[BSQ_PATH_MAX + 16];
	int bd = 3;
	for (size_t k = 0; k < NKEYS; k++) {
		int d = spate_edit_distance(key, keys[k].name) + (strcmp(section, keys[k].section) != 0);
		if (d < bd) {
			bd = d;
			best = &keys[k];
		}
	}
	if (quiet)
		return -SPATE_EINVAL;
	if (best)
		spate_log_text("spate: %s: [%s] %s: unknown key of the boussinesq model; did you "
			"mean [%s] %s?\n", where(w, sizeof w, origin, line), section, key, best->section,
			best->name);
	else
		spate_log_text("spate: %s: [%s] %s: unknown key of the boussinesq model (see "
			"spate-scenario(5), BOUSSINESQ)\n", where(w, sizeof w, origin, line), section, key);
	return -SPATE_EINVAL;
}

static int bad(const struct key *k, const char *value, const char *origin, int line,
	const char *why)
{
	char w[BSQ_PATH_MAX + 16];
	if (!quiet)
		spate_log_text("spate: %s: [%s] %s = %s: %s (%s)\n", where(w, sizeof w, origin,
			line), k->section, k->name, value, why, k->help);
	return -SPATE_EINVAL;
}

/* Index of value among names, or -1. */
static int lookup(const char *const *names, const char *value)
{
	for (int i = 0; names[i]; i++)
		if (!strcasecmp(names[i], value))
			return i;
	return -1;
}

/* A number of the key's range from value into *x; 0 or -1. */
static int number(const struct key *k, const char *value, double *x)
{
	char *end;
	*x = strtod(value, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	return end == value || *end || !isfinite(*x) || *x < k->lo || *x > k->hi ? -1 : 0;
}

static int set_one(struct bsq_config *c, const struct key *k, const char *value,
	const char *origin, int line)
{
	char *at = (char *)c + k->off, why[160];
	double x;
	int i;
	switch (k->kind) {
	case K_STR: /* hi: the buffer's size; the model is checked, not kept */
		if (k->names && lookup(k->names, value) < 0)
			break;
		if (strlen(value) >= (size_t)k->hi)
			return bad(k, value, origin, line, "too long");
		if (k->names != models)
			strcpy(at, value);
		return 0;
	case K_ENUM:
		if ((i = lookup(k->names, value)) < 0)
			break;
		*(int *)at = i;
		return 0;
	case K_BOOL:
		i = lookup((const char *const[]){ "no", "yes", NULL }, value);
		if (i < 0)
			i = lookup((const char *const[]){ "false", "true", NULL }, value);
		if (i < 0 && (!strcmp(value, "0") || !strcmp(value, "1")))
			i = value[0] - '0';
		if (i < 0)
			return bad(k, value, origin, line, "must be yes or no");
		*(int *)at = i;
		return 0;
	case K_TEMP:
		if (!strcasecmp(value, "insulated")) {
			*(int *)at = BSQ_T_INSULATED;
			return 0;
		}
		if (number(k, value, &x))
			return bad(k, value, origin, line, "must be insulated or a finite number");
		*(int *)at = BSQ_T_FIXED;
		*(double *)((char *)c + k->off2) = x;
		return 0;
	default:
		if (number(k, value, &x)) {
			if (k->lo == 1e-300)
				snprintf(why, sizeof why, "must be a number > 0 and <= %g", k->hi);
			else
				snprintf(why, sizeof why, "must be a number in [%g, %g]", k->lo, k->hi);
			return bad(k, value, origin, line, why);
		}
		if (k->kind == K_REAL)
			*(double *)at = x;
		else if (x != floor(x))
			return bad(k, value, origin, line, "must be a whole number");
		else if (k->kind == K_INT)
			*(int *)at = (int)x;
		else
			*(long *)at = (long)x;
		return 0;
	}
	snprintf(why, sizeof why, "must be one of");
	for (i = 0; k->names[i]; i++)
		snprintf(why + strlen(why), sizeof why - strlen(why), "%s%s", i ? ", " : " ",
			k->names[i]);
	return bad(k, value, origin, line, why);
}

int bsq_config_set(struct bsq_config *c, const char *section, const char *key,
	const char *value, const char *origin, int line)
{
	for (size_t k = 0; k < NKEYS; k++)
		if (!strcmp(section, keys[k].section) && !strcmp(key, keys[k].name)) {
			int rc = set_one(c, &keys[k], value, origin, line);
			if (!rc)
				c->set[k] = 1;
			return rc;
		}
	return unknown(section, key, origin, line);
}

static int set_cb(void *params, const char *section, const char *key, const char *value,
	const char *origin, int line)
{
	return bsq_config_set(params, section, key, value, origin, line);
}

int bsq_config_load(struct bsq_config *c, const char *path)
{
	static const char *const sections[] = { "domain", "physics", "boundary", "solver", "run",
		"parallel", "output", NULL };
	static const struct spate_section_need needs[] = {
		{ "physics", "model = boussinesq" },
		{ "run", "end_time = TIME" },
		{ NULL, NULL }
	};
	static const struct spate_scenario_module m = { sections, needs, sizeof(struct bsq_config),
		set_cb, bsq_config_quiet };
	return spate_scenario_load(&m, c, path);
}

/* The index of the key of that name in the table; NKEYS if none. */
static size_t key_index(const char *section, const char *name)
{
	size_t k = 0;
	while (k < NKEYS && (strcmp(keys[k].section, section) || strcmp(keys[k].name, name)))
		k++;
	return k;
}

int bsq_config_given(const struct bsq_config *c, const char *section, const char *key)
{
	size_t k = key_index(section, key);
	return k < NKEYS && c->set[k];
}

/* The set-up's parameters over the defaults. */
static int apply_setup(const struct bsq_config *c, struct bsq_params *p)
{
	int s = lookup(setups, c->setup);
	double k = c->set[key_index("physics", "wavenumber")] ? c->wavenumber :
		c->plates ? 3.14159265358979323846 / sqrt(2.0) : 3.117;
	double nu = c->set[key_index("physics", "nu")] ? c->p.nu : 1 / c->re;
	switch (s) {
	case 1:
	case 2:
		return bsq_setup_cavity(p, c->n, c->re, s == 2);
	case 3:
		return bsq_setup_dhc(p, c->n, c->ra, c->pr);
	case 4: /* one wavelength, cells about as wide as they are tall; with
		 * ny given, a box as deep in y as it is long in x (the set-up's
		 * rule), not the thin slab of the 2D default stretched over ny */
		return bsq_setup_rb(p, c->set[key_index("domain", "nx")] ? c->p.nx : 2 * c->n,
			c->set[key_index("domain", "ny")] ? c->p.ny : 1,
			c->set[key_index("domain", "nz")] ? c->p.nz : c->n, c->ra, c->pr, c->plates, k,
			c->amplitude);
	case 5:
		return bsq_setup_tg(p, c->n, nu);
	default:
		return 0;
	}
}

int bsq_config_params(const struct bsq_config *c, struct bsq_params *p)
{
	size_t p0 = offsetof(struct bsq_config, p), p1 = p0 + sizeof c->p;
	int rc;
	bsq_params_default(p);
	if ((rc = apply_setup(c, p)))
		return rc;
	for (size_t k = 0; k < NKEYS; k++) {
		const struct key *e = &keys[k];
		size_t bytes = e->kind == K_REAL ? sizeof(double) : sizeof(int);
		if (!c->set[k] || e->off < p0 || e->off >= p1)
			continue;
		memcpy((char *)p + (e->off - p0), (const char *)c + e->off, bytes);
		if (e->kind == K_TEMP)
			memcpy((char *)p + (e->off2 - p0), (const char *)c + e->off2, sizeof(double));
	}
	return 0;
}

/* Key k's value in c as text into buf (n bytes). */
static void value_text(const struct bsq_config *c, const struct key *k, char *buf, size_t n)
{
	const char *at = (const char *)c + k->off;
	switch (k->kind) {
	case K_STR:
		snprintf(buf, n, "%s", k->names == models ? "boussinesq" : at);
		break;
	case K_ENUM:
		snprintf(buf, n, "%s", k->names[*(const int *)at]);
		break;
	case K_BOOL:
		snprintf(buf, n, "%s", *(const int *)at ? "yes" : "no");
		break;
	case K_TEMP:
		if (*(const int *)at == BSQ_T_FIXED)
			snprintf(buf, n, "%.17g", *(const double *)((const char *)c + k->off2));
		else
			snprintf(buf, n, "insulated");
		break;
	case K_INT:
		snprintf(buf, n, "%d", *(const int *)at);
		break;
	case K_LONG:
		snprintf(buf, n, "%ld", *(const long *)at);
		break;
	default:
		snprintf(buf, n, "%.17g", *(const double *)at);
	}
}

char *bsq_config_text(const struct bsq_config *c0, int (*keep)(const struct bsq_config *c,
	const struct bsq_params *p, const char *section, const char *key))
{
	size_t cap = 256 * NKEYS + BSQ_PATH_MAX, len = 0;
	char *s = malloc(cap), value[BSQ_PATH_MAX + 32];
	struct bsq_config *c = malloc(sizeof *c);
	const char *sec = "";
	if (!s || !c) {
		free(s);
		free(c);
		return NULL;
	}
	*c = *c0;   /* the solver's keys as the run has them (the set-up's, or given) */
	if (bsq_config_params(c0, &c->p))
		c->p = c0->p;
	else if (keep && !bsq_config_given(c0, "physics", "wavenumber"))
		c->wavenumber = c->p.wavenumber;   /* the set-up's (0: not given), to read back */
	for (size_t k = 0; k < NKEYS; k++) {
		if (strcmp(sec, keys[k].section)) {
			sec = keys[k].section;
			len += (size_t)snprintf(s + len, cap - len, "%s[%s]\n", len ? "\n" : "", sec);
		}
		if (keep && !keep(c0, &c->p, keys[k].section, keys[k].name))
			continue;
		value_text(c, &keys[k], value, sizeof value);
		len += (size_t)snprintf(s + len, cap - len, "%s = %s\n", keys[k].name, value);
	}
	free(c);
	return s;
}
