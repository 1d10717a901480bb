/* swe_multi_run.h: the decomposed run's context, shared by the step driver
 * (swe_multi.c, swe_multi_halo.c for the halos, and swe_multi_dev.c for the
 * time step on the devices) and its data access (swe_multi_io.c: download,
 * sampling, products, rain, the clock of a restart; swe_multi_gauges.c:
 * the gauges kept on the devices).
 * Internal to those files. */
#ifndef SPATE_SWE_MULTI_RUN_H
#define SPATE_SWE_MULTI_RUN_H

#include "swe.h"
#include "swe_backend.h"
#include "swe_sub.h"
#include "decomp.h"
#include "swe_balance.h"

struct swe_balance;
struct halo_nccl;

/* The decomposed run; the backend table's context (cast at the entry points). */
/* Steps enqueued before the host reads the clock in device-dt mode, unless
 * SPATE_DEV_BATCH says otherwise.  Two H200s, 4000^2 dam break over bumps:
 * 0.82 s with 64 or 32, 0.97 s with 256 (Malpasset at 10 m: the same). */
#define SWE_DEV_BATCH 64

struct multi {
	const struct swe_sub_ops *ops;
	const struct swe_params *p;
	struct decomp d;
	struct halo_plan halo;
	struct swe_backend_ctx *sub[DECOMP_MAX]; /* NULL where on another rank */
	int dev[DECOMP_MAX];     /* device of each subdomain of this rank */
	int nx, ny, pitch;
	int stage;               /* which copy the halo callbacks move */
	double dx, dy, t;
	double max_dt;           /* longest step (swe_max_dt), 0: none */
	long steps;
	double amax;             /* this rank's largest speed of the last stage */
	double t_compute[DECOMP_MAX], t_exchange[DECOMP_MAX], t_wait[DECOMP_MAX];
	double t_steps;          /* wall-clock seconds of the step loops */
	struct swe_balance *bal; /* [parallel] probe, early_exit, balance, ghost
	                            expansion (swe_balance.h) */
	struct halo_nccl *nccl;  /* remote halos GPU to GPU (NULL: MPI) */
	int failed;              /* a step failed: no collective report */
	int devdt;               /* dt on the devices (dev_link): steps in batches */
	long dev_batch;          /* steps per batch (swe_multi_dev.c; SPATE_DEV_BATCH) */
	double last_dt;          /* device-dt mode: the last real step's dt */
	long graph_steps;        /* steps of the recorded graph (0: none) */
	int graph_k;             /* the ghost expansion it was recorded with */
	long enq;                /* steps enqueued (device-dt mode; SWE_GRAPH_COUNT) */
	/* device-dt mode: the subdomains that compute (not resting,
	 * swe_balance_resting), whose graphs and clocks are linked */
	struct swe_backend_ctx *on[DECOMP_MAX];
	int non;
	/* gauges kept on the devices (swe_multi_gauges.c; gn > 0): the n * per
	 * cells' global indices, the subdomain each was handed to, the tracks
	 * as last read back, rows read back at a move and not yet handed on
	 * (gpend at gt, gv), scratch for a subdomain's (st, sv, str, gloc) */
	int gn, gper, gpend;
	long *gidx, *gloc;
	int *gown;
	struct gauge_track *gtr, *str;
	double gbref, gthr, ginterval, *gt, *st;
	real *gv, *sv;
	/* the instability guard (swe_multi_guard.c): the subdomains keep a
	 * last good state; rows moved since (which then cannot come back) */
	int gkept, gmoved;
};

/* Whether rows moved since the last call (swe_balance_moved), noted for
 * the guard. */
static inline int swe_multi_moved(struct multi *m)
{
	int moved = swe_balance_moved(m->bal);
	m->gmoved |= moved;
	return moved;
}

/* The subdomain that holds global row j (ghost rows: the edge ones). */
static inline int swe_multi_owner(const struct multi *m, int j)
{
	int k = 0;
	while (k + 1 < m->d.n && j >= m->d.part[k + 1].row0)
		k++;
	return k;
}

/* Global state index g (swe_idx of the whole grid) as a local one of
 * subdomain k: counted from its first owned row less SWE_GHOST, as the
 * sub-operations' sample and guard take them. */
static inline long swe_multi_local(const struct multi *m, int k, long g)
{
	return g - (long)m->d.part[k].row0 * m->pitch;
}

/* swe_multi.c: the halos of `stage` (U, L) of every internal edge. */
int swe_multi_exchange(struct multi *m, int stage);
/* swe_multi.c: after rows moved or the resting set changed, where U is
 * exchanged after a step: U's halos over every edge, those of resting
 * subdomains too (the steps' exchanges skip them, and a new edge's ghost
 * rows hold nothing yet), and while some rest those of the copy of U the
 * next step writes (which its exchange would fill, skipped at a resting
 * edge) and of the rates (stage 2 reads them in the ghost rows). */
int swe_multi_exchange_moved(struct multi *m);
/* swe_multi_dev.c: the subdomains that compute into m->on (device-dt mode,
 * after dev_link and whenever the resting set changes). */
void swe_multi_dev_on(struct multi *m);
/* swe_multi_dev.c: advance in device-dt mode (dev_link). */
int swe_multi_advance_dev(struct multi *m, double t_stop, long max_steps,
	struct swe_stats *st);

/* The subdomain that holds the cell at global state index idx (ghost rows:
 * those at the global edges). */
static inline int swe_multi_owner_of(const struct multi *m, long idx)
{
	return swe_multi_owner(m, (int)(idx / m->pitch) - SWE_GHOST);
}

/* swe_multi_io.c: the backend table's data entries of the decomposed run. */
int swe_multi_download(struct swe_backend_ctx *ctx, struct swe_state *s);
int swe_multi_sample(struct swe_backend_ctx *ctx, const long *idx, int n, real *w, real *hu,
	real *hv);
int swe_multi_products_start(struct swe_backend_ctx *ctx, real thr);
int swe_multi_products_get(struct swe_backend_ctx *ctx, struct swe_prod *out);
int swe_multi_products_put(struct swe_backend_ctx *ctx, const struct swe_prod *in);
int swe_multi_set_rain(struct swe_backend_ctx *ctx, const float *rate, double uniform);
int swe_multi_set_time(struct swe_backend_ctx *ctx, double t, long steps, double last_dt);
/* swe_multi_gauges.c: the gauges kept on the devices, over the ranks. */
int swe_multi_gauges_start(struct swe_backend_ctx *ctx, const struct gauge_set *gs,
	double bref, double next, double interval);
int swe_multi_gauges_rows(struct swe_backend_ctx *ctx, double *t, real *v, int *nrows);
int swe_multi_gauges_get(struct swe_backend_ctx *ctx, struct gauge_set *gs, double *next);
/* After rows moved: the gauges' rows and tracks read back, and the gauges
 * handed to the subdomains that now hold their cells. */
int swe_multi_gauges_moved(struct multi *m);
/* swe_multi_guard.c: struct spate_backend's guard of the decomposed run. */
int swe_multi_guard(struct swe_backend_ctx *ctx, int op, long cell, int *bad);
void swe_multi_gauges_free(struct multi *m);
/* Forget the recorded graph of the steps (what it was recorded with
 * changed: rain, products, the set of subdomains computing). */
static inline void swe_multi_graph_drop(struct multi *m)
{
	if (m->devdt && m->ops->dev_graph)
		m->ops->dev_graph(m->on, m->non, SWE_GRAPH_DROP, 0);
	m->graph_steps = 0;
}

#endif
