/* bsq_bench.c: `spate bench --physics=boussinesq`: time per step of the
 * Boussinesq solver (bsq.h) on the lid-driven cavity (Jacobsen, Thibault &
 * Senocak 2010's case) or a Rayleigh-Benard box, for each pressure solver to
 * the same divergence tolerance: cell-steps per second, the pressure work
 * per step and the memory traffic under a stated byte count (BSQ.md "Bytes
 * per step").  A benchmark prints numbers; it checks nothing. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "bsq.h"
#include "bsq_bench.h"
#include "bsq_cuda.h"
#include "bsq_impl.h"

/* Bytes per cell, with each field read or written once per kernel (BSQ.md):
 * predictor 16 values, divergence 5, correction 7, a Jacobi or RB-GS sweep 3
 * (phi, b in; phi out), a V(2,2) cycle about 21 with its coarse levels. */
#define VALUES_STEP (16 + 5 + 7)
#define VALUES_SWEEP 3
#define VALUES_VCYCLE 21

struct bench_case {
	int nx, ny, nz;
	int rb;             /* Rayleigh-Benard (else the cavity); 2: V-cycles alone */
	int solver;
	int cuda;           /* on the GPU (bsq_cuda.h) */
	long steps;
	double tol;
	int warm;           /* enum bsq_warm */
};

/* One step on the device the case asks for. */
static int step(const struct bench_case *c, struct bsq_cuda *g, struct bsq_state *s,
	const struct bsq_params *p, struct bsq_stats *st)
{
	return c->cuda ? bsq_cuda_step(g, p, st) : bsq_step(s, p, st);
}

static int bench_one(const struct bench_case *c)
{
	struct bsq_params p;
	struct bsq_state s;
	struct bsq_stats st;
	struct bsq_cuda *g = NULL;
	double t0, wall, cells = (double)c->nx * c->ny * c->nz, work = 0, bytes;
	int rc;
	bsq_params_default(&p);
	rc = c->rb ? bsq_setup_rb(&p, c->nx, c->ny, c->nz, 1e7, 0.71, 0, 3.117, 1e-4) :
		bsq_setup_cavity(&p, c->nx, 1000, 1);
	p.nx = c->nx;
	p.ny = c->ny;
	p.nz = c->nz;
	if (!c->rb)
		p.ly = (double)c->ny / c->nx;
	p.solver = c->solver;
	p.tol = c->tol;
	p.warm = c->warm;
	p.max_sweeps = 1000000000;
	if (rc || (rc = bsq_init(&s, &p)))
		return rc;
	if ((c->cuda && (rc = bsq_cuda_init(&g, &s, &p))) ||
		(rc = step(c, g, &s, &p, &st)))   /* the first step (full multigrid) untimed */
		goto out;
	t0 = spate_now();
	for (long k = 0; k < c->steps && !rc; k++) {
		rc = step(c, g, &s, &p, &st);
		work += st.cycles;
	}
	wall = spate_now() - t0;
	if (rc)
		goto out;
	work /= (double)c->steps;
	bytes = cells * sizeof(bsq_real) * (VALUES_STEP +
		work * (c->solver == BSQ_SOLVER_MG ? VALUES_VCYCLE : VALUES_SWEEP));
	printf("%-16s %5d x %4d x %4d  %-9s %6ld  %10.3f  %10.4g  %9.1f %-7s %8.3g  %7.2f\n",
		c->rb ? "rayleigh_benard" : "cavity", c->nx, c->ny, c->nz,
		c->solver == BSQ_SOLVER_MG ? "multigrid" : "jacobi", c->steps,
		1e3 * wall / (double)c->steps, cells * (double)c->steps / wall, work,
		c->solver == BSQ_SOLVER_MG ? "cycles" : "sweeps", st.div_max,
		bytes * (double)c->steps / wall / 1e9);
out:
	bsq_cuda_free(g);
	bsq_free(&s);
	return rc;
}

/* --case=vcycle: V(2,2) cycles alone (the solver's settings: trilinear
 * prolongation, levels of <= 4096 cells on the host with a GPU) on the
 * cavity's box (walls: Neumann pressure) from a right-hand side of
 * deterministic pseudo-random values of zero mean, phi = 0; one untimed
 * cycle first.  Bytes counted: VALUES_VCYCLE a cell (BSQ.md). */
static int bench_vcycle(const struct bench_case *c)
{
	struct bsq_params p;
	struct bsq_state s;
	struct bsq_cuda *g = NULL;
	double cells = (double)c->nx * c->ny * c->nz, sum = 0, t0, wall;
	unsigned long long x = 0x9e3779b97f4a7c15ULL;
	int n = (int)c->steps, rc, i, j, k;
	bsq_params_default(&p);
	if ((rc = bsq_setup_cavity(&p, c->nx, 1000, 1)))
		return rc;
	p.nx = c->nx;
	p.ny = c->ny;
	p.nz = c->nz;
	p.ly = (double)c->ny / c->nx;
	p.lz = (double)c->nz / c->nx;
	if ((rc = bsq_init(&s, &p)))
		return rc;
	for (int pass = 0; pass < 2; pass++)
		for (k = 1; k <= s.g.nz; k++)
			for (j = 1; j <= s.g.ny; j++)
				for (i = 1; i <= s.g.nx; i++) {
					bsq_real *b = &s.lev[0].v[BSQ_RHS][bsq_idx(&s.lev[0].g, i, j, k)];
					if (pass == 0) {
						x ^= x >> 12;
						x ^= x << 25;
						x ^= x >> 27;
						*b = (bsq_real)((double)((x * 0x2545F4914F6CDD1DULL) >> 11) *
							0x1.0p-53 - 0.5);
						sum += *b;
					} else {
						*b -= (bsq_real)(sum / cells);
					}
				}
	memset(s.lev[0].v[BSQ_PHI], 0, bsq_count(&s.lev[0].g) * sizeof(bsq_real));
	if ((c->cuda && (rc = bsq_cuda_init(&g, &s, &p))) ||
		(rc = c->cuda ? bsq_cuda_vcycles(g, &p, 1) : bsq_vcycles(&s, &p, 1)))
		goto out;
	t0 = spate_now();
	rc = c->cuda ? bsq_cuda_vcycles(g, &p, n) : bsq_vcycles(&s, &p, n);
	wall = spate_now() - t0;
	if (!rc)
		printf("%-16s %5d x %4d x %4d  %-9s %6d  %10.3f  %10.4g  %9d %-7s %8s  %7.2f\n",
			"vcycle", c->nx, c->ny, c->nz, "V(2,2)", n, 1e3 * wall / n, cells * n / wall, 1,
			"cycles", "-", cells * sizeof(bsq_real) * VALUES_VCYCLE * n / wall / 1e9);
out:
	bsq_cuda_free(g);
	bsq_free(&s);
	return rc;
}

/* The most sizes of one --sizes list. */
#define BSQ_BENCH_SIZES 64

/* A size of --sizes. */
struct bench_dims {
	int nx, ny, nz;
};

/* NXxNYxNZ, whole (nothing after it), into d. */
static int size_of(const char *tok, struct bench_dims *d)
{
	int end = 0;
	return sscanf(tok, "%dx%dx%d%n", &d->nx, &d->ny, &d->nz, &end) == 3 && tok[end] == '\0' &&
		d->nx >= 4 && d->ny >= 1 && d->nz >= 4 && d->nx <= 4096 && d->ny <= 4096 &&
		d->nz <= 4096 ? 0 : -SPATE_EINVAL;
}

int bsq_bench(int argc, char **argv)
{
	char sizes[256] = "64x8x64", solvers[64] = "multigrid,jacobi", *save = NULL;
	struct bench_case c = { 0, 0, 0, 0, BSQ_SOLVER_MG, 0, 10, 1e-8, BSQ_WARM_LINEAR };
	struct bench_dims dims[BSQ_BENCH_SIZES];
	int rc = 0, n = 0;
	for (int i = 0; i < argc; i++) {
		double x;
		if (!strcmp(argv[i], "--physics=boussinesq") || !strcmp(argv[i], "--device=cpu"))
			continue;
		if (!strcmp(argv[i], "--device=auto") || !strcmp(argv[i], "--device=cuda")) {
			c.cuda = bsq_cuda_available() > 0;
			if (!c.cuda && !strcmp(argv[i], "--device=cuda")) {
				spate_log_error("bench", "--device=cuda: no usable CUDA GPU (or a build "
					"without CUDA)");
				return -SPATE_ENODEV;
			}
			continue;
		}
		if (!strncmp(argv[i], "--sizes=", 8))
			snprintf(sizes, sizeof sizes, "%s", argv[i] + 8);
		else if (!strncmp(argv[i], "--pressure=", 11))
			snprintf(solvers, sizeof solvers, "%s", argv[i] + 11);
		else if (!strncmp(argv[i], "--steps=", 8)) {
			if (spate_option_number("bench", argv[i], 1, 1e12, 1, &x))
				return -SPATE_EINVAL;
			c.steps = (long)x;
		}
		else if (!strcmp(argv[i], "--case=rayleigh_benard"))
			c.rb = 1;
		else if (!strcmp(argv[i], "--case=cavity"))
			c.rb = 0;
		else if (!strcmp(argv[i], "--case=vcycle"))
			c.rb = 2;
		else if (!strncmp(argv[i], "--tol=", 6)) {
			if (spate_option_number("bench", argv[i], 1e-300, 1e300, 0, &c.tol))
				return -SPATE_EINVAL;
		}
		else if (!strcmp(argv[i], "--warm-start=linear"))
			c.warm = BSQ_WARM_LINEAR;
		else if (!strcmp(argv[i], "--warm-start=previous"))
			c.warm = BSQ_WARM_PREVIOUS;
		else {
			spate_log_error("bench", "%s: not an option of the boussinesq bench (--case=cavity|"
				"rayleigh_benard|vcycle, --sizes=NXxNYxNZ,..., --pressure=multigrid,jacobi, "
				"--steps=N, --tol=X, --warm-start=linear|previous, --device=cpu|cuda|auto)",
				argv[i]);
			return -SPATE_EINVAL;
		}
	}
	if (c.steps < 1 || !(c.tol > 0)) {
		spate_log_error("bench", "--steps must be >= 1 and --tol > 0");
		return -SPATE_EINVAL;
	}
	/* every size, before the header */
	for (char *t = strtok_r(sizes, ",", &save); t; t = strtok_r(NULL, ",", &save), n++) {
		if (n == BSQ_BENCH_SIZES || size_of(t, &dims[n])) {
			spate_log_error("bench", "--sizes: %s: NXxNYxNZ, each 4..4096 (ny >= 1), "
				"at most %d sizes", t, BSQ_BENCH_SIZES);
			return -SPATE_EINVAL;
		}
	}
	if (n == 0) {
		spate_log_error("bench", "--sizes: no size (NXxNYxNZ,...)");
		return -SPATE_EINVAL;
	}
	/* and every solver */
	{
		char list[64], *save2 = NULL;
		snprintf(list, sizeof list, "%s", solvers);
		for (char *v = strtok_r(list, ",", &save2); v; v = strtok_r(NULL, ",", &save2))
			if (strcmp(v, "multigrid") && strcmp(v, "jacobi")) {
				spate_log_error("bench", "--pressure: %s: use multigrid or jacobi", v);
				return -SPATE_EINVAL;
			}
	}
	printf("# boussinesq bench, %s, %s precision, tol %g, warm start %s; bytes per cell "
		"counted: %d values a step + %d a V(2,2) cycle or %d a sweep, %zu bytes a value\n",
		c.cuda ? "CUDA" : "CPU", sizeof(bsq_real) == 8 ? "double" : "single", c.tol,
		c.warm == BSQ_WARM_LINEAR ? "linear" : "previous", VALUES_STEP, VALUES_VCYCLE,
		VALUES_SWEEP, sizeof(bsq_real));
	printf("# case              nx x   ny x   nz  pressure   steps  ms/step  cell-steps/s"
		"   work/step       max|div|   GB/s\n");
	for (int i = 0; i < n && !rc; i++) {
		char list[64], *save2 = NULL;
		c.nx = dims[i].nx;
		c.ny = dims[i].ny;
		c.nz = dims[i].nz;
		snprintf(list, sizeof list, "%s", solvers);
		for (char *v = strtok_r(list, ",", &save2); v && !rc; v = strtok_r(NULL, ",", &save2)) {
			c.solver = strcmp(v, "jacobi") ? BSQ_SOLVER_MG : BSQ_SOLVER_JACOBI;
			if (c.rb == 2 && c.solver == BSQ_SOLVER_JACOBI)
				continue; /* V-cycles: multigrid only */
			rc = c.rb == 2 ? bench_vcycle(&c) : bench_one(&c);
		}
	}
	return rc;
}
