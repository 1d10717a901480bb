/* swe_balance.c: the [parallel] tuning of a decomposed shallow-water run:
 * speed probe, early exit auto, ghost cell expansion, and load balancing
 * (the plan and the move are balance.c's; this file measures and decides).
 *
 * Every decision that changes what the ranks exchange (the rows each
 * subdomain owns, the ghost expansion k) is taken from numbers reduced over
 * the ranks first, so every rank takes the same one.  None changes a bit of
 * the results: the step is the same for any decomposition, any k, and early
 * exit on or off.
 *
 * The work model: a step costs a subdomain sec x sum over its rows of
 * (a + beta (nx - a)), where a is the row's active cells (those the rhs
 * computes: bounding box or per-row count) and beta the cost of a skipped
 * cell relative to a computed one (the probe measures it; else
 * SWE_BALANCE_BETA); sec, seconds per unit of work, is measured per
 * subdomain over the last interval. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_balance.h"
#include "balance.h"

/* Relative cost of a cell the early exit skips (the update of U*, U^{n+1}
 * and the dry test remain): 0.10-0.13 measured by the probe on the CPU
 * backend (2 threads, 1000 columns). */
#define SWE_BALANCE_BETA 0.15
/* Trial length of ghost_expansion = auto: whole exchange cycles of every k
 * tried (1, 2, 4, 8). */
#define KTRIAL 16

void (*swe_balance_hook)(const struct swe_balance_check *c);

struct swe_balance {
	struct swe_params pw;          /* what the subdomains keep */
	const struct swe_params *p;    /* as given */
	const struct swe_sub_ops *ops;
	struct swe_balance_run r;
	int ny, halo_alloc;
	/* exchange schedule */
	int k, due;                    /* k: ghost expansion in use (1: classic) */
	/* ghost_expansion = auto */
	int kcand[4], nk, ktry, ksteps; /* ktry: candidate on trial, -1: done */
	double ktime[4];
	/* early_exit = auto */
	int ephase, esteps;            /* 0: running, 1: trying on, 2: trying off */
	int moved;                     /* rows moved since swe_balance_moved */
	long enext;
	double e0[DECOMP_MAX], eon[DECOMP_MAX];
	int early_on[DECOMP_MAX];
	/* load balancing */
	long next_measure, last_measure;
	double tc_prev[DECOMP_MAX];
	double beta, c_cell;           /* c_cell: s per cell a move touches, < 0 unknown */
	double *work;                  /* per global row */
	int trace;                     /* SPATE_BALANCE_TRACE */
	int *iwork;
	struct balance_report rep;
};

static void report_names(struct swe_balance *b)
{
	static const char *const bal[] = { "static", "bbox", "rows" };
	static const char *const early[] = { "off", "on", "auto" };
	snprintf(b->rep.balance, sizeof b->rep.balance, "%s", bal[b->p->balance]);
	snprintf(b->rep.early, sizeof b->rep.early, "%s", early[b->p->early_exit]);
}

/* The options the sub-operations cannot serve (early_exit = auto without
 * set_early is taken as on, as the single-domain CUDA backend does). */
static int check_ops(const struct swe_params *p, const struct swe_sub_ops *ops)
{
	const char *what = NULL;
	if (p->balance != SWE_BALANCE_STATIC && (!ops->activity || !ops->rows_bytes ||
		!ops->rows_pack || !ops->rows_resize))
		what = p->balance == SWE_BALANCE_BBOX ? "balance = bbox" : "balance = rows";
	else if (p->ghost_expansion != 1 && !ops->expand)
		what = "ghost_expansion other than 1";
	if (!what)
		return 0;
	spate_log_error("decomp", "[parallel] %s: the %s backend cannot do it in a decomposed "
		"run yet; leave the key at its default", what, ops->name);
	return -SPATE_EUNSUPPORTED;
}

static int ghost_options(struct swe_balance *b, int n, int ny)
{
	const struct swe_params *p = b->p;
	b->ktry = -1;
	b->k = p->ghost_expansion;
	if (p->ghost_expansion == 0) {
		/* auto: the k whose ghost rows fit in half a subdomain's share */
		for (int k = 1; k <= 8; k *= 2) {
			b->pw.ghost_expansion = k;
			if (k == 1 || swe_halo_rows(&b->pw) <= ny / n / 2)
				b->kcand[b->nk++] = k;
		}
		b->pw.ghost_expansion = b->kcand[b->nk - 1];
		b->k = 1;
		b->ktry = b->nk > 1 ? 0 : -1;
	}
	b->halo_alloc = swe_halo_rows(&b->pw);
	if (b->halo_alloc > SWE_GHOST && (long)n * b->halo_alloc > ny) {
		spate_log_error("decomp", "[parallel] ghost_expansion = %d: each subdomain holds %d "
			"ghost rows and must own as many; %d subdomains need %ld rows, the grid has %d "
			"(a smaller k, or fewer subdomains)", b->k, b->halo_alloc, n,
			(long)n * b->halo_alloc, ny);
		return -SPATE_EINVAL;
	}
	return 0;
}

int swe_balance_new(struct swe_balance **out, const struct swe_params *p,
	const struct swe_sub_ops *ops, int n, int ny, const struct swe_params **pw)
{
	struct swe_balance *b = calloc(1, sizeof *b);
	int rc;
	balance_last()->valid = 0;
	if (!b)
		return -SPATE_ENOMEM;
	b->p = p;
	b->pw = *p;
	b->ops = ops;
	b->ny = ny;
	b->work = malloc((size_t)ny * sizeof *b->work);
	b->iwork = malloc((size_t)ny * sizeof *b->iwork);
	if (!b->work || !b->iwork) {
		swe_balance_free(b);
		return -SPATE_ENOMEM;
	}
	if ((rc = check_ops(p, ops)) || (rc = ghost_options(b, n, ny))) {
		swe_balance_free(b);
		return rc;
	}
	if (p->early_exit == SWE_EARLY_AUTO)
		b->pw.early_exit = SWE_EARLY_ON;
	for (int k = 0; k < DECOMP_MAX; k++)
		b->early_on[k] = b->pw.early_exit != SWE_EARLY_OFF;
	b->beta = p->early_exit == SWE_EARLY_OFF ? 1 : ops->skip_cost > 0 ? ops->skip_cost :
		SWE_BALANCE_BETA;
	b->c_cell = -1;
	b->next_measure = p->balance_interval;
	{
		const char *e = getenv("SPATE_BALANCE_TRACE");
		b->trace = e ? atoi(e) : 0;
	}
	report_names(b);
	*pw = &b->pw;
	*out = b;
	return 0;
}

int swe_balance_min_rows(const struct swe_balance *b)
{
	return b->halo_alloc > SWE_GHOST ? b->halo_alloc : SWE_GHOST;
}

/* Seconds subdomain k of this rank has computed so far: the device's own
 * count where the phases only enqueue work (ops->times; it waits for the
 * device), else the driver's clock. */
static double compute_s(const struct swe_balance *b, int k)
{
	double c, x;
	if (b->r.ops->times && b->r.ops->times(b->r.sub[k], &c, &x) == 0)
		return c;
	return b->r.t_compute[k];
}

void swe_balance_attach(struct swe_balance *b, const struct swe_balance_run *r)
{
	b->r = *r;
	for (int k = r->d->first; k < r->d->last; k++)
		b->tc_prev[k] = compute_s(b, k);
}

long swe_balance_steps_free(const struct swe_balance *b, long steps)
{
	if (b->ktry >= 0 || (b->p->early_exit == SWE_EARLY_AUTO && b->r.ops->set_early))
		return 1;
	if (b->p->balance != SWE_BALANCE_STATIC && b->r.d->n > 1)
		return b->next_measure > steps ? b->next_measure - steps : 1;
	return LONG_MAX;
}

int swe_balance_moved(struct swe_balance *b)
{
	int m = b->moved;
	b->moved = 0;
	return m;
}

void swe_balance_free(struct swe_balance *b)
{
	if (!b)
		return;
	free(b->work);
	free(b->iwork);
	free(b);
}

/* ------------------------------------------------------------ exchanges */

int swe_balance_halo(const struct swe_balance *b)
{
	struct swe_params q = b->pw;
	q.ghost_expansion = b->k;
	return swe_halo_rows(&q);
}

int swe_balance_exchange_ustar(const struct swe_balance *b)
{
	return b->k == 1 && b->pw.integrator != 1;
}

int swe_balance_exchange_due(struct swe_balance *b, long steps, int after_step)
{
	int due = b->due || (b->k == 1 ? !after_step : steps % b->k == 0);
	b->due = 0;
	return due;
}

void swe_balance_exchange_soon(struct swe_balance *b)
{
	b->due = 1;
}

int swe_balance_k(const struct swe_balance *b)
{
	return b->k;
}

/* Exchange every k steps from now on: the halo plan for the new depth. */
static int set_k(struct swe_balance *b, int k)
{
	double t0 = spate_now();
	int rc;
	b->k = k;
	b->due = 1;
	halo_plan_free(b->r.halo);
	rc = halo_plan_build(b->r.halo, b->r.d,
		3 * (size_t)swe_balance_halo(b) * b->r.pitch * sizeof(real));
	b->rep.tuning += spate_now() - t0;
	return rc;
}

/* ghost_expansion = auto: KTRIAL steps of every candidate k, then the one
 * whose slowest rank was fastest. */
static int ghost_trial(struct swe_balance *b, double step_s)
{
	int best = 0, rc;
	b->ktime[b->ktry] += step_s;
	if (++b->ksteps < KTRIAL)
		return 0;
	if ((rc = decomp_max(&b->ktime[b->ktry], 1, NULL)))
		return rc;
	b->ksteps = 0;
	if (++b->ktry < b->nk)
		return set_k(b, b->kcand[b->ktry]);
	for (int q = 1; q < b->nk; q++)
		if (b->ktime[q] < b->ktime[best])
			best = q;
	b->ktry = -1;
	return set_k(b, b->kcand[best]);
}

/* Early exit on or off on every subdomain of this rank. */
static void early_all(struct swe_balance *b, int on)
{
	for (int k = b->r.d->first; k < b->r.d->last; k++)
		b->r.ops->set_early(b->r.sub[k], on);
}

/* early_exit = auto: every early_exit_interval steps, early_exit_steps
 * steps with and as many without; each subdomain keeps the faster (a local
 * choice: the results are the same bits, nothing else changes). */
static void early_trial(struct swe_balance *b, long steps)
{
	const struct decomp *d = b->r.d;
	double t0 = spate_now();
	if (b->ephase == 0) {
		if (steps < b->enext)
			return;
		early_all(b, 1);
	} else if (++b->esteps < b->p->early_exit_steps) {
		return;
	} else if (b->ephase == 1) {
		for (int k = d->first; k < d->last; k++)
			b->eon[k] = compute_s(b, k) - b->e0[k];
		early_all(b, 0);
	} else {
		for (int k = d->first; k < d->last; k++) {
			b->early_on[k] = b->eon[k] <= compute_s(b, k) - b->e0[k];
			b->r.ops->set_early(b->r.sub[k], b->early_on[k]);
		}
		b->ephase = 0;
		b->enext = steps + b->p->early_exit_interval;
		b->rep.early_trials++;
		b->rep.tuning += spate_now() - t0;
		return;
	}
	for (int k = d->first; k < d->last; k++)
		b->e0[k] = compute_s(b, k);
	b->ephase++;
	b->esteps = 0;
	b->rep.tuning += spate_now() - t0;
}

/* ------------------------------------------------------------ balancing */

static size_t mv_bytes(void *u, int k, int n)
{
	struct swe_balance *b = u;
	return b->r.ops->rows_bytes(b->r.sub[k], n);
}

static int mv_pack(void *u, int k, int side, int n, void *buf)
{
	struct swe_balance *b = u;
	return b->r.ops->rows_pack(b->r.sub[k], side, n, buf);
}

static int mv_resize(void *u, int k, int lo, int hi, const void *blo, const void *bhi)
{
	struct swe_balance *b = u;
	return b->r.ops->rows_resize(b->r.sub[k], lo, hi, blo, bhi);
}

static int mv_take(void *u, int k, int side, int n, int from)
{
	struct swe_balance *b = u;
	return b->r.ops->rows_take(b->r.sub[k], side, n, b->r.sub[from]);
}

/* For the test hook: per global row the sums of w, hu, hv (sums[f ny + j]). */
static int row_sums(struct swe_balance *b, double *sums)
{
	const struct decomp *d = b->r.d;
	int rc = 0, P = b->r.pitch, ny = b->ny;
	memset(sums, 0, 3 * (size_t)ny * sizeof *sums);
	for (int k = d->first; k < d->last && !rc; k++) {
		int rows = d->part[k].rows;
		real *f = malloc(3 * (size_t)rows * P * sizeof *f);
		if (!f)
			return -SPATE_ENOMEM;
		rc = b->r.ops->rows_get(b->r.sub[k], SWE_STAGE_U, 0, rows, f, f + (size_t)rows * P,
			f + 2 * (size_t)rows * P);
		for (int q = 0; q < 3 && !rc; q++)
			for (int j = 0; j < rows; j++) {
				const real *row = f + ((size_t)q * rows + j) * P + SWE_GHOST;
				double s = 0;
				for (int i = 0; i < b->r.nx; i++)
					s += row[i];
				sums[(size_t)q * ny + d->part[k].row0 + j] = s;
			}
		free(f);
	}
	for (int q = 0; q < 3 && !rc; q++)
		rc = decomp_allgather_planes(sums + (size_t)q * ny, b->r.d, NULL);
	return rc;
}

/* Move rows to boundaries bnew, calling the test hook around it. */
static int move_rows(struct swe_balance *b, const int *bnew)
{
	struct decomp *d = b->r.d;
	struct balance_ops o;
	struct swe_balance_check c;
	int r0[DECOMP_MAX], n0[DECOMP_MAX], r1[DECOMP_MAX], n1[DECOMP_MAX], rc;
	double *sums = NULL;
	const char *e;
	o.user = b;
	o.bytes = mv_bytes;
	o.pack = mv_pack;
	o.resize = mv_resize;
	/* SPATE_MOVE_HOST=1: rows between subdomains of this process travel as
	 * messages too (for comparison and the tests) */
	e = getenv("SPATE_MOVE_HOST");
	o.take = b->r.ops->rows_take && !(e && atoi(e)) ? mv_take : NULL;
	if (swe_balance_hook) {
		if (!(sums = malloc(6 * (size_t)b->ny * sizeof *sums)))
			return -SPATE_ENOMEM;
		for (int k = 0; k < d->n; k++) {
			r0[k] = d->part[k].row0;
			n0[k] = d->part[k].rows;
		}
		if ((rc = row_sums(b, sums)))
			goto out;
	}
	if ((rc = balance_move(d, bnew, &o, &b->rep.planes_moved)) || !sums)
		goto out;
	for (int k = 0; k < d->n; k++) {
		r1[k] = d->part[k].row0;
		n1[k] = d->part[k].rows;
	}
	if ((rc = row_sums(b, sums + 3 * (size_t)b->ny)))
		goto out;
	c.ny = b->ny;
	c.n = d->n;
	c.row0_before = r0;
	c.rows_before = n0;
	c.row0_after = r1;
	c.rows_after = n1;
	c.sums_before = sums;
	c.sums_after = sums + 3 * (size_t)b->ny;
	swe_balance_hook(&c);
out:
	free(sums);
	return rc;
}

/* The active cells per global row in b->work: per-row counts, or the wet
 * bounding box widened by a cell (the neighbours of wet cells) and the
 * rows' cost by the work model; the seconds of each subdomain since the
 * last measure in T.  Collective. */
static int measure_work(struct swe_balance *b, double *T)
{
	struct decomp *d = b->r.d;
	int rows_mode = b->p->balance == SWE_BALANCE_ROWS, nx = b->r.nx, rc = 0;
	int box[4] = { INT_MAX, -1, INT_MAX, -1 };
	memset(b->work, 0, (size_t)b->ny * sizeof *b->work);
	for (int k = 0; k < d->n; k++)
		T[k] = 0;
	for (int k = d->first; k < d->last && !rc; k++) {
		int kb[4];
		rc = b->r.ops->activity(b->r.sub[k], rows_mode ? b->iwork : NULL, rows_mode ? NULL : kb);
		for (int j = 0; rows_mode && j < d->part[k].rows; j++)
			b->work[d->part[k].row0 + j] = b->iwork[j];
		if (!rows_mode) {
			box[0] = kb[0] < box[0] ? kb[0] : box[0];
			box[1] = kb[1] > box[1] ? kb[1] : box[1];
			box[2] = kb[2] < box[2] ? kb[2] : box[2];
			box[3] = kb[3] > box[3] ? kb[3] : box[3];
		}
		T[k] = compute_s(b, k) - b->tc_prev[k];
	}
	if (!rc)
		rc = decomp_max(T, d->n, NULL);
	if (!rc)
		rc = rows_mode ? decomp_allgather_planes(b->work, d, NULL) : decomp_bbox(box, NULL);
	if (!rows_mode && box[0] <= box[1]) {
		int w = box[3] - box[2] + 3;
		for (int j = box[0] - 1; j <= box[1] + 1; j++)
			if (j >= 0 && j < b->ny)
				b->work[j] = w < nx ? w : nx;
	}
	for (int j = 0; j < b->ny; j++)
		b->work[j] += b->beta * (nx - b->work[j]);
	return rc;
}

/* Seconds per unit of work of each subdomain over an interval of isteps
 * steps; 0 where nothing was measured (replaced by the mean of the others;
 * all 0: returns 0, no plan).  Devices side by side (ops->concurrent) take
 * the probe's speeds instead, or one speed without the probe (the mean
 * measured): what the devices measure over an interval holds their waits
 * for each other and for the host's launches, as long on a device with
 * nothing to compute as on the busiest one, and would hide where the work
 * is. */
static int speeds(struct swe_balance *b, const double *T, long isteps, double *sec)
{
	const struct decomp *d = b->r.d;
	double sum = 0;
	int nv = 0;
	for (int k = 0; k < d->n; k++) {
		double W = 0;
		for (int j = d->part[k].row0; j < d->part[k].row0 + d->part[k].rows; j++)
			W += b->work[j];
		sec[k] = W > 0 && T[k] > 0 ? T[k] / W : 0;
		sum += sec[k];
		nv += sec[k] > 0;
	}
	for (int k = 0; k < d->n && nv; k++)
		if (!(sec[k] > 0))
			sec[k] = sum / nv;
	if (nv && b->r.ops->concurrent) {
		int probed = 1;
		double Ts = 0, Ws = 0;
		for (int k = 0; k < d->n; k++) {
			probed &= b->rep.speed[k] > 0;
			Ts += T[k];
			for (int j = d->part[k].row0; j < d->part[k].row0 + d->part[k].rows; j++)
				Ws += b->work[j];
		}
		for (int k = 0; k < d->n; k++)
			sec[k] = probed ? (double)isteps / b->rep.speed[k] : Ts / Ws;
	}
	return nv;
}

/* SPATE_BALANCE_TRACE=1: every plan on the log (rank 0). */
static void trace(const struct swe_balance *b, long steps, const int *bold, const int *bnew,
	const double *sec, double told, double tnew)
{
	const struct decomp *d = b->r.d;
	char line[1024];
	int o = 0;
	if (d->rank != 0)
		return;
	for (int k = 0; k < d->n && o < (int)sizeof line - 80; k++) {
		double w = 0;
		for (int j = bold[k]; j < bold[k + 1]; j++)
			w += b->work[j];
		o += snprintf(line + o, sizeof line - o, " [%d: rows %d-%d -> %d-%d, work %.4g, %.3g s/unit]",
			k, bold[k], bold[k + 1] - 1, bnew[k], bnew[k + 1] - 1, w, sec[k]);
	}
	spate_log_info("spate: balance at step %ld:%s; slowest %.4g -> %.4g s\n", steps, line,
		told, tnew);
	if (b->trace > 1)
		for (int j = 0; j < b->ny; j += (b->ny + 31) / 32)
			spate_log_info("spate:   row %d: work %.4g\n", j, b->work[j]);
}

/* Every balance_interval steps: measure, plan, and move when worth it. */
static int balance_now(struct swe_balance *b, long steps)
{
	struct decomp *d = b->r.d;
	double T[DECOMP_MAX], sec[DECOMP_MAX], t0 = spate_now(), t1, told, tnew, cells = 0;
	int bold[DECOMP_MAX + 1], bnew[DECOMP_MAX + 1], group[DECOMP_MAX], rc, same = 1;
	long isteps = steps - b->last_measure;
	if ((rc = measure_work(b, T)))
		return rc;
	b->rep.measures++;
	t1 = spate_now();
	b->rep.bbox += t1 - t0;
	b->last_measure = steps;
	if (isteps <= 0 || !speeds(b, T, isteps, sec))
		goto done;
	for (int k = 0; k < d->n; k++)
		bold[k] = d->part[k].row0;
	bold[d->n] = b->ny;
	for (int k = 0; k < d->n; k++)
		group[k] = b->r.ops->concurrent ? k : d->part[k].rank;
	tnew = balance_plan(b->ny, d->n, b->work, sec, group, bold, swe_balance_min_rows(b), bnew);
	told = balance_time(d->n, b->work, sec, group, bold);
	for (int k = 0; k < d->n; k++)
		if (bnew[k] != bold[k] || bnew[k + 1] != bold[k + 1]) {
			same = 0;
			cells += (double)(bold[k + 1] - bold[k] + bnew[k + 1] - bnew[k]) * b->r.nx;
		}
	if (b->trace)
		trace(b, steps, bold, bnew, sec, told, tnew);
	if (same)
		goto done;
	if (b->c_cell < 0) {
		/* before the first move: a move touches a cell about as much as
		 * half a step does, a step's seconds spread over every cell of the
		 * grid (dry ones cost little to step, as much to move) */
		double s = 0;
		for (int k = 0; k < d->n; k++)
			s += T[k];
		b->c_cell = 0.5 * s / ((double)b->ny * b->r.nx) / (double)isteps;
	}
	/* the saving of the next interval (as long as this one) against the
	 * cost; balance_gain = 0 follows every plan */
	if (b->p->balance_gain > 0 && !(told - tnew > b->p->balance_gain * b->c_cell * cells)) {
		b->rep.skipped++;
		goto done;
	}
	{
		double t2 = spate_now(), dt;
		if ((rc = move_rows(b, bnew)))
			return rc;
		dt = spate_now() - t2;
		if ((rc = decomp_max(&dt, 1, NULL)))
			return rc;
		b->c_cell = dt / cells;
		b->rep.moves++;
		b->due = 1;
		b->moved = 1;
	}
done:
	for (int k = d->first; k < d->last; k++)
		b->tc_prev[k] = compute_s(b, k);
	b->rep.redecomp += spate_now() - t1;
	return 0;
}

int swe_balance_step(struct swe_balance *b, long steps, double step_s)
{
	int rc = 0;
	if (b->ktry >= 0)
		rc = ghost_trial(b, step_s);
	else if (b->p->early_exit == SWE_EARLY_AUTO && b->r.ops->set_early)
		early_trial(b, steps);
	if (!rc && b->p->balance != SWE_BALANCE_STATIC && b->r.d->n > 1 &&
		steps >= b->next_measure) {
		rc = balance_now(b, steps);
		b->next_measure = steps + b->p->balance_interval;
	}
	return rc;
}

/* ---------------------------------------------------------------- probe */

int swe_balance_probe(struct swe_balance *b, const struct swe_state *s, int n,
	const int *dev, double *workload, int *nworkload)
{
	double beta, t0 = spate_now();
	int rc;
	if (!b->p->probe)
		return 0;
	rc = swe_probe_speeds(b->ops, &b->pw, s, n, dev, workload, &beta);
	if (!rc) {
		*nworkload = n;
		memcpy(b->rep.speed, workload, (size_t)n * sizeof *workload);
		if (b->p->early_exit != SWE_EARLY_OFF && !(b->ops->skip_cost > 0))
			b->beta = beta < 0.02 ? 0.02 : beta > 1 ? 1 : beta;
	}
	b->rep.probe = spate_now() - t0;
	return rc;
}

/* --------------------------------------------------------------- report */

void swe_balance_report(struct swe_balance *b, long steps, double advance_s)
{
	b->rep.ghost_k = b->k;
	balance_report(&b->rep, b->r.d, steps, advance_s, b->r.t_exchange, b->early_on);
}
