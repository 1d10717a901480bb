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
#include <strings.h>

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

/* Whether `word` is one of the '|'-separated `list`, in any case. */
static int listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *s = list; s; s = strchr(s, '|') ? strchr(s, '|') + 1 : NULL)
		if (!strncasecmp(s, word, n) && (s[n] == '|' || !s[n]))
			return 1;
	return 0;
}

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

/* The set-up keys of another set-up; the count refused. */
static int setup_keys(const struct bsq_config *c)
{
	char list[256];
	int bad = 0;
	for (size_t i = 0; i < sizeof only / sizeof only[0]; i++) {
		if (!bsq_config_given(c, only[i].sec, only[i].key) || listed(only[i].setups, c->setup))
			continue;
		spate_log_error("scenario", "[%s] %s is read by setup = %s only, not setup = %s: remove "
			"it, or change the set-up%s", only[i].sec, only[i].key,
			spelt(only[i].setups, list, sizeof list), c->setup,
			strcmp(only[i].key, "n") ? "" : " ([domain] nx, ny, nz give the cells)");
		bad++;
	}
	return bad;
}

/* gbeta and T0 (and kappa, unless the Nusselt number divides by it)
 * without a temperature; the count refused. */
static int thermal_keys(const struct bsq_config *c, const struct bsq_params *p)
{
	static const char *const keys[] = { "gbeta", "T0", "kappa" };
	char w[64];
	double dT;
	int bad = 0;
	if (p->thermal)
		return 0;
	for (int i = 0; i < 3; i++) {
		if (!bsq_config_given(c, "physics", keys[i]) ||
			(i == 2 && bsq_diag_nusselt_kind(p, &dT) == 2))
			continue;
		spate_log_error("scenario", "[physics] %s is read only while the temperature is "
			"advanced, and thermal = no%s: remove it, or set [physics] thermal = yes", keys[i],
			whose(c, "physics", "thermal", w, sizeof w));
		bad++;
	}
	return bad;
}

/* A face's wall velocities and temperature that its kind does not read;
 * the count refused. */
static int face_keys(const struct bsq_config *c, const struct bsq_params *p, int f)
{
	static const char comp[3] = { 'u', 'v', 'w' };
	const char *face = face_name[f], *kind = kind_name[p->vel_bc[f]];
	char key[8], w[64];
	int bad = 0;
	for (int d = 0; d < 3; d++) {
		snprintf(key, sizeof key, "%s_%c", face, comp[d]);
		if (!bsq_config_given(c, "boundary", key))
			continue;
		if (d == f / 2)
			spate_log_error("scenario", "[boundary] %s is the velocity through face %s, which "
				"no boundary kind reads (a wall holds it at 0, a periodic face takes the "
				"opposite one's): remove it", key, face);
		else if (p->vel_bc[f] != BSQ_LID)
			spate_log_error("scenario", "[boundary] %s is read only on a moving wall (%s = "
				"lid), and %s = %s%s: remove it, or set [boundary] %s = lid", key, face, face,
				kind, whose(c, "boundary", face, w, sizeof w), face);
		else
			continue;
		bad++;
	}
	snprintf(key, sizeof key, "%s_T", face);
	if (p->vel_bc[f] == BSQ_PERIODIC && bsq_config_given(c, "boundary", key)) {
		spate_log_error("scenario", "[boundary] %s: face %s is periodic%s, which has no "
			"temperature condition: remove it", key, face, whose(c, "boundary", face, w,
			sizeof w));
		bad++;
	}
	return bad;
}

/* Every given key that nothing reads under c's set-up and p, its resolved
 * parameters, refused with a message naming it: -SPATE_EINVAL; else 0. */
static int unread(const struct bsq_config *c, const struct bsq_params *p)
{
	int bad = setup_keys(c) + thermal_keys(c, p);
	for (int f = 0; f < BSQ_NFACE; f++)
		if (p->vel_bc[f] >= BSQ_NOSLIP && p->vel_bc[f] <= BSQ_PERIODIC)
			bad += face_keys(c, p, f);
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
