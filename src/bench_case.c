/* bench_case.c: `spate bench --case=malpasset|rain`: the flood step on the
 * Malpasset DEM from the data directory, timed over a run from its start as
 * a scenario runs it (no outputs):
 *   malpasset  the dam break of scenarios/malpasset.conf (the same DEM,
 *              walls, sea at 0 m, reservoir at 100 m, dry disk, n =
 *              0.033), to 4000 s: wet/dry fronts on a real bed, few cells
 *              active at first;
 *   rain       rain-on-grid on the same DEM from a dry start: a rate on a
 *              disc (a storm cell), everywhere, or a raster of mm/h, to
 *              1800 s.
 * Each prints cell-steps/s over the whole grid, the cells computed per step
 * (the early exit's counts: CPU blocks, GPU tiles), and the memory traffic
 * of those at BENCH_VALUES_PER_CELL values a cell and step.  A benchmark
 * prints numbers; it checks nothing. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spate.h"
#include "swe.h"
#include "swe_state.h"
#include "swe_backend.h"
#include "params.h"
#include "setup.h"
#include "forcing.h"
#include "terrain.h"
#include "swe_multi.h"
#include "bench.h"

/* The DEM and the set-up of scenarios/malpasset.conf (tools/validate-malpasset
 * runs it): the keys both cases share, then the water of the dam break. */
static const char *const dem_keys[][3] = {
	{ "domain", "setup", "dem" },
	{ "domain", "dem", "malpasset/malpasset_dem_10m.asc.gz" },
	{ "domain", "nodata", "wall" },
	{ "domain", "wall_height", "50" },
	{ "physics", "manning", "0.033" },
	{ "physics", "integrator", "rk2" },
};
static const char *const dam_keys[][3] = {
	{ "initial", "fill_level", "0" },
	{ "initial", "reservoir_level", "100" },
	{ "initial", "reservoir_line", "4701.183 4143.407 4655.553 4392.104" },
	{ "initial", "dry_disk", "4500 5350 200" },
};

void bench_count_now(struct bench_count *c)
{
	c->skip[0] = swe_cpu_blocks_skipped;
	c->seen[0] = swe_cpu_blocks_seen;
#ifdef HAVE_CUDA
	c->skip[1] = swe_cuda_tiles_skipped;
	c->seen[1] = swe_cuda_tiles_seen;
#else
	c->skip[1] = c->seen[1] = 0;
#endif
}

double bench_count_share(const struct bench_count *a, const struct bench_count *b)
{
	for (int k = 1; k >= 0; k--) {
		long seen = b->seen[k] - a->seen[k];
		if (seen > 0)
			return 1.0 - (double)(b->skip[k] - a->skip[k]) / (double)seen;
	}
	return 1.0;
}

static int set(struct swe_params *p, const char *sec, const char *key, const char *val)
{
	return swe_params_set(p, sec, key, val, "bench", 0) ? -SPATE_EINVAL : 0;
}

/* The case's parameters; -SPATE_EIO with a message where the DEM is not in
 * the data directory. */
static int case_params(struct swe_params *p, const struct bench_opts *o)
{
	char path[4096], buf[64];
	int rc = 0;
	swe_params_defaults(p);
	for (size_t k = 0; k < sizeof dem_keys / sizeof dem_keys[0] && !rc; k++)
		rc = set(p, dem_keys[k][0], dem_keys[k][1], dem_keys[k][2]);
	for (size_t k = 0; o->bcase == BENCH_MALPASSET && k < sizeof dam_keys /
		sizeof dam_keys[0] && !rc; k++)
		rc = set(p, dam_keys[k][0], dam_keys[k][1], dam_keys[k][2]);
	if (!rc && o->data_dir)
		rc = set(p, "domain", "data_dir", o->data_dir);
	if (!rc && o->cellsize > 0) {
		snprintf(buf, sizeof buf, "%.17g", o->cellsize);
		rc = set(p, "domain", "cellsize", buf);
	}
	if (!rc && o->bcase == BENCH_RAIN && o->rain_file) {
		snprintf(path, sizeof path, "0 %s", o->rain_file);
		rc = set(p, "physics", "rain_files", path);
	} else if (!rc && o->bcase == BENCH_RAIN && !(o->rain_radius > 0)) {
		snprintf(buf, sizeof buf, "%.17g", o->rain);
		rc = set(p, "physics", "rain", buf);
	}
	if (!rc)
		rc = set(p, "parallel", "early_exit", o->early ? "on" : "off");
	if (rc)
		return rc;
	p->subdomains = o->subdomains;
	p->gpus = o->gpus;
	p->transport = o->transport;
	snprintf(p->device, sizeof p->device, "%s", o->device);
	terrain_resolve(p, p->dem, path, sizeof path);
	if (access(path, R_OK) != 0) {
		spate_log_error("bench", "--case=%s: no Malpasset DEM %s (data directory %s): "
			"build the data with tools/get-malpasset --out DIR, then give --data-dir=DIR "
			"or SPATE_DATA=DIR", o->bcase == BENCH_RAIN ? "rain" : "malpasset", path,
			p->data_dir);
		return -SPATE_EIO;
	}
	return swe_params_validate(p) ? -SPATE_EINVAL : 0;
}

/* Rain on a disc of the grid (the rain case without a raster): one raster
 * of rates, m/s, in force from t = 0; 0 or -SPATE_ENOMEM. */
static int rain_disc(struct swe_state *s, const struct bench_opts *o)
{
	size_t n = (size_t)s->nx * s->ny;
	float *r = malloc(n * sizeof *r);
	s->rain = malloc(sizeof *s->rain);
	s->rain_t = malloc(sizeof *s->rain_t);
	if (!r || !s->rain || !s->rain_t) {
		free(r);
		return -SPATE_ENOMEM;
	}
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			double x = s->x0 + (i + 0.5) * s->dx - o->rain_x;
			double y = s->y0 + (j + 0.5) * s->dy - o->rain_y;
			r[(size_t)j * s->nx + i] = x * x + y * y <= o->rain_radius * o->rain_radius ?
				(float)(o->rain / 3.6e6) : 0.0f;
		}
	s->rain[0] = r;
	s->rain_t[0] = 0;
	s->nrain = 1;
	return 0;
}

static void header(const struct bench_opts *o, const struct swe_params *p,
	const struct spate_backend *be)
{
	char desc[512];
	be->describe(0, desc, sizeof desc);
	if (o->bcase == BENCH_MALPASSET)
		printf("# spate bench --case=malpasset: the Malpasset dam break "
			"(scenarios/malpasset.conf), %s, from t = 0\n", p->dem);
	else if (o->rain_file)
		printf("# spate bench --case=rain: rain-on-grid on %s, dry start, rain raster "
			"%s (mm/h), from t = 0\n", p->dem, o->rain_file);
	else if (o->rain_radius > 0)
		printf("# spate bench --case=rain: rain-on-grid on %s, dry start, %g mm/h within "
			"%g m of (%g, %g) m, from t = 0\n", p->dem, o->rain, o->rain_radius, o->rain_x,
			o->rain_y);
	else
		printf("# spate bench --case=rain: rain-on-grid on %s, dry start, %g mm/h "
			"everywhere, from t = 0\n", p->dem, o->rain);
	printf("# device: %s (%s); SSP-RK2, n = %g, walls\n"
		"# bytes counted: %d values = %zu B per computed cell and step (Nsight Compute: "
		"95 B for the fp32 stage kernels, doc/bench/kernel.md); active = cells computed "
		"per step (early exit's blocks or tiles)\n"
		"# case      backend    nx x ny     prec  early   steps     sim s    wall s  "
		"cell-steps/s   active/step  active-cell-steps/s     GB/s\n", be->name, desc,
		p->manning, BENCH_VALUES_PER_CELL, BENCH_VALUES_PER_CELL * sizeof(real));
}

/* The run: from t = 0 to the case's time (or o->steps steps), timed. */
static int case_run(const struct bench_opts *o, const struct swe_params *p,
	const struct swe_state *s, const struct spate_backend *be)
{
	struct swe_backend_ctx *ctx = NULL;
	struct swe_stats st;
	struct bench_count c0, c1;
	double t_end = o->time > 0 ? o->time : o->bcase == BENCH_RAIN ? 1800 : 4000;
	double next, t0, wall, cells = (double)s->nx * s->ny, cups, share;
	int rc;
	memset(&st, 0, sizeof st);
	if ((rc = be->init(&ctx, s, p, 0)) ||
		(rc = swe_forcing_apply(be, ctx, s, p, 0, &next)))
		goto out;
	bench_count_now(&c0);
	t0 = spate_now();
	rc = be->advance(ctx, t_end, o->steps, &st);
	wall = spate_now() - t0;
	bench_count_now(&c1);
	if (rc)
		goto out;
	share = bench_count_share(&c0, &c1);
	cups = st.steps > 0 && wall > 0 ? cells * (double)st.steps / wall : 0;
	printf("%-10s %-6s %6d x %-6d %-6s %-5s %7ld %9.1f %9.3f %13.4g %13.4g %20.4g %8.3g\n",
		o->bcase == BENCH_RAIN ? "rain" : "malpasset", be->name, s->nx, s->ny,
		SPATE_PRECISION, o->early ? "on" : "off", st.steps, st.t, wall, cups, share * cells,
		share * cups, share * cups * BENCH_VALUES_PER_CELL * sizeof(real) / 1e9);
	fflush(stdout);
out:
	if (ctx)
		be->fini(ctx);
	if (rc)
		spate_log_error("bench", "--case=%s: %s", o->bcase == BENCH_RAIN ? "rain" :
			"malpasset", spate_strerror(rc));
	return rc;
}

int spate_bench_case(const struct bench_opts *o)
{
	struct swe_params p;
	struct swe_state s;
	const struct spate_backend *be;
	int rc;
	if ((rc = case_params(&p, o)))
		return rc;
	be = swe_backend_for(&p);
	if (!be)
		return -SPATE_ENODEV;
	memset(&s, 0, sizeof s);
	if ((rc = swe_setup(&s, &p)))
		return rc;
	if (o->bcase == BENCH_RAIN && !o->rain_file && o->rain_radius > 0 &&
		(rc = rain_disc(&s, o))) {
		swe_state_free(&s);
		return rc;
	}
	header(o, &p, be);
	rc = case_run(o, &p, &s, be);
	swe_state_free(&s);
	return rc;
}
