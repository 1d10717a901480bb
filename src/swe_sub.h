/* swe_sub.h: the shallow-water step cut into phases, one subdomain at a
 * time: the table a device backend fills for the decomposed run
 * (swe_multi.c), which drives many subdomains.  A type of its own, below the
 * decomposed run, its balancer and the device backends.
 *
 * A subdomain owns global rows [row0, row0 + rows) plus SWE_GHOST ghost rows
 * on each side (decomp.h).  Ghost rows at a global south/north edge come from
 * the boundary condition, at an internal edge from the neighbour (halo
 * exchange); west and east ghosts always from the boundary condition.  One
 * step of the decomposed run is
 *   exchange U;  stage1 on every subdomain;  global max of the speeds;
 *   dt;  predict;  [RK2: exchange U*;  correct];  commit
 * and gives the same bits as the single-domain step (swe_cpu.c), which is the
 * same sequence on one subdomain that owns every row.
 *
 * A backend whose second RK2 stage rebuilds U* from U^n and L on the fly (the
 * CUDA one) needs the ghost rows of L instead of those of U* (mid_stage =
 * SWE_STAGE_RATE).  L does not depend on dt, so its exchange follows stage 1
 * at once, while the speeds are still being reduced, and U is exchanged
 * after each step instead of before it:
 *   stage1;  exchange L;  global max of the speeds;  dt;  predict;
 *   [RK2: correct];  commit;  exchange U
 * Such a backend may run asynchronously: its phases enqueue work, `speeds`
 * waits for the speeds, and `interior` lets the interior rows of a stage run
 * while its halos travel (Jacobsen, Thibault & Senocak 2010). */
#ifndef SPATE_SWE_SUB_H
#define SPATE_SWE_SUB_H

#include "swe.h"
#include "swe_backend.h"

struct swe_prod;
struct gauge_track;

/* Which copy of the state a halo operation reads or writes: U, the RK2
 * intermediate U*, the stage-1 rate L (ghost rows included), or the copy
 * of U that the next step writes, where a backend keeps two and the step
 * writes only their owned rows (the CUDA one: their ghost rows matter
 * where the halos of a resting subdomain are skipped, swe_balance_plan.c). */
enum swe_stage {
	SWE_STAGE_U = 0, SWE_STAGE_USTAR = 1, SWE_STAGE_RATE = 2, SWE_STAGE_UNEXT = 3
};

/* The operations of swe_sub_ops' dev_graph. */
enum {
	SWE_GRAPH_LEN, SWE_GRAPH_BEGIN, SWE_GRAPH_END, SWE_GRAPH_LAUNCH, SWE_GRAPH_DROP,
	SWE_GRAPH_PERIOD, SWE_GRAPH_NEXT, SWE_GRAPH_COUNT
};

/* [parallel] overlap: how halo exchange and computation overlap on
 * asynchronous devices (Jacobsen et al. 2010, strategies 1-3). */
enum swe_overlap { SWE_OVERLAP_NONE = 0, SWE_OVERLAP_COMPUTE = 1, SWE_OVERLAP_STREAMS = 2 };

/* The step phases of one backend on one subdomain.  Every function returns 0
 * or -SPATE_E*. */
struct swe_sub_ops {
	const char *name;
	/* A subdomain of global rows [row0, row0 + rows) of the global state g
	 * (its own copy of the state and of the bed, ghost rows included);
	 * boundary data are those of the whole domain. */
	int (*init)(struct swe_backend_ctx **sub, const struct swe_state *g,
		const struct swe_params *p, int row0, int rows, int device);
	/* Boundary conditions at time t on the global edges this subdomain
	 * touches, then L = L(U^n) on its interior; the largest face speeds. */
	int (*stage1)(struct swe_backend_ctx *sub, double t, double *ax, double *ay);
	/* Euler: U^{n+1} = finish(U^n + dt L).  RK2: ghost rates on global edges,
	 * then U* = finish(U^n + dt L) on the interior and global-edge ghost rows.
	 * t_new: the time the step reaches (boundary values of U^{n+1}). */
	int (*predict)(struct swe_backend_ctx *sub, double dt, double t_new);
	/* RK2: L(U*) and U^{n+1} = finish((U^n + U* + dt L(U*)) / 2) on the
	 * interior; the largest face speeds of this stage. */
	int (*correct)(struct swe_backend_ctx *sub, double dt, double *ax, double *ay);
	/* Make U^{n+1} the current state, reached at time t by a step dt. */
	int (*commit)(struct swe_backend_ctx *sub, double t, double dt);
	/* Copy local rows [j0, j1) (j in [-G, rows + G), whole rows of pitch
	 * cells) of U or U* to / from three arrays of (j1 - j0) * pitch cells. */
	int (*rows_get)(struct swe_backend_ctx *sub, int stage, int j0, int j1, real *w,
		real *hu, real *hv);
	int (*rows_put)(struct swe_backend_ctx *sub, int stage, int j0, int j1, const real *w,
		const real *hu, const real *hv);
	/* Read (w, hu, hv) of n cells at local state indices idx. */
	int (*sample)(struct swe_backend_ctx *sub, const long *idx, int n, real *w, real *hu,
		real *hv);
	/* Gauges kept on the device (NULL: not offered; swe_multi_gauges.c):
	 * as struct spate_backend's gauges_start, gauges_rows, gauges_get, for
	 * all n gauges of per cells each at local indices idx (< 0: a cell of
	 * another subdomain, skipped, its rows' values left unset), the tracks
	 * tr of all of them (those of other subdomains' cells unused). */
	int (*gauges_start)(struct swe_backend_ctx *sub, const long *idx, int n, int per,
		const struct gauge_track *tr, double bref, double thr, double next, double interval);
	int (*gauges_rows)(struct swe_backend_ctx *sub, double *t, real *v, int *nrows);
	int (*gauges_get)(struct swe_backend_ctx *sub, struct gauge_track *tr, double *next);
	/* Flood products of the subdomain's rows (NULL: not kept). */
	int (*products_start)(struct swe_backend_ctx *sub, real thr);
	int (*products_get)(struct swe_backend_ctx *sub, struct swe_prod *out);
	void (*fini)(struct swe_backend_ctx *sub);

	/* ---- asynchronous devices; 0 and NULL for a backend whose phases
	 * complete before they return (the CPU) */
	/* What the RK2 mid-step exchange moves: SWE_STAGE_USTAR (0 reads as
	 * this) or SWE_STAGE_RATE (see the top of this file). */
	int mid_stage;
	/* Wait for the stage last enqueued; its largest face speeds (NULL: stage1
	 * and correct give them). */
	int (*speeds)(struct swe_backend_ctx *sub, double *ax, double *ay);
	/* Enqueue the interior rows of the stage begun, whose edge rows came
	 * first (no-op when none are pending); called between the two halves
	 * of a halo exchange. */
	int (*interior)(struct swe_backend_ctx *sub);
	/* The halo of stage `stage` at edge `side` (0 south, 1 north): the G
	 * rows next to it into buf (three blocks w, hu, hv), waiting for those
	 * rows only; buf into the ghost rows there (buf may be reused on
	 * return); the `rows` edge rows of `from` (G, or more with ghost cell
	 * expansion) straight into the ghost rows of `to`, a subdomain of this
	 * process.  NULL: rows_get and rows_put. */
	int (*halo_get)(struct swe_backend_ctx *sub, int stage, int side, void *buf);
	int (*halo_put)(struct swe_backend_ctx *sub, int stage, int side, const void *buf);
	int (*halo_copy)(struct swe_backend_ctx *from, int stage, int side_from,
		struct swe_backend_ctx *to, int rows);
	/* Remote halos GPU to GPU ([parallel] transport = nccl; halo_nccl.c):
	 * the device addresses of the three blocks (w, hu, hv) of the halo of
	 * `stage` at edge `side`: the G rows next to it (ghost 0, sent) or the G
	 * ghost rows beyond it (ghost 1, received), and the stream on which
	 * transfers of them are ordered with the stages (the next stage reads
	 * its ghost rows after them there); halo_mark(sub, 0) and (sub, 1)
	 * bracket the transfers enqueued there (timed as halo copies).  NULL:
	 * not offered. */
	int (*halo_dev)(struct swe_backend_ctx *sub, int stage, int side, int ghost,
		void *ptr[3], void **stream);
	int (*halo_mark)(struct swe_backend_ctx *sub, int end);
	/* The ghost rows of `stage` at edge `side` (0 south, 1 north) stay valid
	 * as they are: the neighbour rests (swe_balance.h), or this subdomain
	 * does, and no halo moves on that edge.  NULL: halos are copied as
	 * usual while a subdomain rests (they are what they were). */
	void (*halo_keep)(struct swe_backend_ctx *sub, int stage, int side);
	/* Seconds the device spent computing and copying halos (NULL: the
	 * driver's wall-clock timers are the device's). */
	int (*times)(struct swe_backend_ctx *sub, double *compute, double *exchange);

	/* ---- Load balancing and ghost cell expansion (swe_balance.c).  A
	 * backend offers what it can; the decomposed run refuses, with a message,
	 * the [parallel] options whose operations are NULL (or expand 0).
	 *
	 * expand = 1 (ghost_expansion = k > 1): init holds swe_halo_rows(p)
	 * ghost rows at internal edges (at least SWE_GHOST), rows_get/rows_put
	 * take j in [-halo, rows + halo), and a rows_put of the rows beyond an
	 * internal edge makes them the valid ghost rows of that copy (U or U*)
	 * there.  Each stage then computes on the owned rows and on the valid
	 * ghost rows less the stencil (SWE_GHOST rows), so the valid region
	 * shrinks by 2 SWE_GHOST rows per RK2 step; the speed maxima count the
	 * owned faces only (the faces between rows row0 - 1 and row0 + rows),
	 * so dt is that of one domain.  A stage with too few valid ghost rows is
	 * an error (-SPATE_EINVAL). */
	int expand;
	/* 1: the subdomains of one rank compute at the same time (a device
	 * each); 0: one after another (the CPU: each with all its threads), so
	 * moving rows among them saves nothing (balance.h, groups). */
	int concurrent;
	/* balance: the cost of a cell the early exit skips relative to a
	 * computed one (0: swe_balance.c's default, or the probe's measure). */
	double skip_cost;
	/* early_exit = auto: skip dry blocks (on = 1) or not from now on; the
	 * results are the same bits either way. */
	int (*set_early)(struct swe_backend_ctx *sub, int on);
	/* balance = bbox | rows: per owned row the cells the next step will
	 * compute (work[0..rows), NULL: not wanted), and the bounding box of the
	 * owned wet cells (depth > 0) in global indices {j_min, j_max, i_min,
	 * i_max}, empty {INT_MAX, -1, INT_MAX, -1} (box NULL: not wanted). */
	int (*activity)(struct swe_backend_ctx *sub, int *work, int box[4]);
	/* balance = bbox | rows: moving whole rows to a neighbour, between two
	 * steps.  rows_bytes: the size of the message that carries n rows (the
	 * same on every subdomain of a run).  rows_pack: the n owned rows next to
	 * edge `side` (0 south, 1 north) with all that the next steps read of
	 * them (state, bed and the bed of swe_halo_rows(p) rows either side,
	 * products, anything the backend keeps from step to step).  rows_resize:
	 * own gain_lo more rows at the south and gain_hi more at the north (< 0:
	 * fewer; the rows dropped were packed before), the new ones from the
	 * messages lo and hi; then every internal edge needs a halo exchange.
	 * The message format is the backend's: both neighbours run the same
	 * sub-operations. */
	size_t (*rows_bytes)(struct swe_backend_ctx *sub, int n);
	int (*rows_pack)(struct swe_backend_ctx *sub, int side, int n, void *buf);
	int (*rows_resize)(struct swe_backend_ctx *sub, int gain_lo, int gain_hi, const void *lo,
		const void *hi);
	/* rows_take (NULL: not offered): subdomain `sub` owns n more rows at
	 * edge `side` (0 south, 1 north), copied straight from `from`, its
	 * neighbour there in this process (whose rows are not changed: a
	 * rows_resize with a negative gain drops them after).  Between devices
	 * that can read each other's memory, instead of a message through the
	 * host. */
	int (*rows_take)(struct swe_backend_ctx *sub, int side, int n,
		struct swe_backend_ctx *from);
	/* ---- The time step on the devices, for the subdomains of a run that
	 * all live in this process (NULL: not offered).  dev_link(sub, n) joins
	 * them: 0, and from then on stage 1 leaves its speeds on the device,
	 * `speeds` is not called after stage 1, predict and commit ignore dt,
	 * t and t_new, and dev_dt (after every subdomain's stage 1 and
	 * interior) enqueues the step's dt, the same on every subdomain and the
	 * same as swe_cfl_dt of the global maxima; or -SPATE_EUNSUPPORTED (the
	 * devices cannot read each other's memory), nothing changed.  The
	 * clock is then on the device: dev_clock writes t, steps, the last dt
	 * and t_stop (steps at t >= t_stop are no-ops, as on one GPU), dev_read
	 * waits for the subdomain and reads them with the largest speed of the
	 * last real step (RK2: this subdomain's stage 2; Euler: the global
	 * stage 1), -SPATE_ENUMERIC after a non-finite speed. */
	int (*dev_link)(struct swe_backend_ctx **sub, int n);
	int (*dev_dt)(struct swe_backend_ctx *sub);
	int (*dev_clock)(struct swe_backend_ctx *sub, double t, long steps, double last_dt,
		double t_stop);
	int (*dev_read)(struct swe_backend_ctx *sub, double *t, long *steps, double *last_dt,
		double *amax);
	/* Graphs of whole steps over the linked subdomains (NULL: none):
	 * SWE_GRAPH_LEN: how many steps from the next one a graph may replay (0:
	 * run the next step by its phases); BEGIN: the phases of the next
	 * `steps` steps are recorded from now on, not run; END: recorded (0), or
	 * -SPATE_EUNSUPPORTED: no graph, and LEN is 0 from now on; LAUNCH: run
	 * the recorded steps (the same count; 1: nothing ran, the graph no
	 * longer fits the subdomains and is gone: record it again); DROP: forget them (rows moved,
	 * products started: what they were recorded with changed); PERIOD: a
	 * graph may begin every this many steps enqueued (0: none); NEXT: the
	 * steps to enqueue before the next such step (0 .. PERIOD - 1; steps
	 * enqueued past t_stop count), so that batches that end there leave no
	 * step to run alone; COUNT: the steps enqueued so far. */
	long (*dev_graph)(struct swe_backend_ctx **sub, int n, int op, long steps);
	/* dev_peers(sub, n, on, steps): of the n linked subdomains, those with
	 * on[k] != 0 compute from now on, the others rest (swe_balance.h): the
	 * time step is taken over the former only, whose counts of steps
	 * enqueued become `steps` (a subdomain that rested missed some).  Called
	 * between batches, the graphs dropped.  NULL: subdomains on this
	 * backend never rest in device-dt mode. */
	int (*dev_peers)(struct swe_backend_ctx **sub, int n, const int *on, long steps);
	/* Restart: replace the subdomain's products (NULL: not offered). */
	int (*products_put)(struct swe_backend_ctx *sub, const struct swe_prod *in);
	/* Rain from now on, as struct spate_backend's set_rain: rate covers the
	 * global grid (NULL: no rain in decomposed runs on this backend). */
	int (*set_rain)(struct swe_backend_ctx *sub, const float *rate, double uniform);
	/* The instability guard on this subdomain (swe_multi_guard.c; NULL: the
	 * decomposed run has none): as struct spate_backend's guard, for the
	 * rows it holds now.  CHECK: *bad = 1 when a step since init stored a
	 * non-finite value in its cells (swe_guard.h); KEEP, REWIND: its own
	 * copy of the current state (and products), REWIND -SPATE_EINVAL when
	 * none of its present size is kept (rows moved since); PLANT,
	 * PLANT_SILENT: `cell` a local state index as for sample. */
	int (*guard)(struct swe_backend_ctx *sub, int op, long cell, int *bad);
};

/* Ghost rows a subdomain holds at an internal edge: SWE_GHOST (the stencil)
 * for ghost_expansion = 1, which exchanges U and U* every step; for k > 1
 * (and auto, p->ghost_expansion = 0, resolved before init) the stencil times
 * the stages of k steps, exchanged every k steps. */
static inline int swe_halo_rows(const struct swe_params *p)
{
	int k = p->ghost_expansion;
	return k <= 1 ? SWE_GHOST : SWE_GHOST * (p->integrator == 1 ? 1 : 2) * k;
}

extern const struct swe_sub_ops swe_cpu_sub_ops;
#ifdef HAVE_CUDA
/* cuda/swe_cuda_sub.cu: a subdomain on one GPU (`device` of init). */
extern const struct swe_sub_ops swe_cuda_sub_ops;
#endif

#endif
