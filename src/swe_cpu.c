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
 * the steps into two kernels, with the same functions on the same values). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "spate.h"
#include "swe.h"
#include "swe_step.h"

struct swe_backend_ctx {
	struct swe_state s;        /* current state (owned arrays) */
	real *w1, *hu1, *hv1;      /* next state */
	real *ws, *hus, *hvs;      /* RK2 intermediate U* */
	real *Lw, *Lhu, *Lhv;      /* right-hand side */
	void *rowbuf;              /* per thread: struct rowbuf */
	int nthreads;
	struct swe_coef c;
	struct swe_bcdev bcd;
	const struct swe_params *p;
	double t;
	long steps;
};

static size_t rowbuf_bytes(int nx);

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

static real *alloc_like(const struct swe_state *s)
{
	size_t n = (size_t)(s->ny + 2 * SWE_GHOST) * s->pitch;
	real *a = spate_alloc(n * sizeof(real));
	if (a)
		memset(a, 0, n * sizeof(real));
	return a;
}

static int cpu_init(struct swe_backend_ctx **out, const struct swe_state *s0,
	const struct swe_params *p, int device)
{
	struct swe_backend_ctx *x = calloc(1, sizeof *x);
	size_t n = (size_t)(s0->ny + 2 * SWE_GHOST) * s0->pitch;
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
	if (swe_state_alloc(&x->s, s0->nx, s0->ny, s0->dx, s0->dy))
		goto nomem;
	x->s.x0 = s0->x0;
	x->s.y0 = s0->y0;
	x->s.bref = s0->bref;
	memcpy(x->s.w, s0->w, n * sizeof(real));
	memcpy(x->s.hu, s0->hu, n * sizeof(real));
	memcpy(x->s.hv, s0->hv, n * sizeof(real));
	memcpy(x->s.Bm, s0->Bm, n * sizeof(real));
	memcpy(x->s.Bc, s0->Bc, (size_t)(s0->ny + 2 * SWE_GHOST + 1) * s0->cpitch * sizeof(real));
	x->w1 = alloc_like(s0);
	x->hu1 = alloc_like(s0);
	x->hv1 = alloc_like(s0);
	x->ws = alloc_like(s0);
	x->hus = alloc_like(s0);
	x->hvs = alloc_like(s0);
	x->Lw = alloc_like(s0);
	x->Lhu = alloc_like(s0);
	x->Lhv = alloc_like(s0);
	x->rowbuf = spate_alloc((size_t)x->nthreads * rowbuf_bytes(s0->nx));
	if (!x->w1 || !x->hu1 || !x->hv1 || !x->ws || !x->hus || !x->hvs || !x->Lw ||
		!x->Lhu || !x->Lhv || !x->rowbuf)
		goto nomem;
	x->c = swe_coef_of(p);
	swe_bcdev_fill(&x->bcd, s0, p);
	x->p = p;
	*out = x;
	return 0;
nomem:
	spate_log_error("cpu", "out of memory for a %d x %d grid", s0->nx, s0->ny);
	spate_backend_cpu.fini(x);
	return -SPATE_ENOMEM;
}

/* A state's arrays as the step functions see them. */
static struct swe_view view_of(const struct swe_backend_ctx *x, real *w, real *hu, real *hv)
{
	struct swe_view v;
	v.w = w;
	v.hu = hu;
	v.hv = hv;
	v.Bc = x->s.Bc;
	v.Bm = x->s.Bm;
	v.nx = x->s.nx;
	v.ny = x->s.ny;
	v.pitch = x->s.pitch;
	v.cpitch = x->s.cpitch;
	v.inv_dx = (real)(1.0 / x->s.dx);
	v.inv_dy = (real)(1.0 / x->s.dy);
	return v;
}

/* Per-thread row buffers: reconstructed faces and fluxes of one row. */
struct rowbuf {
	struct kp07_face *xw, *xe;   /* x faces of cells -1..nx */
	struct kp07_face *ys, *yn;   /* y faces of the current row */
	struct kp07_face *ys1, *yn1; /* y faces of the next row */
	struct kp07_flux *fx, *gs, *gn;
};

static size_t rowbuf_bytes(int nx)
{
	return (size_t)(nx + 2) * (6 * sizeof(struct kp07_face) + 3 * sizeof(struct kp07_flux));
}

static struct rowbuf rowbuf_of(void *base, int nx)
{
	struct rowbuf r;
	struct kp07_face *f = base;
	size_t n = (size_t)nx + 2;
	r.xw = f;
	r.xe = f + n;
	r.ys = f + 2 * n;
	r.yn = f + 3 * n;
	r.ys1 = f + 4 * n;
	r.yn1 = f + 5 * n;
	r.fx = (struct kp07_flux *)(f + 6 * n);
	r.gs = r.fx + n;
	r.gn = r.gs + n;
	return r;
}

/* Reconstruct row j along y into (s, n). */
static void recon_row_y(const struct swe_view *v, struct swe_coef c, int j, struct kp07_face *s,
	struct kp07_face *n)
{
	for (int i = 0; i < v->nx; i++)
		swe_recon_y(v, c, i, j, &s[i], &n[i]);
}

/* L = L(U) on rows [j0, j1); each cell is reconstructed once per direction
 * and each face flux computed once (faces between two threads' rows twice,
 * by the same code: the same bits).  Returns the largest face speeds. */
static void rhs_rows(struct swe_backend_ctx *x, const struct swe_view *v, struct rowbuf r,
	int j0, int j1, real *mx, real *my)
{
	struct swe_coef c = x->c;
	int nx = v->nx;
	struct kp07_face *t;
	struct kp07_flux *tf;
	recon_row_y(v, c, j0 - 1, r.ys1, r.yn1);
	recon_row_y(v, c, j0, r.ys, r.yn);
	for (int i = 0; i < nx; i++) {
		r.gs[i] = kp07_central_upwind(r.yn1[i], r.ys[i], c);
		*my = swe_max(*my, r.gs[i].a);
	}
	for (int j = j0; j < j1; j++) {
		for (int i = -1; i <= nx; i++)
			swe_recon_x(v, c, i, j, &r.xw[i + 1], &r.xe[i + 1]);
		recon_row_y(v, c, j + 1, r.ys1, r.yn1);
		for (int i = 0; i <= nx; i++) {
			r.fx[i] = kp07_central_upwind(r.xe[i], r.xw[i + 1], c);
			*mx = swe_max(*mx, r.fx[i].a);
		}
		for (int i = 0; i < nx; i++) {
			r.gn[i] = kp07_central_upwind(r.yn[i], r.ys1[i], c);
			*my = swe_max(*my, r.gn[i].a);
		}
		for (int i = 0; i < nx; i++) {
			long k = swe_vidx(v, i, j);
			real Sx = kp07_bed_source(r.xw[i + 1], r.xe[i + 1], c.g, v->inv_dx);
			real Sy = kp07_bed_source(r.ys[i], r.yn[i], c.g, v->inv_dy);
			swe_rhs(r.fx[i], r.fx[i + 1], r.gs[i], r.gn[i], Sx, Sy, v->inv_dx, v->inv_dy,
				&x->Lw[k], &x->Lhu[k], &x->Lhv[k]);
		}
		t = r.ys; r.ys = r.ys1; r.ys1 = t;
		t = r.yn; r.yn = r.yn1; r.yn1 = t;
		tf = r.gs; r.gs = r.gn; r.gn = tf;
	}
}

/* L = L(U) on every interior cell; returns the largest face speeds. */
static void cpu_rhs(struct swe_backend_ctx *x, struct swe_view v, double *ax, double *ay)
{
	real mx = 0, my = 0;
#pragma omp parallel reduction(max : mx, my)
	{
		int tid = 0, nt = 1;
#ifdef _OPENMP
		tid = omp_get_thread_num();
		nt = omp_get_num_threads();
#endif
		int j0 = (int)((long)v.ny * tid / nt), j1 = (int)((long)v.ny * (tid + 1) / nt);
		if (j0 < j1)
			rhs_rows(x, &v, rowbuf_of((char *)x->rowbuf + (size_t)tid *
				rowbuf_bytes(v.nx), v.nx), j0, j1, &mx, &my);
	}
	*ax = mx;
	*ay = my;
}

static int cpu_advance(struct swe_backend_ctx *x, double t_stop, long max_steps,
	struct swe_stats *st)
{
	long n;
	int nx = x->s.nx, ny = x->s.ny, G = SWE_GHOST;
	for (n = 0; (max_steps <= 0 || n < max_steps) && x->t < t_stop; n++) {
		struct swe_view u = view_of(x, x->s.w, x->s.hu, x->s.hv);
		double ax, ay, dt, cap = t_stop - x->t;
		real rdt;
		int j;

		swe_bc_fill(&u, &x->bcd, x->p, x->t);
		cpu_rhs(x, u, &ax, &ay);
		dt = swe_cfl_dt(ax, ay, x->s.dx, x->s.dy, x->p->cfl, cap);
		if (!(dt > 0))
			return -SPATE_ENUMERIC;
		rdt = (real)dt;
		if (x->p->integrator == 1) {
#pragma omp parallel for schedule(static)
			for (j = 0; j < ny; j++)
				for (int i = 0; i < nx; i++) {
					long k = swe_vidx(&u, i, j);
					swe_euler_cell(&u, x->Lw, x->Lhu, x->Lhv, k, rdt, x->c,
						&x->w1[k], &x->hu1[k], &x->hv1[k]);
				}
		} else {
			struct swe_view s;
			swe_bc_fill_rate(&u, &x->bcd, x->Lw, x->Lhu, x->Lhv);
#pragma omp parallel for schedule(static)
			for (j = -G; j < ny + G; j++)
				for (int i = -G; i < nx + G; i++) {
					long k = swe_vidx(&u, i, j);
					swe_euler_cell(&u, x->Lw, x->Lhu, x->Lhv, k, rdt, x->c,
						&x->ws[k], &x->hus[k], &x->hvs[k]);
				}
			s = view_of(x, x->ws, x->hus, x->hvs);
			cpu_rhs(x, s, &ax, &ay);
#pragma omp parallel for schedule(static)
			for (j = 0; j < ny; j++)
				for (int i = 0; i < nx; i++) {
					long k = swe_vidx(&u, i, j);
					swe_rk2_cell(&u, &s, x->Lw, x->Lhu, x->Lhv, k, rdt, x->c,
						&x->w1[k], &x->hu1[k], &x->hv1[k]);
				}
		}
		{
			real *t;
			t = x->s.w; x->s.w = x->w1; x->w1 = t;
			t = x->s.hu; x->s.hu = x->hu1; x->hu1 = t;
			t = x->s.hv; x->s.hv = x->hv1; x->hv1 = t;
		}
		x->t = dt >= cap ? t_stop : x->t + dt;
		x->steps++;
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
	swe_state_free(&x->s);
	free(x->w1);
	free(x->hu1);
	free(x->hv1);
	free(x->ws);
	free(x->hus);
	free(x->hvs);
	free(x->Lw);
	free(x->Lhu);
	free(x->Lhv);
	free(x->rowbuf);
	free(x);
}

static int cpu_sample(struct swe_backend_ctx *x, const long *idx, int n, real *w, real *hu,
	real *hv)
{
	for (int k = 0; k < n; k++) {
		w[k] = x->s.w[idx[k]];
		hu[k] = x->s.hu[idx[k]];
		hv[k] = x->s.hv[idx[k]];
	}
	return 0;
}

const struct spate_backend spate_backend_cpu = {
	"cpu", cpu_count, cpu_describe, cpu_init, cpu_advance, cpu_download, cpu_fini, cpu_sample
};
