/* swe_multi.c: the shallow-water module on many subdomains: in this process
 * and across MPI ranks (decomp.h), each subdomain run by the step phases of a
 * device backend (swe_multi.h).  One step:
 *   1. halo exchange of U^n (ghost rows of internal edges)
 *   2. stage 1 on every subdomain: boundary conditions of the global edges
 *      it touches, L(U^n), its largest face speeds
 *   3. the global maxima of the speeds (exact: max does not round), so
 *      every subdomain and rank takes the same dt (swe_cfl_dt)
 *   4. predict: Euler U^{n+1}, or RK2 U* on the interior and global-edge
 *      ghost rows (the single-domain code computes U* on ghosts from ghost U
 *      and ghost rates; at internal edges those are the neighbour's cells)
 *   5. RK2: halo exchange of U*, then correct: L(U*), U^{n+1}
 *   6. commit
 * Each cell and face sees the same values through the same functions as in
 * the single-domain step, so the results are bitwise identical for any
 * number of subdomains, any workload split and any rank count. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_kern.h"
#include "swe_multi.h"
#include "decomp.h"
#include "products_kern.h"

/* The decomposed run; the backend table's context (cast at the entry points). */
struct multi {
	const struct swe_sub_ops *ops;
	const struct swe_params *p;
	struct decomp d;
	struct halo_plan halo;
	struct swe_backend_ctx *sub[DECOMP_MAX]; /* NULL where on another rank */
	int nx, ny, pitch;
	int stage;               /* which copy the halo callbacks move */
	double dx, dy, t;
	long steps;
	double amax;             /* this rank's largest speed of the last stage */
	double t_compute[DECOMP_MAX], t_exchange[DECOMP_MAX], t_wait[DECOMP_MAX];
};

static char multi_desc[256] = "cpu";

/* Subdomains of a run: the workloads given, else [parallel] subdomains,
 * else one per MPI rank. */
static int multi_count(const struct swe_params *p)
{
	int P = decomp_world_size();
	if (p->nworkload > 0)
		return p->nworkload;
	return p->subdomains > 1 ? p->subdomains : P;
}

const struct spate_backend *swe_backend_for(const struct swe_params *p)
{
	int n = multi_count(p), P = decomp_world_size();
	const struct spate_backend *be;
	if (n <= 1 && P == 1)
		return spate_backend_select(p->device);
	if (strcmp(p->device, "cuda") == 0) {
		spate_log_error("decomp", "--device=cuda with %d subdomain%s on %d MPI rank%s: the "
			"multi-GPU decomposition is not built yet; use --device=cpu, or one subdomain "
			"on one rank", n, n > 1 ? "s" : "", P, P > 1 ? "s" : "");
		return NULL;
	}
	be = spate_backend_select("cpu");
	if (!be)
		return NULL;
	be->describe(0, multi_desc, sizeof multi_desc);
	snprintf(multi_desc + strlen(multi_desc), sizeof multi_desc - strlen(multi_desc),
		", %d subdomain%s on %d MPI rank%s", n, n > 1 ? "s" : "", P, P > 1 ? "s" : "");
	return &spate_backend_multi;
}

static int multi_count_dev(void)
{
	return 1;
}

static int multi_describe(int i, char *buf, size_t len)
{
	(void)i;
	snprintf(buf, len, "%s", multi_desc);
	return 0;
}

/* ---- halo callbacks: the G rows next to an edge of U or U* */

static int halo_get(void *user, int k, int side, void *buf)
{
	struct multi *m = user;
	int rows = m->d.part[k].rows, j0 = side ? rows - SWE_GHOST : 0;
	real *b = buf;
	size_t f = (size_t)SWE_GHOST * m->pitch;
	return m->ops->rows_get(m->sub[k], m->stage, j0, j0 + SWE_GHOST, b, b + f, b + 2 * f);
}

static int halo_put(void *user, int k, int side, const void *buf)
{
	struct multi *m = user;
	int rows = m->d.part[k].rows, j0 = side ? rows : -SWE_GHOST;
	const real *b = buf;
	size_t f = (size_t)SWE_GHOST * m->pitch;
	return m->ops->rows_put(m->sub[k], m->stage, j0, j0 + SWE_GHOST, b, b + f, b + 2 * f);
}

static int exchange(struct multi *m, int stage)
{
	struct halo_ops h;
	h.user = m;
	h.get = halo_get;
	h.put = halo_put;
	m->stage = stage;
	return halo_exchange(&m->halo, &h, m->t_exchange);
}

static void multi_fini(struct swe_backend_ctx *ctx);

static int multi_init(struct swe_backend_ctx **out, const struct swe_state *s,
	const struct swe_params *p, int device)
{
	struct multi *m = calloc(1, sizeof *m);
	int rc;
	if (!m)
		return -SPATE_ENOMEM;
	m->ops = &swe_cpu_sub_ops;
	m->p = p;
	m->nx = s->nx;
	m->ny = s->ny;
	m->pitch = s->pitch;
	m->dx = s->dx;
	m->dy = s->dy;
	rc = decomp_plan(&m->d, s->ny, multi_count(p), p->nworkload ? p->workload : NULL,
		SWE_GHOST, "[parallel]");
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->init(&m->sub[k], s, p, m->d.part[k].row0, m->d.part[k].rows, device);
	if (!rc)
		rc = halo_plan_build(&m->halo, &m->d, 3 * (size_t)SWE_GHOST * s->pitch * sizeof(real));
	if (rc) {
		multi_fini((struct swe_backend_ctx *)m);
		return rc;
	}
	*out = (struct swe_backend_ctx *)m;
	return 0;
}

/* Stage 1 everywhere, then the global maximum speeds (*ax, *ay). */
static int stage1_all(struct multi *m, double *ax, double *ay)
{
	double v[2] = { 0, 0 }, wait = 0;
	int rc = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double a, b, t0 = spate_now();
		rc = m->ops->stage1(m->sub[k], m->t, &a, &b);
		v[0] = a > v[0] ? a : v[0];
		v[1] = b > v[1] ? b : v[1];
		m->t_compute[k] += spate_now() - t0;
	}
	if (!rc)
		rc = decomp_max(v, 2, &wait);
	for (int k = m->d.first; k < m->d.last; k++)
		m->t_wait[k] += wait;
	*ax = v[0];
	*ay = v[1];
	return rc;
}

/* Predict, [exchange U*, correct], commit everywhere; m->amax: this rank's
 * largest speed of the last stage. */
static int finish_all(struct multi *m, double dt, double t_new, double amax1)
{
	int rk2 = m->p->integrator != 1, rc = 0;
	double amax = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double t0 = spate_now();
		rc = m->ops->predict(m->sub[k], dt);
		m->t_compute[k] += spate_now() - t0;
	}
	if (rk2 && !rc)
		rc = exchange(m, SWE_STAGE_USTAR);
	for (int k = m->d.first; k < m->d.last && rk2 && !rc; k++) {
		double a, b, t0 = spate_now();
		rc = m->ops->correct(m->sub[k], dt, &a, &b);
		amax = a > amax ? a : amax;
		amax = b > amax ? b : amax;
		m->t_compute[k] += spate_now() - t0;
	}
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double t0 = spate_now();
		rc = m->ops->commit(m->sub[k], t_new, dt);
		m->t_compute[k] += spate_now() - t0;
	}
	m->amax = rk2 ? amax : amax1;
	return rc;
}

static int multi_advance(struct swe_backend_ctx *ctx, double t_stop, long max_steps,
	struct swe_stats *st)
{
	struct multi *m = (struct multi *)ctx;
	double v[2];
	long n;
	int rc;
	/* every rank must take the same steps: rank 0's chunk decides */
	v[0] = t_stop;
	v[1] = (double)max_steps;
	if ((rc = decomp_bcast(v, 2)))
		return rc;
	t_stop = v[0];
	max_steps = (long)v[1];
	for (n = 0; (max_steps <= 0 || n < max_steps) && m->t < t_stop; n++) {
		double ax, ay, dt, cap = t_stop - m->t, t_new;
		if ((rc = exchange(m, SWE_STAGE_U)) || (rc = stage1_all(m, &ax, &ay)))
			return rc;
		dt = swe_cfl_dt(ax, ay, m->dx, m->dy, m->p->cfl, cap);
		if (!(dt > 0))
			return -SPATE_ENUMERIC;
		t_new = dt >= cap ? t_stop : m->t + dt;
		if ((rc = finish_all(m, dt, t_new, ax > ay ? ax : ay)))
			return rc;
		m->t = t_new;
		m->steps++;
		st->last_dt = dt;
	}
	if (n > 0) {
		v[0] = m->amax;
		if ((rc = decomp_max(v, 1, NULL)))
			return rc;
		st->amax = v[0];
	}
	st->steps = m->steps;
	st->t = m->t;
	return 0;
}

/* Planes [lo, hi) of the global arrays (ghost rows counted from 0) held by
 * rank r: its subdomains' rows, and the ghost rows of the global edges. */
static void rank_planes(const struct multi *m, int r, int *lo, int *hi)
{
	int first = (int)((long)m->d.n * r / m->d.nranks);
	int last = (int)((long)m->d.n * (r + 1) / m->d.nranks) - 1;
	*lo = first == 0 ? 0 : m->d.part[first].row0 + SWE_GHOST;
	*hi = last == m->d.n - 1 ? m->ny + 2 * SWE_GHOST :
		m->d.part[last].row0 + m->d.part[last].rows + SWE_GHOST;
}

/* Gather planes of three fields (or one, w only) to rank 0, in place. */
static int gather(struct multi *m, real *f[3], int nf, size_t plane)
{
	int count[DECOMP_MAX], offset[DECOMP_MAX], lo, hi, rc = 0;
	if (m->d.nranks == 1)
		return 0;
	for (int r = 0; r < m->d.nranks; r++) {
		rank_planes(m, r, &lo, &hi);
		offset[r] = lo;
		count[r] = hi - lo;
	}
	for (int i = 0; i < nf && !rc; i++)
		rc = decomp_gather_planes((char *)f[i] + (size_t)offset[m->d.rank] * plane, f[i],
			plane, count, offset);
	return rc;
}

static int multi_download(struct swe_backend_ctx *ctx, struct swe_state *s)
{
	struct multi *m = (struct multi *)ctx;
	real *f[3];
	int rc = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		const struct decomp_part *q = &m->d.part[k];
		int j0 = q->row0 == 0 ? -SWE_GHOST : 0;
		int j1 = q->rows + (q->row0 + q->rows == m->ny ? SWE_GHOST : 0);
		size_t off = (size_t)(q->row0 + j0 + SWE_GHOST) * m->pitch;
		rc = m->ops->rows_get(m->sub[k], SWE_STAGE_U, j0, j1, s->w + off, s->hu + off,
			s->hv + off);
	}
	f[0] = s->w;
	f[1] = s->hu;
	f[2] = s->hv;
	return rc ? rc : gather(m, f, 3, (size_t)m->pitch * sizeof(real));
}

/* The subdomain that holds global row j (ghost rows: the edge ones). */
static int owner(const struct multi *m, int j)
{
	int k = 0;
	while (k + 1 < m->d.n && j >= m->d.part[k + 1].row0)
		k++;
	return k;
}

static int multi_sample(struct swe_backend_ctx *ctx, const long *idx, int n, real *w,
	real *hu, real *hv)
{
	struct multi *m = (struct multi *)ctx;
	double *v = malloc(3 * (size_t)(n > 0 ? n : 1) * sizeof *v);
	int rc = 0;
	if (!v)
		return -SPATE_ENOMEM;
	for (int q = 0; q < n && !rc; q++) {
		int k = owner(m, (int)(idx[q] / m->pitch) - SWE_GHOST);
		long li = idx[q] - (long)m->d.part[k].row0 * m->pitch;
		real a, b, c;
		v[3 * q] = v[3 * q + 1] = v[3 * q + 2] = -INFINITY;
		if (!m->sub[k])
			continue;
		rc = m->ops->sample(m->sub[k], &li, 1, &a, &b, &c);
		v[3 * q] = a;
		v[3 * q + 1] = b;
		v[3 * q + 2] = c;
	}
	/* the owner's value is the only one above -inf: the maximum is exact */
	if (!rc)
		rc = decomp_max(v, 3 * n, NULL);
	for (int q = 0; q < n && !rc; q++) {
		w[q] = (real)v[3 * q];
		hu[q] = (real)v[3 * q + 1];
		hv[q] = (real)v[3 * q + 2];
	}
	free(v);
	return rc;
}

static int multi_products_start(struct swe_backend_ctx *ctx, real thr)
{
	struct multi *m = (struct multi *)ctx;
	int rc = m->ops->products_start ? 0 : -SPATE_EUNSUPPORTED;
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->products_start(m->sub[k], thr);
	return rc;
}

static int multi_products_get(struct swe_backend_ctx *ctx, struct swe_prod *out)
{
	struct multi *m = (struct multi *)ctx;
	int count[DECOMP_MAX], offset[DECOMP_MAX], rc = 0;
	size_t plane = (size_t)m->nx * sizeof *out;
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->products_get(m->sub[k], out + (size_t)m->d.part[k].row0 * m->nx);
	if (rc || m->d.nranks == 1)
		return rc;
	for (int r = 0; r < m->d.nranks; r++) {
		int first = (int)((long)m->d.n * r / m->d.nranks);
		int last = (int)((long)m->d.n * (r + 1) / m->d.nranks) - 1;
		offset[r] = m->d.part[first].row0;
		count[r] = m->d.part[last].row0 + m->d.part[last].rows - offset[r];
	}
	return decomp_gather_planes(out + (size_t)offset[m->d.rank] * m->nx, out, plane, count,
		offset);
}

/* Restart: every subdomain takes its rows of the products in. */
static int multi_products_put(struct swe_backend_ctx *ctx, const struct swe_prod *in)
{
	struct multi *m = (struct multi *)ctx;
	int rc = m->ops->products_put ? 0 : -SPATE_EUNSUPPORTED;
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->products_put(m->sub[k], in + (size_t)m->d.part[k].row0 * m->nx);
	return rc;
}

/* Restart: the clock of the decomposed run (each subdomain's follows at its
 * next commit). */
static int multi_set_time(struct swe_backend_ctx *ctx, double t, long steps, double last_dt)
{
	struct multi *m = (struct multi *)ctx;
	(void)last_dt;
	m->t = t;
	m->steps = steps;
	return 0;
}

/* Per subdomain: rows, device, seconds computing, exchanging halos, waiting
 * in the time-step reduction (on stderr through rank 0). */
static void report(struct multi *m)
{
	int n = m->d.n;
	double *v = calloc(3 * (size_t)n, sizeof *v);
	if (!v)
		return;
	for (int k = m->d.first; k < m->d.last; k++) {
		v[3 * k] = m->t_compute[k];
		v[3 * k + 1] = m->t_exchange[k];
		v[3 * k + 2] = m->t_wait[k];
	}
	if (decomp_max(v, 3 * n, NULL) == 0 && m->d.rank == 0) {
		spate_log_info("spate: %d subdomains on %d rank%s, %ld steps:\n"
			"spate:  sub  rows            rank  device  compute s  exchange s  wait s\n",
			n, m->d.nranks, m->d.nranks > 1 ? "s" : "", m->steps);
		for (int k = 0; k < n; k++) {
			const struct decomp_part *q = &m->d.part[k];
			char rows[32];
			snprintf(rows, sizeof rows, "%d-%d (%d)", q->row0, q->row0 + q->rows - 1,
				q->rows);
			spate_log_info("spate: %4d  %-14s  %4d  %-6s  %9.3f  %10.3f  %6.3f\n", k, rows,
				q->rank, m->ops->name, v[3 * k], v[3 * k + 1], v[3 * k + 2]);
		}
	}
	free(v);
}

static void multi_fini(struct swe_backend_ctx *ctx)
{
	struct multi *m = (struct multi *)ctx;
	if (!m)
		return;
	if (m->steps > 0)
		report(m);
	for (int k = 0; k < DECOMP_MAX; k++)
		if (m->sub[k])
			m->ops->fini(m->sub[k]);
	halo_plan_free(&m->halo);
	free(m);
}

const struct spate_backend spate_backend_multi = {
	.name = "cpu",
	.count = multi_count_dev,
	.describe = multi_describe,
	.init = multi_init,
	.advance = multi_advance,
	.download = multi_download,
	.fini = multi_fini,
	.sample = multi_sample,
	.products_start = multi_products_start,
	.products_get = multi_products_get,
	.set_time = multi_set_time,
	.products_put = multi_products_put,
};
