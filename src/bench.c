/* bench.c: `spate bench`: cell updates per second of full RK2 steps of the
#define _POSIX_C_SOURCE 200809L
 * circular dam break, and the effective memory bandwidth under a stated byte
 * count.  A benchmark prints numbers; it checks nothing. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_run.h"

/* Bytes a fused RK2 step must move per cell: read w, hu, hv, B and write w,
 * hu, hv in stage 1 (7 values), read U* and B, read U^n, write U^{n+1} in
 * stage 2 (10 values): 17 values, 68 bytes in single precision. */
#define BENCH_VALUES_PER_CELL 17

static int bench_size(const struct spate_backend *be, int n, long steps, const char *device)
{
	struct swe_params p;
	struct swe_state s;
	struct swe_backend_ctx *ctx = NULL;
	struct swe_stats st;
	double t0, wall, cups, bytes;
	long warm = 10;
	int rc;

	swe_params_defaults(&p);
	p.nx = p.ny = n;
	p.dx = p.dy = 2000.0 / n;
	p.integrator = 2;
	snprintf(p.device, sizeof p.device, "%s", device);
	if ((rc = swe_setup_builtin(&s, &p)))
		return rc;
	memset(&st, 0, sizeof st);
	rc = be->init(&ctx, &s, &p, 0);
	if (rc)
		goto out;
	if ((rc = be->advance(ctx, 1e30, warm, &st)))
		goto out;
	if (steps <= 0) {
		/* about 2 s of work, from the warm-up's speed */
		t0 = spate_now();
		if ((rc = be->advance(ctx, 1e30, warm, &st)))
			goto out;
		wall = spate_now() - t0;
		steps = wall > 0 ? (long)(2.0 / (wall / warm)) : 100;
		steps = steps < 10 ? 10 : steps > 20000 ? 20000 : steps;
	}
	t0 = spate_now();
	if ((rc = be->advance(ctx, 1e30, steps, &st)))
		goto out;
	wall = spate_now() - t0;
	cups = (double)n * n * steps / wall;
	bytes = cups * BENCH_VALUES_PER_CELL * sizeof(real);
	printf("%-6s %6d x %-6d %-6s %7ld steps %9.4f s %12.4g cells/s %9.1f GB/s\n", be->name,
		n, n, SPATE_PRECISION, steps, wall, cups, bytes / 1e9);
	fflush(stdout);
out:
	if (ctx)
		be->fini(ctx);
	swe_state_free(&s);
	if (rc)
		spate_log_error("bench", "%d x %d: %s", n, n, spate_strerror(rc));
	return rc;
}

int spate_bench(int argc, char **argv)
{
	const char *device = "auto", *sizes = "1024,2048,4096,8192";
	const struct spate_backend *be;
	long steps = 0;
	char desc[512], *list, *tok, *save = NULL;
	int rc = 0;

	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "--device=", 9))
			device = argv[i] + 9;
		else if (!strncmp(argv[i], "--sizes=", 8))
			sizes = argv[i] + 8;
		else if (!strncmp(argv[i], "--steps=", 8))
			steps = atol(argv[i] + 8);
		else {
			spate_log_error("bench", "unknown option %s (see spate --help)", argv[i]);
			return -SPATE_EINVAL;
		}
	}
	be = spate_backend_select(device);
	if (!be)
		return -SPATE_ENODEV;
	be->describe(0, desc, sizeof desc);
	printf("# spate bench: circular dam break, SSP-RK2, one full step = both stages\n"
		"# device: %s (%s)\n# bandwidth counts %d values = %zu bytes per cell per step\n",
		be->name, desc, BENCH_VALUES_PER_CELL, BENCH_VALUES_PER_CELL * sizeof(real));
	list = strdup(sizes);
	for (tok = strtok_r(list, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		int n = atoi(tok);
		if (n < 8 || n > 65536) {
			spate_log_error("bench", "--sizes: %s: must be between 8 and 65536", tok);
			rc = -SPATE_EINVAL;
			break;
		}
		rc = bench_size(be, n, steps, device);
	}
	free(list);
	return rc;
}
