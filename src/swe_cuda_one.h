/* swe_cuda_one.h: the single-GPU backend's context, shared by its two host
 * files: cuda/swe_cuda.cu (device, memory, graphs, the time loop) and
 * cuda/swe_cuda_state.cu (the state in and out: download, gauge samples,
 * flood products, rain, restart).  Included only by those .cu files; no
 * formula.  Streams and graphs are the CUDA runtime's opaque handles, named
 * here without its headers. */
#ifndef SPATE_SWE_CUDA_ONE_H
#define SPATE_SWE_CUDA_ONE_H

#include "swe_cuda.h"
#include "products_kern.h"

struct CUstream_st;
struct CUgraphExec_st;

typedef struct swe_cuda_ctl ctl_t;

struct swe_backend_ctx {
	int device;
	struct swe_cuda_params kp;
	real *w[2], *hu[2], *hv[2];   /* ping-pong states */
	real *Lw, *Lhu, *Lhv;         /* right-hand side */
	real *Bc, *Bm;
	struct swe_bc *bc;
	int *list[2];                 /* active tiles of a step from parity p */
	unsigned int *count;          /* [6]: their numbers, of which long walks and
	                                 short ones (swe_cuda_step.grab) */
	unsigned int *grab;           /* [6]: the stage kernels' work queue (swe_cuda.h) */
	unsigned short *cost;         /* per tile: its last walk (swe_cuda.h) */
	unsigned short *wet;          /* the tile map (swe_cuda.h) */
	unsigned char *act, *streak;
	real *n2;                     /* Manning n^2 per cell, or NULL */
	float *rain;                  /* rain rates per cell (m/s), or NULL */
	int have_rain;                /* the rain array holds the rates in force */
	unsigned char *rtile;         /* tiles on which they fall (swe_cuda.h) */
	real *hstage;                 /* pinned staging of downloads (w, hu, hv), or NULL */
	ctl_t *dctl, *hctl;           /* device control block and its pinned copy */
	unsigned int *hcnt;           /* pinned: the next list's length, read back with
	                                 the control block after a batch */
	int cur;                      /* parity of the current state */
	struct CUstream_st *stream;
	/* GRAPH_STEPS steps from parity p with the walks (graph[p]), the
	 * per-cell stage kernels (graph[2 + p]) or the walks of stacks
	 * (graph[4 + p]) */
	struct CUgraphExec_st *graph[6];
	int have_graph[6];
	/* The per-cell stage kernels (swe_cuda_tile.cu): their grids (0: not
	 * available), how they are chosen (SPATE_CUDA_CELLS: 0 never, 1
	 * always, else by the length of the list: CELLS_WAVES in swe_cuda.cu)
	 * and whether the next batch of steps runs them */
	int cells[2], cells_mode, cells_now;
	/* the next batch walks stacks of kp.stack tiles (the last list held
	 * every tile; swe_cuda_kern.cu) */
	int stack_now;
	/* the per-cell kernels keep their own clock (swe_cuda_step.par) */
	int cell_clock;
	long walk_warps;              /* warps of the walks resident at once */
	double t_stop_dev;            /* t_stop last written to the device */
	struct swe_prod *prod;        /* flood products (device), or NULL */
	real prod_thr;
	struct swe_cuda_samples smp;  /* gauge cells read back */
	struct swe_cuda_gauges gg;    /* gauges kept on the device (gg.n > 0) */
	struct swe_cuda_gauge_clock *hclk; /* pinned: its clock, read back */
	real *good;                   /* the guard's last good (w, hu, hv), or NULL */
	struct swe_prod *good_prod;   /* ... and its flood products, or NULL */
};

/* The arrays of a step from parity p (state p -> state 1 - p). */
struct swe_cuda_step swe_cuda_one_arrays(const struct swe_backend_ctx *x, int p);

/* Forget the captured graphs (they hold the kernels' arguments). */
void swe_cuda_one_drop_graphs(struct swe_backend_ctx *x);

/* The backend's state functions (swe.h, struct spate_backend). */
int swe_cuda_one_download(struct swe_backend_ctx *x, struct swe_state *s);
int swe_cuda_one_sample(struct swe_backend_ctx *x, const long *idx, int n, real *w, real *hu,
	real *hv);
int swe_cuda_one_products_start(struct swe_backend_ctx *x, real thr);
int swe_cuda_one_products_get(struct swe_backend_ctx *x, struct swe_prod *out);
int swe_cuda_one_products_put(struct swe_backend_ctx *x, const struct swe_prod *in);
int swe_cuda_one_set_time(struct swe_backend_ctx *x, double t, long steps, double last_dt);
int swe_cuda_one_set_rain(struct swe_backend_ctx *x, const float *rate, double uniform);
int swe_cuda_one_gauges_start(struct swe_backend_ctx *x, const struct gauge_set *gs,
	double bref, double next, double interval);
int swe_cuda_one_gauges_rows(struct swe_backend_ctx *x, double *t, real *v, int *nrows);
int swe_cuda_one_gauges_get(struct swe_backend_ctx *x, struct gauge_set *gs, double *next);
void swe_cuda_one_gauges_free(struct swe_backend_ctx *x);
/* The instability guard (struct spate_backend's guard; swe_cuda_guard.cu). */
int swe_cuda_one_guard(struct swe_backend_ctx *x, int op, long cell, int *bad);

#endif
