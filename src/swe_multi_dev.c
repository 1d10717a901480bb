/* swe_multi_dev.c: the decomposed run in device-dt mode (swe_multi.h,
 * dev_link): GPU subdomains of one process whose time step is reduced on the
 * devices.  The host enqueues batches of steps (runs of them as graphs where
 * the backend records them) and reads the clock once per batch; a step
 * launched after t reached t_stop is a no-op, as on one GPU. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>

#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_sub.h"
#include "swe_balance.h"

#include "swe_multi_run.h"

/* Enqueue one step on every subdomain: U exchanged before it when due (ghost
 * cell expansion) or after it (k = 1). */
static int step_dev(struct multi *m)
{
	int rk2 = m->p->integrator != 1, rc = 0;
	if (swe_balance_exchange_due(m->bal, m->enq, 1))
		rc = swe_multi_exchange(m, SWE_STAGE_U);
	m->enq++;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double a, b, t0 = spate_now();
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->stage1(m->sub[k], m->t, &a, &b);
		m->t_compute[k] += spate_now() - t0;
	}
	if (!rc && swe_balance_exchange_ustar(m->bal))
		rc = swe_multi_exchange(m, SWE_STAGE_RATE);
	/* every stage 1 whole before any dt reads their speeds */
	for (int i = 0; i < m->non && !rc && m->ops->interior; i++)
		rc = m->ops->interior(m->on[i]);
	for (int i = 0; i < m->non && !rc; i++)
		rc = m->ops->dev_dt(m->on[i]);
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double t0 = spate_now();
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->predict(m->sub[k], 0, m->t);
		m->t_compute[k] += spate_now() - t0;
	}
	for (int k = m->d.first; k < m->d.last && !rc && rk2; k++) {
		double a, b, t0 = spate_now();
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->correct(m->sub[k], 0, &a, &b);
		m->t_compute[k] += spate_now() - t0;
	}
	for (int i = 0; i < m->non && !rc; i++)
		rc = m->ops->commit(m->on[i], m->t, 0);
	if (!rc && swe_balance_k(m->bal) == 1)
		rc = swe_multi_exchange(m, SWE_STAGE_U);
	return rc;
}

void swe_multi_dev_on(struct multi *m)
{
	m->non = 0;
	for (int k = m->d.first; k < m->d.last; k++)
		if (!swe_balance_resting(m->bal, k))
			m->on[m->non++] = m->sub[k];
}

/* The subdomains that compute changed (swe_balance_resting): the old set's
 * graph dropped, the time step linked over the new set, whose step counts
 * and clocks are those of the run (the ones that rested missed steps). */
static int relink(struct multi *m, double t_stop)
{
	int on[DECOMP_MAX], rc = 0;
	swe_multi_graph_drop(m);
	swe_multi_dev_on(m);
	for (int k = m->d.first; k < m->d.last; k++)
		on[k - m->d.first] = !swe_balance_resting(m->bal, k);
	if (!m->ops->dev_peers)
		return -SPATE_EUNSUPPORTED;
	rc = m->ops->dev_peers(m->sub + m->d.first, m->d.last - m->d.first, on, m->enq);
	for (int i = 0; i < m->non && !rc; i++)
		rc = m->ops->dev_clock(m->on[i], m->t, m->steps, m->last_dt, t_stop);
	return rc;
}

/* Enqueue n steps: through a graph of the subdomains' phases where the
 * backend offers one (recorded on first use), else one by one. */
static int steps_dev(struct multi *m, long n)
{
	struct swe_backend_ctx **sub = m->on;
	int cnt = m->non, rc = 0;
	while (n > 0 && !rc) {
		long g = m->ops->dev_graph ? m->ops->dev_graph(sub, cnt, SWE_GRAPH_LEN, 0) : 0;
		int k = swe_balance_k(m->bal);
		/* a graph replays whole exchange cycles of ghost cell expansion */
		if (g > 0 && g % k)
			g = 0;
		if (m->graph_steps && m->graph_k != k) {
			swe_multi_graph_drop(m);
			continue;
		}
		if (g <= 0 || g > n) {
			rc = step_dev(m);
			n--;
			continue;
		}
		if (!m->graph_steps) {
			int rc2;
			long enq = m->enq;
			rc = (int)m->ops->dev_graph(sub, cnt, SWE_GRAPH_BEGIN, g);
			for (long i = 0; i < g && !rc; i++)
				rc = step_dev(m);
			rc2 = (int)m->ops->dev_graph(sub, cnt, SWE_GRAPH_END, g);
			m->enq = enq; /* recorded, not run */
			if (rc2 == -SPATE_EUNSUPPORTED) {
				/* nothing ran: these steps one by one, with the exchange
				 * the recording may have taken as done */
				swe_balance_exchange_soon(m->bal);
				rc = 0;
				continue;
			}
			if (rc || (rc = rc2))
				break;
			m->graph_steps = g;
			m->graph_k = k;
		}
		if (g != m->graph_steps) {
			rc = step_dev(m);
			n--;
			continue;
		}
		rc = (int)m->ops->dev_graph(sub, cnt, SWE_GRAPH_LAUNCH, g);
		if (rc == 1) {
			m->graph_steps = 0; /* stale (a restart, products begun) */
			rc = 0;
			continue;
		}
		m->enq += g;
		n -= g;
	}
	return rc;
}

/* The clock after a batch: every subdomain reached the same t and steps. */
static int read_dev(struct multi *m, long *steps)
{
	int rc = 0, seen = 0;
	m->amax = 0;
	for (int k = m->d.first; k < m->d.last && !rc; k++) {
		double t, last, a;
		long s;
		if (swe_balance_resting(m->bal, k))
			continue;
		rc = m->ops->dev_read(m->sub[k], &t, &s, &last, &a);
		if (rc)
			break;
		if (!seen++) {
			m->t = t;
			m->last_dt = last;
			*steps = s;
		} else if (t != m->t || s != *steps) {
			spate_log_error("run", "subdomains %d and %d disagree on the clock (t = %.17g "
				"and %.17g s, steps %ld and %ld): an internal error", m->d.first, k, m->t,
				t, *steps, s);
			return -SPATE_EDEVICE;
		}
		m->amax = fmax(m->amax, a);
	}
	return rc;
}

int swe_multi_advance_dev(struct multi *m, double t_stop, long max_steps, struct swe_stats *st)
{
	double wall0 = spate_now();
	long done = 0, period = 0;
	int rc = 0;
	/* a graph recorded before is replayed while it fits (the backend
	 * checks: products begun, a checkpoint restored record it again) */
	m->enq = m->steps;
	if (m->ops->dev_graph) {
		period = m->ops->dev_graph(m->on, m->non, SWE_GRAPH_PERIOD, 0);
		m->enq = m->ops->dev_graph(m->on, m->non, SWE_GRAPH_COUNT, 0);
	}
	for (int k = m->d.first; k < m->d.last && !rc; k++)
		rc = m->ops->dev_clock(m->sub[k], m->t, m->steps, m->last_dt, t_stop);
	/* a measure may come up to a graph's period late */
	swe_balance_set_slack(m->bal, period > 1 ? (int)period : 0);
	while (!rc && m->t < t_stop && (max_steps <= 0 || done < max_steps)) {
		long n = m->dev_batch, steps = m->steps;
		long room = swe_balance_steps_free(m->bal, m->steps);
		double t0 = spate_now();
		int near = 0;
		if (m->last_dt > 0) {
			/* Near t_stop (swe_steps_short), not rounded up to graphs:
			 * the first no-op step of a row copies U in every launch of
			 * its second stage (copy_all), the edge rows' few blocks too,
			 * and every no-op step with ghost cell expansion; each still
			 * launches its kernels.  Batches rounded up used to
			 * run past each output time: 4000^2 dam break on two H200s,
			 * 0.73 s against 0.53 s without those steps. */
			double need = (t_stop - m->t) / m->last_dt;
			if (need < (double)(n + period)) {
				n = swe_steps_short(need);
				near = 1;
			}
		} else {
			n = 1; /* no estimate yet */
		}
		if (n > room)
			n = room;
		/* end where a graph may begin, unless single steps are asked for
		 * (the balancing measures a few steps late then) or t_stop is
		 * near */
		if (period > 1 && room > 1 && !near) {
			long next = m->ops->dev_graph(m->on, m->non, SWE_GRAPH_NEXT, 0);
			n += ((next - n) % period + period) % period;
		}
		if (max_steps > 0 && n > max_steps - done)
			n = max_steps - done;
		if ((rc = steps_dev(m, n)) || (rc = read_dev(m, &steps)))
			break;
		if (steps > m->steps) {
			long k = steps - m->steps;
			done += k;
			m->steps = steps;
			rc = swe_balance_step(m->bal, m->steps, (spate_now() - t0) / (double)k);
		}
		if (!rc && swe_balance_rest_changed(m->bal))
			rc = relink(m, t_stop);
		/* rows moved, or subdomains began or stopped resting: the
		 * halos again, and a new graph */
		if (!rc && swe_multi_moved(m)) {
			swe_multi_graph_drop(m);
			rc = swe_multi_exchange_moved(m);
			if (!rc)
				rc = swe_multi_gauges_moved(m);
		}
	}
	m->t_steps += spate_now() - wall0;
	if (rc)
		return rc;
	st->amax = m->amax;
	st->last_dt = m->last_dt;
	st->steps = m->steps;
	st->t = m->t;
	return 0;
}

