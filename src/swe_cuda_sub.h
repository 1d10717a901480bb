/* swe_cuda_sub.h: what the two files of a GPU subdomain share: the step
 * phases and halos (cuda/swe_cuda_sub.cu) and the set-up and synchronous
 * access (cuda/swe_cuda_sub_mem.cu), which together make swe_cuda_sub_ops
 * (swe_multi.h).  Included only by those .cu files; no formula.  Streams and
 * events are the CUDA runtime's opaque handles, named here without its
 * headers. */
#ifndef SPATE_SWE_CUDA_SUB_H
#define SPATE_SWE_CUDA_SUB_H

#include "swe_cuda.h"
#include "swe_sub.h"
#include "decomp.h"

struct CUstream_st;
struct CUevent_st;
struct CUgraphExec_st;


/* Device times are measured on every SWE_CUDA_TIME_EVERY-th step (events cost
 * host time; SPATE_CUDA_TIME_EVERY overrides it) and scaled to all steps; at
 * most SWE_CUDA_TIME_PAIRS intervals per step. */
#define SWE_CUDA_TIME_EVERY 16
#define SWE_CUDA_TIME_PAIRS 24

/* One timed interval on a stream: kind 0 computing, 1 copying halos. */
struct swe_cuda_tpair {
	struct CUevent_st *a, *b;
	int kind;
};

/* The row arrays of a subdomain, with room for more rows where dynamic
 * balancing may move them: U (parity 0, 1), L and Bm (cap + 2 SWE_GHOST
 * rows each), the corners (one row more) and the products (cap rows, once
 * started); row 0 of the subdomain is row `off` of the store.  A subdomain
 * grows or shrinks in place while the store has room (its array pointers
 * move), else moves into a new store (cuda/swe_cuda_sub_rows.cu). */
#define SWE_CUDA_NF 10
struct swe_cuda_store {
	real *f[SWE_CUDA_NF], *Bc;
	struct swe_prod *prod;
	int cap, off;
};

/* A subdomain of rows [row0, row0 + rows) on one GPU.
 *
 * With the tile map (kp.tiles: RK2 with early exit, as on one GPU) the
 * tiles are numbered from row 0, the edge row ranges are the whole tile
 * rows within SWE_GHOST rows of an internal edge (computed every step: the
 * neighbour fills their ghost rows), and the interior launches only the
 * active tiles of its rows (k_tiles in swe_cuda_kern.cu).  Without it, the
 * edge ranges are the SWE_GHOST rows next to an internal edge and every
 * tile of a range is computed, numbered from its first row. */
struct swe_backend_ctx {
	int device, overlap, row0, rows;
	int gny, room;               /* global rows; 1: keep room to grow (balance) */
	struct swe_cuda_store st;    /* the row arrays' memory */
	long tcap;                   /* tiles the tile arrays hold */
	/* ghost cell expansion: ghost rows held at internal edges (swe_halo_rows
	 * of the run's parameters), and those of U (mu) and of L (ms) that hold
	 * the neighbours' values now, beyond the south and north edges; a stage
	 * computes the rows beyond an internal edge where its input is valid
	 * less the stencil (extension launches: every tile, their speeds into
	 * spdx, not counted) */
	int halo, mu[2], ms[2];
	unsigned int *ecnt;          /* [halo + 1]: tiles of e rows */
	swe_rbits *spdx;
	int lo, hi;                  /* interior rows [lo, hi); edge rows around */
	int rj[4][2];                /* row ranges: all, south edge, interior, north
	                                edge */
	int *list;                   /* tiles 0, 1, ...: those of a row range;
	                                with the tile map then both edge ranges'
	                                tiles (range 4: one launch for both) */
	unsigned int *count;         /* [5]: tiles of each row range */
	int nint;                    /* tiles of the interior range */
	int *tl[2];                  /* tile map: the interior's active tiles of a
	                                step from parity p */
	unsigned int *tcnt;          /* [2]: their numbers */
	unsigned short *wet;         /* the tile map's flags, streaks and activity */
	unsigned char *act, *streak; /* (swe_cuda.h, struct swe_cuda_step) */
	unsigned char *rtile;        /* tiles on which the rain raster in force
	                                falls (made again when rows move) */
	unsigned int *hcnt;          /* pinned: tiles the last stage 1 computed in
	                                the interior */
	int stack_now;               /* the interior by the kernels of stacks
	                                (kp.stack > 1; launch in swe_cuda_sub.cu):
	                                without the tile map always, with it while
	                                the last steps' lists held every tile */
	struct swe_cuda_params kp;
	real *w[2], *hu[2], *hv[2];  /* ping-pong states */
	real *Lw, *Lhu, *Lhv, *Bc, *Bm;
	/* sources (kp.src): the Manning n^2 and the rain rates of the whole
	 * grid (nx * ny, row-major, global rows), so that rows moving between
	 * subdomains need nothing of them; rain NULL: kp.rain_u everywhere */
	real *n2;
	float *rain;
	int have_rain;
	struct swe_bc *bc;
	struct swe_cuda_ctl *dctl, *hin, *hout; /* control block; pinned copies to
	                                           and from it */
	int cur;                     /* parity of the current state */
	double t;
	long steps;
	struct CUstream_st *main, *edge; /* edge == main unless overlap = streams */
	struct CUevent_st *ev_edge, *ev_main, *ev_spd, *ev_out[2], *ev_put[2];
	struct CUevent_st **wait_in[2]; /* neighbours' copies into our ghost rows */
	struct CUevent_st *ev_ghost; /* the edge stream's work so far, which a
	                                neighbour's copy into our ghost rows of U
	                                waits for (swe_cuda_sub_halo_copy) */
	int last_s2, spd_ready;      /* last stage enqueued; its speeds read back */
	int pending, pend_s2;        /* interior rows of a stage still to enqueue */
	struct swe_cuda_step pend_a;
	real *hsend[2], *hrecv[2];   /* pinned halo buffers per side */
	struct swe_prod *prod;
	real prod_thr;
	int timing, ntp;             /* this step is timed; intervals recorded */
	struct swe_cuda_tpair tp[SWE_CUDA_TIME_PAIRS];
	int tmark;                   /* interval begun by halo_mark (-1: untimed) */
	long tsteps;                 /* steps timed */
	/* the intervals a graph records (event nodes), recorded again by every
	 * replay: read when the device is idle, each standing for the replays
	 * since the last read */
	struct swe_cuda_tpair gtp[SWE_CUDA_TIME_PAIRS];
	int gntp;
	long greplay, gmark;
	double t_comp, t_copy;       /* their device seconds */
	/* device-dt mode (swe_cuda_sub_link): stage 1 leaves its speeds in
	 * spd[2 (steps & 1)], [+ 1]; k_dt_peers reads those of every linked
	 * subdomain (dpeers: their spd, on this device) and sets dt here */
	int devdt, npeer;
	int halo_memcpy;             /* SPATE_CUDA_HALO_MEMCPY=1: halos as copies */
	int time_every;              /* SWE_CUDA_TIME_EVERY, or SPATE_CUDA_TIME_EVERY */
	swe_rbits *spd, **dpeers;
	unsigned long long *dacc;    /* interior tiles computed by real steps */
	unsigned long long acc0;     /* its value at the last clock read */
	long steps0;                 /* real steps at the last clock read */
	struct swe_backend_ctx *peer[DECOMP_MAX];
	/* graphs (the first linked subdomain's): the steps of gexec, the join
	 * and fork events; every subdomain: capturing, and its counters before
	 * the capture */
	struct CUgraphExec_st *gexec;
	long gsteps_n;
	int nograph;
	struct CUevent_st *ev_fork, *ev_join[2 * DECOMP_MAX];
	int capturing, gcur;
	long gsteps;
	const void *gsig[8];         /* what the graph was recorded with (graph_sig) */
	struct swe_cuda_samples smp; /* gauge cells read back */
	struct swe_cuda_gauges gg;   /* gauges kept here (gg.n > 0) */
	struct swe_cuda_gauge_clock *hclk;
	/* the instability guard (cuda/swe_cuda_sub_guard.cu): the last good
	 * state's rows [-G, rows + G) of (w, hu, hv) and its products, kept
	 * with good_rows rows (NULL: none) */
	real *good;
	struct swe_prod *good_prod;
	int good_rows;
};

/* Cells of one field in a halo (SWE_GHOST rows); row j (local, ghosts
 * from -SWE_GHOST) of a field. */
static inline size_t swe_cuda_sub_halo(const struct swe_backend_ctx *x)
{
	return (size_t)SWE_GHOST * x->kp.pitch;
}

/* Rows held beyond edge `side` (0 south, 1 north): the ghost rows of a
 * global edge, or the halo of an internal one (more with ghost cell
 * expansion); the bed is valid in all of them. */
static inline int swe_cuda_sub_held(const struct swe_backend_ctx *x, int side)
{
	return x->kp.sides & 1u << (side ? SWE_NORTH : SWE_SOUTH) ? SWE_GHOST : x->halo;
}

static inline real *swe_cuda_sub_row(real *f, const struct swe_backend_ctx *x, int j)
{
	return f + (size_t)(j + SWE_GHOST) * x->kp.pitch;
}

/* cuda/swe_cuda_sub.cu.  The arrays of a step from parity p; the arrays of U
 * (current state) or L for a halo of `stage` (-SPATE_EUNSUPPORTED for U*);
 * wait for everything enqueued on x and copied into it. */
struct swe_cuda_step swe_cuda_sub_arrays(const struct swe_backend_ctx *x, int p);
int swe_cuda_sub_fields(const struct swe_backend_ctx *x, int stage, real *f[3]);
int swe_cuda_sub_sync(struct swe_backend_ctx *x);

/* swe_cuda_sub_gauges.cu: struct swe_sub_ops' gauges_start, gauges_rows,
 * gauges_get; the arrays freed. */
int swe_cuda_sub_gauges_start(struct swe_backend_ctx *x, const long *idx, int n, int per,
	const struct gauge_track *tr, double bref, double thr, double next, double interval);
int swe_cuda_sub_gauges_rows(struct swe_backend_ctx *x, double *t, real *v, int *nrows);
int swe_cuda_sub_gauges_get(struct swe_backend_ctx *x, struct gauge_track *tr, double *next);
void swe_cuda_sub_gauges_free(struct swe_backend_ctx *x);

/* swe_cuda_sub_time.cu: device times.  The finished timed intervals added to
 * the totals (all: wait for every one). */
void swe_cuda_sub_harvest(struct swe_backend_ctx *x, int all);
/* A timed interval on stream s begins (its index, -1: this step is not
 * timed) and ends; kind 0 computing, 1 copying halos. */
int swe_cuda_sub_tstart(struct swe_backend_ctx *x, struct CUstream_st *s, int kind);
void swe_cuda_sub_tstop(struct swe_backend_ctx *x, int i, struct CUstream_st *s);
/* The graph's intervals into the totals (the device idle); reset: forget
 * them (the graph goes). */
void swe_cuda_sub_graph_times(struct swe_backend_ctx *x, int reset);

/* swe_cuda_sub.cu: the phases of swe_cuda_sub_ops (swe_multi.h); the halos
 * are cuda/swe_cuda_sub_halo.cu's. */
/* The arrays of a step moved by j rows (row j of the subdomain as row 0). */
static inline void swe_cuda_sub_shift(struct swe_cuda_step *a, const struct swe_cuda_params *kp,
	long j)
{
	long o = j * kp->pitch, oc = j * kp->cpitch;
	a->w += o;
	a->hu += o;
	a->hv += o;
	a->w1 += o;
	a->hu1 += o;
	a->hv1 += o;
	a->Lw += o;
	a->Lhu += o;
	a->Lhv += o;
	a->Bm += o;
	a->Bc += oc;
}

/* swe_cuda_sub_mem.cu: the rain rates of the whole grid (NULL: `uniform`
 * everywhere) from the next step on. */
int swe_cuda_sub_set_rain(struct swe_backend_ctx *x, const float *rate, double uniform);
/* swe_cuda_sub_src.cu: rain and the Manning raster */
int swe_cuda_sub_sources_init(struct swe_backend_ctx *x, const struct swe_state *g);
void swe_cuda_sub_sources_free(struct swe_backend_ctx *x);
void swe_cuda_sub_sources(struct swe_backend_ctx *x, const struct swe_cuda_step *a,
	struct CUstream_st *s);

int swe_cuda_sub_stage1(struct swe_backend_ctx *x, double t, double *ax, double *ay);
int swe_cuda_sub_speeds(struct swe_backend_ctx *x, double *ax, double *ay);
int swe_cuda_sub_predict(struct swe_backend_ctx *x, double dt, double t_new);
int swe_cuda_sub_correct(struct swe_backend_ctx *x, double dt, double *ax, double *ay);
int swe_cuda_sub_commit(struct swe_backend_ctx *x, double t, double dt);
int swe_cuda_sub_interior(struct swe_backend_ctx *x);
int swe_cuda_sub_halo_get(struct swe_backend_ctx *x, int stage, int side, void *buf);
int swe_cuda_sub_halo_put(struct swe_backend_ctx *x, int stage, int side, const void *buf);
int swe_cuda_sub_halo_copy(struct swe_backend_ctx *x, int stage, int side,
	struct swe_backend_ctx *y, int rows);
int swe_cuda_sub_halo_dev(struct swe_backend_ctx *x, int stage, int side, int ghost,
	void *ptr[3], void **stream);
int swe_cuda_sub_halo_mark(struct swe_backend_ctx *x, int end);
/* The ghost rows of U (stage SWE_STAGE_U) or L (SWE_STAGE_RATE) beyond edge
 * `side` that hold the neighbour's values from now on. */
void swe_cuda_sub_valid(struct swe_backend_ctx *x, int stage, int side, int rows);
/* swe_sub_ops' halo_keep: the ghost rows there valid as they are. */
void swe_cuda_sub_keep(struct swe_backend_ctx *x, int stage, int side);
/* Peer access between devices a and b, both ways, where they offer it. */
void swe_cuda_sub_enable_peer(int a, int b);
/* cuda/swe_cuda_sub_dev.cu: device-dt mode and graphs (swe_multi.h). */
int swe_cuda_sub_peers(struct swe_backend_ctx **sub, int n, const int *on, long steps);
int swe_cuda_sub_link(struct swe_backend_ctx **sub, int n);
int swe_cuda_sub_dt(struct swe_backend_ctx *x);
int swe_cuda_sub_clock_set(struct swe_backend_ctx *x, double t, long steps, double last_dt,
	double t_stop);
long swe_cuda_sub_graph(struct swe_backend_ctx **sub, int n, int op, long steps);
int swe_cuda_sub_clock_get(struct swe_backend_ctx *x, double *t, long *steps, double *last_dt,
	double *amax);

/* cuda/swe_cuda_sub_tiles.cu.  The row ranges and tile lists of x->rows rows
 * (device arrays allocated anew when those held are too small), the tile map
 * reset: every tile computed in the next three steps, as after the upload;
 * the tiles on which the rain raster in force falls.  0 or -SPATE_E*.  The
 * tile arrays freed.  The rain's tiles alone (after a new raster). */
int swe_cuda_sub_tiles(struct swe_backend_ctx *x);
int swe_cuda_sub_rain_tiles(struct swe_backend_ctx *x);
void swe_cuda_sub_tiles_free(struct swe_backend_ctx *x);

/* cuda/swe_cuda_sub_guard.cu: swe_sub_ops' guard. */
int swe_cuda_sub_guard(struct swe_backend_ctx *x, int op, long cell, int *bad);

/* cuda/swe_cuda_sub_activity.cu: where the work is (swe_multi.h). */
int swe_cuda_sub_activity(struct swe_backend_ctx *x, int *work, int box[4]);
/* cuda/swe_cuda_sub_rows.cu: dynamic load balancing, moving rows
 * (swe_multi.h). */
size_t swe_cuda_sub_rows_bytes(struct swe_backend_ctx *x, int n);
int swe_cuda_sub_rows_pack(struct swe_backend_ctx *x, int side, int n, void *buf);
int swe_cuda_sub_rows_resize(struct swe_backend_ctx *x, int gain_lo, int gain_hi,
	const void *lo, const void *hi);
int swe_cuda_sub_rows_take(struct swe_backend_ctx *x, int side, int n,
	struct swe_backend_ctx *from);
/* A store for `rows` rows from global row row0 (zeroed; room at the internal
 * edges when x->room), its memory freed, and x's array pointers into x->st. */
int swe_cuda_sub_store_new(const struct swe_backend_ctx *x, int row0, int rows,
	struct swe_cuda_store *s);
void swe_cuda_sub_store_free(struct swe_cuda_store *s);
void swe_cuda_sub_store_use(struct swe_backend_ctx *x);

#endif
