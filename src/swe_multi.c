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
 * number of subdomains, any workload split and any rank count.
 *
 * On GPUs (cuda/swe_cuda_sub.cu) the second stage rebuilds U* from U^n and
 * L, so L is exchanged instead of U*, right after stage 1, and U after each
 * step (swe_multi.h); subdomain k of a rank runs on GPU (local rank x
 * subdomains per rank + k) mod GPUs, several per GPU if need be.
 *
 * swe_balance.c tunes the run between steps without changing a bit: with
 * ghost cell expansion k > 1, step 1 exchanges k steps' worth of ghost rows
 * every k steps and step 5 exchanges nothing (the subdomains compute on
 * their valid ghost rows); rows move between neighbouring subdomains
 * (balance), after which step 1 runs again. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "backend.h"
#include "forcing.h"
#include "swe_cell.h"
#include "swe_multi.h"
#include "decomp.h"
#include "products_kern.h"
#include "swe_balance.h"

#include "swe_multi_run.h"

static char multi_desc[512] = "cpu";
#ifdef HAVE_CUDA
extern const struct spate_backend spate_backend_multi_cuda;
#endif

/* Subdomains of a run: the workloads given, else [parallel] subdomains,
 * else one per MPI rank. */
static int multi_count(const struct swe_params *p)
{
	int P = decomp_world_size();
	if (p->nworkload > 0)
		return p->nworkload;
	return p->subdomains > 1 ? p->subdomains : P;
}

/* GPUs a process of this run uses: those it sees, at most [parallel] gpus. */
static int multi_gpus(const struct swe_params *p)
{
	int n = 0;
#ifdef HAVE_CUDA
	n = spate_backend_cuda.count();
#endif
	return p->gpus > 0 && p->gpus < n ? p->gpus : n;
}

const struct spate_backend *swe_backend_for(const struct swe_params *p)
{
	int n = multi_count(p), P = decomp_world_size();
	const struct spate_backend *be, *multi = &spate_backend_multi;
	size_t len;
	be = spate_backend_select(p->device);
	/* early_exit = auto on the CPU is tuned by the decomposed run, here of
	 * one subdomain (the CUDA backend takes auto as on) */
	if (n <= 1 && P == 1 && (be != &spate_backend_cpu || p->early_exit != SWE_EARLY_AUTO))
		return be;
	if (!be)
		return NULL;
#ifdef HAVE_CUDA
	if (be == &spate_backend_cuda)
		multi = &spate_backend_multi_cuda;
#endif
	be->describe(0, multi_desc, sizeof multi_desc);
	len = strlen(multi_desc);
	if (multi != &spate_backend_multi) {
		int g = multi_gpus(p);
		snprintf(multi_desc + len, sizeof multi_desc - len, ", %d GPU%s per rank, overlap %s",
			g, g > 1 ? "s" : "", p->overlap == SWE_OVERLAP_NONE ? "none" :
			p->overlap == SWE_OVERLAP_COMPUTE ? "compute" : "streams");
		len = strlen(multi_desc);
	}
	snprintf(multi_desc + len, sizeof multi_desc - len, ", %d subdomain%s on %d MPI rank%s",
		n, n > 1 ? "s" : "", P, P > 1 ? "s" : "");
	return multi;
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

/* The MPI rank of this process among those of its node. */
static int local_rank(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
		"SLURM_LOCALID", "PMI_LOCAL_RANK" };
	for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
		if (getenv(vars[k]))
			return atoi(getenv(vars[k]));
	return decomp_world_rank();
}

static void multi_fini(struct swe_backend_ctx *ctx);

/* The device of subdomain k, one of [first, last) on this rank: `device`,
 * or on GPUs the (local rank x subdomains per rank + k) mod GPUs. */
static int sub_device(const struct multi *m, const struct swe_params *p, int k, int first,
	int last, int device)
{
	int g = multi_gpus(p);
	if (m->ops->mid_stage != SWE_STAGE_RATE)
		return device;
	return g > 0 ? (local_rank() * (last - first) + k - first) % g : 0;
}

/* Hand the run's parts to the balancing. */
static void attach_balance(struct multi *m)
{
	struct swe_balance_run br;
	br.ops = m->ops;
	br.d = &m->d;
	br.sub = m->sub;
	br.halo = &m->halo;
	br.t_compute = m->t_compute;
	br.t_exchange = m->t_exchange;
	br.nx = m->nx;
	br.ny = m->ny;
	br.pitch = m->pitch;
	swe_balance_attach(m->bal, &br);
}

/* GPUs of one process: the time step on the devices (dev_link), unless
 * the devices cannot read each other's memory or SPATE_HOST_DT=1 asks for
 * the host's (to compare the two). */
static int link_devices(struct multi *m)
{
	const char *e = getenv("SPATE_HOST_DT"), *b = getenv("SPATE_DEV_BATCH");
	int rc;
	if (!m->ops->dev_link || m->d.nranks > 1 || (e && atoi(e)))
		return 0;
	rc = m->ops->dev_link(m->sub + m->d.first, m->d.last - m->d.first);
	m->devdt = rc == 0;
	if (m->devdt)
		swe_multi_dev_on(m);
	m->dev_batch = b ? atol(b) : 0;
	if (m->dev_batch < 1 || m->dev_batch > 65536)
		m->dev_batch = SWE_DEV_BATCH;
	return rc == -SPATE_EUNSUPPORTED ? 0 : rc;
}

static int multi_init(struct swe_backend_ctx **out, const struct swe_state *s,
	const struct swe_params *p, int device)
{
	struct multi *m = calloc(1, sizeof *m);
	double workload[DECOMP_MAX];
	int rc, nw = p->nworkload, n = multi_count(p);
	if (!m)
		return -SPATE_ENOMEM;
	m->ops = &swe_cpu_sub_ops;
#ifdef HAVE_CUDA
	if (swe_backend_for(p) == &spate_backend_multi_cuda)
		m->ops = &swe_cuda_sub_ops;
#endif
	m->nx = s->nx;
	m->ny = s->ny;
	m->pitch = s->pitch;
	m->dx = s->dx;
	m->max_dt = swe_max_dt(s, p);
	m->dy = s->dy;
	memcpy(workload, p->workload, sizeof workload);
	{
		/* this rank's subdomains (decomp_plan's) and their devices */
		int r = decomp_world_rank(), P = decomp_world_size();
		int first = (int)((long)n * r / P), last = (int)((long)n * (r + 1) / P);
		for (int k = first; k < last && last <= DECOMP_MAX; k++)
			m->dev[k] = sub_device(m, p, k, first, last, device);
	}
	/* m->p: the parameters the subdomains keep, [parallel] resolved */
	rc = swe_balance_new(&m->bal, p, m->ops, n, s->ny, &m->p);
	if (!rc)
		rc = swe_balance_probe(m->bal, s, n, m->dev, workload, &nw);
	/* a plan that cannot be (2 subdomains on 3 ranks, too few rows) fails
	 * alike on every rank, before any exchange: told once, and every rank
	 * stops without MPI_Abort */
	if (decomp_world_size() > 1)
		spate_log_hold();
	if (!rc)
		rc = decomp_plan(&m->d, s->ny, n, nw ? workload : NULL,
			swe_balance_min_rows(m->bal), "[parallel]");
	rc = -decomp_world_agree(-rc);
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->init(&m->sub[k], s, m->p, m->d.part[k].row0, m->d.part[k].rows,
			m->dev[k]);
	if (!rc)
		rc = halo_plan_build(&m->halo, &m->d, 3 * (size_t)swe_balance_halo(m->bal) *
			s->pitch * sizeof(real));
	if (!rc)
		rc = halo_nccl_open(&m->nccl, m->p->transport, m->ops->halo_dev != NULL,
			m->dev + m->d.first, m->d.last - m->d.first);
	if (!rc)
		attach_balance(m);
	if (!rc)
		rc = link_devices(m);
	/* U is exchanged after each step there: the first one now */
	if (!rc && m->ops->mid_stage == SWE_STAGE_RATE)
		rc = swe_multi_exchange(m, SWE_STAGE_U);
	if (rc) {
		m->failed = 1;
		multi_fini((struct swe_backend_ctx *)m);
		return rc;
	}
	*out = (struct swe_backend_ctx *)m;
	return 0;
}

/* Stage 1 everywhere, then the global maximum speeds (*ax, *ay). */
static int stage1_all(struct multi *m, double *ax, double *ay)
{
	double v[3] = { 0, 0, 0 }, wait = 0;
	int rc = 0, rc2;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double a, b, t0 = spate_now();
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->stage1(m->sub[k], m->t, &a, &b);
		v[0] = a > v[0] ? a : v[0];
		v[1] = b > v[1] ? b : v[1];
		m->t_compute[k] += spate_now() - t0;
	}
	/* asynchronous devices: L travels while the speeds are reduced (not
	 * with ghost cell expansion, which computes it beyond the edges) */
	if (!rc && m->ops->mid_stage == SWE_STAGE_RATE && swe_balance_exchange_ustar(m->bal))
		rc = swe_multi_exchange(m, SWE_STAGE_RATE);
	if (rc)
		return rc; /* the others wait for this rank's halos: the end aborts them */
	for (int k = m->d.first; k < m->d.last && !rc && m->ops->speeds; k++) {
		double a, b, t0 = spate_now();
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->speeds(m->sub[k], &a, &b);
		v[0] = a > v[0] ? a : v[0];
		v[1] = b > v[1] ? b : v[1];
		m->t_wait[k] += spate_now() - t0;
	}
	/* Every rank joins the reduction, also after a failure here (a
	 * non-finite speed): v[2], the largest error code, stops every rank at
	 * this step, and no rank waits in a reduction that another never enters
	 * (or that pairs with a different one, such as the report's). */
	v[2] = -rc;
	rc2 = decomp_max(v, 3, &wait);
	if (!rc)
		rc = rc2 ? rc2 : -(int)v[2];
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
	int rk2 = m->p->integrator != 1, rc = 0, rate = m->ops->mid_stage == SWE_STAGE_RATE;
	double amax = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double t0 = spate_now();
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->predict(m->sub[k], dt, t_new);
		m->t_compute[k] += spate_now() - t0;
	}
	if (rk2 && !rc && !rate && swe_balance_exchange_ustar(m->bal))
		rc = swe_multi_exchange(m, SWE_STAGE_USTAR);
	for (int k = m->d.first; k < m->d.last && rk2 && !rc; k++) {
		double a, b, t0 = spate_now();
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->correct(m->sub[k], dt, &a, &b);
		amax = a > amax ? a : amax;
		amax = b > amax ? b : amax;
		m->t_compute[k] += spate_now() - t0;
	}
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double t0 = spate_now();
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->commit(m->sub[k], t_new, dt);
		m->t_compute[k] += spate_now() - t0;
	}
	if (!rc && rate && swe_balance_k(m->bal) == 1)
		rc = swe_multi_exchange(m, SWE_STAGE_U);
	m->amax = rk2 ? amax : amax1;
	return rc;
}

static int multi_advance(struct swe_backend_ctx *ctx, double t_stop, long max_steps,
	struct swe_stats *st)
{
	struct multi *m = (struct multi *)ctx;
	double v[2], wall0 = spate_now();
	long n;
	int rc;
	/* every rank must take the same steps: rank 0's chunk decides */
	v[0] = t_stop;
	v[1] = (double)max_steps;
	if ((rc = decomp_bcast(v, 2)))
		return rc;
	t_stop = v[0];
	max_steps = (long)v[1];
	if (m->devdt)
		return swe_multi_advance_dev(m, t_stop, max_steps, st);
	for (n = 0; (max_steps <= 0 || n < max_steps) && m->t < t_stop; n++) {
		double ax, ay, dt, cap = t_stop - m->t, t_new, t0 = spate_now();
		if (swe_balance_exchange_due(m->bal, m->steps, m->ops->mid_stage == SWE_STAGE_RATE) &&
			(rc = swe_multi_exchange(m, SWE_STAGE_U)))
			return rc;
		if ((rc = stage1_all(m, &ax, &ay)))
			return rc;
		dt = swe_cfl_dt(ax, ay, m->dx, m->dy, m->p->cfl,
			m->max_dt > 0 && m->max_dt < cap ? m->max_dt : cap);
		if (!(dt > 0))
			return -SPATE_ENUMERIC;
		t_new = dt >= cap ? t_stop : m->t + dt;
		if ((rc = finish_all(m, dt, t_new, ax > ay ? ax : ay)))
			return rc;
		m->t = t_new;
		m->steps++;
		st->last_dt = dt;
		if ((rc = swe_balance_step(m->bal, m->steps, spate_now() - t0)))
			return rc;
		/* rows moved: U's halos again where it is exchanged after a step;
		 * the gauges to the subdomains that hold their cells now */
		if (swe_multi_moved(m) && ((m->ops->mid_stage == SWE_STAGE_RATE &&
			(rc = swe_multi_exchange_moved(m))) || (rc = swe_multi_gauges_moved(m))))
			return rc;
	}
	/* asynchronous devices: the speeds of the last stage 2 */
	for (int k = m->d.first; k < m->d.last && n > 0 && m->ops->speeds &&
		m->p->integrator != 1; k++) {
		double a, b;
		if (k == m->d.first)
			m->amax = 0;
		if (swe_balance_resting(m->bal, k))
			continue;
		if ((rc = m->ops->speeds(m->sub[k], &a, &b)))
			return rc;
		m->amax = fmax(m->amax, fmax(a, b));
	}
	m->t_steps += spate_now() - wall0;
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

/* multi_advance, remembering a failure for multi_fini. */
static int multi_advance_mark(struct swe_backend_ctx *ctx, double t_stop, long max_steps,
	struct swe_stats *st)
{
	int rc = multi_advance(ctx, t_stop, max_steps, st);
	((struct multi *)ctx)->failed |= rc != 0;
	return rc;
}

/* Per subdomain: rows, device, seconds computing, exchanging halos, waiting
 * in the time-step reduction (on stderr through rank 0).  On asynchronous
 * devices compute is the device's kernel time, exchange its halo copy time
 * plus the host's time in the exchange, and wait the rest of the stepping
 * time: the device idle. */
static void report(struct multi *m)
{
	int n = m->d.n;
	double *v = calloc(4 * (size_t)n, sizeof *v);
	if (!v)
		return;
	for (int k = m->d.first; k < m->d.last; k++) {
		double c, x;
		v[4 * k] = m->t_compute[k];
		v[4 * k + 1] = m->t_exchange[k];
		v[4 * k + 2] = m->t_wait[k];
		v[4 * k + 3] = m->dev[k];
		if (m->ops->times && m->ops->times(m->sub[k], &c, &x) == 0) {
			v[4 * k] = c;
			v[4 * k + 1] += x;
			v[4 * k + 2] = fmax(0, m->t_steps - c - x);
		}
	}
	if (decomp_max(v, 4 * n, NULL) == 0 && m->d.rank == 0) {
		spate_log_info("spate: %d subdomains on %d rank%s, %ld steps:\n"
			"spate:  sub  rows            rank  device  compute s  exchange s  wait s\n",
			n, m->d.nranks, m->d.nranks > 1 ? "s" : "", m->steps);
		for (int k = 0; k < n; k++) {
			const struct decomp_part *q = &m->d.part[k];
			char rows[32], dev[32];
			snprintf(rows, sizeof rows, "%d-%d (%d)", q->row0, q->row0 + q->rows - 1,
				q->rows);
			if (m->ops->mid_stage == SWE_STAGE_RATE)
				snprintf(dev, sizeof dev, "%s:%d", m->ops->name, (int)v[4 * k + 3]);
			else
				snprintf(dev, sizeof dev, "%s", m->ops->name);
			spate_log_info("spate: %4d  %-14s  %4d  %-6s  %9.3f  %10.3f  %6.3f\n", k, rows,
				q->rank, dev, v[4 * k], v[4 * k + 1], v[4 * k + 2]);
		}
	}
	free(v);
	swe_balance_report(m->bal, m->steps, m->t_steps);
}

static void multi_fini(struct swe_backend_ctx *ctx)
{
	struct multi *m = (struct multi *)ctx;
	if (!m)
		return;
	if (m->steps > 0 && m->bal && !(m->failed && m->d.nranks > 1))
		report(m);
	/* after a failure, transfers that wait for a peer are dropped first */
	halo_nccl_close(m->nccl, m->failed);
	for (int k = 0; k < DECOMP_MAX; k++)
		if (m->sub[k])
			m->ops->fini(m->sub[k]);
	halo_plan_free(&m->halo);
	swe_balance_free(m->bal);
	swe_multi_gauges_free(m);
	free(m);
}

/* The driver's table; the CPU's and the GPU subdomains' (cuda/swe_cuda_sub.cu)
 * differ in their names only. */
#define MULTI_BACKEND(NAME) { \
	.name = NAME, \
	.count = multi_count_dev, \
	.describe = multi_describe, \
	.init = multi_init, \
	.advance = multi_advance_mark, \
	.download = swe_multi_download, \
	.fini = multi_fini, \
	.sample = swe_multi_sample, \
	.products_start = swe_multi_products_start, \
	.products_get = swe_multi_products_get, \
	.set_time = swe_multi_set_time, \
	.products_put = swe_multi_products_put, \
	.set_rain = swe_multi_set_rain, \
	.gauges_start = swe_multi_gauges_start, \
	.gauges_rows = swe_multi_gauges_rows, \
	.gauges_get = swe_multi_gauges_get, \
	.guard = swe_multi_guard, \
}

const struct spate_backend spate_backend_multi = MULTI_BACKEND("cpu");

#ifdef HAVE_CUDA
const struct spate_backend spate_backend_multi_cuda = MULTI_BACKEND("cuda");
#endif
