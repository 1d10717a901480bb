/* t_cuda.c: the CUDA backend against the CPU backend.  Skipped (exit 77)
 * when spate was built without CUDA or no GPU is usable.
 *
 *   - circular dam break, 256 x 256 cells, 100 RK2 steps on each backend:
 *     same number of steps; time reached, depth h (the state's w), hu and hv agree
 *     to max |a - b| / max |a| < 1e-5 (each field relative to its own
 *     largest magnitude on the CPU) and to 1e-5 in the relative L1 norm;
 *   - the same on a grid that is no multiple of the GPU tiles (250 x 190
 *     cells of 2.5 m, the dam reaching the walls), so that the partial
 *     tiles and the ghost cells carry waves;
 *   - the dam break over the bumps with a dry bed (wet/dry fronts), where
 *     the limits are 2e-4 (max) and 5e-5 (L1): at a front, depths of a few
 *     mm turn round-off into larger differences of momentum.  Measured: the
 *     CPU backend built with -mfma -ffp-contract=fast differs from the plain
 *     CPU build by 3.1e-5 (max) and 5.8e-6 (L1) in hu, as much as the GPU
 *     does; on the fully wet cases both differ by ~1e-6;
 *   - lake at rest on the GPU, with islands and fully wet, as in t_lake;
 *   - each comparison's GPU run again with [parallel] early_exit = off: the
 *     same bits (the dry bed skips rows dry across a warp);
 *   - the tile map: a small flood in a large dry domain, products on, early
 *     exit on (dry tiles skipped) and off: the same bits, tiles skipped;
 *     16-row tiles split between 4 warps each, and never split, and the
 *     list in fixed shares instead of the work queue: the same
 *     bits;
 *   - the per-cell stage kernels (swe_cuda_tile.cu) against the walks
 *     (SPATE_CUDA_CELLS=0 for every other case): always (=1) and chosen
 *     by the list's length batch by batch (=2, the default): the same bits
 *     on every comparison's GPU run, the tile map's flood (4-, 8- and
 *     16-row tiles), the long list (its tiles from the queue, and at
 *     fixed strides) and the rain and Manning rasters;
 *   - every tile in the list (all wet): stacks of 2, 3 and 4 tiles a walk
 *     (SPATE_CUDA_STACK), also on a grid of partial tiles: the bits of a
 *     tile a walk, and stacks were walked; the flood products started
 *     after steps that walked stacks: the bits of a tile a walk;
 *   - the GPU's reciprocals (swe_recip, kp07_inv_depth) against the
 *     CPU's division over their range, its swe_sqrt0 and swe_div0 against
 *     the CPU's sqrt (from SWE_SQRT_MIN on; the CPU's swe_sqrt0 below) and
 *     division, to the bit;
 *   - the dry-bed dam break under rain (the sources pass after each step;
 *     early exit on and off: the same bits, every tile computed);
 *   - the tile map with rain rasters on patches of a dry DEM that change in
 *     time, with and without a Manning raster, and the raster alone: early
 *     exit on and off give the same state and products, tiles skipped. */
#include "simtest.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "setup.h"
#include "products_kern.h"

#ifdef HAVE_CUDA
/* SPATE_CUDA_CELLS=1 and 2 in the messages (main sets 0: the walks). */
#define CELLS_WHAT(f) \
	((f) == 1 ? "a thread a cell" : "per cell or walks by the list's length")

/* Rain of the next comparison, mm/h (0: none). */
static double rain_mm_h;

static void compare(const char *name, const char *setup, int nx, int ny, double dx,
	double radius, double h_out, double max_tol, double l1_tol)
{
	struct swe_params p;
	struct swe_state a, b;
	struct swe_result ra, rb;
	double hmax = 0, umax = 0, vmax = 0, dh = 0, du = 0, dv = 0;
	double hsum = 0, usum = 0, vsum = 0, eh = 0, eu = 0, ev = 0;

	sim_params(&p, setup, nx, ny, dx, dx);
	sim_set(&p, "initial", "h_in", "1");
	sim_set(&p, "initial", "h_out", "%g", h_out);
	sim_set(&p, "initial", "radius", "%g", radius);
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "100");
	if (rain_mm_h > 0)
		sim_set(&p, "physics", "rain", "%g", rain_mm_h);
	sim_run(&p, &a, &ra);
	sim_set(&p, "run", "device", "cuda");
	sim_run(&p, &b, &rb);
	if (strcmp(rb.backend, "cuda") != 0) {
		fprintf(stderr, "test error: the second run used backend %s\n", rb.backend);
		exit(99);
	}
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			long k = swe_idx(&a, i, j);
			double ha = sim_h(&a, i, j), hb = sim_h(&b, i, j);
			hmax = fmax(hmax, fabs(ha));
			umax = fmax(umax, fabs((double)a.hu[k]));
			vmax = fmax(vmax, fabs((double)a.hv[k]));
			/* (swe_run has already failed on a NaN) */
			dh = fmax(dh, fabs(ha - hb));
			du = fmax(du, fabs((double)a.hu[k] - (double)b.hu[k]));
			dv = fmax(dv, fabs((double)a.hv[k] - (double)b.hv[k]));
			hsum += fabs(ha);
			usum += fabs((double)a.hu[k]);
			vsum += fabs((double)a.hv[k]);
			eh += fabs(ha - hb);
			eu += fabs((double)a.hu[k] - (double)b.hu[k]);
			ev += fabs((double)a.hv[k] - (double)b.hv[k]);
		}
	printf("%s: %d x %d, cpu %ld steps to t = %.6f s, cuda %ld steps to t = %.6f s\n", name,
		nx, ny, ra.steps, ra.sim_time, rb.steps, rb.sim_time);
	sim_check(ra.steps == 100 && rb.steps == 100, "%s: steps cpu %ld, cuda %ld (100)", name,
		ra.steps, rb.steps);
	sim_check(fabs(ra.sim_time - rb.sim_time) <= max_tol * ra.sim_time, "%s: time reached "
		"differs by %.2e s, %.2e relative (<= %.0e)", name, fabs(ra.sim_time - rb.sim_time),
		fabs(ra.sim_time - rb.sim_time) / ra.sim_time, max_tol);
	sim_check(dh <= max_tol * hmax && eh <= l1_tol * hsum, "%s: h: max |cpu - cuda| / max = "
		"%.2e (<= %.0e), L1 %.2e (<= %.0e)", name, dh / hmax, max_tol, eh / hsum, l1_tol);
	sim_check(du <= max_tol * umax && eu <= l1_tol * usum, "%s: hu: max |cpu - cuda| / max = "
		"%.2e (<= %.0e), L1 %.2e (<= %.0e)", name, du / umax, max_tol, eu / usum, l1_tol);
	sim_check(dv <= max_tol * vmax && ev <= l1_tol * vsum, "%s: hv: max |cpu - cuda| / max = "
		"%.2e (<= %.0e), L1 %.2e (<= %.0e)", name, dv / vmax, max_tol, ev / vsum, l1_tol);
	if (rain_mm_h == 0)
		sim_check(fabs(rb.volume_final - rb.volume_initial) < 1e-6 * rb.volume_initial,
			"%s: cuda volume relative change %.2e (< 1e-6)", name,
			(rb.volume_final - rb.volume_initial) / rb.volume_initial);
	{
		/* [parallel] early_exit off on the GPU: the same bits */
		struct swe_state d;
		size_t n = (size_t)(b.ny + 2 * SWE_GHOST) * b.pitch * sizeof(real);
		sim_set(&p, "parallel", "early_exit", "off");
		sim_run(&p, &d, NULL);
		sim_check(memcmp(b.w, d.w, n) == 0 && memcmp(b.hu, d.hu, n) == 0 &&
			memcmp(b.hv, d.hv, n) == 0, "%s: cuda early exit on vs off: w, hu, hv "
			"bitwise identical", name);
		swe_state_free(&d);
		/* the per-cell stage kernels (swe_cuda_tile.cu), both forms: the
		 * same bits */
		sim_set(&p, "parallel", "early_exit", "on");
		for (int f = 1; f <= 2; f++) {
			setenv("SPATE_CUDA_CELLS", f == 1 ? "1" : "2", 1);
			sim_run(&p, &d, NULL);
			setenv("SPATE_CUDA_CELLS", "0", 1);
			sim_check(memcmp(b.w, d.w, n) == 0 && memcmp(b.hu, d.hu, n) == 0 &&
				memcmp(b.hv, d.hv, n) == 0, "%s: cuda %s vs the walks: w, hu, hv "
				"bitwise identical", name, CELLS_WHAT(f));
			swe_state_free(&d);
		}
	}
	swe_state_free(&a);
	swe_state_free(&b);
}

/* The dam break over the bumps on the GPU: nx x ny cells of 10 m, 2 m of
 * water within `radius` m of the centre, h_out m elsewhere. */
static void bumps_gpu(struct swe_params *p, int nx, int ny, double h_out, double radius)
{
	sim_params(p, "bumps_dambreak", nx, ny, 10, 10);
	sim_set(p, "initial", "h_in", "2");
	sim_set(p, "initial", "h_out", "%g", h_out);
	sim_set(p, "initial", "radius", "%g", radius);
	sim_set(p, "run", "device", "cuda");
}

/* Run p's set-up on the GPU for `steps` steps with the flood products on;
 * *s: the final state, *pr: the products (free both). */
static void gpu_products_run(const struct swe_params *p, long steps, struct swe_state *s,
	struct swe_prod **pr)
{
	struct swe_backend_ctx *ctx = NULL;
	struct swe_stats st;
	memset(&st, 0, sizeof st);
	*pr = (struct swe_prod *)calloc((size_t)p->nx * p->ny, sizeof **pr);
	if (!*pr || swe_setup(s, p) || spate_backend_cuda.init(&ctx, s, p, 0) ||
		spate_backend_cuda.products_start(ctx, (real)0.05) ||
		spate_backend_cuda.advance(ctx, 1e9, steps, &st) ||
		spate_backend_cuda.download(ctx, s) || spate_backend_cuda.products_get(ctx, *pr)) {
		fprintf(stderr, "test error: GPU run with products failed\n");
		exit(99);
	}
	spate_backend_cuda.fini(ctx);
}

/* A run of steps steps with products and the environment's name set to
 * val (then as it was): the state and products of (a, pa), to the bit
 * ("tile map: what"). */
static void same_bits_with(const struct swe_params *p, long steps, const struct swe_state *a,
	const struct swe_prod *pa, const char *name, const char *val, const char *what)
{
	struct swe_state b;
	struct swe_prod *pb;
	size_t n = (size_t)(a->ny + 2 * SWE_GHOST) * a->pitch * sizeof(real);
	const char *was = getenv(name);
	char keep[64] = "";
	if (was)
		snprintf(keep, sizeof keep, "%s", was);
	setenv(name, val, 1);
	gpu_products_run(p, steps, &b, &pb);
	if (was)
		setenv(name, keep, 1);
	else
		unsetenv(name);
	sim_check(memcmp(a->w, b.w, n) == 0 && memcmp(a->hu, b.hu, n) == 0 &&
		memcmp(a->hv, b.hv, n) == 0 && memcmp(pa, pb, (size_t)p->nx * p->ny *
		sizeof *pa) == 0, "%s: state and products bitwise identical", what);
	swe_state_free(&b);
	free(pb);
}

/* The tile map: a small flood in a large dry domain (bumps, dry bed), 600
 * steps with the products on.  Early exit on (dry tiles skipped, only active
 * tiles launched) and off give the same bits in the state and in every
 * product, and tiles were skipped. */
static void tiles(void)
{
	struct swe_params p;
	struct swe_state a, b;
	struct swe_prod *pa, *pb;
	long skipped0 = swe_cuda_tiles_skipped, skipped;
	size_t n;

	bumps_gpu(&p, 300, 260, 0, 150);
	gpu_products_run(&p, 600, &a, &pa);
	skipped = swe_cuda_tiles_skipped - skipped0;
	sim_set(&p, "parallel", "early_exit", "off");
	gpu_products_run(&p, 600, &b, &pb);
	n = (size_t)(a.ny + 2 * SWE_GHOST) * a.pitch * sizeof(real);
	printf("tile map: %ld tiles skipped (sampled per batch)\n", skipped);
	sim_check(skipped > 0, "tile map: dry tiles were skipped (%ld)", skipped);
	sim_check(memcmp(a.w, b.w, n) == 0 && memcmp(a.hu, b.hu, n) == 0 &&
		memcmp(a.hv, b.hv, n) == 0, "tile map: state with early exit on vs off bitwise "
		"identical");
	sim_check(memcmp(pa, pb, (size_t)p.nx * p.ny * sizeof *pa) == 0,
		"tile map: flood products with early exit on vs off bitwise identical");
	swe_state_free(&b);
	free(pb);
	/* tiles of 16 rows (this grid gets 4-row tiles), every list split into
	 * parts of 4 rows (a budget of 64 waves), then never split: the bits of
	 * the first run */
	sim_set(&p, "parallel", "early_exit", "on");
	setenv("SPATE_CUDA_ROWS", "16", 1);
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_SPLIT", "64",
		"tile map: 16-row tiles split into 4 parts");
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_SPLIT", "0",
		"tile map: 16-row tiles never split");
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_CELLS", "1",
		"tile map: 16-row tiles, a thread a cell");
	setenv("SPATE_CUDA_ROWS", "8", 1);
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_CELLS", "1",
		"tile map: 8-row tiles, a thread a cell");
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_CELLS", "2",
		"tile map: 8-row tiles, per cell or walks by the list's length");
	unsetenv("SPATE_CUDA_ROWS");
	/* the per-cell stage kernels (swe_cuda_tile.cu): the same bits */
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_CELLS", "1", "tile map: a thread a cell");
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_CELLS", "2",
		"tile map: per cell or walks by the list's length");
	/* fixed shares of the list instead of the work queue: the same bits */
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_QUEUE", "0",
		"tile map: without the work queue");
	/* whole tiles only: this grid's lists (at most 715 tiles) are shorter
	 * than a GPU's resident warps, so the first run walked the first
	 * tiles of each list in halves (halves_of); the same bits */
	same_bits_with(&p, 600, &a, pa, "SPATE_CUDA_FILL", "0",
		"tile map: without halves for idle warps");
	swe_state_free(&a);
	free(pa);
}
/* The tile map with rain and a Manning raster: rain rasters on patches of
 * a dry DEM that change in time (sim_patch_dem), through the run driver
 * (the rain set at its times), products on.  Early exit on and off: the
 * same bits in the state and the products, and tiles skipped. */
static void tiles_rain(int rain, int manning, const char *name)
{
	char dir[] = "/tmp/t_cuda.XXXXXX";
	struct swe_params p;
	struct swe_state s[4];
	struct swe_prod *pr[4];
	long skipped = 0;
	size_t n;
	sim_patch_dem(&p, dir, rain, manning);
	sim_set(&p, "run", "max_steps", "300");
	sim_set(&p, "run", "device", "cuda");
	/* early exit on, off, and on with the per-cell stage kernels (always,
	 * and by the list's length) */
	for (int off = 0; off < 4; off++) {
		struct swe_run_opts o;
		struct swe_result r;
		long before = swe_cuda_tiles_skipped;
		sim_set(&p, "parallel", "early_exit", off == 1 ? "off" : "on");
		if (off >= 2)
			setenv("SPATE_CUDA_CELLS", off == 2 ? "1" : "2", 1);
		if (swe_params_validate(&p))
			exit(99);
		memset(&o, 0, sizeof o);
		o.no_output = 1;
		o.final_state = &s[off];
		o.final_products = &pr[off];
		pr[off] = NULL;
		spate_set_quiet(1);
		if (swe_run(&p, &o, &r) || strcmp(r.backend, "cuda") != 0 || !pr[off]) {
			fprintf(stderr, "test error: %s: GPU run failed\n", name);
			exit(99);
		}
		setenv("SPATE_CUDA_CELLS", "0", 1);
		if (!off)
			skipped = swe_cuda_tiles_skipped - before;
	}
	n = (size_t)(s[0].ny + 2 * SWE_GHOST) * s[0].pitch * sizeof(real);
	printf("%s: %ld tiles skipped (sampled per batch), volume %.9g m^3\n", name, skipped,
		swe_volume(&s[0]));
	sim_check(skipped > 0, "%s: dry tiles without rain were skipped (%ld)", name, skipped);
	sim_check(memcmp(s[0].w, s[1].w, n) == 0 && memcmp(s[0].hu, s[1].hu, n) == 0 &&
		memcmp(s[0].hv, s[1].hv, n) == 0, "%s: state with early exit on vs off bitwise "
		"identical", name);
	sim_check(memcmp(pr[0], pr[1], (size_t)p.nx * p.ny * sizeof *pr[0]) == 0,
		"%s: flood products with early exit on vs off bitwise identical", name);
	for (int f = 2; f < 4; f++)
		sim_check(memcmp(s[0].w, s[f].w, n) == 0 && memcmp(s[0].hu, s[f].hu, n) == 0 &&
			memcmp(s[0].hv, s[f].hv, n) == 0 && memcmp(pr[0], pr[f], (size_t)p.nx *
			p.ny * sizeof *pr[0]) == 0, "%s: state and products, %s vs the walks, "
			"bitwise identical", name, CELLS_WHAT(f - 1));
	for (int k = 0; k < 4; k++) {
		swe_state_free(&s[k]);
		free(pr[k]);
	}
	sim_patch_clean(dir);
}

/* same_bits_with SPATE_CUDA_STACK=val, and stacks were walked. */
static void stacks_same(const struct swe_params *p, long steps, const struct swe_state *a,
	const struct swe_prod *pa, const char *val, const char *what)
{
	long s0 = swe_cuda_stacked;
	same_bits_with(p, steps, a, pa, "SPATE_CUDA_STACK", val, what);
	sim_check(swe_cuda_stacked > s0, "%s: the lists were full, stacks walked (%ld batches)",
		what, swe_cuda_stacked - s0);
}

/* A list longer than the GPU's resident warps (a wet 1024^2 grid: 9472
 * tiles of 4 rows, against 2112 warps on an H200): its last tiles are
 * walked in halves (halves_of, SPATE_CUDA_TAIL percent of the warps).
 * None, and as many as there are warps: the same bits.  Stacks of 4 tiles
 * while the list holds every tile (its first batches, before the tiles on
 * the dry tops of the bumps leave it): the same bits, and the flags the
 * stacks leave make the lists after them. */
static void long_list(void)
{
	struct swe_params p;
	struct swe_state a;
	struct swe_prod *pa;
	bumps_gpu(&p, 1024, 1024, 0.5, 2000);
	setenv("SPATE_CUDA_TAIL", "0", 1);
	gpu_products_run(&p, 100, &a, &pa);
	unsetenv("SPATE_CUDA_TAIL");
	same_bits_with(&p, 100, &a, pa, "SPATE_CUDA_TAIL", "100", "long list: halves at its end");
	stacks_same(&p, 100, &a, pa, "4", "long list: 4 tiles a walk while the list is full");
	same_bits_with(&p, 100, &a, pa, "SPATE_CUDA_CELLS", "1", "long list: a thread a cell");
	same_bits_with(&p, 100, &a, pa, "SPATE_CUDA_CELLS", "2",
		"long list: per cell or walks by the list's length");
	/* the per-cell blocks take the tiles past the first wave from a queue,
	 * or at fixed strides: every tile once either way */
	setenv("SPATE_CUDA_CELLS", "1", 1);
	same_bits_with(&p, 100, &a, pa, "SPATE_CUDA_QUEUE", "0",
		"long list: a thread a cell, tiles at fixed strides");
	setenv("SPATE_CUDA_CELLS", "0", 1);
	swe_state_free(&a);
	free(pa);
}

/* Every tile in the list (the bumps under 1.5 m of water, a dam break on
 * top): stacks of 2, 3 and 4 tiles a walk (SPATE_CUDA_STACK; 3 leaves a
 * partial stack at the north edge), on 1024^2 cells and on a grid of
 * partial tiles of 16 rows (the last tile row 12 rows high, the last
 * column 18 cells wide): the bits of a tile a walk. */
static void stacks(int nx, int ny, const char *rows, const char *const *vals, int nv)
{
	struct swe_params p;
	struct swe_state a;
	struct swe_prod *pa;
	char what[96];
	bumps_gpu(&p, nx, ny, 1.5, 2000);
	if (rows)
		setenv("SPATE_CUDA_ROWS", rows, 1);
	setenv("SPATE_CUDA_STACK", "1", 1);
	gpu_products_run(&p, 100, &a, &pa);
	for (int k = 0; k < nv; k++) {
		snprintf(what, sizeof what, "all wet, %d x %d: %s tiles a walk", nx, ny, vals[k]);
		stacks_same(&p, 100, &a, pa, vals[k], what);
	}
	unsetenv("SPATE_CUDA_STACK");
	unsetenv("SPATE_CUDA_ROWS");
	swe_state_free(&a);
	free(pa);
}

/* p's set-up on the GPU: 49 steps (a step, then 48 in graphs of 8, which
 * leave the parity as it was after the first: the next steps launch the
 * same graphs), then the flood products on and 48 more steps; *s: the
 * final state, *pr: the products (free both). */
static void gpu_late_products_run(const struct swe_params *p, struct swe_state *s,
	struct swe_prod **pr)
{
	struct swe_backend_ctx *ctx = NULL;
	struct swe_stats st;
	memset(&st, 0, sizeof st);
	*pr = (struct swe_prod *)calloc((size_t)p->nx * p->ny, sizeof **pr);
	if (!*pr || swe_setup(s, p) || spate_backend_cuda.init(&ctx, s, p, 0) ||
		spate_backend_cuda.advance(ctx, 1e9, 49, &st) ||
		spate_backend_cuda.products_start(ctx, (real)0.05) ||
		spate_backend_cuda.advance(ctx, 1e9, 48, &st) ||
		spate_backend_cuda.download(ctx, s) || spate_backend_cuda.products_get(ctx, *pr)) {
		fprintf(stderr, "test error: GPU run with late products failed\n");
		exit(99);
	}
	spate_backend_cuda.fini(ctx);
}

/* The products started after steps that walked stacks of 4 tiles: the
 * same state and products as with a tile a walk, and stacks walked.  (The
 * graphs of stacks, captured before the products were on, used to be kept
 * when the products, the gauges or the rain changed, and launched without
 * the products pass.) */
static void late_products(void)
{
	struct swe_params p;
	struct swe_state a, b;
	struct swe_prod *pa, *pb;
	size_t n;
	long s0;
	bumps_gpu(&p, 1024, 1024, 1.5, 2000);
	setenv("SPATE_CUDA_STACK", "1", 1);
	gpu_late_products_run(&p, &a, &pa);
	setenv("SPATE_CUDA_STACK", "4", 1);
	s0 = swe_cuda_stacked;
	gpu_late_products_run(&p, &b, &pb);
	unsetenv("SPATE_CUDA_STACK");
	n = (size_t)(a.ny + 2 * SWE_GHOST) * a.pitch * sizeof(real);
	sim_check(swe_cuda_stacked > s0, "products started late: stacks walked (%ld batches)",
		swe_cuda_stacked - s0);
	sim_check(memcmp(a.w, b.w, n) == 0 && memcmp(a.hu, b.hu, n) == 0 &&
		memcmp(a.hv, b.hv, n) == 0 && memcmp(pa, pb, (size_t)p.nx * p.ny *
		sizeof *pa) == 0, "products started late, after stacks: state and products "
		"bitwise identical to a tile a walk");
	swe_state_free(&a);
	swe_state_free(&b);
	free(pa);
	free(pb);
}

#endif

/* The GPU's reciprocals (swe_recip, kp07_inv_depth) against the CPU's
 * division, and its zero-safe square root and quotient (swe_sqrt0,
 * swe_div0) against the CPU's sqrt and division, to the bit: every
 * exponent of swe_recip's range, mantissas from a fixed sequence, the ends
 * of the range; kp07_inv_depth also at kappa, at 0, -0, beyond
 * SWE_RECIP_MAX, at infinity and NaN (swe_recip there against the CPU's,
 * bounded), and a subnormal and a negative number for the others. */
static void recip_same(void)
{
	enum { PER = 64 };
	static real x[220 * PER + 24];
	static real r[SWE_RECIP_HOOK * (220 * PER + 24)];
	const real k4 = (real)1e-8;
	unsigned int s = 12345u;
	int n = 0, nr, bad = 0, badr = 0, bad0 = 0, rc;
	for (int e = -120; e < 100; e++) /* [2^-120, 2^100) */
		for (int m = 0; m < PER; m++) {
			s = s * 1664525u + 1013904223u;
			x[n++] = (real)ldexp(1 + (s >> 8) / 16777216.0, e);
		}
	x[n++] = (real)ldexp(1, -120);
	x[n++] = SWE_RECIP_MAX;
	x[n++] = (real)0.99999994 * SWE_RECIP_MAX;
	nr = n; /* swe_recip's range ends here */
	x[n++] = (real)0.01;
	x[n++] = (real)0.0099999998;
	x[n++] = (real)0.010000001;
	x[n++] = 0;
	x[n++] = -(real)0;
	x[n++] = (real)1e-30;
	x[n++] = 2 * SWE_RECIP_MAX;
	x[n++] = (real)INFINITY;
	x[n++] = (real)NAN;
	x[n++] = -1;
	x[n++] = (real)ldexp(1, -140); /* subnormal in single precision */
	x[n++] = (real)-2.5;
	/* swe_sqrt0's bound and the top of its fast path's range */
	x[n++] = SWE_SQRT_MIN;
	x[n++] = (real)0.99999994 * SWE_SQRT_MIN;
	x[n++] = (real)1.0000001 * SWE_SQRT_MIN;
	x[n++] = (real)3e38;
	x[n++] = (real)3.4028234e38;
	rc = swe_cuda_recip_values(x, r, n, k4);
	sim_check(rc == 0, "reciprocals on the GPU: the hook ran (%d)", rc);
	if (rc)
		return;
	for (int i = 0; i < n; i++) {
		real a = x[i] / (real)0.7, b = r[3 * n + i];
		if (memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b)) && bad0++ < 3)
			fprintf(stderr, "swe_div0(%.9g, 0.7): CPU %.9g, GPU %.9g\n", (double)x[i],
				(double)a, (double)b);
		/* the CPU's swe_sqrt0; from its bound on, the root itself */
		a = x[i] >= SWE_SQRT_MIN && !isinf(x[i]) ? R_SQRT(x[i]) : swe_sqrt0(x[i]);
		b = r[2 * n + i];
		if (x[i] >= 0 && memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b)) &&
			bad0++ < 3)
			fprintf(stderr, "swe_sqrt0(%.9g): CPU %.9g, GPU %.9g\n", (double)x[i],
				(double)a, (double)b);
		/* the flux's speed ratio: am / span (in single precision am /
		 * min(span, SWE_SPAN_MAX)) where its fast path holds (that in
		 * [2^-100, 2^26], am at least 2^-100 and at most that in magnitude) */
		for (int v = 0; v < 2; v++) {
			real am = v ? -(real)0.7 : -x[i], sp = v ? x[i] : (real)1.75 * x[i];
			real s = sp;
#ifndef SPATE_DOUBLE
			s = sp > SWE_SPAN_MAX ? SWE_SPAN_MAX : sp;
#endif
			if (!(s >= (real)ldexp(1, -100) && s <= SWE_SPAN_MAX &&
				-am >= (real)ldexp(1, -100) && -am <= s))
				continue;
			a = am / s;
			b = r[(4 + v) * n + i];
			if (memcmp(&a, &b, sizeof a) != 0 && bad0++ < 3)
				fprintf(stderr, "kp07_speed_ratio(%.9g, %.9g): CPU %.9g, GPU %.9g\n",
					(double)am, (double)sp, (double)a, (double)b);
		}
		a = kp07_inv_depth(x[i], k4);
		b = r[i];
		if (memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b))) {
			if (bad++ < 3)
				fprintf(stderr, "kp07_inv_depth(%.9g): CPU %.9g, GPU %.9g\n",
					(double)x[i], (double)a, (double)b);
		}
		if (!(x[i] >= (real)ldexp(1, -120)) && !isnan(x[i]))
			continue; /* outside swe_recip's domain */
		/* in its range 1 / x; beyond it the CPU's swe_recip (bounded) */
		a = i < nr ? 1 / x[i] : swe_recip(x[i]);
		b = r[n + i];
		if (memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b)) && badr++ < 3)
			fprintf(stderr, "swe_recip(%.9g): CPU %.9g, GPU %.9g\n", (double)x[i],
				(double)a, (double)b);
	}
	sim_check(badr == 0, "swe_recip on the GPU: 1 / x to the bit over its range, the CPU's "
		"beyond it (%d values differ)", badr);
	sim_check(bad == 0, "kp07_inv_depth: GPU and CPU to the bit (%d of %d values differ)",
		bad, n);
	sim_check(bad0 == 0, "swe_sqrt0, swe_div0 and kp07_speed_ratio on the GPU: the square root "
		"and the quotients to the bit, zeros and their signs too (%d values differ)", bad0);
}

int main(void)
{
#ifndef HAVE_CUDA
	printf("t_cuda: SKIP: spate was built without CUDA\n");
	return 77;
#else
	char buf[512];
	if (spate_backend_cuda.count() <= 0) {
		printf("t_cuda: SKIP: no usable CUDA GPU\n");
		return 77;
	}
	spate_backend_cuda.describe(0, buf, sizeof buf);
	printf("GPU 0: %s\n", buf);
	/* the walks, unless a case asks for the per-cell stage kernels */
	setenv("SPATE_CUDA_CELLS", "0", 1);
	recip_same();
	compare("circular dam break", "circular_dambreak", 256, 256, 10, 200, 0.1, 1e-5, 1e-5);
	compare("circular dam break, odd grid", "circular_dambreak", 250, 190, 2.5, 280, 0.1,
		1e-5, 1e-5);
	compare("bumps dam break, dry bed", "bumps_dambreak", 256, 256, 10, 200, 0, 2e-4, 5e-5);
	tiles();
	long_list();
	{
		static const char *const g[] = { "2", "3", "4" }, *const g3[] = { "3" };
		stacks(1024, 1024, NULL, g, 3);
		stacks(998, 1020, "16", g3, 1);
	}
	late_products();
	/* rain (sources after each step, on dry ground too): CPU and GPU agree */
	rain_mm_h = 3600;
	compare("bumps dam break, dry bed, rain 3600 mm/h", "bumps_dambreak", 128, 128, 10, 200, 0,
		2e-4, 5e-5);
	rain_mm_h = 0;
	tiles_rain(1, 1, "tile map, rain patches and Manning raster");
	tiles_rain(1, 0, "tile map, rain patches");
	tiles_rain(0, 1, "tile map, Manning raster");
	sim_lake("cuda lake with islands", 0.5, "cuda");
	sim_lake("cuda fully wet lake", 1.5, "cuda");
	return sim_done("t_cuda");
#endif
}
