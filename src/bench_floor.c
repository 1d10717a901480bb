/* bench_floor.c: `spate bench --case=floor`: the arithmetic floor of a KP07
 * step (swe_floor.h; src/swe_floor.c on the CPU, cuda/swe_cuda_floor.cu on
 * one GPU): cell-stages a second of each stage and of their table reads
 * alone, the step rate they make, and a hash of the results (the CPU's and
 * the GPU's are the same bits).  A benchmark prints numbers; it checks
 * nothing. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "bench.h"
#include "ckpt.h"
#include "swe_floor.h"

/* The four kernels on the CPU or the GPU; the stages' results in res[0],
 * res[1] (threads values each), their hashes in bits. */
static int floor_on(int gpu, const struct swe_floor_tab *t, struct swe_coef c, real dt,
	long threads, int reps, double sec[4], real *res[2], uint64_t bits[2])
{
	int rc;
#ifdef HAVE_CUDA
	if (gpu)
		rc = swe_cuda_floor(t, c, dt, threads, reps, sec, res);
	else
#endif
		rc = swe_cpu_floor(t, c, dt, threads, reps, sec, res);
	if (!rc) {
		/* the bits of each stage's results, in their order */
		bits[0] = spate_fnv1a(SPATE_FNV_START, res[0], threads * sizeof(real));
		bits[1] = spate_fnv1a(SPATE_FNV_START, res[1], threads * sizeof(real));
	}
	return rc;
}

int spate_bench_floor(const struct bench_opts *o, const char *backend, const char *desc,
	int (*dims)[2], int n)
{
	struct swe_floor_tab *t = malloc(sizeof *t);
	struct swe_coef c;
	real dt;
	int rc = 0, gpu = !strcmp(backend, "cuda");

	if (!t) {
		spate_log_error("bench", "floor: no memory for the table");
		return -SPATE_ENOMEM;
	}
	if (!gpu && strcmp(backend, "cpu")) {
		spate_log_error("bench", "--case=floor runs on the cpu or cuda device, not %s",
			backend);
		free(t);
		return -SPATE_EINVAL;
	}
	swe_floor_fill(t, &c, &dt);
	printf("# spate bench: the arithmetic floor of a KP07 step (--case=floor): each cell's\n"
		"# formulas once, inputs from a table in cache, wet deep cells on a gentle bed\n"
		"# (swe_floor.h); rates in cell-stages (cell-steps for the step) a second\n"
		"# device: %s (%s)\n"
		"# backend    nx x ny     prec        cells    stage 1    stage 2       step"
		"   inputs 1   inputs 2 bits 1           bits 2\n", backend, desc);
	for (int i = 0; i < n && !rc; i++) {
		long cells = (long)dims[i][0] * dims[i][1];
		long threads = (cells + SWE_FLOOR_CELLS - 1) / SWE_FLOOR_CELLS;
		double sec[4], r[4];
		uint64_t bits[2];
		real *res[2] = { malloc(threads * sizeof(real)), malloc(threads * sizeof(real)) };
		int reps = o->steps > 0 ? (int)(o->steps < 1000000 ? o->steps : 1000000) : 1;
		if (!res[0] || !res[1]) {
			spate_log_error("bench", "floor: no memory for %ld results", 2 * threads);
			rc = -SPATE_ENOMEM;
		}
		if (!rc && o->steps <= 0 &&
			!(rc = floor_on(gpu, t, c, dt, threads, 1, sec, res, bits))) {
			/* about o->seconds of work over the four kernels */
			double one = sec[0] + sec[1] + sec[2] + sec[3];
			reps = one > 0 ? (int)fmin(1e6, fmax(1, o->seconds / one)) : 1;
		}
		if (!rc)
			rc = floor_on(gpu, t, c, dt, threads, reps, sec, res, bits);
		free(res[0]);
		free(res[1]);
		if (rc)
			break;
		for (int k = 0; k < 4; k++)
			r[k] = sec[k] > 0 ? (double)threads * SWE_FLOOR_CELLS / sec[k] : 0;
		printf("%-8s %6d x %-6d %-6s %12ld %10.4e %10.4e %10.4e %10.4e %10.4e %016" PRIx64
			" %016" PRIx64 "\n",
			backend, dims[i][0], dims[i][1], SPATE_PRECISION,
			threads * SWE_FLOOR_CELLS, r[0], r[1],
			r[0] > 0 && r[1] > 0 ? 1 / (1 / r[0] + 1 / r[1]) : 0, r[2], r[3], bits[0],
			bits[1]);
		fflush(stdout);
	}
	free(t);
	return rc;
}
