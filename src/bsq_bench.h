/* bsq_bench.h: `spate bench --physics=boussinesq` (bsq_bench.c). */
#ifndef SPATE_BSQ_BENCH_H
#define SPATE_BSQ_BENCH_H

/* argv after "bench"; returns 0 or -SPATE_E*. */
int bsq_bench(int argc, char **argv);

#endif
