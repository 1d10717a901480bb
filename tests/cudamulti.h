/* cudamulti.h: the runs and comparisons of t_cuda_multi.c: one run of a
 * scenario on the GPUs (one or several subdomains) and the largest
 * difference of two states.  Static functions for one test program. */
#ifndef SPATE_TEST_CUDAMULTI_H
#define SPATE_TEST_CUDAMULTI_H

struct outcome {
	struct swe_state s;
	struct swe_prod *prod;
	char backend[16];
	long steps;
};

static void run(const struct swe_params *p0, const char *sub, const char *workload, int gpus,
	const char *overlap, struct outcome *o)
{
	struct swe_params p = *p0;
	struct swe_run_opts opt;
	struct swe_result r;
	int rc;
	sim_set(&p, "run", "device", "cuda");
	if (*sub)
		sim_set(&p, "parallel", "subdomains", "%s", sub);
	if (*workload)
		sim_set(&p, "parallel", "workload", "%s", workload);
	sim_set(&p, "parallel", "gpus", "%d", gpus);
	sim_set(&p, "parallel", "overlap", "%s", overlap);
	if (swe_params_validate(&p))
		exit(99);
	memset(&opt, 0, sizeof opt);
	opt.no_output = 1;
	opt.final_state = &o->s;
	opt.final_products = &o->prod;
	o->prod = NULL;
	spate_set_quiet(1);
	rc = swe_run(&p, &opt, &r);
	if (rc) {
		fprintf(stderr, "test error: run failed: %s\n", spate_strerror(rc));
		exit(99);
	}
	snprintf(o->backend, sizeof o->backend, "%s", r.backend);
	o->steps = r.steps;
}

/* Largest |a - b| over the interior rows of w, hu, hv (ghost columns too);
 * *same: bitwise equal. */
static double max_diff(const struct swe_state *a, const struct swe_state *b, int *same)
{
	size_t off = (size_t)SWE_GHOST * a->pitch, n = (size_t)a->ny * a->pitch;
	const real *fa[3] = { a->w, a->hu, a->hv }, *fb[3] = { b->w, b->hu, b->hv };
	double d = 0;
	*same = a->ny == b->ny && a->pitch == b->pitch;
	for (int f = 0; f < 3 && *same; f++) {
		*same = *same && !memcmp(fa[f] + off, fb[f] + off, n * sizeof(real));
		for (size_t k = off; k < off + n; k++)
			d = fmax(d, fabs((double)fa[f][k] - (double)fb[f][k]));
	}
	return d;
}

#endif
