/* main.c: the spate command line. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "params.h"
#include "swe_run.h"
#include "output.h"
#include "decomp.h"
#include "checkpoint.h"
#include "scenario.h"
#include "bsq_run.h"
#include "bsq_bench.h"

#ifndef SPATE_SCENARIODIR
#define SPATE_SCENARIODIR "/usr/local/share/spate/scenarios"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

enum { EXIT_USAGE = 1, EXIT_RUNTIME = 2, EXIT_INTERRUPTED = 3 };

static void usage(FILE *f)
{
	fprintf(f,
"Usage: spate COMMAND [ARGS]\n"
"\n"
"spate simulates floods with the 2D shallow-water equations (Kurganov-Petrova\n"
"2007 central-upwind scheme) on the CPU or a CUDA GPU; a scenario with\n"
"[physics] model = boussinesq runs the 3D incompressible Boussinesq solver.\n"
"\n"
"Commands:\n"
"  run SCENARIO [OPTIONS]   run a scenario file (INI; see spate-scenario(5))\n"
"  devices                  list the CPU and each CUDA GPU with name and memory\n"
"  bench [OPTIONS]          time full RK2 steps of the circular dam break\n"
"                           (--physics=boussinesq: steps of the Boussinesq\n"
"                           module, multigrid and Jacobi)\n"
"  map RESULT.nc [OPTIONS]  draw a variable of a results file as a map\n"
"  --help, -h               this text\n"
"  --version, -V            version and build configuration\n"
"\n"
"Options of run:\n"
"  --SECTION.KEY=VALUE      override a scenario key, e.g. --physics.manning=0.03\n"
"  --device=auto|cpu|cuda   where to run (default auto: a GPU if there is one)\n"
"  --data-dir=DIR           where relative data paths (DEMs) are looked up\n"
"                           (default: $SPATE_DATA, else ../shared/data)\n"
"  --summary FILE           write a JSON run summary (FILE '-' = stdout)\n"
"  --print-params           print the resolved parameters and exit\n"
"  --no-output              write no files (timing runs)\n"
"  --checkpoint-every=S     write a checkpoint every S seconds of simulated\n"
"                           time (also [output] checkpoint_every); SIGINT and\n"
"                           SIGTERM write one too, then stop\n"
"  --restart=FILE           continue from a checkpoint (checkpoint.nc or .bin)\n"
"                           of the same scenario, bitwise as if never stopped\n"
"  --parallel.subdomains=N  cut the grid into N subdomains of rows (also\n"
"                           --parallel.workload=60,40; with --device=cuda\n"
"                           subdomain k on GPU k mod GPUs); under mpirun rank 0\n"
"                           writes, and a report per subdomain ends the run\n"
"  --quiet, -q              no progress line or log on stderr\n"
"\n"
"Options of bench:\n"
"  --device=auto|cpu|cuda   device to time (default auto)\n"
"  --sizes=N,NXxNY,...      grid sizes (default 1024,2048,4096,8192)\n"
"  --steps=N                timed RK2 steps per size (default: about 2 s of work)\n"
"  --seconds=S              timed seconds per size without --steps (default 2)\n"
"  --subdomains=N           N subdomains of rows (on GPUs: over the GPUs)\n"
"  --gpus=N                 use at most N GPUs (default all)\n"
"  --overlap=none,compute,streams  halo-overlap strategies to time (default\n"
"                           streams)\n"
"  --transport=auto|mpi|nccl  halos between ranks' GPUs under mpirun: host-\n"
"                           staged MPI or GPU to GPU by NCCL (default auto)\n"
"\n"
"Options of map:\n"
"  --var=NAME               the variable (default max_depth; also max_speed,\n"
"                           max_hazard, arrival_time, time_of_max_depth,\n"
"                           duration_wet, bed, h, w, u, v)\n"
"  -o FILE, --output=FILE   FILE.tif: GeoTIFF with the DEM's CRS and grid;\n"
"                           FILE.png: picture with colour scale, legend, hillshade\n"
"  --time=T                 snapshot nearest to T seconds (default: the last)\n"
"  --quiet, -q              no log on stderr\n"
"\n"
"Examples:\n"
"  spate run scenarios/circular_dambreak.conf --output.dir=out --summary out/summary.json\n"
"  spate run scenarios/lake_at_rest.conf --device=cpu --run.end_time=100\n"
"  spate bench --device=cuda --sizes=4096,8192\n"
"  spate map out/results.nc --var max_depth -o max_depth.png\n"
"\n"
"Exit status: 0 success, 1 bad usage or input, 2 failure while running,\n"
"3 stopped by SIGINT or SIGTERM (after writing a checkpoint).\n"
"Scenario files for the built-in set-ups are in the scenarios/ folder of the\n"
"source tree and installed in %s.\n", SPATE_SCENARIODIR);
}

static void version(void)
{
	printf("spate %s\nprecision: %s\nbackends: cpu", PACKAGE_VERSION, SPATE_PRECISION);
#ifdef HAVE_CUDA
	printf(", cuda");
#endif
	printf("\nMPI: %s\nNCCL: %s\nGDAL: %s\nNetCDF: %s\n",
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
#ifdef HAVE_NETCDF
		"yes (results.nc and checkpoint.nc; maps with spate map)"
#else
		"no (grids are ESRI ASCII, checkpoints checkpoint.bin)"
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

/* First pass: the scenario file, --summary VALUE and --quiet (before the
 * scenario is read, whose messages --quiet silences).  Returns 0 or
 * EXIT_USAGE. */
static int run_args_first(int argc, char **argv, struct run_args *ra)
{
	for (int i = 0; i < argc; i++)
		if (argv[i][0] != '-' || !argv[i][1]) {
			if (ra->scenario) {
				spate_log_error("run", "more than one scenario (%s, %s)", ra->scenario,
					argv[i]);
				return EXIT_USAGE;
			}
			ra->scenario = argv[i];
		} else if (takes_value(argv[i])) {
			if (++i >= argc) {
				spate_log_error("run", "%s needs a value", argv[i - 1]);
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
		if (rc != -SPATE_EINTR)
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

/* A scenario of another model than the flood's ([physics] model =
 * boussinesq): run by that module, returns its exit status; -1 for a
 * flood scenario. */
static int other_model(int argc, char **argv, const char *scenario)
{
	char model[64], **args;
	int n = 1, rc;
	if (spate_scenario_model(scenario, model, sizeof model))
		return EXIT_USAGE;
	if (strcmp(model, "boussinesq"))
		return -1;
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
	int rc;

	memset(&o, 0, sizeof o);
	memset(&ra, 0, sizeof ra);
	swe_params_defaults(&p);
	if ((rc = run_args_first(argc, argv, &ra)))
		return rc;
	if ((rc = other_model(argc, argv, ra.scenario)) >= 0)
		return rc;
	if (swe_params_load(&p, ra.scenario))
		return EXIT_USAGE;
	if ((rc = run_args_rest(argc, argv, &ra, &p, &o)))
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
	rc = swe_run(&p, &o, &r);
	free(rank_prod);
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

static int command(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		version();
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "devices"))
		return cmd_devices();
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 2, argv + 2);
	if (!strcmp(argv[1], "map")) {
		int rc = spate_map(argc - 2, argv + 2);
		return rc == -SPATE_EINVAL ? EXIT_USAGE : rc ? EXIT_RUNTIME : 0;
	}
	spate_log_error("usage", "unknown command '%s' (commands: run, devices, bench, map; "
		"see spate --help)", argv[1]);
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
