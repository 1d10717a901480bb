/* t_products.c: the flood products are what they say.
 *
 * Drive a backend one step at a time (advance with max_steps = 1), download
 * the state after every step, and keep per cell the greatest depth, its
 * time, the first time deeper than the threshold and the time spent deeper;
 * the backend's products (products_get) must hold exactly these values.  The
 * same run through swe_run (chunks of many steps) must give the same
 * products bit for bit.  On the CPU backend, on two subdomains, and on CUDA
 * when a GPU is there. */
#include "simtest.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "setup.h"
#include "swe_multi.h"
#include "products_kern.h"

/* The products a step-by-step watch of the state gives. */
struct watch {
	float *max_depth, *t_max, *arrival, *duration;
};

static void watch_update(struct watch *wa, const struct swe_state *s, real thr, double t,
	double dt)
{
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			long k = swe_idx(s, i, j);
			size_t c = (size_t)j * s->nx + i;
			real h = s->w[k];
			if (h > wa->max_depth[c]) {
				wa->max_depth[c] = (float)h;
				wa->t_max[c] = (float)t;
			}
			if (h > thr) {
				if (wa->arrival[c] < 0)
					wa->arrival[c] = (float)t;
				wa->duration[c] += (float)dt;
			}
		}
}

/* Step p's run by single steps on its backend to the end time; compare. */
static void check(const char *name, const struct swe_params *p)
{
	const struct spate_backend *be = swe_backend_for(p);
	struct swe_backend_ctx *ctx = NULL;
	struct swe_state s;
	struct swe_stats st;
	struct swe_prod *pr = NULL, *pr2 = NULL;
	struct watch wa;
	struct swe_run_opts o;
	struct swe_result r;
	size_t n;
	long bad[4] = { 0, 0, 0, 0 }, wet = 0, dry = 0;
	real thr = (real)p->threshold;
	struct swe_params q = *p;   /* kappa resolved, as swe_run does */
	if (!be || swe_setup(&s, p) || (swe_params_resolve(&q, &s), 0) ||
		be->init(&ctx, &s, &q, 0) ||
		be->products_start(ctx, thr)) {
		fprintf(stderr, "test error: %s: cannot start the run\n", name);
		exit(99);
	}
	n = (size_t)s.nx * s.ny;
	wa.max_depth = calloc(n, sizeof(float));
	wa.t_max = calloc(n, sizeof(float));
	wa.arrival = malloc(n * sizeof(float));
	wa.duration = calloc(n, sizeof(float));
	pr = malloc(n * sizeof *pr);
	for (size_t c = 0; c < n; c++)
		wa.arrival[c] = -1;
	memset(&st, 0, sizeof st);
	watch_update(&wa, &s, thr, 0, 0);
	while (st.t < p->end_time) {
		if (be->advance(ctx, p->end_time, 1, &st) || be->download(ctx, &s)) {
			fprintf(stderr, "test error: %s: step failed\n", name);
			exit(99);
		}
		watch_update(&wa, &s, thr, st.t, st.last_dt);
	}
	if (be->products_get(ctx, pr))
		exit(99);
	for (size_t c = 0; c < n; c++) {
		bad[0] += pr[c].max_depth != wa.max_depth[c];
		bad[1] += pr[c].t_max_depth != wa.t_max[c];
		bad[2] += pr[c].arrival != wa.arrival[c];
		bad[3] += pr[c].wet_duration != wa.duration[c];
		wet += pr[c].arrival >= 0;
		dry += !(pr[c].max_depth > 0);
	}
	sim_check(!bad[0], "%s: max_depth = greatest depth over %ld steps (%ld cells differ)",
		name, st.steps, bad[0]);
	sim_check(!bad[1], "%s: time_of_max_depth = time of that step (%ld differ)", name, bad[1]);
	sim_check(!bad[2], "%s: arrival_time = first step deeper than %g m (%ld differ)", name,
		p->threshold, bad[2]);
	sim_check(!bad[3], "%s: duration_wet = sum of dt while deeper (%ld differ)", name, bad[3]);
	sim_check(wet > 0 && dry > 0 && isnan(swe_prod_value(&pr[0], 0)) ==
		!(pr[0].max_depth > 0), "%s: %ld cells flooded, %ld never wet (no value written)",
		name, wet, dry);
	/* the driver's chunks of many steps give the same products */
	memset(&o, 0, sizeof o);
	o.no_output = 1;
	o.final_products = &pr2;
	if (swe_run(p, &o, &r) || !pr2)
		exit(99);
	sim_check(r.steps == st.steps && memcmp(pr, pr2, n * sizeof *pr) == 0,
		"%s: swe_run (%ld steps in chunks) keeps the same products bit for bit", name,
		r.steps);
	be->fini(ctx);
	swe_state_free(&s);
	free(pr);
	free(pr2);
	free(wa.max_depth);
	free(wa.t_max);
	free(wa.arrival);
	free(wa.duration);
}

int main(void)
{
	struct swe_params p;
	spate_set_quiet(1);
	/* a dam break onto a dry bed over bumps: cells flood at different times,
	 * some never */
	sim_params(&p, "bumps_dambreak", 48, 40, 10, 10);
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "initial", "radius", "60");
	sim_set(&p, "run", "end_time", "12");
	sim_set(&p, "output", "threshold", "0.02");
	check("cpu", &p);
	sim_set(&p, "parallel", "subdomains", "2");
	check("cpu, 2 subdomains", &p);
#ifdef HAVE_CUDA
	sim_set(&p, "parallel", "subdomains", "1");
	sim_set(&p, "run", "device", "cuda");
	if (spate_backend_cuda.count() > 0)
		check("cuda", &p);
	else
		printf("info: no GPU: CUDA not checked\n");
#endif
	return sim_done("t_products");
}
