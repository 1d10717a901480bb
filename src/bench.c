/* bench.c: `spate bench`: cell updates per second of full RK2 steps of the
 * circular dam break (--case=dambreak, all wet), and the effective memory
 * bandwidth under a stated byte count; on one device, or decomposed into
 * subdomains of rows over GPUs (--subdomains, --gpus) with each halo-overlap
 * strategy (--overlap).  --case=malpasset and rain time runs on the
 * Malpasset DEM (bench_case.c); --case=floor the arithmetic of a step alone
 * (bench_floor.c).  A benchmark prints numbers; it checks nothing. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "spate.h"
#include "swe.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "backend.h"
#include "params.h"
#include "setup.h"
#include "swe_run.h"
#include "swe_multi.h"
#include "bench.h"
#include "decomp.h"

static const char *const overlap_names[] = { "none", "compute", "streams" };

/* GPUs a decomposed CUDA run of p spreads its subdomains over. */
static int gpus_used(const struct swe_params *p)
{
	int n = 1;
#ifdef HAVE_CUDA
	n = spate_backend_cuda.count();
	n = p->gpus > 0 && p->gpus < n ? p->gpus : n;
#endif
	n = n < p->subdomains ? n : p->subdomains;
	return n > 0 ? n : 1;
}

/* Time one configuration on the state s (uploaded afresh); p->overlap etc.
 * already set.  Prints one line. */
static int bench_run(const struct swe_params *p, const struct swe_state *s,
	const struct bench_opts *o)
{
	const struct spate_backend *be = swe_backend_for(p);
	struct swe_backend_ctx *ctx = NULL;
	struct swe_stats st;
	double t0, wall, cups, bytes;
	long warm = 10, steps = o->steps;
	int rc, sub = p->subdomains, gpus = 1;

	if (!be)
		return -SPATE_ENODEV;
	if (sub > 1 && !strcmp(be->name, "cuda"))
		gpus = gpus_used(p);
	memset(&st, 0, sizeof st);
	if ((rc = be->init(&ctx, s, p, 0)) || (rc = be->advance(ctx, 1e30, warm, &st)))
		goto out;
	if (steps <= 0) {
		t0 = spate_now();
		if ((rc = be->advance(ctx, 1e30, warm, &st)))
			goto out;
		wall = spate_now() - t0;
		steps = wall > 0 ? (long)(o->seconds / (wall / warm)) : 100;
		steps = steps < 10 ? 10 : steps > 20000 ? 20000 : steps;
	}
	t0 = spate_now();
	if ((rc = be->advance(ctx, 1e30, steps, &st)))
		goto out;
	wall = spate_now() - t0;
	cups = (double)s->nx * s->ny * steps / wall;
	bytes = cups * BENCH_VALUES_PER_CELL * sizeof(real);
	printf("%-5s %6d x %-6d %-6s %2d %3d %-8s %7ld %9.4f %11.4g %11.4g %8.1f\n", be->name,
		s->nx, s->ny, SPATE_PRECISION, gpus, sub, sub > 1 && !strcmp(be->name, "cuda") ?
		overlap_names[p->overlap] : "-", steps, wall, cups, cups / gpus, bytes / 1e9);
	fflush(stdout);
out:
	if (ctx)
		be->fini(ctx); /* decomposed: a report per subdomain on stderr */
	if (rc)
		spate_log_error("bench", "%d x %d: %s", s->nx, s->ny, spate_strerror(rc));
	return rc;
}

/* One grid size, nx x ny, for each overlap strategy in the list. */
static int bench_size(int nx, int ny, const char *overlaps, const struct bench_opts *o)
{
	struct swe_params p;
	struct swe_state s;
	char *list = strdup(overlaps), *tok, *save = NULL;
	int rc;

	swe_params_defaults(&p);
	p.nx = nx;
	p.ny = ny;
	p.dx = p.dy = 2000.0 / (nx > ny ? nx : ny);
	p.integrator = 2;
	p.subdomains = o->subdomains;
	p.gpus = o->gpus;
	p.transport = o->transport;
	p.early_exit = o->early;
	snprintf(p.device, sizeof p.device, "%s", o->device);
	if (!list)
		return -SPATE_ENOMEM;
	if ((rc = swe_setup_builtin(&s, &p))) {
		free(list);
		return rc;
	}
	for (tok = strtok_r(list, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		int k = 0;
		while (k < 3 && strcmp(tok, overlap_names[k]))
			k++;
		if (k == 3) {
			spate_log_error("bench", "--overlap: %s: use none, compute or streams", tok);
			rc = -SPATE_EINVAL;
			break;
		}
		p.overlap = k;
		rc = bench_run(&p, &s, o);
		if (p.subdomains <= 1)
			break; /* one domain: no halos to overlap */
	}
	swe_state_free(&s);
	free(list);
	return rc;
}

/* A number of option a (after its '='), in [lo, hi]: 1, or -1 with a
 * message (spate_option_number). */
static int num_opt(const char *a, double lo, double hi, double *v)
{
	return spate_option_number("bench", a, lo, hi, 0, v) ? -1 : 1;
}

/* The same, a whole number. */
static int whole_opt(const char *a, double lo, double hi, long *v)
{
	double d;
	if (spate_option_number("bench", a, lo, hi, 1, &d))
		return -1;
	*v = (long)d;
	return 1;
}

/* The options of the flood cases (--case, --early-exit, the Malpasset
 * cases'): 1 taken, 0 not one of them, -1 bad (with a message). */
static int case_option(const char *a, struct bench_opts *o)
{
	static const char *const cases[] = { "dambreak", "malpasset", "rain", "floor" };
	if (!strncmp(a, "--case=", 7)) {
		for (int k = 0; k < 4; k++)
			if (!strcmp(a + 7, cases[k])) {
				o->bcase = k;
				return 1;
			}
		spate_log_error("bench", "%s: use --case=dambreak, malpasset, rain or floor (or, with "
			"--physics=boussinesq, cavity, rayleigh_benard or vcycle)", a);
		return -1;
	}
	if (!strcmp(a, "--early-exit=on") || !strcmp(a, "--early-exit=off")) {
		o->early = !strcmp(a + 13, "on");
		return 1;
	}
	if (!strncmp(a, "--early-exit", 12)) {
		spate_log_error("bench", "%s: use --early-exit=on or off", a);
		return -1;
	}
	if (strncmp(a, "--data-dir=", 11) && strncmp(a, "--rain", 6) && strncmp(a, "--time=", 7) &&
		strncmp(a, "--cellsize=", 11))
		return 0;
	o->dem_opt = a;
	if (!strncmp(a, "--data-dir=", 11)) {
		o->data_dir = a + 11;
		return 1;
	}
	if (!strncmp(a, "--rain-file=", 12)) {
		o->rain_file = a + 12;
		return 1;
	}
	if (!strncmp(a, "--time=", 7))
		return num_opt(a, 1e-3, 1e7, &o->time);
	if (!strncmp(a, "--cellsize=", 11))
		return num_opt(a, 1e-3, 1e5, &o->cellsize);
	if (!strncmp(a, "--rain=", 7))
		return num_opt(a, 0, 1e4, &o->rain);
	if (!strncmp(a, "--rain-radius=", 14))
		return num_opt(a, 0, 1e7, &o->rain_radius);
	if (!strncmp(a, "--rain-centre=", 14)) {
		if (sscanf(a + 14, "%lf,%lf", &o->rain_x, &o->rain_y) != 2 || !isfinite(o->rain_x) ||
			!isfinite(o->rain_y)) {
			spate_log_error("bench", "%s: give X,Y in metres (DEM coordinates)", a);
			return -1;
		}
		return 1;
	}
	spate_log_error("bench", "unknown option %s (see spate --help)", a);
	return -1;
}

/* The most sizes of one --sizes list. */
#define BENCH_SIZES 64

/* A --sizes token, N or NXxNY, whole (nothing after it): 0, or -1. */
static int size_of(const char *tok, int *nx, int *ny)
{
	int end = 0;
	if (sscanf(tok, "%dx%d%n", nx, ny, &end) == 2 && tok[end] == '\0')
		return 0;
	end = 0;
	if (sscanf(tok, "%d%n", nx, &end) == 1 && tok[end] == '\0') {
		*ny = *nx;
		return 0;
	}
	return -1;
}

int spate_bench(int argc, char **argv)
{
	const char *sizes = "1024,2048,4096,8192", *overlaps = "streams";
	const struct spate_backend *be;
	struct bench_opts o;
	char desc[512], *list, *tok, *save = NULL;
	int rc = 0, dims[BENCH_SIZES][2], n = 0, i;

	memset(&o, 0, sizeof o);
	o.device = "auto";
	o.seconds = 2.0;
	o.subdomains = 1;
	o.transport = HALO_TRANSPORT_AUTO;
	o.early = 1;
	o.rain = 50;
	o.rain_radius = 2000;
	o.rain_x = 4700;
	o.rain_y = 4300;
	for (int i = 0; i < argc; i++) {
		long v;
		int c = case_option(argv[i], &o);
		if (c < 0)
			return -SPATE_EINVAL;
		if (c > 0 || !strcmp(argv[i], "--physics=shallow_water"))
			continue;
		if (!strncmp(argv[i], "--device=", 9))
			o.device = argv[i] + 9;
		else if (!strncmp(argv[i], "--sizes=", 8))
			sizes = argv[i] + 8;
		else if (!strncmp(argv[i], "--steps=", 8)) {
			if (whole_opt(argv[i], 1, 1e12, &o.steps) < 0)
				return -SPATE_EINVAL;
		} else if (!strncmp(argv[i], "--seconds=", 10)) {
			if (num_opt(argv[i], 1e-3, 1e4, &o.seconds) < 0)
				return -SPATE_EINVAL;
		} else if (!strncmp(argv[i], "--subdomains=", 13)) {
			if (whole_opt(argv[i], 1, SWE_SUB_MAX, &v) < 0)
				return -SPATE_EINVAL;
			o.subdomains = (int)v;
		} else if (!strncmp(argv[i], "--gpus=", 7)) {
			if (whole_opt(argv[i], 0, 65536, &v) < 0)
				return -SPATE_EINVAL;
			o.gpus = (int)v;
		} else if (!strncmp(argv[i], "--overlap=", 10))
			overlaps = argv[i] + 10;
		else if (!strncmp(argv[i], "--transport=", 12)) {
			static const char *const names[] = { "auto", "mpi", "nccl" };
			o.transport = -1;
			for (int k = 0; k < 3; k++)
				if (!strcmp(argv[i] + 12, names[k]))
					o.transport = k;
			if (o.transport < 0) {
				spate_log_error("bench", "%s: use auto, mpi or nccl", argv[i]);
				return -SPATE_EINVAL;
			}
		}
		else {
			spate_log_error("bench", "unknown option %s (see spate --help)", argv[i]);
			return -SPATE_EINVAL;
		}
	}
	if (o.bcase == BENCH_MALPASSET || o.bcase == BENCH_RAIN)
		return spate_bench_case(&o);
	if (o.dem_opt) {
		spate_log_error("bench", "%s: only --case=malpasset and rain take it", o.dem_opt);
		return -SPATE_EINVAL;
	}
	list = strdup(sizes);
	if (!list)
		return -SPATE_ENOMEM;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++) {
		if (n == BENCH_SIZES || size_of(tok, &dims[n][0], &dims[n][1]) || dims[n][0] < 8 ||
			dims[n][0] > 65536 || dims[n][1] < 8 || dims[n][1] > 1 << 20) {
			spate_log_error("bench", "--sizes: %s: N or NXxNY, N between 8 and 65536, "
				"at most %d sizes", tok, BENCH_SIZES);
			free(list);
			return -SPATE_EINVAL;
		}
	}
	free(list);
	if (n == 0) {
		spate_log_error("bench", "--sizes: no size (N or NXxNY, ...)");
		return -SPATE_EINVAL;
	}
	be = spate_backend_select(o.device);
	if (!be)
		return -SPATE_ENODEV;
	be->describe(0, desc, sizeof desc);
	if (o.bcase == BENCH_FLOOR) {
		if (o.subdomains > 1 || o.gpus > 1) {
			spate_log_error("bench", "--case=floor runs on one device: leave out "
				"--subdomains and --gpus");
			return -SPATE_EINVAL;
		}
		return spate_bench_floor(&o, be->name, desc, dims, n);
	}
	printf("# spate bench: circular dam break (--case=dambreak), SSP-RK2, one full step = "
		"both stages, early exit %s\n"
		"# device: %s (%s)\n# bandwidth counts %d values = %zu bytes per cell per step "
		"(every cell computed: all wet)\n"
		"# backend     nx x ny     prec  gpus sub overlap    steps    wall s     "
		"cells/s cells/s/GPU     GB/s\n", o.early ? "on" : "off", be->name, desc,
		BENCH_VALUES_PER_CELL,
		BENCH_VALUES_PER_CELL * sizeof(real));
	for (i = 0; i < n && !rc; i++)
		rc = bench_size(dims[i][0], dims[i][1], overlaps, &o);
	return rc;
}
