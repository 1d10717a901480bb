/* bsq_cli.c: `spate run SCENARIO` for a Boussinesq scenario ([physics]
 * model = boussinesq): the options, the run, the closing lines. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "bsq_cuda.h"
#include "bsq_run.h"
#include "decomp.h"
#include "ckpt_file.h"
#include "summary.h"

enum { EXIT_USAGE = 1, EXIT_RUNTIME = 2, EXIT_INTERRUPTED = 3 };

struct args {
	const char *scenario, *summary;
	int print_only;
	struct bsq_run_opts o;
};

/* --section.key=value over the scenario. */
static int override(struct bsq_config *c, const char *arg)
{
	char sec[64], key[128];
	const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
	if (!dot || !eq || dot > eq || dot - arg >= (long)sizeof sec ||
		eq - dot - 1 >= (long)sizeof key) {
		spate_log_error("usage", "%s: expected --section.key=value", arg - 2);
		return -SPATE_EINVAL;
	}
	snprintf(sec, sizeof sec, "%.*s", (int)(dot - arg), arg);
	snprintf(key, sizeof key, "%.*s", (int)(eq - dot - 1), dot + 1);
	return bsq_config_set(c, sec, key, eq + 1, "command line", 0);
}

static int parse(int argc, char **argv, struct args *a, struct bsq_config *c)
{
	const char *v;
	for (int i = 1; i < argc; i++) {
		if ((v = spate_option(argc, argv, &i, "--summary")))
			a->summary = v;
		else if ((v = spate_option(argc, argv, &i, "--restart")))
			a->o.restart = v;
		else if ((v = spate_option(argc, argv, &i, "--checkpoint-every"))) {
			if (bsq_config_set(c, "output", "checkpoint_every", v, "--checkpoint-every", 0))
				return -SPATE_EINVAL;
		} else if ((v = spate_option(argc, argv, &i, "--device"))) {
			if (bsq_config_set(c, "run", "device", v, "--device", 0))
				return -SPATE_EINVAL;
		} else if (!strcmp(argv[i], "--no-output"))
			a->o.no_output = 1;
		else if (!strcmp(argv[i], "--print-params"))
			a->print_only = 1;
		else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q"))
			spate_set_quiet(1);
		else if (!strncmp(argv[i], "--", 2) && strchr(argv[i], '.')) {
			if (override(c, argv[i] + 2))
				return -SPATE_EINVAL;
		} else {
			spate_log_error("usage", "%s: unknown option of run for the boussinesq model "
				"(see spate --help)", argv[i]);
			return -SPATE_EINVAL;
		}
	}
	return 0;
}

int bsq_cmd_run(int argc, char **argv)
{
	struct bsq_config *c = malloc(sizeof *c);
	struct bsq_params p;
	struct bsq_result r;
	struct args a;
	int rc, status = 0;
	memset(&a, 0, sizeof a);
	if (!c)
		return EXIT_RUNTIME;
	a.scenario = argv[0];
	bsq_config_defaults(c);
	/* under mpirun a fault of the scenario is told once (decomp_world_agree) */
	spate_log_hold();
	rc = bsq_config_load(c, a.scenario) || parse(argc, argv, &a, c) ||
		bsq_config_resolve(c, &p) ? EXIT_USAGE : 0;
	if (!rc && c->device == BSQ_DEVICE_CUDA && bsq_cuda_available() < 1) {
		spate_log_error("device", "device = cuda: no usable CUDA GPU (none found, or spate "
			"was built without CUDA); use device = cpu or auto");
		rc = EXIT_USAGE;
	}
	if ((rc = decomp_world_agree(rc))) {
		free(c);
		return rc;
	}
	if (a.print_only) {
		char *text = bsq_config_text(c, bsq_config_reads);
		fputs(text ? text : "", stdout);
		free(text);
		free(c);
		return 0;
	}
	if (decomp_world_rank() != 0) {
		/* under mpirun only rank 0 prints and writes (the others their
		 * planes of a results.nc written in parallel) */
		spate_set_quiet(1);
		a.summary = NULL;
		a.o.follower = 1;
	}
	if (a.summary && spate_summary_check(a.summary)) {
		free(c);
		return EXIT_USAGE;
	}
	rc = bsq_run(c, &a.o, &r);
	/* the ranks stopped together for a signal: no MPI_Abort at the end */
	if (rc == -SPATE_EINTR)
		decomp_world_stop_together();
	if (rc == -SPATE_EINTR && !a.o.no_output && !a.o.follower) {
		char ck[BSQ_PATH_MAX + 64];
		spate_ckpt_path(c->out_dir, ck, sizeof ck);
		spate_log_error("run", "continue with: spate run %s --restart %s (and the same "
			"options)", a.scenario, ck);
	}
	if (rc) {
		if (rc != -SPATE_EINTR)
			spate_log_error("run", "%s: %s", a.scenario, spate_strerror(rc));
		status = rc == -SPATE_EINTR ? EXIT_INTERRUPTED : rc == -SPATE_EINVAL ? EXIT_USAGE :
			EXIT_RUNTIME;
	} else {
		spate_log_info("spate: done: %ld steps to t = %g in %.2f s wall (%.3g cell updates/s); "
			"max |div u| %.3g, kinetic energy %.9g\n", r.steps, r.t, r.wall_s,
			r.cell_steps_per_s, r.div_max, r.energy);
		if (a.summary && bsq_write_summary(a.summary, c, &r))
			status = EXIT_RUNTIME;
	}
	free(c);
	return status;
}
