/* bench.h: what `spate bench`'s files share: the options (bench.c parses
 * them), the benchmark cases on the Malpasset DEM (bench_case.c) and the
 * arithmetic floor (bench_floor.c). */
#ifndef SPATE_BENCH_H
#define SPATE_BENCH_H

#include <stddef.h>

/* Bytes a fused RK2 step must move per cell: read w, hu, hv, B and write w,
 * hu, hv in stage 1 (7 values), read U* and B, read U^n, write U^{n+1} in
 * stage 2 (10 values): 17 values, 68 bytes in single precision.  (Nsight
 * Compute counts 95 bytes a cell for the fp32 kernels: doc/bench/kernel.md.) */
#define BENCH_VALUES_PER_CELL 17

enum bench_case { BENCH_DAMBREAK, BENCH_MALPASSET, BENCH_RAIN, BENCH_FLOOR };

struct bench_opts {
	const char *device;
	long steps;          /* timed steps (0: about `seconds` of work; the
	                        Malpasset cases: to `time`) */
	double seconds;
	int subdomains, gpus;
	int transport;       /* [parallel] transport, enum halo_transport (decomp.h) */
	int bcase;           /* enum bench_case */
	int early;           /* [parallel] early_exit: 1 on, 0 off */
	double time;         /* Malpasset cases: simulated seconds (0: default) */
	double cellsize;     /* Malpasset cases: resampled cell, m (0: the DEM's) */
	double rain;         /* rain case: rate, mm/h */
	double rain_radius;  /* rain case: on a disc of this radius, m (0: everywhere) */
	double rain_x, rain_y; /* ... centred here (DEM coordinates, m) */
	const char *rain_file; /* rain case: a raster of mm/h instead (or NULL) */
	const char *data_dir;  /* NULL: [domain] data_dir's default */
	const char *dem_opt;   /* the last option only the Malpasset cases take */
};

/* Time the Malpasset case o->bcase (BENCH_MALPASSET, BENCH_RAIN) and print
 * its header and one line; 0 or -SPATE_E* (the Malpasset data missing: a
 * message that says where to get it). */
int spate_bench_case(const struct bench_opts *o);

/* The arithmetic floor of a step (bench_floor.c, swe_floor.h) on the
 * backend named (cpu or cuda; desc: the device, for the header) at the n
 * sizes dims: its header and a line a size; 0 or -SPATE_E*. */
int spate_bench_floor(const struct bench_opts *o, const char *backend, const char *desc,
	int (*dims)[2], int n);

/* The early exit's counters (swe_backend.h): CPU blocks [0] and CUDA
 * tiles [1], skipped and looked at. */
struct bench_count {
	long skip[2], seen[2];
};
void bench_count_now(struct bench_count *c);
/* The share of the cells computed between the counts a and b (1 where
 * nothing was counted: no early exit, or every cell computed). */
double bench_count_share(const struct bench_count *a, const struct bench_count *b);

#endif
