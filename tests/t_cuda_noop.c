/* t_cuda_noop.c: no-op steps on the GPU change no bit.  Skipped (exit 77)
 * when spate was built without CUDA or no GPU is usable.
 *
 * A GPU enqueues its steps in batches and reads the clock after each; a
 * step enqueued after t reached the stop time (an output time, the end) is
 * a no-op: its second stage (or Euler update) copies U^n into the other
 * copy of U, which the next step reads, and the steps after it, whose
 * copies both hold U^n already, copy nothing (copy_all, swe_cuda_dev.h).
 * SPATE_NOOP_STEPS=6 adds six steps to every batch near a stop time, so
 * that runs of no-op steps follow each of the twelve output times (also in
 * CUDA graphs, and with the tile map skipping tiles); the final w, hu, hv
 * and flood products must be those of the run without them, bitwise, with
 * the same number of real steps: one GPU, two subdomains of one GPU with
 * the time step on the devices (overlap none without graphs, streams with
 * them), with ghost cell expansion k = 2 (whose wide halos may come
 * between two no-op steps: there every no-op step copies), RK2 and Euler,
 * a fully wet dam break and a small flood in a dry domain. */
#include "simtest.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "params.h"
#include "products_kern.h"

#ifdef HAVE_CUDA
struct outcome {
	struct swe_state s;
	struct swe_prod *prod;
	long steps;
};

/* p on the GPU, with `sub` subdomains ("": one GPU) and `overlap`. */
static void run(const struct swe_params *p0, const char *sub, const char *overlap,
	const char *ghost, struct outcome *o)
{
	struct swe_params p = *p0;
	struct swe_run_opts opt;
	struct swe_result r;
	int rc;
	sim_set(&p, "run", "device", "cuda");
	if (*sub) {
		sim_set(&p, "parallel", "subdomains", "%s", sub);
		sim_set(&p, "parallel", "gpus", "1");
		sim_set(&p, "parallel", "overlap", "%s", overlap);
		sim_set(&p, "parallel", "ghost_expansion", "%s", ghost);
	}
	if (swe_params_validate(&p))
		exit(99);
	memset(&opt, 0, sizeof opt);
	opt.no_output = 1;
	opt.final_state = &o->s;
	opt.final_products = &o->prod;
	o->prod = NULL;
	spate_set_quiet(1);
	rc = swe_run(&p, &opt, &r);
	if (rc || strcmp(r.backend, "cuda")) {
		fprintf(stderr, "test error: run failed: %s (backend %s)\n", spate_strerror(rc),
			r.backend);
		exit(99);
	}
	o->steps = r.steps;
}

/* The interior rows of w, hu, hv (ghost columns too) and the products of
 * a and b bitwise equal. */
static int same(const struct outcome *a, const struct outcome *b, const struct swe_params *p)
{
	size_t off = (size_t)SWE_GHOST * a->s.pitch, n = (size_t)a->s.ny * a->s.pitch;
	const real *fa[3] = { a->s.w, a->s.hu, a->s.hv }, *fb[3] = { b->s.w, b->s.hu, b->s.hv };
	int ok = a->steps == b->steps && a->s.pitch == b->s.pitch && a->prod && b->prod;
	for (int f = 0; f < 3 && ok; f++)
		ok = !memcmp(fa[f] + off, fb[f] + off, n * sizeof(real));
	return ok && !memcmp(a->prod, b->prod, (size_t)p->nx * p->ny * sizeof *a->prod);
}

static void free_outcome(struct outcome *o)
{
	swe_state_free(&o->s);
	free(o->prod);
}

static void check(const char *name, const struct swe_params *p)
{
	static const struct { const char *sub, *overlap, *graphs, *ghost; } v[] = {
		{ "", "", "1", "1" },
		{ "2", "none", "0", "1" },
		{ "2", "streams", "1", "1" },
		{ "2", "streams", "1", "2" },
	};
	struct outcome ref, o;
	run(p, "", "", "1", &ref);
	printf("%s: one GPU, %ld steps\n", name, ref.steps);
	for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
		setenv("SPATE_NOOP_STEPS", "6", 1);
		setenv("SPATE_CUDA_GRAPHS", v[k].graphs, 1);
		run(p, v[k].sub, v[k].overlap, v[k].ghost, &o);
		unsetenv("SPATE_NOOP_STEPS");
		unsetenv("SPATE_CUDA_GRAPHS");
		sim_check(same(&ref, &o, p), "%s: %s%s%s, graphs %s, ghost expansion %s, six "
			"no-op steps after every stop time: %ld steps, w hu hv and products bitwise "
			"equal to one GPU without them", name, *v[k].sub ? v[k].sub : "one GPU",
			*v[k].sub ? " subdomains, overlap " : "", v[k].overlap, v[k].graphs,
			v[k].ghost, o.steps);
		free_outcome(&o);
	}
	free_outcome(&ref);
}
#endif /* HAVE_CUDA */

int main(void)
{
#ifndef HAVE_CUDA
	printf("t_cuda_noop: SKIP: spate was built without CUDA\n");
	return 77;
#else
	struct swe_params p;
	if (spate_backend_cuda.count() <= 0) {
		printf("t_cuda_noop: SKIP: no usable CUDA GPU\n");
		return 77;
	}
	sim_params(&p, "circular_dambreak", 256, 190, 5, 5);
	sim_set(&p, "initial", "radius", "200");
	sim_set(&p, "output", "products", "yes");
	sim_set(&p, "output", "interval", "1");
	sim_set(&p, "run", "end_time", "12");
	check("circular dam break", &p);
	sim_set(&p, "physics", "integrator", "euler");
	sim_set(&p, "physics", "cfl", "0.4");
	check("circular dam break, Euler", &p);

	/* a small flood in a large dry domain: the tile map skips tiles */
	sim_params(&p, "bumps_dambreak", 300, 260, 10, 10);
	sim_set(&p, "initial", "h_in", "2");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "initial", "radius", "150");
	sim_set(&p, "output", "products", "yes");
	sim_set(&p, "output", "interval", "2");
	sim_set(&p, "run", "end_time", "24");
	check("small flood, dry domain (tile map)", &p);
	return sim_done("t_cuda_noop");
#endif
}
