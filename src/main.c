/* main.c: the spate command line. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "params.h"
#include "swe_run.h"
#include "map.h"
#include "usage.h"
#include "output.h"
#include "decomp.h"
#include "checkpoint.h"
#include "scenario.h"
#include "bsq_run.h"
#include "bsq_bench.h"
#include "bsq_kern.h"
#include "ens.h"
#include "export_cli.h"
#include "summary.h"

#ifndef SPATE_SCENARIODIR
#define SPATE_SCENARIODIR "/usr/local/share/spate/scenarios"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

enum { EXIT_USAGE = 1, EXIT_RUNTIME = 2, EXIT_INTERRUPTED = 3 };

/* A command: its name, its arguments and what it does as `spate --help`
 * lists them, its options (usage.c, or NULL) and the function that runs it
 * on the arguments after its name.  A new command is one entry of the
 * table `commands` below. */
struct command {
	const char *name, *args, *summary, *options;
	int (*run)(int argc, char **argv);
};

static const struct command *command_list(int *n);

/* spate --help: every command with its options. */
static void usage(FILE *f)
{
	int n;
	const struct command *c = command_list(&n);
	fprintf(f, "Usage: spate COMMAND [ARGS]\n\n"
"spate simulates floods with the 2D shallow-water equations (Kurganov-Petrova\n"
"2007 central-upwind scheme) on the CPU or a CUDA GPU; a scenario with\n"
"[physics] model = boussinesq runs the 3D incompressible Boussinesq solver.\n");
	fprintf(f, "\nCommands (spate COMMAND --help: its usage and options):\n");
	for (int k = 0; k < n; k++)
		fprintf(f, "  %-8s %-20s %s\n", c[k].name, c[k].args, c[k].summary);
	fprintf(f, "  %-29s this text\n  %-29s the usage and options of COMMAND alone\n"
		"  %-29s version and build configuration\n", "--help, -h", "COMMAND --help, help COMMAND",
		"--version, -V");
	for (int k = 0; k < n; k++)
		if (c[k].options)
			fprintf(f, "\nOptions of %s:\n%s", c[k].name, c[k].options);
	fprintf(f,
"\n"
"Examples:\n"
"  spate run scenarios/circular_dambreak.conf --output.dir=out --summary out/summary.json\n"
"  spate run scenarios/lake_at_rest.conf --device=cpu --run.end_time=100\n"
"  spate bench --device=cuda --sizes=4096,8192\n"
"  spate bench --device=cuda --case=rain --early-exit=off\n"
"  spate map out/results.nc --var max_depth -o max_depth.png\n"
"\n"
"Exit status: 0 success, 1 bad usage or input, 2 failure while running,\n"
"3 stopped by SIGINT or SIGTERM (after writing a checkpoint).\n"
"Scenario files for the built-in set-ups are in the scenarios/ folder of the\n"
"source tree and installed in %s.\n", SPATE_SCENARIODIR);
}

/* spate COMMAND --help. */
static void command_usage(const struct command *c)
{
	printf("Usage: spate %s%s%s\n\n%c%s.\n", c->name, c->args[0] ? " " : "", c->args,
		toupper((unsigned char)c->summary[0]), c->summary + 1);
	if (c->options)
		printf("\nOptions:\n%s", c->options);
	printf("\nSee spate(1) for more, and spate --help for the other commands.\n");
}

static void version(void)
{
	printf("spate %s\nprecision: %s\nboussinesq precision: %s\nbackends: cpu", PACKAGE_VERSION,
		SPATE_PRECISION, BSQ_PRECISION);
#ifdef HAVE_CUDA
	printf(", cuda");
#endif
	printf("\nMPI: %s\nNCCL: %s\nGDAL: %s\nNetCDF: %s\nCairo: %s\n",
#ifdef HAVE_MPI
		"yes",
#else
		"no",
#endif
#ifdef HAVE_NCCL
		"yes",
#else
		"no",
#endif
#ifdef HAVE_GDAL
		"yes",
#else
		"no",
#endif
#if defined HAVE_NETCDF_PAR
		"yes (results.nc and checkpoint.nc; maps with spate map; MPI flavour: the "
		"Boussinesq results.nc written in parallel under mpirun)",
#elif defined HAVE_NETCDF
		"yes (results.nc and checkpoint.nc; maps with spate map)",
#else
		"no (grids are ESRI ASCII, checkpoints checkpoint.bin)",
#endif
#ifdef HAVE_CAIRO
		"yes (printed maps: spate map -o FILE.png or FILE.pdf)"
#else
		"no (spate map writes GeoTIFFs only)"
#endif
	);
}

static int cmd_devices(void)
{
	char buf[512];
	spate_backend_cpu.describe(0, buf, sizeof buf);
	printf("cpu    0  %s\n", buf);
#ifdef HAVE_CUDA
	{
		int n = spate_backend_cuda.count();
		for (int i = 0; i < n; i++) {
			spate_backend_cuda.describe(i, buf, sizeof buf);
			printf("cuda   %d  %s\n", i, buf);
		}
		if (n == 0)
			printf("cuda   -  no CUDA GPU found\n");
	}
#else
	printf("cuda   -  not built (configure --with-cuda)\n");
#endif
	return 0;
}

/* Apply "--section.key=value"; returns 0, or -SPATE_EINVAL after a message. */
static int apply_override(struct swe_params *p, const char *arg)
{
	char sec[64], key[64];
	const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
	if (!dot || !eq || dot > eq || dot - arg >= (long)sizeof sec ||
		eq - dot - 1 >= (long)sizeof key || dot == arg || eq == dot + 1) {
		spate_log_error("run", "--%s: expected --section.key=value", arg);
		return -SPATE_EINVAL;
	}
	memcpy(sec, arg, (size_t)(dot - arg));
	sec[dot - arg] = 0;
	memcpy(key, dot + 1, (size_t)(eq - dot - 1));
	key[eq - dot - 1] = 0;
	return swe_params_set(p, sec, key, eq + 1, "command line", 0);
}

/* Options of run written "--name VALUE" as well as "--name=VALUE". */
static int takes_value(const char *a)
{
	return !strcmp(a, "--summary") || !strcmp(a, "--restart") ||
		!strcmp(a, "--checkpoint-every");
}

/* --restart and --checkpoint-every; returns 0 or -SPATE_EINVAL. */
static int run_option(struct swe_params *p, struct swe_run_opts *o, const char *a,
	const char *v)
{
	if (!strncmp(a, "--restart", 9)) {
		if (!*v) {
			spate_log_error("run", "--restart needs a checkpoint file");
			return -SPATE_EINVAL;
		}
		o->restart = v;
		return 0;
	}
	return swe_params_set(p, "output", "checkpoint_every", v, "--checkpoint-every", 0);
}

/* The options of `spate run` that the scenario does not give. */
struct run_args {
	const char *scenario, *summary, *device;
	int print_only;
};

/* The options of spate run that take no value. */
static const char *const run_flags[] = { "--print-params", "--no-output", "--quiet", NULL };

/* A second scenario at argv[i], the first at argv[first]: the message. */
static void second_scenario(char **argv, int first, int i)
{
	int k = i > 0 && spate_wants_value(argv[i - 1], run_flags) ? i : first > 0 &&
		spate_wants_value(argv[first - 1], run_flags) ? first : -1;
	if (k >= 0)
		spate_log_error("run", "%s %s: write %s=%s (see spate run --help)", argv[k - 1],
			argv[k], argv[k - 1], argv[k]);
	else
		spate_log_error("run", "more than one scenario (%s, %s)", argv[first], argv[i]);
}

/* First pass: the scenario file, --summary VALUE and --quiet (before the
 * scenario is read, whose messages --quiet silences).  Returns 0 or
 * EXIT_USAGE. */
static int run_args_first(int argc, char **argv, struct run_args *ra)
{
	int first = -1;
	for (int i = 0; i < argc; i++)
		if (argv[i][0] != '-' || !argv[i][1]) {
			if (ra->scenario) {
				second_scenario(argv, first, i);
				return EXIT_USAGE;
			}
			ra->scenario = argv[i];
			first = i;
		} else if (takes_value(argv[i])) {
			/* "--summary --quiet" is a value left out, not a file "--quiet" */
			if (++i >= argc || spate_is_option(argv[i])) {
				spate_log_error("run", "%s needs a value%s%s (see spate run --help)",
					argv[i - 1], i < argc ? " before " : "", i < argc ? argv[i] : "");
				return EXIT_USAGE;
			}
			if (!strcmp(argv[i - 1], "--summary"))
				ra->summary = argv[i];
			/* the next argument is consumed */
		} else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
			spate_set_quiet(1);
		}
	if (!ra->scenario) {
		spate_log_error("run", "no scenario file given (try scenarios/circular_dambreak.conf; "
			"see spate --help)");
		return EXIT_USAGE;
	}
	return 0;
}

/* Second pass, over the scenario's parameters p: every other option.
 * Returns 0 or EXIT_USAGE. */
static int run_args_rest(int argc, char **argv, struct run_args *ra, struct swe_params *p,
	struct swe_run_opts *o)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1] || !strcmp(a, "--quiet") || !strcmp(a, "-q"))
			continue;
		if (takes_value(a)) {
			if (strcmp(a, "--summary") && run_option(p, o, a, argv[i + 1]))
				return EXIT_USAGE;
			i++;
		} else if (!strncmp(a, "--restart=", 10) || !strncmp(a, "--checkpoint-every=", 19)) {
			if (run_option(p, o, a, strchr(a, '=') + 1))
				return EXIT_USAGE;
		} else if (!strncmp(a, "--summary=", 10)) {
			ra->summary = a + 10;
		} else if (!strncmp(a, "--device=", 9)) {
			ra->device = a + 9;
		} else if (!strncmp(a, "--data-dir=", 11)) {
			if (swe_params_set(p, "domain", "data_dir", a + 11, "--data-dir", 0))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--print-params")) {
			ra->print_only = 1;
		} else if (!strcmp(a, "--no-output")) {
			o->no_output = 1;
		} else if (!strncmp(a, "--", 2) && strchr(a, '.') && strchr(a, '=')) {
			if (apply_override(p, a + 2))
				return EXIT_USAGE;
		} else {
			spate_log_error("run", "unknown option %s (see spate --help)", a);
			return EXIT_USAGE;
		}
	}
	if (ra->device && swe_params_set(p, "run", "device", ra->device, "--device", 0))
		return EXIT_USAGE;
	return swe_params_validate(p) ? EXIT_USAGE : 0;
}

/* After the run: how to continue an interrupted one, the error, or the
 * last lines and the summary.  Returns the exit status. */
static int run_end(int rc, const struct run_args *ra, const struct swe_params *p,
	const struct swe_run_opts *o, const struct swe_result *r)
{
	if (rc == -SPATE_EINTR && !o->no_output) {
		char ck[SWE_PATH_MAX + 64];
		swe_ckpt_path(p->out_dir, ck, sizeof ck);
		spate_log_error("run", "continue with: spate run %s --restart %s (and the same "
			"options)", ra->scenario, ck);
	}
	if (rc) {
		/* a fault every rank knows of (decomp_world_agree) is told by rank 0 */
		if (rc != -SPATE_EINTR && (decomp_world_rank() == 0 || !decomp_world_agreed()))
			spate_log_error("run", "%s: %s", ra->scenario, spate_strerror(rc));
		return rc == -SPATE_ENODEV || rc == -SPATE_EUNSTABLE ? EXIT_USAGE :
			rc == -SPATE_EINTR ? EXIT_INTERRUPTED : EXIT_RUNTIME;
	}
	spate_log_info("spate: done: %ld steps to t = %g s in %.2f s wall (%.3g cell updates/s); "
		"volume %.9g -> %.9g m^3\n", r->steps, r->sim_time, r->wall_s, r->cell_updates_per_s,
		r->volume_initial, r->volume_final);
	if (!o->no_output && (p->write_grids || p->products))
		spate_log_info("spate: %s in %s/\n", p->out_format == SWE_FMT_ASCII ? "ESRI ASCII "
			"grids" : p->out_format == SWE_FMT_NETCDF ? "results.nc" :
			"results.nc and ESRI ASCII grids", p->out_dir);
	if (ra->summary && swe_write_summary(ra->summary, r, p))
		return EXIT_RUNTIME;
	return 0;
}

/* *other = whether the scenario is of another model than the flood's
 * ([physics] model = boussinesq); 0 or EXIT_USAGE. */
static int other_model(const char *scenario, int *other)
{
	char model[64];
	if (spate_scenario_model(scenario, model, sizeof model))
		return EXIT_USAGE;
	*other = !strcasecmp(model, "boussinesq"); /* as the module reads its values */
	return 0;
}

/* A scenario of the Boussinesq model: run by that module, returns its exit
 * status. */
static int run_other(int argc, char **argv, const char *scenario)
{
	char **args;
	int n = 1, rc;
	if (!(args = malloc(((size_t)argc + 1) * sizeof *args)))
		return EXIT_RUNTIME;
	args[0] = (char *)scenario;
	for (int i = 0; i < argc; i++)
		if (argv[i] != scenario)
			args[n++] = argv[i];
	rc = bsq_cmd_run(n, args);
	free(args);
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	struct swe_params p;
	struct swe_run_opts o;
	struct swe_result r;
	struct run_args ra;
	struct swe_prod *rank_prod = NULL;
	int rc, other = 0;

	memset(&o, 0, sizeof o);
	memset(&ra, 0, sizeof ra);
	swe_params_defaults(&p);
	/* under mpirun every rank reads the scenario: a fault in it is told
	 * once, and every rank stops (decomp_world_agree) */
	spate_log_hold();
	if (!(rc = run_args_first(argc, argv, &ra)))
		rc = other_model(ra.scenario, &other);
	if ((rc = decomp_world_agree(rc)))
		return rc;
	if (other)
		return run_other(argc, argv, ra.scenario);
	spate_log_hold();
	rc = swe_params_load(&p, ra.scenario) ? EXIT_USAGE :
		run_args_rest(argc, argv, &ra, &p, &o);
	if ((rc = decomp_world_agree(rc)))
		return rc;
	if (ra.print_only) {
		if (decomp_world_rank() == 0)
			swe_params_print(&p, stdout);
		return 0;
	}
	if (decomp_world_rank() != 0) {
		/* under mpirun only rank 0 prints and writes; the others still keep
		 * the flood products, whose gather is collective */
		spate_set_quiet(1);
		ra.summary = NULL;
		if (!o.no_output) {
			o.no_output = 1;
			o.final_products = &rank_prod;
		}
	}
	/* a summary that cannot be written is bad input found now, not hours
	 * later at the end of the run */
	spate_log_hold();   /* rank 0 alone checks it: the others learn of it */
	rc = ra.summary && spate_summary_check(ra.summary) ? EXIT_USAGE : 0;
	if ((rc = decomp_world_agree(rc)))
		return rc;
	rc = swe_run(&p, &o, &r);
	free(rank_prod);
	/* the ranks stopped together, for a signal (spate_interrupted_all) or
	 * an unstable state (the guard's flags are reduced): so rank 0 alone
	 * tells it and none calls MPI_Abort, which told of a
	 * failure and could kill rank 0 while it still wrote the results or
	 * the guard's checkpoint and report */
	if (rc == -SPATE_EINTR || rc == -SPATE_EUNSTABLE)
		decomp_world_stop_together();
	return run_end(rc, &ra, &p, &o, &r);
}

/* spate bench: the flood step, or --physics=boussinesq's. */
static int cmd_bench(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "--physics=", 10) || !strcmp(argv[i] + 10, "shallow_water"))
			continue;
		if (strcmp(argv[i] + 10, "boussinesq")) {
			spate_log_error("bench", "%s: use --physics=shallow_water or boussinesq", argv[i]);
			return EXIT_USAGE;
		}
		return bsq_bench(argc, argv) ? EXIT_RUNTIME : 0;
	}
	return spate_bench(argc, argv) ? EXIT_RUNTIME : 0;
}

static int cmd_devices_args(int argc, char **argv)
{
	if (argc > 0) {
		spate_log_error("devices", "%s: devices takes no arguments", argv[0]);
		return EXIT_USAGE;
	}
	return cmd_devices();
}

static int cmd_map(int argc, char **argv)
{
	int rc = spate_map(argc, argv);
	return rc == -SPATE_EINVAL ? EXIT_USAGE : rc ? EXIT_RUNTIME : 0;
}

static int cmd_ensemble(int argc, char **argv)
{
	int rc = spate_ensemble(argc, argv);
	return rc == -SPATE_EINVAL || rc == -SPATE_ENODEV ? EXIT_USAGE :
		rc == -SPATE_EINTR ? EXIT_INTERRUPTED : rc ? EXIT_RUNTIME : 0;
}

static int cmd_export(int argc, char **argv)
{
	int rc = spate_export(argc, argv);
	return rc == -SPATE_EINVAL ? EXIT_USAGE : rc ? EXIT_RUNTIME : 0;
}

static const struct command commands[] = {
	{ "run", "SCENARIO [OPTIONS]", "run a scenario file (INI; see spate-scenario(5))",
		spate_opts_run, cmd_run },
	{ "devices", "", "list the CPU and each CUDA GPU with name and memory", NULL,
		cmd_devices_args },
	{ "bench", "[OPTIONS]", "time flood steps (dam break, Malpasset, rain) or Boussinesq ones",
		spate_opts_bench, cmd_bench },
	{ "map", "RESULT.nc [OPTIONS]", "draw a result as a GeoTIFF or a printed map (PNG, PDF)",
		spate_opts_map, cmd_map },
	{ "ensemble", "SCENARIO --vary SECTION.KEY=LO:HI --members=N [OPTIONS]",
		"run N members with varied keys: flood probability, depth percentiles, arrival",
		spate_opts_ensemble, cmd_ensemble },
	{ "export", "RESULT.nc [OPTIONS]",
		"GIS layers of a result: a GeoPackage and Cloud Optimized GeoTIFFs",
		spate_opts_export, cmd_export },
};

static const struct command *command_list(int *n)
{
	*n = (int)(sizeof commands / sizeof commands[0]);
	return commands;
}

static const struct command *find(const char *name)
{
	for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
		if (!strcmp(name, commands[k].name))
			return &commands[k];
	return NULL;
}

/* "--help" or "-h" among a command's arguments. */
static int asks_help(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

static int command(int argc, char **argv)
{
	const struct command *c;
	int help = 0;
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
		(!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {     /* spate help COMMAND: COMMAND's usage */
		help = 1;
		argv++;
		argc--;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		version();
		return 0;
	}
	if ((c = find(argv[1]))) {
		if (help || asks_help(argc - 2, argv + 2)) {
			command_usage(c);
			return 0;
		}
		return c->run(argc - 2, argv + 2);
	}
	{
		char names[256] = "";
		for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
				commands[k].name);
		spate_log_error("usage", "unknown command '%s' (commands: %s; see spate --help)",
			argv[1], names);
	}
	return EXIT_USAGE;
}

/* MPI starts here when spate was started by mpirun (decomp.c), and a failure
 * on one rank of several aborts them all. */
int main(int argc, char **argv)
{
	if (decomp_world_init(&argc, &argv))
		return EXIT_RUNTIME;
	return decomp_world_fini(command(argc, argv));
}
