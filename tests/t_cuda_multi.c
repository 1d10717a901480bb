/* t_cuda_multi.c: 1 GPU vs N GPU subdomains.  Skipped (exit 77) when spate
 * was built without CUDA or no GPU is usable.
 *
 * The decomposed GPU run (cuda/swe_cuda_sub.cu driven by swe_multi.c) must
 * give the bits of the single-GPU run (cuda/swe_cuda.cu): the same kernels
 * on the same values, the time step reduced over the subdomains.
 * Final w, hu, hv (interior rows, ghost columns included) and the flood
 * products are compared with memcmp; the largest difference is printed too.
 * Cases: circular dam break (wet), dam break over bumps onto a dry bed
 * (wet/dry fronts, Manning friction), a dry-bed dam break with inflow,
 * outflow and fixed-level boundaries on every side (RK2 and Euler).
 * Decompositions: 2 and 3 subdomains and an uneven 70,30 workload on one
 * GPU ([parallel] gpus = 1), and with two GPUs or more the same spread over
 * 2 GPUs in one process; each for [parallel] overlap = none, compute and
 * streams with the time step on the devices (the default in one process),
 * and streams with it reduced on the host (SPATE_HOST_DT=1, as across MPI
 * ranks).  The wet dam break again in stacks of 3 tiles (SPATE_CUDA_STACK),
 * with and without the tile map: every decomposed run must have walked its
 * interior in stacks (swe_cuda_enqueue_stacks).
 *
 * The tile map inside the subdomains: a small flood in a large dry domain,
 * where every decomposed run must have skipped tiles (and still give the
 * single-GPU bits).  Dynamic load balancing: balance = rows and bbox with
 * balance_gain = 0 and a short interval (rows move nearly every interval),
 * on 2 subdomains of one GPU and 3 on two GPUs, overlap none and streams
 * (rows copied between devices, in place where the arrays have room) and
 * none with rows through host messages into new arrays (SPATE_MOVE_HOST=1,
 * SPATE_CUDA_ROOM=0), and streams with 16-row tiles split between warps
 * (SPATE_CUDA_ROWS=16, SPATE_CUDA_SPLIT=64): the final state and products
 * bitwise equal to one GPU, rows moved, and
 * every move kept each row and its state (swe_balance_hook); the same with
 * ghost cell expansion k = 2 and 4, rows moving at every measure (seeded
 * speeds, SPATE_BALANCE_FAKE_SPEED), and k = 2 with rows moving between
 * two exchanges.  Ghost cell expansion k = 2, 3, 4, 8
 * and auto: bitwise equal to one GPU.  Rain and
 * the Manning raster (check_sources): the same decompositions, moves and
 * expansions, and rain on patches of a dry DEM (the tile map skips tiles
 * in every subdomain). */
#include "simtest.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "params.h"
#include "setup.h"
#include "diag.h"
#include "products_kern.h"
#include "balance.h"
#include "swe_balance.h"

#ifdef HAVE_CUDA
#include "cudamulti.h"

/* Set by a case whose decomposed runs must skip tiles (the tile map), or
 * walk their interiors in stacks of tiles (a wet grid, SPATE_CUDA_STACK). */
static int want_skipped, want_stacked;

static void check_case(const char *name, const struct swe_params *p, int ngpu)
{
	static const struct { const char *sub, *workload; int gpus; } dec[] = {
		{ "2", "", 1 }, { "3", "", 1 }, { "", "70,30", 1 }, { "2", "", 2 }, { "3", "", 2 },
		{ "", "70,30", 2 },
	};
	static const char *const overlap[] = { "none", "compute", "streams", "streams, host dt" };
	struct outcome ref, o;
	size_t np = (size_t)p->nx * p->ny * sizeof(struct swe_prod);
	run(p, "", "", 0, "none", &ref);
	printf("%s: %d x %d cells, single GPU: %ld steps, volume %.9g m^3\n", name, p->nx, p->ny,
		ref.steps, swe_volume(&ref.s));
	for (size_t d = 0; d < sizeof dec / sizeof dec[0]; d++) {
		if (dec[d].gpus > ngpu)
			continue;
		for (int v = 0; v < 4; v++) {
			int same;
			double diff;
			long skipped = swe_cuda_tiles_skipped, stacked = swe_cuda_stacked;
			/* v = 3: streams with the time step reduced on the host */
			if (v == 3)
				setenv("SPATE_HOST_DT", "1", 1);
			run(p, dec[d].sub, dec[d].workload, dec[d].gpus,
				v == 3 ? "streams" : overlap[v], &o);
			unsetenv("SPATE_HOST_DT");
			skipped = swe_cuda_tiles_skipped - skipped;
			stacked = swe_cuda_stacked - stacked;
			if (want_stacked)
				sim_check(stacked > 0, "%s: %s %s on %d GPU%s, overlap %s: interiors "
					"walked in stacks (%ld launches)", name, *dec[d].sub ? dec[d].sub :
					dec[d].workload, *dec[d].sub ? "subdomains" : "workload",
					dec[d].gpus, dec[d].gpus > 1 ? "s" : "", overlap[v], stacked);
			if (want_skipped)
				sim_check(skipped > 0, "%s: %s %s on %d GPU%s, overlap %s: %ld tiles "
					"skipped in the subdomains", name, *dec[d].sub ? dec[d].sub :
					dec[d].workload, *dec[d].sub ? "subdomains" : "workload",
					dec[d].gpus, dec[d].gpus > 1 ? "s" : "", overlap[v], skipped);
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

static long hook_calls, hook_bad;

/* After every move: the rows tile [0, ny) and each row kept its sums. */
static void check_move(const struct swe_balance_check *c)
{
	int next = 0, ok = 1;
	for (int k = 0; k < c->n; k++) {
		ok = ok && c->row0_after[k] == next && c->rows_after[k] >= SWE_GHOST;
		next = c->row0_after[k] + c->rows_after[k];
	}
	ok = ok && next == c->ny &&
		!memcmp(c->sums_before, c->sums_after, 3 * (size_t)c->ny * sizeof(double));
	hook_calls++;
	hook_bad += !ok;
}

/* Dynamic load balancing on GPU subdomains against one GPU; with ghost
 * cell expansion k = 2 and 4 too, the speeds seeded so that rows move at
 * every measure (the bed of the rows beyond the edges moves with them);
 * and k = 2 measured every 3 steps, steps one by one (no graph batches to
 * round the measures to 16 steps): rows move between two exchanges, and
 * the next exchange comes while ghost rows are still valid (its copies
 * wait for the sources on them, swe_cuda_sub_halo.cu). */
static void check_balance(const char *name, const struct swe_params *p, int ngpu)
{
	static const struct { const char *sub, *bal, *interval; int gpus; const char *k; } dec[] = {
		{ "2", "rows", "8", 1, "1" }, { "2", "bbox", "5", 1, "1" }, { "3", "rows", "8", 2, "1" },
		{ "3", "bbox", "5", 2, "1" }, { "2", "rows", "4", 1, "2" }, { "3", "rows", "4", 2, "4" },
		{ "2", "rows", "3", 2, "2" },
	};
	static const char *const overlap[] = { "none", "streams" };
	struct outcome ref, o;
	size_t np = (size_t)p->nx * p->ny * sizeof(struct swe_prod);
	long moves = 0;
	swe_balance_hook = check_move;
	run(p, "", "", 0, "none", &ref);
	for (size_t d = 0; d < sizeof dec / sizeof dec[0]; d++) {
		int gpus = dec[d].gpus > ngpu ? ngpu : dec[d].gpus;
		int apart = atoi(dec[d].interval) % atoi(dec[d].k) != 0;
		/* v = 2: overlap none, rows through host messages into new arrays
		 * (v = 0, 1: copied between the devices, in place where room is);
		 * v = 3: streams, 16-row tiles whose lists are split between warps
		 * (the tile map's flags per part, rebuilt after each move) */
		for (int v = 0; v < 4; v++) {
			struct swe_params q = *p;
			const struct balance_report *r = balance_last();
			long calls = hook_calls, bad = hook_bad;
			const char *what;
			int same, seed = *dec[d].k != '1' && !getenv("SPATE_BALANCE_FAKE_SPEED");
			double diff;
			sim_set(&q, "parallel", "ghost_expansion", "%s", dec[d].k);
			if (seed)
				setenv("SPATE_BALANCE_FAKE_SPEED", "3", 1);
			sim_set(&q, "parallel", "balance", "%s", dec[d].bal);
			sim_set(&q, "parallel", "balance_interval", "%s", dec[d].interval);
			sim_set(&q, "parallel", "balance_gain", "0");
			if (v == 2) {
				setenv("SPATE_MOVE_HOST", "1", 1);
				setenv("SPATE_CUDA_ROOM", "0", 1);
			}
			if (v == 3) {
				setenv("SPATE_CUDA_ROWS", "16", 1);
				setenv("SPATE_CUDA_SPLIT", "64", 1);
			}
			if (apart)
				setenv("SPATE_CUDA_GRAPHS", "0", 1);
			run(&q, dec[d].sub, "", gpus, overlap[v % 2], &o);
			unsetenv("SPATE_CUDA_GRAPHS");
			unsetenv("SPATE_MOVE_HOST");
			unsetenv("SPATE_CUDA_ROOM");
			unsetenv("SPATE_CUDA_ROWS");
			unsetenv("SPATE_CUDA_SPLIT");
			if (seed)
				unsetenv("SPATE_BALANCE_FAKE_SPEED");
			what = v == 2 ? "none, host messages" : v == 3 ?
				"streams, split 16-row tiles" : overlap[v];
			diff = max_diff(&ref.s, &o.s, &same);
			sim_check(!strcmp(o.backend, "cuda") && o.steps == ref.steps && same &&
				ref.prod && o.prod && !memcmp(ref.prod, o.prod, np), "%s: %s subdomains "
				"on %d GPU%s, balance %s every %s steps, overlap %s: w hu hv and products "
				"bitwise equal to 1 GPU (max |diff| %.3g), ghost expansion %s", name,
				dec[d].sub, gpus, gpus > 1 ? "s" : "", dec[d].bal, dec[d].interval, what,
				diff, dec[d].k);
			/* moves follow measured device times: count them over the case */
			sim_check(r->valid && hook_calls - calls == r->moves && hook_bad == bad &&
				(*dec[d].k == '1' || r->moves > 0), "%s: %s subdomains, balance %s, "
				"overlap %s, ghost expansion %s: %ld moves (%ld rows), each keeping every "
				"row and its state", name, dec[d].sub, dec[d].bal, what, dec[d].k, r->moves,
				r->planes_moved);
			moves += r->moves;
			swe_state_free(&o.s);
			free(o.prod);
		}
	}
	sim_check(moves >= 4, "%s: %ld moves of rows in all", name, moves);
	swe_balance_hook = NULL;
	swe_state_free(&ref.s);
	free(ref.prod);
}

/* The resting case of t_balance against one GPU: a flood in the southern
 * third of a long grid; three subdomains that do not move, and two that
 * balance freely or when a move pays (the flood gathered on one GPU, the
 * other resting, the boundary moving north with the flood); overlap
 * streams and none.  Bitwise equal to one GPU, with rest and with moves
 * while a subdomain rests. */
static void check_rest(int ngpu)
{
	/* cost: SPATE_BALANCE_STEP_COST, a step on two devices dearer than the
	 * flood's cells: the flood gathers on one, the other rests */
	static const struct { const char *sub, *bal, *gain, *overlap, *cost; } dec[] = {
		{ "3", "rows", "1000000", "streams", NULL },
		{ "3", "bbox", "1000000", "none", NULL },
		{ "2", "rows", "0", "streams", NULL },
		{ "2", "rows", "0", "streams", "0,1" },
		{ "2", "rows", "1", "streams", "0,1" },
		{ "2", "bbox", "0", "none", "0,1" },
	};
	struct swe_params p;
	struct outcome ref, o;
	size_t np;
	long rests = 0, rest_moves = 0;
	sim_params(&p, "circular_dambreak", 120, 600, 5, 5);
	sim_set(&p, "initial", "radius", "60");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "initial", "dam_x", "300");
	sim_set(&p, "initial", "dam_y", "720");
	sim_set(&p, "output", "products", "yes");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "400");
	np = (size_t)p.nx * p.ny * sizeof(struct swe_prod);
	run(&p, "", "", 0, "none", &ref);
	for (size_t d = 0; d < sizeof dec / sizeof dec[0]; d++) {
		struct swe_params q = p;
		const struct balance_report *r = balance_last();
		int same, gpus = ngpu < 2 ? 1 : 2;
		double diff;
		sim_set(&q, "parallel", "balance", "%s", dec[d].bal);
		sim_set(&q, "parallel", "balance_interval", "10");
		sim_set(&q, "parallel", "balance_gain", "%s", dec[d].gain);
		if (dec[d].cost)
			setenv("SPATE_BALANCE_STEP_COST", dec[d].cost, 1);
		setenv("SPATE_BALANCE_REST", "1", 1); /* off unless asked for */
		run(&q, dec[d].sub, "", gpus, dec[d].overlap, &o);
		unsetenv("SPATE_BALANCE_STEP_COST");
		unsetenv("SPATE_BALANCE_REST");
		diff = max_diff(&ref.s, &o.s, &same);
		sim_check(!strcmp(o.backend, "cuda") && o.steps == ref.steps && same && ref.prod &&
			o.prod && !memcmp(ref.prod, o.prod, np), "resting: %s subdomains on %d GPU%s, "
			"balance %s, gain %s, overlap %s, step cost %s: %ld subdomain intervals of rest, "
			"%ld moves (%ld with a subdomain resting); w hu hv and products bitwise equal "
			"to 1 GPU (max |diff| %.3g)", dec[d].sub, gpus, gpus > 1 ? "s" : "", dec[d].bal,
			dec[d].gain, dec[d].overlap, dec[d].cost ? dec[d].cost : "measured", r->rests,
			r->moves, r->rest_moves, diff);
		rests += r->rests;
		rest_moves += r->rest_moves;
		swe_state_free(&o.s);
		free(o.prod);
	}
	/* the cases above rest, and move rows next to (or out of) a resting
	 * subdomain: the new edges' ghost rows (swe_multi_exchange_moved) */
	sim_check(rests > 0 && rest_moves > 0, "resting: %ld subdomain intervals of rest, %ld "
		"moves with a subdomain resting, in all", rests, rest_moves);
	swe_state_free(&ref.s);
	free(ref.prod);
}

/* Ghost cell expansion on GPU subdomains against one GPU: k = 2, 3, 4, 8
 * and auto, on 2 subdomains of one GPU and 3 on two GPUs, overlap none and
 * streams with the time step on the devices (k = 2, 4, 8: steps in CUDA
 * graphs; 3: one by one) and streams with it on the host. */
static void check_ghost(const char *name, const struct swe_params *p, int ngpu)
{
	static const char *const ks[] = { "2", "3", "4", "8", "auto" };
	static const struct { const char *sub; int gpus; } dec[] = { { "2", 1 }, { "3", 2 } };
	static const char *const overlap[] = { "none", "streams", "streams, host dt" };
	struct outcome ref, o;
	size_t np = (size_t)p->nx * p->ny * sizeof(struct swe_prod);
	run(p, "", "", 0, "none", &ref);
	for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++)
		for (size_t d = 0; d < sizeof dec / sizeof dec[0]; d++)
			for (int v = 0; v < 3; v++) {
				struct swe_params r = *p;
				int gpus = dec[d].gpus > ngpu ? ngpu : dec[d].gpus, same;
				double diff;
				sim_set(&r, "parallel", "ghost_expansion", "%s", ks[q]);
				if (v == 2)
					setenv("SPATE_HOST_DT", "1", 1);
				run(&r, dec[d].sub, "", gpus, v ? "streams" : "none", &o);
				unsetenv("SPATE_HOST_DT");
				diff = max_diff(&ref.s, &o.s, &same);
				sim_check(!strcmp(o.backend, "cuda") && o.steps == ref.steps && same &&
					ref.prod && o.prod && !memcmp(ref.prod, o.prod, np), "%s: ghost "
					"expansion %s, %s subdomains on %d GPU%s, overlap %s: w hu hv and "
					"products bitwise equal to 1 GPU (max |diff| %.3g)", name, ks[q],
					dec[d].sub, gpus, gpus > 1 ? "s" : "", overlap[v], diff);
				swe_state_free(&o.s);
				free(o.prod);
			}
	swe_state_free(&ref.s);
	free(ref.prod);
}

/* Rain and the Manning raster (the sources after each step,
 * swe_cuda_sub_src.cu): uniform rain on the dry dam break over bumps, and a
 * DEM with a Manning raster and rain rasters that change during the run
 * (NODATA cells of the second get none): every decomposition and overlap,
 * rows moving, ghost cell expansion; bitwise equal to one GPU. */
static void check_sources(int ngpu)
{
	enum { NX = 120, NY = 100 };
	char dir[] = "/tmp/t_cuda_multi.XXXXXX", dem[64], man[64], r1[64], r2[64];
	size_t nn = (size_t)NX * NY;
	double *B = malloc(4 * nn * sizeof *B), *n = B + nn, *ra = n + nn, *rb = ra + nn;
	struct swe_params p;
	if (!B || !mkdtemp(dir))
		exit(99);
	for (int j = 0; j < NY; j++)
		for (int i = 0; i < NX; i++) {
			double x = i - 60.0, y = j - 45.0;
			size_t c = (size_t)j * NX + i;
			B[c] = 0.004 * j + 0.8 * exp(-(x * x + y * y) / 40.0);
			n[c] = 0.01 + 0.01 * ((i * 7 + j * 3) % 5);
			ra[c] = 200 + 100 * ((i + 2 * j) % 7);
			rb[c] = (i * 3 + j) % 11 == 0 ? -9999 : 3000 - 20 * j;
		}
	snprintf(dem, sizeof dem, "%s/dem.asc", dir);
	snprintf(man, sizeof man, "%s/n.asc", dir);
	snprintf(r1, sizeof r1, "%s/r1.asc", dir);
	snprintf(r2, sizeof r2, "%s/r2.asc", dir);
	if (spate_write_asc(dem, NX, NY, 0, 0, 5, 5, B, -9999, NULL) ||
		spate_write_asc(man, NX, NY, 0, 0, 5, 5, n, -9999, NULL) ||
		spate_write_asc(r1, NX, NY, 0, 0, 5, 5, ra, -9999, NULL) ||
		spate_write_asc(r2, NX, NY, 0, 0, 5, 5, rb, -9999, NULL))
		exit(99);

	sim_params(&p, "bumps_dambreak", 160, 120, 5, 5);
	sim_set(&p, "initial", "radius", "100");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "physics", "rain", "3600");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "60");
	check_case("bumps dam break, dry bed, rain 3600 mm/h", &p, ngpu);
	sim_set(&p, "physics", "integrator", "euler");
	sim_set(&p, "physics", "cfl", "0.4");
	check_case("bumps dam break, dry bed, rain 3600 mm/h, Euler", &p, ngpu);

	sim_params(&p, "dem", NX, NY, 5, 5);
	sim_set(&p, "domain", "dem", "%s", dem);
	sim_set(&p, "physics", "manning_file", "%s", man);
	sim_set(&p, "physics", "rain_files", "0 %s, 5 %s", r1, r2);
	sim_set(&p, "initial", "reservoir_level", "1.5");
	sim_set(&p, "initial", "reservoir_line", "600 300 0 300");
	sim_set(&p, "boundary", "north", "outflow");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "80");
	check_case("DEM, Manning raster, rain rasters", &p, ngpu);
	/* rain on every cell wets every tile alike (the tile map computes them
	 * all, a bounding box of the whole grid): seeded subdomain speeds make
	 * the plans move rows all the same */
	setenv("SPATE_BALANCE_FAKE_SPEED", "1", 1);
	check_balance("DEM, Manning raster, rain rasters, seeded speeds", &p, ngpu);
	unsetenv("SPATE_BALANCE_FAKE_SPEED");
	check_ghost("DEM, Manning raster, rain rasters", &p, ngpu);
	remove(dem);
	remove(man);
	remove(r1);
	remove(r2);
	remove(dir);
	free(B);

	/* rain on patches of a dry DEM, rasters that change in time, and a
	 * Manning raster: the tile map of every subdomain skips the dry tiles
	 * without rain (the tiles of the rain made again after each move of
	 * rows; the sources on the rows beyond an internal edge) */
	{
		char d[] = "/tmp/t_cuda_multi.XXXXXX";
		sim_patch_dem(&p, d, 1, 1);
		sim_set(&p, "run", "max_steps", "120");
		want_skipped = 1;
		check_case("DEM, rain patches, Manning raster (tile map)", &p, ngpu);
		want_skipped = 0;
		setenv("SPATE_BALANCE_FAKE_SPEED", "1", 1);
		check_balance("DEM, rain patches, Manning raster (tile map), seeded speeds", &p, ngpu);
		unsetenv("SPATE_BALANCE_FAKE_SPEED");
		check_ghost("DEM, rain patches, Manning raster (tile map)", &p, ngpu);
		sim_patch_clean(d);
	}
}

#endif /* HAVE_CUDA */

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
	check_ghost("circular dam break", &p, ngpu);
	/* wet: every list full, so the interiors go in stacks of 3 tiles (on
	 * grids this small the stacks would be of 1); without the tile map
	 * (early exit off) from the first step */
	setenv("SPATE_CUDA_STACK", "3", 1);
	want_stacked = 1;
	check_case("circular dam break, stacks of 3 tiles", &p, ngpu);
	sim_set(&p, "parallel", "early_exit", "off");
	check_case("circular dam break, stacks of 3 tiles, no tile map", &p, ngpu);
	sim_set(&p, "parallel", "early_exit", "on");
	want_stacked = 0;
	unsetenv("SPATE_CUDA_STACK");

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

	check_balance("dry dam break, open boundaries", &p, ngpu);

	sim_set(&p, "physics", "integrator", "euler");
	sim_set(&p, "physics", "cfl", "0.4");
	check_case("dry dam break, open boundaries, Euler", &p, ngpu);

	/* a small flood in a large dry domain: the tile map skips tiles */
	sim_params(&p, "bumps_dambreak", 300, 260, 10, 10);
	sim_set(&p, "initial", "h_in", "2");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "initial", "radius", "150");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "300");
	want_skipped = 1;
	check_case("small flood, dry domain (tile map)", &p, ngpu);
	want_skipped = 0;
	check_balance("small flood, dry domain (tile map)", &p, ngpu);
	check_ghost("small flood, dry domain (tile map)", &p, ngpu);
	/* Euler has no tile map: balance = rows sees every row alike (every
	 * cell is computed) and keeps the rows; bbox moves them */
	sim_set(&p, "physics", "integrator", "euler");
	sim_set(&p, "physics", "cfl", "0.4");
	sim_set(&p, "run", "max_steps", "200");
	check_balance("small flood, dry domain, Euler", &p, ngpu);
	check_ghost("small flood, dry domain, Euler", &p, ngpu);
	check_rest(ngpu);
	check_sources(ngpu);

	return sim_done("t_cuda_multi");
#endif
}
