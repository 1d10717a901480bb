/* swe_cpu.c: the CPU (OpenMP) backend of the shallow-water module.
 *
 * Loops and indexing only: every formula comes from swe_kern.h.  One step is
 *   1. fill the ghost cells of U^n (boundary conditions, swe_bc.c)
 *   2. L = L(U^n), and the largest face speeds in x and y
 *   3. dt from the CFL bound (swe_cfl_dt), capped at the next stop time
 *   4. Euler: U^{n+1} = finish(U^n + dt L)
 *      RK2:   U* = finish(U^n + dt L) on every cell, ghosts included (the
 *             ghosts of L are mapped like those of U), then
 *             U^{n+1} = finish((U^n + U* + dt L(U*)) / 2)
 * which is exactly what the CUDA backend computes (cuda/swe_cuda_kern.cu fuses
 * the steps into two kernels, with the same functions on the same values).
 * The step is cut into phases (stage1: 1-2, predict: 4 up to U*, correct:
 * stage 2, commit) that the decomposition layer also runs on subdomains of
 * rows (swe_multi.h): a context is a band of global rows, here all of them
 * (swe_cpu_ctx.h).  The right-hand side and its early exit are in swe_cpu_rhs.c,
 * moving rows between subdomains in swe_cpu_sub.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#include "swe_state.h"
#include "swe_bc.h"
#endif
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "spate.h"
#include "swe_cpu.h"
#include "swe_cpu_gauges.h"
#include "swe_cpu_mem.h"
#include "swe_sub.h"
#include "products_kern.h"
#include "swe_guard.h"
#include "swe_backend.h"
#include "setup.h"
#include "forcing.h"

static int cpu_count(void)
{
	return 1;
}

static int cpu_describe(int i, char *buf, size_t len)
{
	char model[128] = "CPU";
	FILE *f = fopen("/proc/cpuinfo", "r");
	int threads = 1;
	(void)i;
	if (f) {
		char line[256];
		while (fgets(line, sizeof line, f)) {
			if (strncmp(line, "model name", 10) == 0) {
				char *c = strchr(line, ':');
				if (c) {
					snprintf(model, sizeof model, "%s", c + 2);
					model[strcspn(model, "\n")] = 0;
				}
				break;
			}
		}
		fclose(f);
	}
#ifdef _OPENMP
	threads = omp_get_max_threads();
#endif
	snprintf(buf, len, "%s (%d OpenMP threads)", model, threads);
	return 0;
}

/* The (sub)domain of global rows [row0, row0 + rows) of g: its own copy of
 * the state and bed, with swe_halo_rows(p) ghost rows at internal edges and
 * SWE_GHOST at global ones (cut from g, so the ghost beds equal the
 * neighbours' real ones); the boundary data of the whole domain. */
static int cpu_sub_init(struct swe_backend_ctx **out, const struct swe_state *g,
	const struct swe_params *p, int row0, int rows, int device)
{
	struct swe_backend_ctx *x = calloc(1, sizeof *x);
	int halo = swe_halo_rows(p), vrows, v0;
	size_t n, off, coff;
	(void)device;
	if (!x)
		return -SPATE_ENOMEM;
	if (p->threads > 0) {
#ifdef _OPENMP
		omp_set_num_threads(p->threads);
#endif
	}
#ifdef _OPENMP
	x->nthreads = omp_get_max_threads();
#else
	x->nthreads = 1;
#endif
	x->halo = halo;
	x->xlo = row0 > 0 ? halo - SWE_GHOST : 0;
	x->xhi = row0 + rows < g->ny ? halo - SWE_GHOST : 0;
	v0 = row0 - x->xlo;
	vrows = rows + x->xlo + x->xhi;
	if (row0 < 0 || rows < SWE_GHOST || row0 + rows > g->ny || v0 < 0 || v0 + vrows > g->ny) {
		free(x);
		return -SPATE_EINVAL;
	}
	n = (size_t)(vrows + 2 * SWE_GHOST) * g->pitch;
	off = (size_t)v0 * g->pitch;
	coff = (size_t)v0 * g->cpitch;
	x->nb = (g->nx + CPU_BLOCK - 1) / CPU_BLOCK;
	if (swe_state_alloc(&x->s, g->nx, vrows, g->dx, g->dy))
		goto nomem;
	x->s.x0 = g->x0;
	x->s.y0 = g->y0 + v0 * g->dy;
	x->s.bref = g->bref;
	memcpy(x->s.w, g->w + off, n * sizeof(real));
	memcpy(x->s.hu, g->hu + off, n * sizeof(real));
	memcpy(x->s.hv, g->hv + off, n * sizeof(real));
	memcpy(x->s.Bm, g->Bm + off, n * sizeof(real));
	memcpy(x->s.Bc, g->Bc + coff, (size_t)(vrows + 2 * SWE_GHOST + 1) * g->cpitch * sizeof(real));
	x->c = swe_coef_of(p);
	if (g->n2) {
		/* friction from the raster, after each step (swe_sources): in the
		 * layout of the cell arrays, every view row that is a grid row,
		 * ghost rows included (as the bed: rows move with their raster) */
		x->n2 = swe_cpu_alloc_like(&x->s);
		if (!x->n2)
			goto nomem;
		for (int j = -SWE_GHOST; j < vrows + SWE_GHOST; j++)
			if (v0 + j >= 0 && v0 + j < g->ny)
				memcpy(x->n2 + (size_t)(j + SWE_GHOST) * g->pitch + SWE_GHOST,
					g->n2 + (size_t)(v0 + j) * g->nx, (size_t)g->nx * sizeof(real));
		x->c.n2 = 0;
	}
	x->src = swe_has_sources(g, p);
	x->max_dt = swe_max_dt(g, p);
	x->early = p->early_exit && x->c.kappa4 > 0;
	if (swe_cpu_alloc_work(x))
		goto nomem;
	swe_bcdev_fill(&x->bcd, g, p);
	x->p = p;
	x->row0 = row0;
	x->rows = rows;
	x->sides = 1u << SWE_WEST | 1u << SWE_EAST | (row0 == 0 ? 1u << SWE_SOUTH : 0) |
		(row0 + rows == g->ny ? 1u << SWE_NORTH : 0);
	*out = x;
	return 0;
nomem:
	spate_log_error("cpu", "out of memory for a %d x %d grid", g->nx, rows);
	spate_backend_cpu.fini(x);
	return -SPATE_ENOMEM;
}

static int cpu_init(struct swe_backend_ctx **out, const struct swe_state *s0,
	const struct swe_params *p, int device)
{
	return cpu_sub_init(out, s0, p, 0, s0->ny, device);
}

/* View rows [*j0, *j1) a stage computes on when its input is valid m[side]
 * rows beyond each internal edge: the owned rows, and m - SWE_GHOST more at
 * each internal edge (ghost cell expansion; none when m = SWE_GHOST). */
static int stage_rows(const struct swe_backend_ctx *x, const int m[2], int *j0, int *j1)
{
	int s = !(x->sides & 1u << SWE_SOUTH), n = !(x->sides & 1u << SWE_NORTH);
	*j0 = x->xlo - (s ? m[0] - SWE_GHOST : 0);
	*j1 = x->xlo + x->rows + (n ? m[1] - SWE_GHOST : 0);
	if ((s && m[0] < SWE_GHOST) || (n && m[1] < SWE_GHOST)) {
		spate_log_error("cpu", "rows %d-%d: a stage without valid ghost rows (%d, %d): "
			"the decomposition skipped a halo exchange", x->row0, x->row0 + x->rows - 1,
			s ? m[0] : SWE_GHOST, n ? m[1] : SWE_GHOST);
		return -SPATE_EINVAL;
	}
	return 0;
}

/* Update the flood products of the owned rows with the current state at
 * time t after dt. */
static void cpu_products(struct swe_backend_ctx *x, double dt)
{
	int nx = x->s.nx, ny = x->rows, o = x->xlo;
	struct swe_view u = swe_cpu_view(x, x->s.w, x->s.hu, x->s.hv);
#pragma omp parallel for schedule(static)
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			long k = swe_vidx(&u, i, o + j);
			swe_prod_update(&x->prod[(size_t)j * nx + i], u.w[k], u.hu[k], u.hv[k],
				x->c.kappa4, x->prod_thr, x->t, dt);
		}
}

static int cpu_products_start(struct swe_backend_ctx *x, real thr)
{
	size_t n = (size_t)x->s.nx * x->rows;
	free(x->prod);
	x->prod = malloc(n * sizeof *x->prod);
	if (!x->prod)
		return -SPATE_ENOMEM;
	for (size_t k = 0; k < n; k++)
		swe_prod_reset(&x->prod[k]);
	x->prod_thr = thr;
	cpu_products(x, 0);
	return 0;
}

static int cpu_products_get(struct swe_backend_ctx *x, struct swe_prod *out)
{
	if (!x->prod)
		return -SPATE_EINVAL;
	memcpy(out, x->prod, (size_t)x->s.nx * x->rows * sizeof *out);
	return 0;
}

static int cpu_products_put(struct swe_backend_ctx *x, const struct swe_prod *in)
{
	if (!x->prod)
		return -SPATE_EINVAL;
	memcpy(x->prod, in, (size_t)x->s.nx * x->rows * sizeof *in);
	return 0;
}

static int cpu_set_time(struct swe_backend_ctx *x, double t, long steps, double last_dt)
{
	(void)last_dt;
	x->t = t;
	x->steps = steps;
	return 0;
}

/* Stage 1 of a step at time t: the boundary conditions of the global edges
 * (swe_bc.c), then L = L(U^n) on the owned rows and the rows of U valid
 * beyond them less the stencil; the largest speeds of the owned faces.
 * U* will be valid SWE_GHOST rows less far. */
static int cpu_stage1(struct swe_backend_ctx *x, double t, double *ax, double *ay)
{
	struct swe_view u = swe_cpu_view(x, x->s.w, x->s.hu, x->s.hv);
	int j0, j1;
	if (stage_rows(x, x->mu, &j0, &j1))
		return -SPATE_EINVAL;
	swe_bc_fill_sides(&u, &x->bcd, x->p, t, x->sides);
	swe_cpu_rhs(x, u, j0, j1, x->xlo, x->xlo + x->rows, ax, ay);
	x->ms[0] = x->mu[0] - SWE_GHOST;
	x->ms[1] = x->mu[1] - SWE_GHOST;
	return 0;
}

/* Euler: U^{n+1} = finish(U^n + dt L) where L is.  RK2: the ghost rates of
 * the global edges, then U* = finish(U^n + dt L) on every cell of the rows
 * of L and of the ghost rows of global edges, ghost columns included; ghost
 * rows of internal edges come from the neighbours. */
static int cpu_predict(struct swe_backend_ctx *x, double dt, double t_new)
{
	struct swe_view u = swe_cpu_view(x, x->s.w, x->s.hu, x->s.hv);
	int nx = x->s.nx, G = SWE_GHOST, j, j0, j1, bad = 0;
	real rdt = (real)dt;
	if (stage_rows(x, x->mu, &j0, &j1))
		return -SPATE_EINVAL;
	(void)t_new;
	if (x->p->integrator == 1) {
#pragma omp parallel for schedule(static) reduction(|:bad)
		for (j = j0; j < j1; j++)
			for (int i = 0; i < nx; i++) {
				long k = swe_vidx(&u, i, j);
				swe_euler_cell(&u, x->Lw, x->Lhu, x->Lhv, k, rdt, x->c,
					&x->w1[k], &x->hu1[k], &x->hv1[k]);
				swe_guard_note(x->w1[k], x->hu1[k], x->hv1[k], &bad);
			}
		x->bad |= bad;
		x->mu[0] = x->ms[0];
		x->mu[1] = x->ms[1];
	} else {
		if (x->sides & 1u << SWE_SOUTH)
			j0 = -G;
		if (x->sides & 1u << SWE_NORTH)
			j1 = x->s.ny + G;
		swe_bc_fill_rate_sides(&u, &x->bcd, x->Lw, x->Lhu, x->Lhv, x->sides);
#pragma omp parallel for schedule(static)
		for (j = j0; j < j1; j++)
			for (int i = -G; i < nx + G; i++) {
				long k = swe_vidx(&u, i, j);
				swe_euler_cell(&u, x->Lw, x->Lhu, x->Lhv, k, rdt, x->c,
					&x->ws[k], &x->hus[k], &x->hvs[k]);
			}
	}
	return 0;
}

/* RK2 stage 2: L(U*), then U^{n+1} = finish((U^n + U* + dt L(U*)) / 2) on the
 * owned rows and the rows of U* valid beyond them less the stencil; the
 * largest speeds of the owned faces of this stage. */
static int cpu_correct(struct swe_backend_ctx *x, double dt, double *ax, double *ay)
{
	struct swe_view u = swe_cpu_view(x, x->s.w, x->s.hu, x->s.hv);
	struct swe_view s = swe_cpu_view(x, x->ws, x->hus, x->hvs);
	int nx = x->s.nx, j, j0, j1, bad = 0;
	real rdt = (real)dt;
	if (stage_rows(x, x->ms, &j0, &j1))
		return -SPATE_EINVAL;
	swe_cpu_rhs(x, s, j0, j1, x->xlo, x->xlo + x->rows, ax, ay);
#pragma omp parallel for schedule(static) reduction(|:bad)
	for (j = j0; j < j1; j++)
		for (int i = 0; i < nx; i++) {
			long k = swe_vidx(&u, i, j);
			swe_rk2_cell(&u, &s, x->Lw, x->Lhu, x->Lhv, k, rdt, x->c,
				&x->w1[k], &x->hu1[k], &x->hv1[k]);
			swe_guard_note(x->w1[k], x->hu1[k], x->hv1[k], &bad);
		}
	x->bad |= bad;
	x->mu[0] = x->ms[0] - SWE_GHOST;
	x->mu[1] = x->ms[1] - SWE_GHOST;
	return 0;
}

/* The sources split from the step (rain, Manning raster) on the rows of
 * the current state the step computed (the owned ones, and with ghost cell
 * expansion the valid ghost rows: they are the neighbours' rows, and must
 * be what the neighbours have), after a step dt.  The ghosts follow at the
 * next stage 1. */
static void cpu_sources(struct swe_backend_ctx *x, double dt)
{
	int nx = x->s.nx, j0, j1, j;
	long g0 = (long)x->row0 - x->xlo;   /* global row of view row 0 */
	struct swe_view u = swe_cpu_view(x, x->s.w, x->s.hu, x->s.hv);
	real rdt = (real)dt;
	j0 = x->xlo - (x->sides & 1u << SWE_SOUTH ? 0 : x->mu[0]);
	j1 = x->xlo + x->rows + (x->sides & 1u << SWE_NORTH ? 0 : x->mu[1]);
#pragma omp parallel for schedule(static)
	for (j = j0; j < j1; j++)
		for (int i = 0; i < nx; i++) {
			long k = swe_vidx(&u, i, j);
			real r = x->rain ? (real)x->rain[(size_t)(g0 + j) * nx + i] : x->rain_u;
			swe_sources(&u.w[k], &u.hu[k], &u.hv[k], r, x->n2 ? x->n2[k] : 0, rdt,
				x->c);
		}
}

static int cpu_set_rain(struct swe_backend_ctx *x, const float *rate, double uniform)
{
	x->rain = rate;
	x->rain_u = (real)uniform;
	return 0;
}

/* U^{n+1} becomes the current state, at time t after a step dt. */
static int cpu_commit(struct swe_backend_ctx *x, double t, double dt)
{
	real *tmp;
	tmp = x->s.w; x->s.w = x->w1; x->w1 = tmp;
	tmp = x->s.hu; x->s.hu = x->hu1; x->hu1 = tmp;
	tmp = x->s.hv; x->s.hv = x->hv1; x->hv1 = tmp;
	x->t = t;
	x->steps++;
	if (x->src)
		cpu_sources(x, dt);
	if (x->prod)
		cpu_products(x, dt);
	swe_cpu_gauges_step(x);
	return 0;
}

/* The single-domain step: the phases above on one subdomain that owns every
 * row (swe_multi.h). */
static int cpu_advance(struct swe_backend_ctx *x, double t_stop, long max_steps,
	struct swe_stats *st)
{
	long n;
	for (n = 0; (max_steps <= 0 || n < max_steps) && x->t < t_stop; n++) {
		double ax, ay, dt, cap = t_stop - x->t;
		cpu_stage1(x, x->t, &ax, &ay);
		dt = swe_cfl_dt(ax, ay, x->s.dx, x->s.dy, x->p->cfl,
			x->max_dt > 0 && x->max_dt < cap ? x->max_dt : cap);
		if (!(dt > 0))
			return -SPATE_ENUMERIC;
		cpu_predict(x, dt, dt >= cap ? t_stop : x->t + dt);
		if (x->p->integrator != 1)
			cpu_correct(x, dt, &ax, &ay);
		cpu_commit(x, dt >= cap ? t_stop : x->t + dt, dt);
		st->last_dt = dt;
		st->amax = ax > ay ? ax : ay;
	}
	st->steps = x->steps;
	st->t = x->t;
	return 0;
}

static int cpu_download(struct swe_backend_ctx *x, struct swe_state *s)
{
	size_t n = (size_t)(s->ny + 2 * SWE_GHOST) * s->pitch * sizeof(real);
	memcpy(s->w, x->s.w, n);
	memcpy(s->hu, x->s.hu, n);
	memcpy(s->hv, x->s.hv, n);
	return 0;
}

static void cpu_fini(struct swe_backend_ctx *x)
{
	if (!x)
		return;
	swe_cpu_free_work(x);
	swe_cpu_gauges_free(x);
	free(x->rowbuf);
	free(x->prod);
	free(x->good);
	free(x->good_prod);
	free(x);
}

static int cpu_set_early(struct swe_backend_ctx *x, int on)
{
	x->early = on && x->c.kappa4 > 0;
	return 0;
}

static int cpu_activity(struct swe_backend_ctx *x, int *work, int box[4])
{
	swe_cpu_activity(x, work, box);
	return 0;
}

const struct swe_sub_ops swe_cpu_sub_ops = {
	.name = "cpu",
	.init = cpu_sub_init,
	.stage1 = cpu_stage1,
	.predict = cpu_predict,
	.correct = cpu_correct,
	.commit = cpu_commit,
	.rows_get = swe_cpu_rows_get,
	.rows_put = swe_cpu_rows_put,
	.sample = swe_cpu_sample,
	.gauges_start = swe_cpu_gauges_start,
	.gauges_rows = swe_cpu_gauges_rows,
	.gauges_get = swe_cpu_gauges_get,
	.products_start = cpu_products_start,
	.products_get = cpu_products_get,
	.fini = cpu_fini,
	.mid_stage = SWE_STAGE_USTAR, /* synchronous: no speeds, interior, halo_* */
	.expand = 1,
	.concurrent = 0,
	.set_early = cpu_set_early,
	.activity = cpu_activity,
	.rows_bytes = swe_cpu_rows_bytes,
	.rows_pack = swe_cpu_rows_pack,
	.rows_resize = swe_cpu_rows_resize,
	.products_put = cpu_products_put,
	.set_rain = cpu_set_rain,
	.guard = swe_cpu_guard,
};

const struct spate_backend spate_backend_cpu = {
	"cpu", cpu_count, cpu_describe, cpu_init, cpu_advance, cpu_download, cpu_fini, swe_cpu_sample,
	cpu_products_start, cpu_products_get, cpu_set_time, cpu_products_put, cpu_set_rain,
	NULL, NULL, NULL, /* gauges: sampled by the driver after every step */
	swe_cpu_guard
};
