/* ens.h: ensembles of flood runs (spate ensemble): members made by varying
 * scenario keys over ranges, run in turn, and what they say together per
 * cell: the probability of flooding, percentiles of the maximum depth, the
 * earliest and the mean arrival.  ens_cli.c reads the command line,
 * ens_run.c runs the members, ens_sample.c draws their values,
 * ens_stats.c accumulates the products, ens_out.c writes the files. */
#ifndef SPATE_ENS_H
#define SPATE_ENS_H

#include <stdint.h>

#include "swe.h"
#include "products_kern.h"

#define ENS_VARY_MAX 16     /* --vary options */
#define ENS_PCT_MAX 16      /* --percentiles */
#define ENS_MEMBERS_MAX 100000

/* --sampling: Latin hypercube (the default), a full grid, plain random. */
enum ens_sampling { ENS_LHS = 0, ENS_GRID = 1, ENS_RANDOM = 2 };

/* One varied key: [sec] key from lo to hi. */
struct ens_vary {
	char sec[64], key[64];
	double lo, hi;
};

/* An ensemble as the command line gives it. */
struct ens_spec {
	const char *scenario;
	struct ens_vary vary[ENS_VARY_MAX];
	int nvary;
	int members;
	int sampling;           /* enum ens_sampling */
	uint64_t seed;
	int pct[ENS_PCT_MAX];   /* percentiles of the maximum depth, 0 to 100 */
	int npct;
	int keep_members;       /* write each member's own results too */
	int no_cog;             /* write no Cloud Optimized GeoTIFFs */
	int print_members;      /* print the members' values and stop */
	int quiet;
};

/* The levels per key of --sampling=grid: m with m^nvary = members (1 when
 * nvary is 0), or 0 when members is no such power. */
int ens_grid_levels(int members, int nvary);

/* The members' values: v[m * nvary + k] the value of key k of member m,
 * drawn as e->sampling says from e->seed (grid: ens_grid_levels must be
 * non-zero).  Returns 0 or -SPATE_ENOMEM. */
int ens_sample(const struct ens_spec *e, double *v);

/* The rank (1 to n) of percentile pct (0 to 100) of n sorted values by the
 * nearest-rank method: the smallest value with at least pct % of the
 * values at or below it (pct 0: the smallest). */
long ens_rank(double pct, long n);

/* Per-cell statistics of the members' flood products. */
struct ens_acc {
	long n;             /* cells */
	int members, added;
	int *flooded;       /* members whose depth exceeded the wet threshold */
	float *first;       /* earliest arrival, s (NAN: none yet) */
	double *sum;        /* sum of the flooded members' arrival times, s */
	float *depth;       /* depth[m * n + c]: member m's maximum depth of
	                       cell c, m (NULL: no percentiles) */
};

/* Room for n cells of `members` members (depths kept when keep_depths).
 * Returns 0 or -SPATE_ENOMEM. */
int ens_acc_init(struct ens_acc *a, long n, int members, int keep_depths);
/* Add the next member's products pr (n cells). */
void ens_acc_add(struct ens_acc *a, const struct swe_prod *pr);
void ens_acc_free(struct ens_acc *a);

/* The results as fields of n doubles each (NAN where none): the flood
 * probability (flooded members / members), the percentiles pct[0..npct)
 * of the maximum depth into out[0..npct) (0 or -SPATE_ENOMEM), the
 * earliest and the mean arrival time of the flooded members.  The values
 * that mean "dry" follow swe_prod_value. */
void ens_probability(const struct ens_acc *a, double *out);
int ens_percentiles(const struct ens_acc *a, const int *pct, int npct, double **out);
void ens_arrival(const struct ens_acc *a, double *first, double *mean);

/* The ensemble's fields on the grid, nx * ny values each (NAN: none). */
struct ens_fields {
	double *prob, *first, *mean;
	double *pct[ENS_PCT_MAX];
};

/* Write the ensemble's files into p->out_dir: ensemble.nc and/or ESRI ASCII
 * grids as p->out_format says, a Cloud Optimized GeoTIFF per field (with
 * GDAL, unless e->no_cog), and members.csv; s gives the grid, CRS and
 * bed, v the members' values (ens_sample).  Returns 0 or -SPATE_E* after a
 * message (ens_out.c). */
int ens_write(const struct ens_spec *e, const struct swe_params *p, const struct swe_state *s,
	const double *v, const struct ens_fields *f);

/* The members' values as CSV: a header "member,SECTION.KEY,...", then a
 * row per member. */
void ens_print_members(const struct ens_spec *e, const double *v, void *file);

/* Run the ensemble e of the scenario p (validated, with the command line's
 * overrides): every member in turn, then ens_write.  Returns 0 or
 * -SPATE_E* after a message (ens_run.c). */
int ens_run(const struct ens_spec *e, const struct swe_params *p);

/* spate ensemble: argv after "ensemble".  Returns 0, -SPATE_EINVAL for bad
 * usage or input, -SPATE_EINTR when a signal stopped it, or another
 * -SPATE_E*, each after a message (ens_cli.c). */
int spate_ensemble(int argc, char **argv);

#endif
