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
 * rows (swe_multi.h): a context is a band of global rows, here all of them. */
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
#include "swe_multi.h"
#include "products_kern.h"

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
	struct swe_prod *prod;     /* flood products, or NULL */
	real prod_thr;
	double t;
	long steps;
	int row0;                  /* first global row of this (sub)domain */
	unsigned sides;            /* bit per side (enum swe_side) that is a global
	                              edge: west and east always */
	int early;                 /* skip dry rows in the rhs ([parallel] early_exit) */
	unsigned char *rowsafe;    /* rows -1..ny: 1 where every cell -1..nx has a bed
	                              on which depth 0 reconstructs to depth 0 at all
	                              faces (see bed_row_safe) */
};

long swe_cpu_rows_skipped;

static size_t rowbuf_bytes(int nx);
static void mark_safe_rows(struct swe_backend_ctx *x);

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

/* The (sub)domain of global rows [row0, row0 + rows) of g: its own copy of
 * the state and bed, ghost rows included (cut from g, so the ghost beds equal
 * the neighbours' real ones); the boundary data of the whole domain. */
static int cpu_sub_init(struct swe_backend_ctx **out, const struct swe_state *g,
	const struct swe_params *p, int row0, int rows, int device)
{
	struct swe_backend_ctx *x = calloc(1, sizeof *x);
	size_t n = (size_t)(rows + 2 * SWE_GHOST) * g->pitch;
	size_t off = (size_t)row0 * g->pitch, coff = (size_t)row0 * g->cpitch;
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
	if (row0 < 0 || rows < SWE_GHOST || row0 + rows > g->ny) {
		free(x);
		return -SPATE_EINVAL;
	}
	if (swe_state_alloc(&x->s, g->nx, rows, g->dx, g->dy))
		goto nomem;
	x->s.x0 = g->x0;
	x->s.y0 = g->y0 + row0 * g->dy;
	x->s.bref = g->bref;
	memcpy(x->s.w, g->w + off, n * sizeof(real));
	memcpy(x->s.hu, g->hu + off, n * sizeof(real));
	memcpy(x->s.hv, g->hv + off, n * sizeof(real));
	memcpy(x->s.Bm, g->Bm + off, n * sizeof(real));
	memcpy(x->s.Bc, g->Bc + coff, (size_t)(rows + 2 * SWE_GHOST + 1) * g->cpitch * sizeof(real));
	x->w1 = alloc_like(&x->s);
	x->hu1 = alloc_like(&x->s);
	x->hv1 = alloc_like(&x->s);
	x->ws = alloc_like(&x->s);
	x->hus = alloc_like(&x->s);
	x->hvs = alloc_like(&x->s);
	x->Lw = alloc_like(&x->s);
	x->Lhu = alloc_like(&x->s);
	x->Lhv = alloc_like(&x->s);
	x->rowbuf = spate_alloc((size_t)x->nthreads * rowbuf_bytes(g->nx));
	if (!x->w1 || !x->hu1 || !x->hv1 || !x->ws || !x->hus || !x->hvs || !x->Lw ||
		!x->Lhu || !x->Lhv || !x->rowbuf)
		goto nomem;
	x->c = swe_coef_of(p);
	swe_bcdev_fill(&x->bcd, g, p);
	x->p = p;
	x->row0 = row0;
	x->rowsafe = malloc((size_t)rows + 2);
	if (!x->rowsafe)
		goto nomem;
	x->early = p->early_exit && x->c.kappa4 > 0;
	mark_safe_rows(x);
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

/* Early exit.  A cell of depth exactly 0 (w <= Bm) reconstructs to depth 0
 * at all four faces whatever its neighbours: when its level is below its
 * highest face bed it is partially flooded at level L = its lowest face bed
 * (kp07_cell_level of depth 0); when not, its bed is flat and the limited
 * surface, tilted onto the bed if need be, stays at the bed.  The
 * central-upwind flux between two faces of depth 0 is exactly (0, 0, 0) and
 * so is the bed source: a row whose cells -1..nx are dry, as are those of the
 * rows either side, has L = (-0, +0, +0) exactly, the bits swe_rhs gives
 * from those fluxes.  The one bed that breaks this is one whose centre bed
 * Bm rounds to its highest face bed while its face beds differ (full
 * reconstruction over a sloping bed): rows holding such a cell are never
 * skipped. */
static int bed_cell_safe(const struct swe_view *v, int i, int j)
{
	real Bw, Be, Bs, Bn, B = v->Bm[swe_vidx(v, i, j)], top;
	swe_face_beds(v, i, j, &Bw, &Be, &Bs, &Bn);
	top = swe_max(swe_max(Bw, Be), swe_max(Bs, Bn));
	return B < top || (Bw == B && Be == B && Bs == B && Bn == B);
}

static void mark_safe_rows(struct swe_backend_ctx *x)
{
	struct swe_view v = view_of(x, x->s.w, x->s.hu, x->s.hv);
	for (int j = -1; j <= v.ny; j++) {
		int ok = 1;
		for (int i = -1; ok && i <= v.nx; i++)
			ok = bed_cell_safe(&v, i, j);
		x->rowsafe[j + 1] = (unsigned char)ok;
	}
}

/* Whether row j (-1..ny) of v is dry: every cell -1..nx at depth 0 on a safe
 * bed. */
static int row_dry(const struct swe_backend_ctx *x, const struct swe_view *v, int j)
{
	long k = swe_vidx(v, -1, j);
	if (!x->rowsafe[j + 1])
		return 0;
	for (int i = -1; i <= v->nx; i++, k++)
		if (!(v->w[k] <= v->Bm[k]))
			return 0;
	return 1;
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
	int early = x->early, fresh = 1, dm = 0, d0 = 0, dp = 0;
	long skipped = 0;
	if (early) {
		dm = row_dry(x, v, j0 - 1);
		d0 = row_dry(x, v, j0);
	}
	for (int j = j0; j < j1; j++) {
		if (early) {
			/* dm, d0, dp: rows j-1, j, j+1 dry */
			dp = row_dry(x, v, j + 1);
			if (dm && d0 && dp) {
				for (int i = 0; i < nx; i++) {
					long k = swe_vidx(v, i, j);
					x->Lw[k] = -(real)0;
					x->Lhu[k] = 0;
					x->Lhv[k] = 0;
				}
				/* the face speeds of the fluxes skipped: -0 */
				*mx = swe_max(*mx, -(real)0);
				*my = swe_max(*my, -(real)0);
				skipped++;
				fresh = 1;
				dm = d0;
				d0 = dp;
				continue;
			}
			dm = d0;
			d0 = dp;
		}
		if (fresh) {
			/* the y faces of rows j-1 and j, the flux between them */
			recon_row_y(v, c, j - 1, r.ys1, r.yn1);
			recon_row_y(v, c, j, r.ys, r.yn);
			for (int i = 0; i < nx; i++) {
				r.gs[i] = kp07_central_upwind(r.yn1[i], r.ys[i], c);
				*my = swe_max(*my, r.gs[i].a);
			}
			fresh = 0;
		}
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
	if (skipped) {
#pragma omp atomic
		swe_cpu_rows_skipped += skipped;
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

/* Update the flood products with the current state at time t after dt. */
static void cpu_products(struct swe_backend_ctx *x, double dt)
{
	int nx = x->s.nx, ny = x->s.ny;
	struct swe_view u = view_of(x, x->s.w, x->s.hu, x->s.hv);
#pragma omp parallel for schedule(static)
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			long k = swe_vidx(&u, i, j);
			swe_prod_update(&x->prod[(size_t)j * nx + i], u.w[k] - u.Bm[k], u.hu[k], u.hv[k],
				x->c.kappa4, x->prod_thr, x->t, dt);
		}
}

static int cpu_products_start(struct swe_backend_ctx *x, real thr)
{
	size_t n = (size_t)x->s.nx * x->s.ny;
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
	memcpy(out, x->prod, (size_t)x->s.nx * x->s.ny * sizeof *out);
	return 0;
}

static int cpu_products_put(struct swe_backend_ctx *x, const struct swe_prod *in)
{
	if (!x->prod)
		return -SPATE_EINVAL;
	memcpy(x->prod, in, (size_t)x->s.nx * x->s.ny * sizeof *in);
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
 * (swe_bc.c), then L = L(U^n); the largest face speeds in x and y. */
static int cpu_stage1(struct swe_backend_ctx *x, double t, double *ax, double *ay)
{
	struct swe_view u = view_of(x, x->s.w, x->s.hu, x->s.hv);
	swe_bc_fill_sides(&u, &x->bcd, x->p, t, x->sides);
	cpu_rhs(x, u, ax, ay);
	return 0;
}

/* Euler: U^{n+1} = finish(U^n + dt L) on the interior.  RK2: the ghost rates
 * of the global edges, then U* = finish(U^n + dt L) on every cell of the
 * interior rows and of the ghost rows of global edges, ghost columns
 * included; ghost rows of internal edges come from the neighbours. */
static int cpu_predict(struct swe_backend_ctx *x, double dt)
{
	struct swe_view u = view_of(x, x->s.w, x->s.hu, x->s.hv);
	int nx = x->s.nx, ny = x->s.ny, G = SWE_GHOST, j;
	real rdt = (real)dt;
	if (x->p->integrator == 1) {
#pragma omp parallel for schedule(static)
		for (j = 0; j < ny; j++)
			for (int i = 0; i < nx; i++) {
				long k = swe_vidx(&u, i, j);
				swe_euler_cell(&u, x->Lw, x->Lhu, x->Lhv, k, rdt, x->c,
					&x->w1[k], &x->hu1[k], &x->hv1[k]);
			}
	} else {
		int j0 = x->sides & 1u << SWE_SOUTH ? -G : 0;
		int j1 = ny + (x->sides & 1u << SWE_NORTH ? G : 0);
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
 * interior; the largest face speeds of this stage. */
static int cpu_correct(struct swe_backend_ctx *x, double dt, double *ax, double *ay)
{
	struct swe_view u = view_of(x, x->s.w, x->s.hu, x->s.hv);
	struct swe_view s = view_of(x, x->ws, x->hus, x->hvs);
	int nx = x->s.nx, ny = x->s.ny, j;
	real rdt = (real)dt;
	cpu_rhs(x, s, ax, ay);
#pragma omp parallel for schedule(static)
	for (j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			long k = swe_vidx(&u, i, j);
			swe_rk2_cell(&u, &s, x->Lw, x->Lhu, x->Lhv, k, rdt, x->c,
				&x->w1[k], &x->hu1[k], &x->hv1[k]);
		}
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
	if (x->prod)
		cpu_products(x, dt);
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
		dt = swe_cfl_dt(ax, ay, x->s.dx, x->s.dy, x->p->cfl, cap);
		if (!(dt > 0))
			return -SPATE_ENUMERIC;
		cpu_predict(x, dt);
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
	free(x->rowsafe);
	free(x->prod);
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

/* Copy local rows [j0, j1) of U or U* to or from three row blocks. */
static int cpu_rows_copy(struct swe_backend_ctx *x, int stage, int j0, int j1, real *w,
	real *hu, real *hv, int put)
{
	real *a[3];
	real *b[3];
	size_t off = (size_t)(j0 + SWE_GHOST) * x->s.pitch;
	size_t n = (size_t)(j1 - j0) * x->s.pitch * sizeof(real);
	if (j0 < -SWE_GHOST || j1 > x->s.ny + SWE_GHOST || j0 > j1)
		return -SPATE_EINVAL;
	a[0] = (stage == SWE_STAGE_U ? x->s.w : x->ws) + off;
	a[1] = (stage == SWE_STAGE_U ? x->s.hu : x->hus) + off;
	a[2] = (stage == SWE_STAGE_U ? x->s.hv : x->hvs) + off;
	b[0] = w;
	b[1] = hu;
	b[2] = hv;
	for (int f = 0; f < 3; f++)
		memcpy(put ? a[f] : b[f], put ? b[f] : a[f], n);
	return 0;
}

static int cpu_rows_get(struct swe_backend_ctx *x, int stage, int j0, int j1, real *w,
	real *hu, real *hv)
{
	return cpu_rows_copy(x, stage, j0, j1, w, hu, hv, 0);
}

static int cpu_rows_put(struct swe_backend_ctx *x, int stage, int j0, int j1, const real *w,
	const real *hu, const real *hv)
{
	return cpu_rows_copy(x, stage, j0, j1, (real *)w, (real *)hu, (real *)hv, 1);
}

const struct swe_sub_ops swe_cpu_sub_ops = {
	"cpu", cpu_sub_init, cpu_stage1, cpu_predict, cpu_correct, cpu_commit, cpu_rows_get,
	cpu_rows_put, cpu_sample, cpu_products_start, cpu_products_get, cpu_fini,
	cpu_products_put
};

const struct spate_backend spate_backend_cpu = {
	"cpu", cpu_count, cpu_describe, cpu_init, cpu_advance, cpu_download, cpu_fini, cpu_sample,
	cpu_products_start, cpu_products_get, cpu_set_time, cpu_products_put
};
