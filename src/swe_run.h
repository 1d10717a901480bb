/* swe_run.h: running a shallow-water scenario from parameters. */
#ifndef SPATE_SWE_RUN_H
#define SPATE_SWE_RUN_H

#include "swe.h"
#include "output.h"

struct swe_run_opts {
	int no_output;                  /* write no grids (benchmarks, tests) */
	struct swe_state *final_state;  /* if set, receives a copy of the final state */
	struct swe_prod **final_products; /* if set, receives the products (malloc'd, nx*ny) */
	const char *restart;            /* if set, continue from this checkpoint file */
};

/* Run p to its end time (or max_steps); fills r.  Returns 0 or -SPATE_E*;
 * -SPATE_EINTR when SIGINT or SIGTERM stopped it (after a checkpoint, when
 * the run writes output). */
int swe_run(const struct swe_params *p, const struct swe_run_opts *o, struct swe_result *r);

/* bench.c: the benchmark command; argv after "bench". */
int spate_bench(int argc, char **argv);

#endif
