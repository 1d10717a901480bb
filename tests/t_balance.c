/* t_balance.c: the [parallel] tuning of a decomposed run changes no bit.
 *
 * Final w, hu, hv and the flood products compared with memcmp against the
 * static single-domain run, on dam breaks over dry beds (a moving flood):
 *   - early_exit on, off and auto (one and three subdomains), and the block
 *     dry map skipping blocks of rows that are not dry as a whole;
 *   - balance = rows and bbox with a short interval and balance_gain = 0, so
 *     that the boundaries move many times (RK2 and Euler, 2 to 4 subdomains);
 *     after every move a hook checks that the rows still tile the grid and
 *     that every row's sums of w, hu and hv are those before the move (no
 *     row lost, duplicated or moved without its state; volume unchanged);
 *   - ghost_expansion = 1, 2, 4, 8 and auto, alone and with balancing;
 *   - a DEM with a Manning raster (a per-cell field that moves with the rows);
 *   - resting subdomains (out of the flood's reach, skipped, then computing
 *     again);
 *   - probe = on;
 *   - the fit of a move's cost (fixed part + part per cell moved).
 * How fast any of it is, is a benchmark, not a test. */
#include "simtest.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "params.h"
#include "setup.h"
#include "diag.h"
#include "decomp.h"
#include "balance.h"
#include "swe_balance.h"
#include "products_kern.h"
#include "swe_balance_run.h"

static long hook_calls, hook_bad;

/* After every move: the rows tile [0, ny) and each row kept its sums. */
static void check_move(const struct swe_balance_check *c)
{
	int next = 0, ok = 1;
	for (int k = 0; k < c->n; k++) {
		ok = ok && c->row0_after[k] == next && c->rows_after[k] >= SWE_GHOST;
		next = c->row0_after[k] + c->rows_after[k];
	}
	ok = ok && next == c->ny;
	ok = ok && !memcmp(c->sums_before, c->sums_after, 3 * (size_t)c->ny * sizeof(double));
	hook_calls++;
	if (!ok) {
		hook_bad++;
		printf("FAIL move %ld: rows or row sums changed\n", hook_calls);
	}
}

/* A run: final state and products. */
static void run(const struct swe_params *p, struct swe_state *s, struct swe_prod **prod)
{
	struct swe_run_opts o;
	struct swe_result r;
	int rc;
	if (swe_params_validate(p))
		exit(99);
	memset(&o, 0, sizeof o);
	o.no_output = 1;
	o.final_state = s;
	o.final_products = prod;
	spate_set_quiet(1);
	rc = swe_run(p, &o, &r);
	if (rc) {
		fprintf(stderr, "test error: run failed: %s\n", spate_strerror(rc));
		exit(99);
	}
}

static int same_state(const struct swe_state *a, const struct swe_state *b)
{
	size_t off = (size_t)SWE_GHOST * a->pitch, n = (size_t)a->ny * a->pitch * sizeof(real);
	return a->ny == b->ny && a->pitch == b->pitch && !memcmp(a->w + off, b->w + off, n) &&
		!memcmp(a->hu + off, b->hu + off, n) && !memcmp(a->hv + off, b->hv + off, n);
}

/* Overrides "key=value ..." of [parallel] on p. */
static void apply(struct swe_params *p, const char *over)
{
	char buf[512], *save = NULL;
	snprintf(buf, sizeof buf, "%s", over);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		if (!eq)
			exit(99);
		*eq = 0;
		sim_set(p, "parallel", t, "%s", eq + 1);
	}
}

/* Each variant of `over` against the plain single-domain run of p; moves:
 * whether the variants must have moved rows. */
static void check_case(const char *name, const struct swe_params *p, const char *const *over,
	int nover, int moves)
{
	struct swe_state ref, s;
	struct swe_prod *pref = NULL, *pr = NULL;
	size_t np = (size_t)p->nx * p->ny * sizeof *pref;
	run(p, &ref, &pref);
	printf("%s: %d x %d cells, %ld steps, volume %.9g m^3\n", name, ref.nx, ref.ny,
		p->max_steps, swe_volume(&ref));
	for (int v = 0; v < nover; v++) {
		struct swe_params q = *p;
		const struct balance_report *r = balance_last();
		long calls = hook_calls, bad = hook_bad;
		apply(&q, over[v]);
		run(&q, &s, &pr);
		sim_check(same_state(&ref, &s) && pref && pr && !memcmp(pref, pr, np), "%s: %s: "
			"final w, hu, hv and products bitwise equal to one static domain", name, over[v]);
		if (moves)
			sim_check(r->valid && r->moves > 1 && hook_calls - calls == r->moves &&
				hook_bad == bad, "%s: %s: %ld moves (%ld rows), each keeping every row "
				"and its state", name, over[v], r->moves, r->planes_moved);
		swe_state_free(&s);
		free(pr);
		pr = NULL;
	}
	swe_state_free(&ref);
	free(pref);
}

/* Early exit: on, off, auto; blocks skipped where rows are not. */
static void check_early(void)
{
	static const char *const v[] = { "early_exit=off", "early_exit=auto",
		"early_exit=auto early_exit_steps=2 early_exit_interval=7 subdomains=3",
		"early_exit=off subdomains=3" };
	struct swe_params p;
	struct swe_state s;
	long rows, blocks;

	sim_params(&p, "circular_dambreak", 140, 110, 5, 5);
	sim_set(&p, "initial", "radius", "120");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "120");
	check_case("early exit, circular dam break (dry bed)", &p, v, 4, 0);

	/* a 1D front: every row is wet in the west, dry blocks in the east */
	sim_params(&p, "dambreak1d", 256, 8, 2, 2);
	sim_set(&p, "initial", "h_in", "2");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "initial", "dam_x", "100");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "50");
	rows = swe_cpu_rows_skipped;
	blocks = swe_cpu_blocks_skipped;
	sim_run(&p, &s, NULL);
	rows = swe_cpu_rows_skipped - rows;
	blocks = swe_cpu_blocks_skipped - blocks;
	swe_state_free(&s);
	sim_check(rows == 0 && blocks > 0, "early exit, 1D front: %ld blocks of %d columns "
		"skipped in rows that are never dry as a whole (%ld rows skipped)", blocks,
		32, rows);
}

static void check_balance(void)
{
	static const char *const v4[] = {
		"subdomains=4 balance=rows balance_interval=2 balance_gain=0",
		"subdomains=4 balance=bbox balance_interval=3 balance_gain=0",
		"workload=1,3,1 balance=rows balance_interval=1 balance_gain=0",
	};
	static const char *const v2[] = {
		"subdomains=2 balance=rows balance_interval=2 balance_gain=0",
		"subdomains=3 balance=bbox balance_interval=2 balance_gain=0 early_exit=off",
	};
	struct swe_params p;

	sim_params(&p, "circular_dambreak", 100, 120, 5, 5);
	sim_set(&p, "initial", "radius", "100");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "output", "products", "yes");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "100");
	check_case("balance, circular dam break", &p, v4, 3, 1);

	sim_params(&p, "bumps_dambreak", 96, 100, 5, 5);
	sim_set(&p, "initial", "radius", "100");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "physics", "manning", "0.03");
	sim_set(&p, "physics", "integrator", "euler");
	sim_set(&p, "physics", "cfl", "0.4");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "100");
	check_case("balance, bumps dam break, Euler", &p, v2, 2, 1);

	/* open, level and inflow boundaries at the global edges */
	sim_params(&p, "dambreak1d", 64, 90, 2, 3);
	sim_set(&p, "initial", "h_in", "2");
	sim_set(&p, "initial", "h_out", "0");
	sim_open_boundaries(&p);
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "60");
	check_case("balance, dry dam break, open boundaries", &p, v2, 1, 1);
}

/* Resting subdomains: a flood in the southern third of a long grid.  Three
 * subdomains that do not move (balance_gain too high for any move): the
 * middle one rests while the flood is out of its reach, then computes
 * again; its state, its halos and the time step are what a run without
 * resting makes.  Four subdomains whose rows move at every measure, with
 * speeds drawn from a seeded sequence (SPATE_BALANCE_FAKE_SPEED: plans that
 * change at every measure, the same under any load): subdomains rest after
 * moves, rows move into and out of resting ones.  Until the tenth session a
 * resting CPU subdomain handed its neighbours the U* of its last step, or
 * of nothing after a move, as its halo. */
static void check_rest(void)
{
	static const char *const v[] = {
		"subdomains=3 balance=rows balance_interval=10 balance_gain=1000000",
		"subdomains=3 balance=bbox balance_interval=7 balance_gain=1000000",
	};
	static const char *const vm[] = {
		"subdomains=4 balance=rows balance_interval=6 balance_gain=0",
		"subdomains=4 balance=bbox balance_interval=5 balance_gain=0",
	};
	struct swe_params p;
	sim_params(&p, "circular_dambreak", 60, 600, 5, 5);
	sim_set(&p, "initial", "radius", "60");
	sim_set(&p, "initial", "h_out", "0");
	sim_set(&p, "initial", "dam_x", "150");
	sim_set(&p, "initial", "dam_y", "720");
	sim_set(&p, "output", "products", "yes");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "300");
	for (int e = 0; e < 2; e++) {
		const struct balance_report *r = balance_last();
		const char *name = e ? "resting subdomains, Euler" : "resting subdomains";
		if (e) {
			sim_set(&p, "physics", "integrator", "euler");
			sim_set(&p, "physics", "cfl", "0.4");
		}
		setenv("SPATE_BALANCE_REST", "1", 1);
		check_case(name, &p, v, 2, 0);
		/* the last variant (bbox): the northern subdomain rests throughout,
		 * the middle one until the flood comes near */
		sim_check(r->valid && r->rests > r->measures && r->rests < 2 * r->measures,
			"%s, bbox: %ld subdomain intervals of rest over %ld measures (the middle "
			"subdomain rested, then computed again)", e ? "Euler" : "RK2", r->rests,
			r->measures);
		for (int seed = 1; seed <= 2; seed++) {
			char nm[96];
			snprintf(nm, sizeof nm, "%s, moving (speeds of seed %d)", name, seed);
			setenv("SPATE_BALANCE_FAKE_SPEED", seed == 1 ? "1" : "2", 1);
			check_case(nm, &p, vm, 2, 1);
			unsetenv("SPATE_BALANCE_FAKE_SPEED");
			sim_check(r->valid && r->rest_moves > 0 && r->rests > 0, "%s: %ld moves after "
				"which a subdomain rested, %ld subdomain intervals of rest", nm,
				r->rest_moves, r->rests);
		}
		unsetenv("SPATE_BALANCE_REST");
	}
}

static void check_ghost(void)
{
	static const char *const v[] = {
		"subdomains=2 ghost_expansion=1", "subdomains=2 ghost_expansion=2",
		"subdomains=2 ghost_expansion=4", "subdomains=2 ghost_expansion=8",
		"subdomains=3 ghost_expansion=auto",
		"subdomains=3 ghost_expansion=2 balance=rows balance_interval=3 balance_gain=0 "
			"early_exit=auto early_exit_steps=1 early_exit_interval=5",
	};
	static const char *const ve[] = {
		"subdomains=4 ghost_expansion=8", "subdomains=3 ghost_expansion=3",
	};
	struct swe_params p;

	sim_params(&p, "circular_dambreak", 60, 160, 5, 5);
	sim_set(&p, "initial", "radius", "100");
	sim_set(&p, "initial", "h_out", "0");
	sim_open_boundaries(&p);
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "70");
	check_case("ghost expansion, circular dam break, open boundaries", &p, v, 6, 0);
	sim_set(&p, "physics", "integrator", "euler");
	sim_set(&p, "physics", "cfl", "0.4");
	check_case("ghost expansion, Euler", &p, ve, 2, 0);
}

/* A DEM with a reservoir in its southern third and a Manning raster that
 * varies from cell to cell: the raster must move with the rows (and fill
 * the ghost rows of ghost cell expansion). */
static void check_raster(void)
{
	static const char *const v[] = {
		"subdomains=3 balance=rows balance_interval=2 balance_gain=0",
		"subdomains=3 balance=bbox balance_interval=3 balance_gain=0 ghost_expansion=2",
		"subdomains=2 ghost_expansion=4", "subdomains=3",
		"subdomains=3 balance=rows balance_interval=2 balance_gain=0 early_exit=off",
	};
	enum { NX = 50, NY = 90 };
	char dir[] = "/tmp/t_balance.XXXXXX", dem[64], man[64];
	double *B = malloc(2 * (size_t)NX * NY * sizeof *B), *n = B + (size_t)NX * NY;
	struct swe_params p;
	if (!B || !mkdtemp(dir))
		exit(99);
	for (int j = 0; j < NY; j++)
		for (int i = 0; i < NX; i++) {
			double x = i - 25.0, y = j - 55.0;
			B[(size_t)j * NX + i] = 0.004 * j + 0.8 * exp(-(x * x + y * y) / 40.0);
			n[(size_t)j * NX + i] = 0.01 + 0.01 * ((i * 7 + j * 3) % 5);
		}
	snprintf(dem, sizeof dem, "%s/dem.asc", dir);
	snprintf(man, sizeof man, "%s/n.asc", dir);
	if (spate_write_asc(dem, NX, NY, 0, 0, 5, 5, B, -9999, NULL) ||
		spate_write_asc(man, NX, NY, 0, 0, 5, 5, n, -9999, NULL))
		exit(99);
	sim_params(&p, "dem", NX, NY, 5, 5);
	sim_set(&p, "domain", "dem", "%s", dem);
	sim_set(&p, "physics", "manning_file", "%s", man);
	sim_set(&p, "initial", "reservoir_level", "1.5");
	sim_set(&p, "initial", "reservoir_line", "250 150 0 150");
	sim_set(&p, "boundary", "north", "outflow");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "80");
	check_case("balance, DEM with a Manning raster", &p, v, 5, 0);
	remove(dem);
	remove(man);
	remove(dir);
	free(B);
}

static void check_probe(void)
{
	static const char *const v[] = { "subdomains=3 probe=on probe_steps=2",
		"subdomains=2 probe=on balance=rows balance_interval=4 balance_gain=0" };
	struct swe_params p;
	const struct balance_report *r = balance_last();

	sim_params(&p, "bumps_dambreak", 80, 90, 5, 5);
	sim_set(&p, "initial", "radius", "100");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "run", "max_steps", "40");
	check_case("probe, bumps dam break", &p, v, 2, 0);
	sim_check(r->valid && r->speed[0] > 0 && r->speed[1] > 0, "probe: speeds %.3g and %.3g "
		"cells/s measured", r->speed[0], r->speed[1]);
	printf("info probe: %d and %d rows after balancing (homogeneous CPU: near-equal)\n",
		r->rows[0], r->rows[1]);
}

/* The move-cost fit: through the origin after one move; a fixed part and a
 * part per cell from moves of two sizes; neither term below zero. */
static void check_cost_fit(void)
{
	double mv[5] = { 0 }, f, c;
	swe_balance_cost_fit(mv, 1e6, 2e-3, &f, &c);
	sim_check(f == 0 && fabs(c - 2e-9) < 1e-15, "cost fit, one move: %g s + %g s/cell "
		"(0 + 2e-9)", f, c);
	swe_balance_cost_fit(mv, 1e4, 1.01e-3, &f, &c);
	sim_check(fabs(f - 1e-3) < 1e-9 && fabs(c - 1e-9) < 1e-15, "cost fit, two moves: %g s + "
		"%g s/cell (1e-3 + 1e-9)", f, c);
	swe_balance_cost_fit(mv, 5e5, 1.5e-3, &f, &c);
	sim_check(fabs(f - 1e-3) < 1e-9 && fabs(c - 1e-9) < 1e-15, "cost fit, a third move on "
		"the line: %g s + %g s/cell", f, c);
	memset(mv, 0, sizeof mv);
	swe_balance_cost_fit(mv, 1e6, 1e-3, &f, &c);
	swe_balance_cost_fit(mv, 2e6, 0.5e-3, &f, &c);
	sim_check(c == 0 && fabs(f - 0.75e-3) < 1e-12, "cost fit, bigger moves cheaper: no "
		"negative slope (%g s + %g s/cell)", f, c);
	memset(mv, 0, sizeof mv);
	swe_balance_cost_fit(mv, 1e4, 1e-6, &f, &c);
	swe_balance_cost_fit(mv, 2e4, 1e-3, &f, &c);
	sim_check(f >= 0 && c > 0 && fabs(c - (1e-6 * 1e4 + 1e-3 * 2e4) / (1e8 + 4e8)) < 1e-15,
		"cost fit, negative intercept: through the origin (%g s + %g s/cell)", f, c);
}

int main(void)
{
	check_cost_fit();
	swe_balance_hook = check_move;
	check_early();
	check_balance();
	check_rest();
	check_ghost();
	check_raster();
	check_probe();
	return sim_done("t_balance");
}
