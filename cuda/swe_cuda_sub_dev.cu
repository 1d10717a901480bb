/* swe_cuda_sub_dev.cu: GPU subdomains of one process with the time step on
 * the devices (swe_multi.h, dev_link; the "device-dt mode"), and the CUDA
 * graphs that then replay whole steps of every subdomain.
 *
 * Stage 1 of each subdomain leaves its largest face speeds in a slot of its
 * own (spd[2 (steps & 1)]: two slots, as a peer may still read the last
 * step's while this one's are written); k_dt_peers on each subdomain waits
 * for every subdomain's stage 1 (their ev_spd events), reads all the slots
 * over peer access and sets dt as one GPU does (set_dt, swe_cuda_dev.h).
 * The host reads the clock once per batch of steps.
 *
 * Graphs (swe_cuda_sub_graph): the steps of a batch between two timed steps
 * (x->time_every; those run eagerly, with their events) are captured
 * once from every subdomain's streams into one graph over all the devices,
 * then launched as one call.  Before the launch the first subdomain's main
 * stream waits for every stream of every subdomain, and after it every
 * stream waits for that one, so the graph is ordered with the eager work
 * around it as the steps it replays were. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda_sub.h"
}

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the time step on the devices (swe_multi.h, dev_link) */

int swe_cuda_sub_link(struct swe_backend_ctx **sub, int n)
{
	/* every pair must read each other's memory (the same device, or peer
	 * access) */
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			int can = 0, da = sub[a]->device, db = sub[b]->device;
			if (da == db)
				continue;
			if (cudaDeviceCanAccessPeer(&can, da, db) != cudaSuccess || !can) {
				cudaGetLastError();
				return -SPATE_EUNSUPPORTED;
			}
			swe_cuda_sub_enable_peer(da, db);
		}
	if (n > DECOMP_MAX)
		return -SPATE_EUNSUPPORTED;
	for (int a = 0; a < n; a++) {
		struct swe_backend_ctx *x = sub[a];
		CUDA_CHECK(cudaSetDevice(x->device));
		CUDA_ALLOC((void **)&x->spd, 4 * sizeof *x->spd);
		CUDA_CHECK(cudaMemset(x->spd, 0, 4 * sizeof *x->spd));
		CUDA_ALLOC((void **)&x->dpeers, (size_t)n * sizeof *x->dpeers);
		CUDA_ALLOC((void **)&x->dacc, sizeof *x->dacc);
		CUDA_CHECK(cudaMemset(x->dacc, 0, sizeof *x->dacc));
		x->acc0 = 0;
	}
	for (int a = 0; a < n; a++) {
		struct swe_backend_ctx *x = sub[a];
		swe_rbits *h[DECOMP_MAX];
		for (int b = 0; b < n; b++) {
			h[b] = sub[b]->spd;
			x->peer[b] = sub[b];
		}
		CUDA_CHECK(cudaSetDevice(x->device));
		CUDA_CHECK(cudaMemcpy(x->dpeers, h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice));
		x->npeer = n;
	}
	/* both the slots of the linked subdomains' steps start at the same parity */
	for (int a = 0; a < n; a++)
		if ((sub[a]->steps & 1) != (sub[0]->steps & 1))
			return -SPATE_EINVAL;
	for (int a = 0; a < n; a++)
		sub[a]->devdt = 1;
	return 0;
}

/* The linked subdomains that compute from now on (on[k]): each reads the
 * speeds of those only; the ones that come back start with empty speed
 * slots (the peers read them after this step's stage 1) and, like all of
 * them, with `steps` steps enqueued (the slots' parity). */
int swe_cuda_sub_peers(struct swe_backend_ctx **sub, int n, const int *on, long steps)
{
	swe_rbits *h[DECOMP_MAX];
	struct swe_backend_ctx *p[DECOMP_MAX];
	int m = 0, rc;
	for (int k = 0; k < n; k++)
		if ((rc = swe_cuda_sub_sync(sub[k])))
			return rc;
	for (int k = 0; k < n; k++)
		if (on[k]) {
			h[m] = sub[k]->spd;
			p[m++] = sub[k];
		}
	for (int k = 0; k < n; k++) {
		struct swe_backend_ctx *x = sub[k];
		if (!on[k])
			continue;
		CUDA_CHECK(cudaSetDevice(x->device));
		if (x->steps != steps)
			CUDA_CHECK(cudaMemset(x->spd, 0, 4 * sizeof *x->spd));
		CUDA_CHECK(cudaMemcpy(x->dpeers, h, (size_t)m * sizeof *h, cudaMemcpyHostToDevice));
		memcpy(x->peer, p, (size_t)m * sizeof *p);
		x->npeer = m;
		x->steps = steps;
	}
	return 0;
}

/* After every linked subdomain's stage 1 (and its interior): dt here, from
 * the speeds of all of them. */
int swe_cuda_sub_dt(struct swe_backend_ctx *x)
{
	int rc = swe_cuda_sub_interior(x);
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	for (int k = 0; k < x->npeer; k++)
		if (x->peer[k] != x)
			CUDA_CHECK(cudaStreamWaitEvent(x->main, x->peer[k]->ev_spd, 0));
	swe_cuda_enqueue_dt_peers(&x->kp, x->dctl, x->dpeers, x->npeer, (int)(x->steps & 1),
		x->spd, x->kp.tiles ? x->tcnt + x->cur : NULL, x->dacc, x->main);
	if (!x->capturing)
		swe_cuda_sub_harvest(x, 0);
	CUDA_CHECK(cudaGetLastError());
	return 0;
}

int swe_cuda_sub_clock_set(struct swe_backend_ctx *x, double t, long steps, double last_dt,
	double t_stop)
{
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaStreamSynchronize(x->main));
	memset(x->hin, 0, sizeof *x->hin);
	x->hin->t = t;
	x->hin->t_stop = t_stop;
	x->hin->last_dt = last_dt;
	x->hin->steps = steps;
	CUDA_CHECK(cudaMemcpy(x->dctl, x->hin, SWE_CUDA_CTL_SET, cudaMemcpyHostToDevice));
	x->t = t;
	x->steps0 = steps;
	return 0;
}

int swe_cuda_sub_clock_get(struct swe_backend_ctx *x, double *t, long *steps, double *last_dt,
	double *amax)
{
	int rc = swe_cuda_sub_sync(x);
	const struct swe_cuda_ctl *h = x->hout;
	if (rc)
		return rc;
	CUDA_CHECK(cudaMemcpy(x->hout, x->dctl, sizeof *x->hout, cudaMemcpyDeviceToHost));
	swe_cuda_sub_harvest(x, 1); /* idle: the graph's intervals too */
	if (x->kp.tiles) {
		/* the interior tiles skipped by the real steps since the last read */
		unsigned long long acc;
		CUDA_CHECK(cudaMemcpy(&acc, x->dacc, sizeof acc, cudaMemcpyDeviceToHost));
		swe_cuda_tiles_skipped += x->nint * (h->steps - x->steps0) - (long)(acc - x->acc0);
		swe_cuda_tiles_seen += x->nint * (h->steps - x->steps0);
		/* the next steps' interior in stacks while these steps' lists held
		 * every tile (a tile out of the list computed too: the same bits) */
		if (h->steps > x->steps0)
			x->stack_now = x->kp.stack > 1 && acc - x->acc0 ==
				(unsigned long long)x->nint * (unsigned long long)(h->steps - x->steps0);
		x->acc0 = acc;
	}
	x->steps0 = (long)h->steps;
	x->t = h->t;
	*t = h->t;
	*steps = (long)h->steps;
	*last_dt = h->last_dt;
	*amax = x->kp.integrator == 2 ? fmax((double)swe_bits_real(h->ax2),
		(double)swe_bits_real(h->ay2)) : h->amax;
	if (h->err) {
		spate_log_error("cuda", "non-finite wave speed or time step at t = %g s, step %lld, "
			"on GPU %d", h->t, h->steps, x->device);
		return -SPATE_ENUMERIC;
	}
	return 0;
}

/* ---- graphs of whole steps (swe_multi.h, dev_graph) */

/* Every stream of the linked subdomains but the first's main one. */
static int streams(struct swe_backend_ctx **sub, int n, cudaStream_t *s, int *dev)
{
	int m = 0;
	for (int k = 0; k < n; k++)
		for (int e = 0; e < 2; e++) {
			cudaStream_t q = e ? sub[k]->edge : sub[k]->main;
			if ((k == 0 && e == 0) || (e == 1 && sub[k]->edge == sub[k]->main))
				continue;
			dev[m] = sub[k]->device;
			s[m++] = q;
		}
	return m;
}

/* The first subdomain's main stream waits for every other stream (join),
 * or every other stream for it (fork). */
static int join(struct swe_backend_ctx **sub, int n, int fork)
{
	cudaStream_t s[2 * DECOMP_MAX];
	int dev[2 * DECOMP_MAX], m = streams(sub, n, s, dev);
	struct swe_backend_ctx *x = sub[0];
	if (fork) {
		CUDA_CHECK(cudaSetDevice(x->device));
		CUDA_CHECK(cudaEventRecord(x->ev_fork, x->main));
	}
	for (int i = 0; i < m; i++) {
		if (fork) {
			CUDA_CHECK(cudaSetDevice(dev[i]));
			CUDA_CHECK(cudaStreamWaitEvent(s[i], x->ev_fork, 0));
		} else {
			CUDA_CHECK(cudaSetDevice(dev[i]));
			CUDA_CHECK(cudaEventRecord(x->ev_join[i], s[i]));
			CUDA_CHECK(cudaSetDevice(x->device));
			CUDA_CHECK(cudaStreamWaitEvent(x->main, x->ev_join[i], 0));
		}
	}
	for (int k = 0; k < n; k++)
		sub[k]->wait_in[0] = sub[k]->wait_in[1] = NULL; /* ordered by the join */
	return 0;
}

/* The events of the joins, made once (on the devices of their streams). */
static int graph_events(struct swe_backend_ctx **sub, int n)
{
	cudaStream_t s[2 * DECOMP_MAX];
	int dev[2 * DECOMP_MAX], m = streams(sub, n, s, dev);
	struct swe_backend_ctx *x = sub[0];
	if (x->ev_fork)
		return 0;
	for (int i = 0; i < m; i++) {
		CUDA_CHECK(cudaSetDevice(dev[i]));
		CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_join[i], cudaEventDisableTiming));
	}
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaEventCreateWithFlags(&x->ev_fork, cudaEventDisableTiming));
	return 0;
}

static void graph_drop(struct swe_backend_ctx *x)
{
	if (x->gexec)
		cudaGraphExecDestroy(x->gexec);
	x->gexec = NULL;
}

/* What a recorded graph holds of subdomain x: its arrays (rows moved,
 * products started), the parity of its state at the graph's first step
 * (a restart), its rows and first row (the sources' rasters), the
 * products' threshold, the interior's kernels (stacks or the list). */
static void graph_sig(const struct swe_backend_ctx *x, const void *s[8])
{
	size_t thr = 0;
	memcpy(&thr, &x->prod_thr, sizeof x->prod_thr < sizeof thr ? sizeof x->prod_thr :
		sizeof thr);
	s[0] = x->w[0];
	s[1] = x->prod;
	s[2] = x->tl[0];
	s[3] = (const void *)(size_t)x->cur;
	s[4] = (const void *)(size_t)x->rows;
	s[5] = (const void *)thr;
	s[6] = (const void *)(size_t)x->row0;
	s[7] = (const void *)(size_t)x->stack_now;
}

static int graph_stale(struct swe_backend_ctx **sub, int n)
{
	for (int k = 0; k < n; k++) {
		const void *s[8];
		graph_sig(sub[k], s);
		if (memcmp(s, sub[k]->gsig, sizeof s))
			return 1;
	}
	return 0;
}

/* The graph gone, its intervals read first (after its last replay). */
static int graph_forget(struct swe_backend_ctx **sub, int n)
{
	for (int k = 0; k < n; k++)
		if (sub[k]->gntp) {
			int rc = swe_cuda_sub_sync(sub[k]);
			if (rc)
				return rc;
			swe_cuda_sub_graph_times(sub[k], 1);
		}
	graph_drop(sub[0]);
	return 0;
}

static int env_off(const char *name)
{
	const char *e = getenv(name);
	return e && *e == '0';
}

long swe_cuda_sub_graph(struct swe_backend_ctx **sub, int n, int op, long steps)
{
	struct swe_backend_ctx *x = sub[0];
	cudaGraph_t g;
	cudaError_t e;
	int rc;
	switch (op) {
	case SWE_GRAPH_PERIOD:
		return x->nograph || env_off("SPATE_CUDA_GRAPHS") ? 0 : x->time_every;
	case SWE_GRAPH_COUNT:
		return x->steps;
	case SWE_GRAPH_NEXT:
		return (x->time_every - x->steps % x->time_every +
			(env_off("SPATE_CUDA_GRAPH_TIMING") ? 1 : 0)) % x->time_every;
	case SWE_GRAPH_LEN:
		/* a timed step and the untimed ones up to the next timed one (the
		 * graph times its first step with event nodes) */
		if (x->nograph || env_off("SPATE_CUDA_GRAPHS"))
			return 0;
		if (env_off("SPATE_CUDA_GRAPH_TIMING")) /* the timed step eager */
			return x->steps % x->time_every == 1 ? x->time_every - 1 : 0;
		return x->steps % x->time_every == 0 ? x->time_every : 0;
	case SWE_GRAPH_BEGIN:
		if ((rc = graph_events(sub, n)) || (rc = graph_forget(sub, n)))
			return rc;
		for (int k = 0; k < n; k++) {
			sub[k]->gcur = sub[k]->cur;
			sub[k]->gsteps = sub[k]->steps;
			sub[k]->capturing = 1;
			graph_sig(sub[k], sub[k]->gsig);
		}
		CUDA_CHECK(cudaSetDevice(x->device));
		CUDA_CHECK(cudaStreamBeginCapture(x->main, cudaStreamCaptureModeRelaxed));
		return join(sub, n, 1);
	case SWE_GRAPH_END:
		/* the steps were recorded, not run: the counters as before them */
		for (int k = 0; k < n; k++) {
			sub[k]->cur = sub[k]->gcur;
			sub[k]->steps = sub[k]->gsteps;
			sub[k]->capturing = 0;
		}
		rc = join(sub, n, 0);
		cudaSetDevice(x->device);
		e = cudaStreamEndCapture(x->main, &g);
		for (int k = 0; k < n; k++)
			sub[k]->wait_in[0] = sub[k]->wait_in[1] = NULL;
		if (!rc && e == cudaSuccess)
			e = cudaGraphInstantiate(&x->gexec, g, 0);
		if (e == cudaSuccess && !rc) {
			cudaGraphDestroy(g);
			x->gsteps_n = steps;
			return 0;
		}
		if (e == cudaSuccess)
			cudaGraphDestroy(g);
		cudaGetLastError();
		x->gexec = NULL;
		x->nograph = 1;
		spate_log_info("spate: CUDA graphs over the subdomains could not be made (%s): "
			"steps are launched one by one\n", cudaGetErrorString(e));
		return -SPATE_EUNSUPPORTED;
	case SWE_GRAPH_LAUNCH:
		if (x->gexec && x->gsteps_n != steps)
			return -SPATE_EINVAL;
		if (!x->gexec || graph_stale(sub, n))
			return (rc = graph_forget(sub, n)) ? rc : 1; /* record again */
		if ((rc = join(sub, n, 0)))
			return rc;
		CUDA_CHECK(cudaSetDevice(x->device));
		CUDA_CHECK(cudaGraphLaunch(x->gexec, x->main));
		if ((rc = join(sub, n, 1)))
			return rc;
		for (int k = 0; k < n; k++) {
			sub[k]->greplay++;
			sub[k]->cur ^= (int)(steps & 1);
			sub[k]->steps += steps;
		}
		return 0;
	case SWE_GRAPH_DROP:
		return graph_forget(sub, n);
	}
	return -SPATE_EINVAL;
}
