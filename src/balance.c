/* balance.c: load balancing of a stack of planes over subdomains: the plan
 * (new plane boundaries for measured work and speeds), the move (whole
 * planes between neighbouring subdomains, by MPI between ranks) and the
 * report of every phase's time.  Physics-free: a module reaches its data
 * through struct balance_ops (swe_balance.c for shallow water). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_MPI
#include <mpi.h>
MPI_Comm decomp_world_comm(void);
#endif

#include "spate.h"
#include "balance.h"

/* MPI tags of plane moves: above the halo exchange's 2 DECOMP_MAX. */
#define BALANCE_TAG (4 * DECOMP_MAX)

/* The size of subdomain k's group. */
static int group_size(int n, const int *group, int k)
{
	int m = 0;
	if (!group)
		return 1;
	for (int q = 0; q < n; q++)
		m += group[q] == group[k];
	return m;
}

double balance_time(int n, const double *work, const double *sec, const int *group,
	const int *b)
{
	double t[DECOMP_MAX], worst = 0;
	for (int k = 0; k < n; k++) {
		double w = 0;
		for (int j = b[k]; j < b[k + 1]; j++)
			w += work[j];
		t[k] = sec[k] * w;
	}
	for (int k = 0; k < n; k++) {
		double g = 0;
		for (int q = 0; q < n; q++)
			if (q == k || (group && group[q] == group[k]))
				g += t[q];
		worst = g > worst ? g : worst;
	}
	return worst;
}

/* The first plane boundary j (0..ny) whose prefix work pre[j] reaches
 * target, or the one before it when that is closer. */
static int boundary_at(const double *pre, int ny, double target)
{
	int lo = 0, hi = ny;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (pre[mid] < target)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && target - pre[lo - 1] < pre[lo] - target)
		lo--;
	return lo;
}

/* Limit every subdomain's gifts to its old planes less min_rows, so that all
 * moves are between neighbours, out of the giver's old planes (lowering a
 * gift only shrinks a neighbour's gain: one pass suffices). */
static void limit_gifts(int n, const int *bold, int min_rows, int *bnew)
{
	for (int k = 0; k < n; k++) {
		int rows = bold[k + 1] - bold[k], room = rows > min_rows ? rows - min_rows : 0;
		int lo = bnew[k] > bold[k] ? bnew[k] - bold[k] : 0;
		int hi = bnew[k + 1] < bold[k + 1] ? bold[k + 1] - bnew[k + 1] : 0;
		if (lo + hi <= room)
			continue;
		{
			int lo2 = (int)((long)lo * room / (lo + hi)), hi2 = room - lo2;
			hi2 = hi2 < hi ? hi2 : hi;
			if (lo)
				bnew[k] = bold[k] + lo2;
			if (hi)
				bnew[k + 1] = bold[k + 1] - hi2;
		}
	}
}

double balance_plan(int ny, int n, const double *work, const double *sec, const int *group,
	const int *bold, int min_rows, int *bnew)
{
	double *pre = malloc(((size_t)ny + 1) * sizeof *pre), inv = 0, cum = 0;
	memcpy(bnew, bold, ((size_t)n + 1) * sizeof *bnew);
	if (!pre || n < 2)
		goto keep;
	pre[0] = 0;
	for (int j = 0; j < ny; j++)
		pre[j + 1] = pre[j] + work[j];
	for (int k = 0; k < n; k++) {
		if (!(sec[k] > 0) || !isfinite(sec[k]))
			goto keep;
		inv += 1 / (sec[k] * group_size(n, group, k));
	}
	if (!(pre[ny] > 0))
		goto keep;
	/* subdomain k's share of the work is 1 / (sec[k] m_k) over the sum of
	 * those (m_k: its group's size): then every group's predicted time is
	 * pre[ny] / sum(1 / (sec m)) */
	for (int k = 1; k < n; k++) {
		cum += 1 / (sec[k - 1] * group_size(n, group, k - 1));
		bnew[k] = boundary_at(pre, ny, pre[ny] * (cum / inv));
	}
	for (int k = 1; k < n; k++)
		if (bnew[k] < bnew[k - 1] + min_rows)
			bnew[k] = bnew[k - 1] + min_rows;
	for (int k = n - 1; k > 0; k--)
		if (bnew[k] > bnew[k + 1] - min_rows)
			bnew[k] = bnew[k + 1] - min_rows;
	limit_gifts(n, bold, min_rows, bnew);
keep:
	free(pre);
	return balance_time(n, work, sec, group, bnew);
}

/* The message across edge e (between subdomains e - 1 and e): packed here,
 * or received, or sent. */
static int edge_message(struct decomp *d, const int *bnew, const struct balance_ops *ops,
	int e, void **buf, void *req, int *nreq)
{
	int delta = bnew[e] - d->part[e].row0, me = d->rank;
	int giver = delta > 0 ? e : e - 1, taker = delta > 0 ? e - 1 : e;
	int cnt = delta > 0 ? delta : -delta, gr = d->part[giver].rank, tr = d->part[taker].rank;
	size_t bytes;
	if (!delta || (gr != me && tr != me))
		return 0;
	if (ops->take && gr == me && tr == me)
		return 0; /* taken straight (balance_move) */
	bytes = ops->bytes(ops->user, gr == me ? giver : taker, cnt);
	if (bytes > INT_MAX) {
		spate_log_error("balance", "moving %d planes takes %zu bytes: more than one MPI "
			"message carries (use a shorter [parallel] balance_interval)", cnt, bytes);
		return -SPATE_EINVAL;
	}
	*buf = malloc(bytes ? bytes : 1);
	if (!*buf)
		return -SPATE_ENOMEM;
	if (gr == me) {
		int rc = ops->pack(ops->user, giver, delta > 0 ? 0 : 1, cnt, *buf);
		if (rc)
			return rc;
	}
#ifdef HAVE_MPI
	if (gr == me && tr != me)
		MPI_Isend(*buf, (int)bytes, MPI_BYTE, tr, BALANCE_TAG + e, decomp_world_comm(),
			(MPI_Request *)req + (*nreq)++);
	else if (gr != me)
		MPI_Irecv(*buf, (int)bytes, MPI_BYTE, gr, BALANCE_TAG + e, decomp_world_comm(),
			(MPI_Request *)req + (*nreq)++);
#else
	(void)req;
	(void)nreq;
#endif
	return 0;
}

int balance_move(struct decomp *d, const int *bnew, const struct balance_ops *ops, long *moved)
{
	void **buf = calloc((size_t)d->n + 1, sizeof *buf);
	void *req = NULL;
	int rc = 0, nreq = 0;
#ifdef HAVE_MPI
	req = calloc((size_t)d->n + 1, sizeof(MPI_Request));
#else
	req = calloc(1, 1);
#endif
	if (!buf || !req) {
		free(buf);
		free(req);
		return -SPATE_ENOMEM;
	}
	for (int e = 1; e < d->n && !rc; e++)
		rc = edge_message(d, bnew, ops, e, &buf[e], req, &nreq);
#ifdef HAVE_MPI
	if (nreq && MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS && !rc)
		rc = -SPATE_EDEVICE;
#endif
	/* edges within this rank: every taker copies before any giver drops */
	for (int e = d->first + 1; e < d->last && ops->take && !rc; e++) {
		int delta = bnew[e] - d->part[e].row0;
		if (delta)
			rc = ops->take(ops->user, delta > 0 ? e - 1 : e, delta > 0 ? 1 : 0,
				delta > 0 ? delta : -delta, delta > 0 ? e : e - 1);
	}
	for (int k = d->first; k < d->last && !rc; k++) {
		int lo = k > 0 ? d->part[k].row0 - bnew[k] : 0;
		int hi = k < d->n - 1 ? bnew[k + 1] - (d->part[k].row0 + d->part[k].rows) : 0;
		/* gains taken straight are done */
		if (ops->take && lo > 0 && k > d->first)
			lo = 0;
		if (ops->take && hi > 0 && k + 1 < d->last)
			hi = 0;
		if (lo || hi)
			rc = ops->resize(ops->user, k, lo, hi, lo > 0 ? buf[k] : NULL,
				hi > 0 ? buf[k + 1] : NULL);
	}
	for (int k = 0; k < d->n && !rc; k++) {
		*moved += labs((long)bnew[k] - d->part[k].row0);
		d->part[k].row0 = bnew[k];
		d->part[k].rows = bnew[k + 1] - bnew[k];
	}
	for (int e = 0; e <= d->n; e++)
		free(buf[e]);
	free(buf);
	free(req);
	return rc;
}

/* ---------------------------------------------------------------- report */

static struct balance_report last;

struct balance_report *balance_last(void)
{
	return &last;
}

void balance_print(const struct balance_report *r)
{
	if (!r->valid)
		return;
	spate_log_info("spate: phase               seconds  (balance %s, early_exit %s, ghost "
		"expansion %d)\n", r->balance, r->early, r->ghost_k);
	spate_log_info("spate: simulation        %9.3f  (%ld steps)\n", r->simulation, r->steps);
	spate_log_info("spate:   exchange        %9.3f\n", r->exchange);
	spate_log_info("spate: probe             %9.3f\n", r->probe);
	spate_log_info("spate: tuning            %9.3f  (%ld early-exit trials; %d of %d "
		"subdomains with early exit on)\n", r->tuning, r->early_trials, r->early_on, r->n);
	spate_log_info("spate: bounding box      %9.3f  (%ld measures; %ld intervals a subdomain "
		"rested)\n", r->bbox, r->measures, r->rests);
	spate_log_info("spate: re-decomposition  %9.3f  (%ld moves, %ld rows moved, %ld not "
		"worth their cost; %ld moves with a subdomain resting)\n", r->redecomp, r->moves,
		r->planes_moved, r->skipped, r->rest_moves);
}

void balance_report(const struct balance_report *acc, const struct decomp *d, long steps,
	double advance_s, const double *exchange_s, const int *early_on)
{
	struct balance_report *r = &last;
	double v[6 + DECOMP_MAX], xmax = 0;
	int n = d->n;
	memset(v, 0, sizeof v);
	for (int k = d->first; k < d->last; k++) {
		xmax = exchange_s[k] > xmax ? exchange_s[k] : xmax;
		v[6 + k] = early_on[k];
	}
	v[0] = advance_s - acc->bbox - acc->redecomp - acc->tuning;
	v[1] = xmax;
	v[2] = acc->probe;
	v[3] = acc->tuning;
	v[4] = acc->bbox;
	v[5] = acc->redecomp;
	if (decomp_max(v, 6 + n, NULL))
		return;
	*r = *acc;
	r->valid = 1;
	r->n = n;
	r->nranks = d->nranks;
	r->steps = steps;
	r->simulation = v[0];
	r->exchange = v[1];
	r->probe = v[2];
	r->tuning = v[3];
	r->bbox = v[4];
	r->redecomp = v[5];
	r->early_on = 0;
	for (int k = 0; k < n; k++) {
		r->early_on += v[6 + k] > 0;
		r->row0[k] = d->part[k].row0;
		r->rows[k] = d->part[k].rows;
	}
	if (d->rank == 0)
		balance_print(r);
}

void balance_json(FILE *f)
{
	const struct balance_report *r = &last;
	if (!r->valid)
		return;
	fprintf(f, ",\n  \"decomposition\": {\n    \"subdomains\": %d,\n    \"ranks\": %d,\n",
		r->n, r->nranks);
	fprintf(f, "    \"balance\": \"%s\",\n    \"early_exit\": \"%s\",\n"
		"    \"ghost_expansion\": %d,\n", r->balance, r->early, r->ghost_k);
	fprintf(f, "    \"seconds\": {\"simulation\": %.6f, \"exchange\": %.6f, \"probe\": %.6f, "
		"\"tuning\": %.6f, \"bounding_box\": %.6f, \"redecomposition\": %.6f},\n",
		r->simulation, r->exchange, r->probe, r->tuning, r->bbox, r->redecomp);
	fprintf(f, "    \"measures\": %ld,\n    \"moves\": %ld,\n    \"rows_moved\": %ld,\n"
		"    \"moves_skipped\": %ld,\n    \"rests\": %ld,\n    \"rest_moves\": %ld,\n"
		"    \"early_exit_trials\": %ld,\n    \"early_exit_on\": %d,\n", r->measures, r->moves,
		r->planes_moved, r->skipped, r->rests, r->rest_moves, r->early_trials, r->early_on);
	fprintf(f, "    \"rows\": [");
	for (int k = 0; k < r->n; k++)
		fprintf(f, "%s%d", k ? ", " : "", r->rows[k]);
	fprintf(f, "],\n    \"probe_speed\": [");
	for (int k = 0; k < r->n; k++)
		fprintf(f, "%s%.6g", k ? ", " : "", r->speed[k]);
	fprintf(f, "]\n  }");
}
