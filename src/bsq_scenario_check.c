/* bsq_scenario_check.c: a Boussinesq scenario resolved (bsq_config_params)
 * and checked across its keys: NCCL there where asked for; a key given where
 * nothing reads it is an error, not silently ignored (the flood's rule,
 * params_setup.c): a key of another set-up, buoyancy without a temperature,
 * a wall velocity on a face that is no moving wall or through a face, a
 * temperature on a periodic face; then the parameters (bsq_check).
 *
 * What reads what (bsq_scenario.c apply_setup, bsq_setup.c, bsq_bc.c,
 * bsq_rhs.c, bsq_step.c, bsq_diag.c):
 *   [domain] n          every set-up but none (the cells of a side; the
 *                       default of nx, ny, nz)
 *   [physics] re        cavity, cavity3d (nu = 1/re), taylor_green (nu =
 *                       1/re where nu is not given)
 *   ra, pr              heated_cavity, rayleigh_benard (nu = pr, g beta =
 *                       ra pr)
 *   plates, wavenumber, amplitude   rayleigh_benard
 *   gbeta, T0           the buoyancy, only while the temperature is
 *                       advanced (thermal = yes)
 *   kappa               the temperature's diffusion (thermal = yes), and
 *                       the volume form of the Nusselt number (both z walls
 *                       at fixed, different temperatures) whatever thermal
 *   [boundary] F_u, F_v, F_w   the tangential two of a moving wall (F = lid)
 *                       only: a wall holds the normal one at 0, no-slip and
 *                       free-slip walls read none, a periodic face none
 *   F_T                 every face but a periodic one
 * A key replaced by a finer one (n by nx, ny and nz; re by nu) is still
 * read by the set-up's rule, and taken.  Every other key is read always. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <string.h>

#include "spate.h"
#include "bsq_scenario.h"
#include "decomp.h"

#define ALL_SETUPS "cavity|cavity3d|heated_cavity|rayleigh_benard|taylor_green"
#define THERMAL "heated_cavity|rayleigh_benard"

/* A key read by some set-ups only: '|'-separated. */
static const struct {
	const char *sec, *key, *setups;
} only[] = {
	{ "domain", "n", ALL_SETUPS },
	{ "physics", "re", "cavity|cavity3d|taylor_green" },
	{ "physics", "ra", THERMAL }, { "physics", "pr", THERMAL },
	{ "physics", "plates", "rayleigh_benard" },
	{ "physics", "wavenumber", "rayleigh_benard" },
	{ "physics", "amplitude", "rayleigh_benard" },
};

static const char *const face_name[BSQ_NFACE] = { "xm", "xp", "ym", "yp", "zm", "zp" };
static const char *const kind_name[] = { "noslip", "freeslip", "lid", "periodic" };

/* list "a|b|c" as "a, b and c" into buf. */
static const char *spelt(const char *list, char *buf, size_t size)
{
	const char *s = list, *bar;
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; s && len < size; i++, s = bar ? bar + 1 : NULL) {
		bar = strchr(s, '|');
		len += (size_t)snprintf(buf + len, size - len, "%s%.*s", !i ? "" : bar ? ", " :
			" and ", (int)(bar ? (size_t)(bar - s) : strlen(s)), s);
	}
	return buf;
}

/* Where a resolved value came from, for a message: "" when the key was
 * given, else " (as setup = S has it)". */
static const char *whose(const struct bsq_config *c, const char *sec, const char *key,
	char *buf, size_t size)
{
	if (bsq_config_given(c, sec, key))
		buf[0] = 0;
	else
		snprintf(buf, size, " (as setup = %s has it)", c->setup);
	return buf;
}

/* Face index of a boundary key's prefix ("xm_u": 0), or -1. */
static int face_of(const char *key)
{
	for (int f = 0; f < BSQ_NFACE; f++)
		if (!strncmp(key, face_name[f], 2) && key[2] == '_')
			return f;
	return -1;
}

/* Whether nothing reads [sec] key under c's set-up and p, its resolved
 * parameters: 1 with why (n bytes) saying so and what to do, else 0. */
static int why_unread(const struct bsq_config *c, const struct bsq_params *p, const char *sec,
	const char *key, char *why, size_t n)
{
	char list[256], w[64];
	double dT;
	int f = face_of(key), d;
	for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
		if (!strcmp(sec, only[i].sec) && !strcmp(key, only[i].key)) {
			if (spate_listed(only[i].setups, c->setup))
				return 0;
			snprintf(why, n, "[%s] %s is read by setup = %s only, not setup = %s: remove it, "
				"or change the set-up%s", sec, key, spelt(only[i].setups, list, sizeof list),
				c->setup, strcmp(key, "n") ? "" : " ([domain] nx, ny, nz give the cells)");
			return 1;
		}
	if (!strcmp(sec, "physics") && !p->thermal && (!strcmp(key, "gbeta") ||
		!strcmp(key, "T0") || (!strcmp(key, "kappa") && bsq_diag_nusselt_kind(p, &dT) != 2))) {
		snprintf(why, n, "[physics] %s is read only while the temperature is advanced, and "
			"thermal = no%s: remove it, or set [physics] thermal = yes", key,
			whose(c, "physics", "thermal", w, sizeof w));
		return 1;
	}
	if (strcmp(sec, "boundary") || f < 0 || p->vel_bc[f] < BSQ_NOSLIP ||
		p->vel_bc[f] > BSQ_PERIODIC || strlen(key) != 4)
		return 0;
	if (key[3] == 'T') {
		if (p->vel_bc[f] != BSQ_PERIODIC)
			return 0;
		snprintf(why, n, "[boundary] %s: face %s is periodic%s, which has no temperature "
			"condition: remove it", key, face_name[f], whose(c, "boundary", face_name[f], w,
			sizeof w));
		return 1;
	}
	if (!strchr("uvw", key[3]))
		return 0;
	d = key[3] - 'u';
	if (d == f / 2)
		snprintf(why, n, "[boundary] %s is the velocity through face %s, which no boundary "
			"kind reads (a wall holds it at 0, a periodic face takes the opposite one's): "
			"remove it", key, face_name[f]);
	else if (p->vel_bc[f] != BSQ_LID)
		snprintf(why, n, "[boundary] %s is read only on a moving wall (%s = lid), and %s = "
			"%s%s: remove it, or set [boundary] %s = lid", key, face_name[f], face_name[f],
			kind_name[p->vel_bc[f]], whose(c, "boundary", face_name[f], w, sizeof w),
			face_name[f]);
	else
		return 0;
	return 1;
}

int bsq_config_reads(const struct bsq_config *c, const struct bsq_params *p, const char *sec,
	const char *key)
{
	char why[512];
	return !why_unread(c, p, sec, key, why, sizeof why);
}

/* Whether [sec] key was given and nothing reads it: 1 after a message. */
static int refused(const struct bsq_config *c, const struct bsq_params *p, const char *sec,
	const char *key)
{
	char why[512];
	if (!bsq_config_given(c, sec, key) || !why_unread(c, p, sec, key, why, sizeof why))
		return 0;
	spate_log_error("scenario", "%s", why);
	return 1;
}

/* Every given key that nothing reads under c's set-up and p, its resolved
 * parameters, refused with a message naming it: -SPATE_EINVAL; else 0.
 * The keys some read and others not: the set-ups' own, the temperature's,
 * the faces' velocities and temperatures. */
static int unread(const struct bsq_config *c, const struct bsq_params *p)
{
	static const char *const thermal[] = { "gbeta", "T0", "kappa" };
	char key[8];
	int bad = 0;
	for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
		bad += refused(c, p, only[i].sec, only[i].key);
	for (int i = 0; i < 3; i++)
		bad += refused(c, p, "physics", thermal[i]);
	for (int f = 0; f < BSQ_NFACE; f++)
		for (const char *q = "uvwT"; *q; q++) {
			snprintf(key, sizeof key, "%s_%c", face_name[f], *q);
			bad += refused(c, p, "boundary", key);
		}
	return bad ? -SPATE_EINVAL : 0;
}

int bsq_config_resolve(const struct bsq_config *c, struct bsq_params *p)
{
	int rc = bsq_config_params(c, p);
#ifndef HAVE_NCCL
	/* the flood's rule (params_check.c): asked for, NCCL must be there */
	if (!rc && c->transport == HALO_TRANSPORT_NCCL) {
		spate_log_error("bsq", "[parallel] transport = nccl: this spate was built without "
			"NCCL (reconfigure with --with-nccl, or set transport = auto or mpi)");
		return -SPATE_EUNSUPPORTED;
	}
#endif
	if (!rc)
		rc = unread(c, p);
	return rc ? rc : bsq_check(p);
}
