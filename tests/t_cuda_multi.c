/* t_cuda_multi.c: 1 GPU vs N GPU subdomains.  Skipped (exit 77) when spate
 * was built without CUDA or no GPU is usable.
 *
 * The decomposed GPU run (cuda/swe_cuda_sub.cu driven by swe_multi.c) must
 * give the bits of the single-GPU run (cuda/swe_cuda.cu): the same kernels
 * on the same values, the time step reduced over the subdomains on the host.
 * Final w, hu, hv (interior rows, ghost columns included) and the flood
 * products are compared with memcmp; the largest difference is printed too.
 * Cases: circular dam break (wet), dam break over bumps onto a dry bed
 * (wet/dry fronts, Manning friction), a dry-bed dam break with inflow,
 * outflow and fixed-level boundaries on every side (RK2 and Euler).
 * Decompositions: 2 and 3 subdomains and an uneven 70,30 workload on one
 * GPU ([parallel] gpus = 1), and with two GPUs or more the same spread over
 * 2 GPUs in one process; each for [parallel] overlap = none, compute and
 * streams. */
#include "simtest.h"
#include "products_kern.h"

#ifdef HAVE_CUDA
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

static void check_case(const char *name, const struct swe_params *p, int ngpu)
{
	static const struct { const char *sub, *workload; int gpus; } dec[] = {
		{ "2", "", 1 }, { "3", "", 1 }, { "", "70,30", 1 }, { "2", "", 2 }, { "3", "", 2 },
		{ "", "70,30", 2 },
	};
	static const char *const overlap[] = { "none", "compute", "streams" };
	struct outcome ref, o;
	size_t np = (size_t)p->nx * p->ny * sizeof(struct swe_prod);
	run(p, "", "", 0, "none", &ref);
	printf("%s: %d x %d cells, single GPU: %ld steps, volume %.9g m^3\n", name, p->nx, p->ny,
		ref.steps, swe_volume(&ref.s));
	for (size_t d = 0; d < sizeof dec / sizeof dec[0]; d++) {
		if (dec[d].gpus > ngpu)
			continue;
		for (int v = 0; v < 3; v++) {
			int same;
			double diff;
			run(p, dec[d].sub, dec[d].workload, dec[d].gpus, overlap[v], &o);
			diff = max_diff(&ref.s, &o.s, &same);
			sim_check(!strcmp(o.backend, "cuda") && o.steps == ref.steps && same,
				"%s: %s %s on %d GPU%s, overlap %s: backend %s, %ld steps, w hu hv "
				"bitwise equal to 1 GPU (max |diff| %.3g)", name, *dec[d].sub ?
				dec[d].sub : dec[d].workload, *dec[d].sub ? "subdomains" : "workload",
				dec[d].gpus, dec[d].gpus > 1 ? "s" : "", overlap[v], o.backend, o.steps,
				diff);
			sim_check(ref.prod && o.prod && !memcmp(ref.prod, o.prod, np),
				"%s: %s %s on %d GPU%s, overlap %s: flood products bitwise equal", name,
				*dec[d].sub ? dec[d].sub : dec[d].workload, *dec[d].sub ? "subdomains" :
				"workload", dec[d].gpus, dec[d].gpus > 1 ? "s" : "", overlap[v]);
			swe_state_free(&o.s);
			free(o.prod);
		}
	}
	swe_state_free(&ref.s);
	free(ref.prod);
}
#endif

int main(void)
{
#ifndef HAVE_CUDA
	printf("t_cuda_multi: SKIP: spate was built without CUDA\n");
	return 77;
#else
	struct swe_params p;
	char buf[512];
	int ngpu = spate_backend_cuda.count();
	if (ngpu <= 0) {
		printf("t_cuda_multi: SKIP: no usable CUDA GPU\n");
		return 77;
	}
	for (int g = 0; g < ngpu; g++) {
		spate_backend_cuda.describe(g, buf, sizeof buf);
		printf("GPU %d: %s\n", g, buf);
	}
	if (ngpu < 2)
		printf("info: one GPU: the 2-GPU decompositions are not run\n");

	sim_params(&p, "circular_dambreak", 256, 190, 5, 5);
	sim_set(&p, "initial", "radius", "200");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "100");
	check_case("circular dam break", &p, ngpu);

	sim_params(&p, "bumps_dambreak", 200, 150, 5, 5);
	sim_set(&p, "initial", "radius", "150");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "physics", "manning", "0.03");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "80");
	check_case("bumps dam break, dry bed", &p, ngpu);

	sim_params(&p, "dambreak1d", 160, 96, 2, 3);
	sim_set(&p, "initial", "h_in", "2");
	sim_set(&p, "initial", "h_out", "0");
	sim_open_boundaries(&p);
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "60");
	check_case("dry dam break, open boundaries", &p, ngpu);

	sim_set(&p, "physics", "integrator", "euler");
	sim_set(&p, "physics", "cfl", "0.4");
	check_case("dry dam break, open boundaries, Euler", &p, ngpu);

	return sim_done("t_cuda_multi");
#endif
}
