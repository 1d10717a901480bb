/* ens_run.c: an ensemble's members run in turn in this process (ens.h):
 * each member is the scenario with its varied keys set as the command
 * line's --section.key=value would set them, validated like any scenario,
 * and run by the flood driver (swe_run) on the chosen device; its flood
 * products join the statistics (ens_stats.c) and are freed before the next
 * member starts, so the device holds one member at a time. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_state.h"
#include "params.h"
#include "setup.h"
#include "swe_run.h"
#include "output.h"
#include "ens.h"

/* Member m of e: p with its values set (v from ens_sample).  Returns 0 or
 * -SPATE_EINVAL after the message of the key or of the validation. */
static int member(const struct ens_spec *e, const double *v, int m, struct swe_params *p)
{
	for (int k = 0; k < e->nvary; k++) {
		char text[32];
		snprintf(text, sizeof text, "%.17g", v[(size_t)m * e->nvary + k]);
		if (swe_params_set(p, e->vary[k].sec, e->vary[k].key, text, "--vary", 0))
			return -SPATE_EINVAL;
	}
	return swe_params_validate(p) ? -SPATE_EINVAL : 0;
}

/* Every member set and checked before any runs: 0, or -SPATE_EINVAL
 * naming the first member that fails. */
static int check_members(const struct ens_spec *e, const double *v,
	const struct swe_params *base, struct swe_params *scratch)
{
	for (int m = 0; m < e->members; m++) {
		*scratch = *base;
		if (member(e, v, m, scratch)) {
			spate_log_error("ensemble", "member %d of %d cannot run with the values above "
				"(see --print-members)", m + 1, e->members);
			return -SPATE_EINVAL;
		}
	}
	return 0;
}

/* "physics.manning = 0.03, ..." of member m into buf. */
static void describe(const struct ens_spec *e, const double *v, int m, char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = 0;
	for (int k = 0; k < e->nvary && at < n; k++)
		at += (size_t)snprintf(buf + at, n - at, "%s%s.%s = %.6g", k ? ", " : "",
			e->vary[k].sec, e->vary[k].key, v[(size_t)m * e->nvary + k]);
	if (!e->nvary)
		snprintf(buf, n, "the scenario as it is");
}

/* Run member m (parameters p) and add its products to a. */
static int run_member(const struct ens_spec *e, const double *v, int m, struct swe_params *p,
	struct ens_acc *a)
{
	struct swe_run_opts o;
	struct swe_result r;
	struct swe_prod *prod = NULL;
	char what[512];
	int rc, quiet = spate_is_quiet();
	memset(&o, 0, sizeof o);
	o.final_products = &prod;
	o.no_output = !e->keep_members;
	if (e->keep_members)
		snprintf(p->out_dir + strlen(p->out_dir), sizeof p->out_dir - strlen(p->out_dir),
			"/member_%03d", m + 1);
	describe(e, v, m, what, sizeof what);
	spate_set_quiet(1);     /* one line per member, below, in place of a run's log */
	rc = swe_run(p, &o, &r);
	spate_set_quiet(quiet);
	if (!rc && !prod) {
		spate_log_error("ensemble", "member %d: the run kept no flood products", m + 1);
		rc = -SPATE_EUNSUPPORTED;
	}
	if (rc) {
		spate_log_error("ensemble", "member %d of %d (%s): %s", m + 1, e->members, what,
			spate_strerror(rc));
		free(prod);
		return rc;
	}
	ens_acc_add(a, prod);
	free(prod);
	spate_log_info("spate ensemble: member %d of %d (%s): %ld steps to t = %g s in %.2f s "
		"on %s\n", m + 1, e->members, what, r.steps, r.sim_time, r.wall_s, r.backend);
	return 0;
}

/* The statistics as fields, NAN on masked cells, then the files. */
static int finish(const struct ens_spec *e, const struct swe_params *p,
	const struct swe_state *s, const double *v, struct ens_acc *a)
{
	size_t n = (size_t)s->nx * s->ny;
	struct ens_fields f;
	double *all = malloc(n * (size_t)(3 + e->npct) * sizeof *all);
	int rc;
	if (!all)
		return -SPATE_ENOMEM;
	f.prob = all;
	f.first = all + n;
	f.mean = all + 2 * n;
	for (int k = 0; k < e->npct; k++)
		f.pct[k] = all + (3 + (size_t)k) * n;
	ens_probability(a, f.prob);
	ens_arrival(a, f.first, f.mean);
	rc = ens_percentiles(a, e->pct, e->npct, f.pct);
	for (size_t c = 0; !rc && s->mask && c < n; c++)
		for (int k = 0; s->mask[c] && k < 3 + e->npct; k++)
			all[(size_t)k * n + c] = NAN;
	if (!rc)
		rc = ens_write(e, p, s, v, &f);
	free(all);
	return rc;
}

/* The members in turn, then the statistics; base checked, v drawn. */
static int run_all(const struct ens_spec *e, const struct swe_params *base, const double *v,
	struct swe_params *pm)
{
	struct swe_state s;
	struct ens_acc a;
	int rc;
	memset(&s, 0, sizeof s);
	/* the grid, CRS, mask and bed that every member shares */
	if ((rc = swe_setup(&s, base))) {
		spate_log_error("setup", "%s: %s", base->setup, spate_strerror(rc));
		return rc;
	}
	rc = ens_acc_init(&a, (long)s.nx * s.ny, e->members, e->npct > 0);
	if (rc)
		spate_log_error("ensemble", "%d members of %d x %d cells: out of memory for the "
			"maximum depths (%.3g GB): fewer members, or --percentiles=none", e->members,
			s.nx, s.ny, (double)s.nx * s.ny * e->members * sizeof(float) / 1e9);
	for (int m = 0; m < e->members && !rc; m++) {
		*pm = *base;
		if (!(rc = member(e, v, m, pm)))
			rc = run_member(e, v, m, pm, &a);
	}
	if (!rc)
		rc = finish(e, base, &s, v, &a);
	ens_acc_free(&a);
	swe_state_free(&s);
	return rc;
}

int ens_run(const struct ens_spec *e, const struct swe_params *p)
{
	double *v = malloc(((size_t)e->members * e->nvary + 1) * sizeof *v);
	struct swe_params *pm = malloc(sizeof *pm);
	int rc = v && pm ? ens_sample(e, v) : -SPATE_ENOMEM;
	if (!rc)
		rc = check_members(e, v, p, pm);
	if (!rc && e->print_members)
		ens_print_members(e, v, stdout);
	else if (!rc)
		rc = run_all(e, p, v, pm);
	free(v);
	free(pm);
	return rc;
}
