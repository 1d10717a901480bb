/* ens_cli.c: the command line of `spate ensemble` (ens.h): the scenario,
 * the --vary ranges checked against the scenario's keys, the members'
 * count and sampling, the percentiles, and the options it shares with
 * `spate run`; then ens_run. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "params.h"
#include "scenario.h"
#include "decomp.h"
#include "ens.h"
#include "usage.h"

/* A whole number in [lo, hi] from text v: 0, or -1. */
static int whole(const char *v, double lo, double hi, double *out)
{
	char *end;
	double d;
	errno = 0;
	d = strtod(v, &end);
	if (end == v || *end || errno || !(d >= lo && d <= hi) || d != floor(d))
		return -1;
	*out = d;
	return 0;
}

/* --vary's text "SECTION.KEY=LO:HI" into y: its form and numbers.  0 or
 * -SPATE_EINVAL after a message. */
static int vary_parse(const char *a, struct ens_vary *y)
{
	const char *dot = strchr(a, '.'), *eq = strchr(a, '='), *colon = eq ? strchr(eq, ':') : NULL;
	char *end;
	if (!dot || !eq || !colon || dot > eq || dot == a || eq == dot + 1 ||
		dot - a >= (long)sizeof y->sec || eq - dot - 1 >= (long)sizeof y->key) {
		spate_log_error("ensemble", "--vary %s: expected SECTION.KEY=LO:HI, e.g. --vary "
			"physics.manning=0.02:0.06", a);
		return -SPATE_EINVAL;
	}
	snprintf(y->sec, sizeof y->sec, "%.*s", (int)(dot - a), a);
	snprintf(y->key, sizeof y->key, "%.*s", (int)(eq - dot - 1), dot + 1);
	errno = 0;
	y->lo = strtod(eq + 1, &end);
	if (end != colon || eq + 1 == colon || errno || !isfinite(y->lo)) {
		spate_log_error("ensemble", "--vary %s: LO '%.*s' is not a number", a,
			(int)(colon - eq - 1), eq + 1);
		return -SPATE_EINVAL;
	}
	y->hi = strtod(colon + 1, &end);
	if (*end || end == colon + 1 || errno || !isfinite(y->hi)) {
		spate_log_error("ensemble", "--vary %s: HI '%s' is not a number", a, colon + 1);
		return -SPATE_EINVAL;
	}
	if (y->lo > y->hi) {
		spate_log_error("ensemble", "--vary %s: LO = %g is above HI = %g: give the range as "
			"LO:HI with LO <= HI", a, y->lo, y->hi);
		return -SPATE_EINVAL;
	}
	return 0;
}

/* --vary's key: one of the scenario's, with a real value, in a section that
 * changes the flood, and LO and HI within its range (the scenario parser's
 * checks and messages, on a scratch copy of p). */
static int vary_check(const char *a, const struct ens_vary *y, const struct swe_params *p,
	struct swe_params *scratch)
{
	static const char *const fixed[] = { "domain", "output", "gauges", "parallel" };
	static const char *const why[] = { "keys set the grid, which every member shares",
		"keys say what is written", "keys say where the gauges are and what they keep",
		"keys say how a run is spread over devices" };
	char v[64];
	int real = swe_params_key_real(y->sec, y->key);
	*scratch = *p;
	snprintf(v, sizeof v, "%.17g", y->lo);
	if (real < 0) {     /* the parser says what is unknown, and what is near */
		swe_params_set(scratch, y->sec, y->key, v, "--vary", 0);
		return -SPATE_EINVAL;
	}
	if (!real) {
		spate_log_error("ensemble", "--vary %s: [%s] %s does not take a real number; vary "
			"keys such as physics.manning, initial.h_in or boundary.inflow_scale", a, y->sec,
			y->key);
		return -SPATE_EINVAL;
	}
	for (int k = 0; k < 4; k++)
		if (!strcmp(y->sec, fixed[k])) {
			spate_log_error("ensemble", "--vary %s: [%s] %s, not how the water flows: vary "
				"keys of [initial], [physics], [boundary] or [run]", a, y->sec, why[k]);
			return -SPATE_EINVAL;
		}
	if (swe_params_set(scratch, y->sec, y->key, v, "--vary", 0))
		return -SPATE_EINVAL;
	snprintf(v, sizeof v, "%.17g", y->hi);
	return swe_params_set(scratch, y->sec, y->key, v, "--vary", 0) ? -SPATE_EINVAL : 0;
}

/* --percentiles=P,...: whole numbers from 0 to 100, each once; "none". */
static int percentiles(const char *v, struct ens_spec *e)
{
	char buf[256], *save = NULL;
	e->npct = 0;
	if (!strcmp(v, "none"))
		return 0;
	snprintf(buf, sizeof buf, "%s", v);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		double d;
		if (whole(t, 0, 100, &d) || e->npct >= ENS_PCT_MAX) {
			spate_log_error("ensemble", "--percentiles=%s: expected at most %d whole numbers "
				"from 0 to 100, e.g. 10,50,90 (or none)", v, ENS_PCT_MAX);
			return -SPATE_EINVAL;
		}
		for (int k = 0; k < e->npct; k++)
			if (e->pct[k] == (int)d) {
				spate_log_error("ensemble", "--percentiles=%s: %d is given twice", v, (int)d);
				return -SPATE_EINVAL;
			}
		e->pct[e->npct++] = (int)d;
	}
	if (!e->npct) {
		spate_log_error("ensemble", "--percentiles=%s: no percentile given (none: none)", v);
		return -SPATE_EINVAL;
	}
	return 0;
}

/* The options that take a value, as "--name VALUE" or "--name=VALUE". */
static const char *const valued[] = { "--vary", "--members", "--sampling", "--seed",
	"--percentiles", "--threshold", "--out", NULL };

/* argv[*i] as one of valued[]: its value (consuming the next argument for
 * "--name VALUE"), "" when it has none; NULL for any other argument. */
static const char *value(int argc, char **argv, int *i, const char **name)
{
	for (int k = 0; valued[k]; k++) {
		size_t n = strlen(valued[k]);
		if (strncmp(argv[*i], valued[k], n))
			continue;
		*name = valued[k];
		if (argv[*i][n] == '=')
			return argv[*i] + n + 1;
		if (argv[*i][n])
			continue;
		/* "--out --keep-members": a value left out, not a folder "--keep-members" */
		if (*i + 1 >= argc || spate_is_option(argv[*i + 1]))
			return "";
		return argv[++*i];
	}
	return NULL;
}

/* One of valued[] with its value v. */
static int option(struct ens_spec *e, struct swe_params *p, struct swe_params *scratch,
	const char *name, const char *v)
{
	double d;
	if (!*v) {
		spate_log_error("ensemble", "%s needs a value (see spate ensemble --help)", name);
		return -SPATE_EINVAL;
	}
	if (!strcmp(name, "--vary")) {
		struct ens_vary *y = &e->vary[e->nvary];
		if (e->nvary >= ENS_VARY_MAX) {
			spate_log_error("ensemble", "--vary %s: at most %d keys vary", v, ENS_VARY_MAX);
			return -SPATE_EINVAL;
		}
		if (vary_parse(v, y) || vary_check(v, y, p, scratch))
			return -SPATE_EINVAL;
		for (int k = 0; k < e->nvary; k++)
			if (!strcmp(e->vary[k].sec, y->sec) && !strcmp(e->vary[k].key, y->key)) {
				spate_log_error("ensemble", "--vary %s: [%s] %s varies twice: give one "
					"range", v, y->sec, y->key);
				return -SPATE_EINVAL;
			}
		e->nvary++;
		return 0;
	}
	if (!strcmp(name, "--members")) {
		if (whole(v, 1, ENS_MEMBERS_MAX, &d)) {
			spate_log_error("ensemble", "--members=%s: expected a whole number from 1 to %d",
				v, ENS_MEMBERS_MAX);
			return -SPATE_EINVAL;
		}
		e->members = (int)d;
		return 0;
	}
	if (!strcmp(name, "--sampling")) {
		e->sampling = !strcmp(v, "lhs") ? ENS_LHS : !strcmp(v, "grid") ? ENS_GRID :
			!strcmp(v, "random") ? ENS_RANDOM : -1;
		if (e->sampling < 0)
			spate_log_error("ensemble", "--sampling=%s: expected lhs, grid or random", v);
		return e->sampling < 0 ? -SPATE_EINVAL : 0;
	}
	if (!strcmp(name, "--seed")) {
		char *end;
		errno = 0;
		e->seed = strtoull(v, &end, 10);
		if (*end || errno || *v == '-') {
			spate_log_error("ensemble", "--seed=%s: expected a whole number >= 0", v);
			return -SPATE_EINVAL;
		}
		return 0;
	}
	if (!strcmp(name, "--percentiles"))
		return percentiles(v, e);
	if (!strcmp(name, "--threshold"))
		return swe_params_set(p, "output", "threshold", v, "--threshold", 0);
	return swe_params_set(p, "output", "dir", v, "--out", 0);
}

/* An option shared with spate run: --device, --data-dir, --section.key=v. */
static int run_option(struct swe_params *p, const char *a)
{
	char sec[64], key[64];
	const char *dot = strchr(a, '.'), *eq = strchr(a, '=');
	if (!strncmp(a, "--device=", 9))
		return swe_params_set(p, "run", "device", a + 9, "--device", 0);
	if (!strncmp(a, "--data-dir=", 11))
		return swe_params_set(p, "domain", "data_dir", a + 11, "--data-dir", 0);
	if (strncmp(a, "--", 2) || !dot || !eq || dot > eq || dot - a - 2 >= (long)sizeof sec ||
		eq - dot - 1 >= (long)sizeof key || dot == a + 2 || eq == dot + 1) {
		spate_log_error("ensemble", "unknown option %s (see spate ensemble --help)", a);
		return -SPATE_EINVAL;
	}
	snprintf(sec, sizeof sec, "%.*s", (int)(dot - a - 2), a + 2);
	snprintf(key, sizeof key, "%.*s", (int)(eq - dot - 1), dot + 1);
	return swe_params_set(p, sec, key, eq + 1, "command line", 0);
}

/* Every option after the scenario's parameters are loaded.  0 or
 * -SPATE_EINVAL after a message. */
static int options(int argc, char **argv, struct ens_spec *e, struct swe_params *p,
	struct swe_params *scratch)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *name = NULL, *v = value(argc, argv, &i, &name);
		int rc = 0;
		if (v)
			rc = option(e, p, scratch, name, v);
		else if (a == e->scenario || !strcmp(a, "--quiet") || !strcmp(a, "-q"))
			continue;
		else if (!strcmp(a, "--keep-members"))
			e->keep_members = 1;
		else if (!strcmp(a, "--print-members"))
			e->print_members = 1;
		else if (!strcmp(a, "--no-cog"))
			e->no_cog = 1;
		else
			rc = run_option(p, a);
		if (rc)
			return -SPATE_EINVAL;
	}
	return 0;
}

/* The scenario (the one argument that is no option nor an option's value),
 * --quiet and --help.  Returns 0, 1 after --help, or -SPATE_EINVAL after a
 * message. */
static int first_pass(int argc, char **argv, struct ens_spec *e)
{
	for (int i = 0; i < argc; i++) {
		const char *name;
		if (value(argc, argv, &i, &name))
			continue;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(spate_opts_ensemble, stdout);
			return 1;
		}
		if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q"))
			e->quiet = 1;
		else if (argv[i][0] != '-' || !argv[i][1]) {
			static const char *const flags[] = { "--keep-members", "--print-members",
				"--no-cog", "--quiet", NULL };
			const char *a = i > 0 ? argv[i - 1] : "";
			if (e->scenario && spate_wants_value(a, flags)) {
				spate_log_error("ensemble", "%s %s: write %s=%s (see spate ensemble "
					"--help)", a, argv[i], a, argv[i]);
				return -SPATE_EINVAL;
			}
			if (e->scenario) {
				spate_log_error("ensemble", "more than one scenario (%s, %s)", e->scenario,
					argv[i]);
				return -SPATE_EINVAL;
			}
			e->scenario = argv[i];
		}
	}
	if (!e->scenario) {
		spate_log_error("ensemble", "no scenario file given (usage: spate ensemble SCENARIO "
			"--vary SECTION.KEY=LO:HI --members=N; see spate ensemble --help)");
		return -SPATE_EINVAL;
	}
	return 0;
}

/* What the options leave to check together. */
static int check(const struct ens_spec *e)
{
	if (!e->members) {
		spate_log_error("ensemble", "--members=N is required (how many runs; see spate "
			"ensemble --help)");
		return -SPATE_EINVAL;
	}
	if (e->sampling == ENS_GRID && !ens_grid_levels(e->members, e->nvary)) {
		spate_log_error("ensemble", "--sampling=grid with %d varied keys needs --members = "
			"m^%d (as %g, %g or %g), not %d", e->nvary, e->nvary, pow(2, e->nvary),
			pow(3, e->nvary), pow(4, e->nvary), e->members);
		return -SPATE_EINVAL;
	}
	return 0;
}

int spate_ensemble(int argc, char **argv)
{
	struct ens_spec e;
	struct swe_params *p = malloc(sizeof *p), *scratch = malloc(sizeof *scratch);
	char model[64] = "";
	int rc = p && scratch ? 0 : -SPATE_ENOMEM;
	if (decomp_world_size() > 1) {
		/* refused before the options, which every rank would tell of:
		 * told once (rank 0), and every rank stops without MPI_Abort */
		free(p);
		free(scratch);
		spate_log_hold();
		spate_log_error("ensemble", "runs its members in one process: start it without "
			"mpirun (a member's [parallel] subdomains may still use several GPUs)");
		return -decomp_world_agree(SPATE_EINVAL);
	}
	memset(&e, 0, sizeof e);
	e.seed = 1;
	e.npct = 3;
	e.pct[0] = 10;
	e.pct[1] = 50;
	e.pct[2] = 90;
	if (!rc)
		rc = first_pass(argc, argv, &e);
	if (!rc && e.quiet)
		spate_set_quiet(1);
	if (!rc && spate_scenario_model(e.scenario, model, sizeof model))
		rc = -SPATE_EINVAL;
	if (!rc && *model && strcmp(model, "shallow_water")) {
		spate_log_error("ensemble", "%s: [physics] model = %s: ensembles run flood "
			"(shallow_water) scenarios", e.scenario, model);
		rc = -SPATE_EINVAL;
	}
	if (!rc) {
		swe_params_defaults(p);
		if (swe_params_load(p, e.scenario) || options(argc, argv, &e, p, scratch) ||
			swe_params_validate(p) || check(&e))
			rc = -SPATE_EINVAL;
	}
	if (!rc) {
		p->products = 1;        /* what the statistics are made of */
		rc = ens_run(&e, p);
	}
	if (!rc && !e.print_members)
		spate_log_info("spate ensemble: %d members: %s/members.csv and the ensemble's "
			"fields in %s/\n", e.members, p->out_dir, p->out_dir);
	free(p);
	free(scratch);
	return rc > 0 ? 0 : rc;     /* 1: --help */
}
