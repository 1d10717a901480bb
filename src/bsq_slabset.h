/* bsq_slabset.h: what the slab files share inside (bsq_slab.c,
 * bsq_slab_ops.c, bsq_slab_halo.c, bsq_slab_out.c; callers use bsq_slab.h).
 *
 * The control flow steps a stand-in state (proxy) whose arrays are tokens:
 * addresses of tok[id], one per buffer (u, v, w, T, the eight explicit
 * terms, each level's vectors).  The control flow swaps them as it swaps
 * arrays (F and Fold after the predictor, PHI and TMP in a Jacobi sweep);
 * before each verb every slab's state takes the buffers the tokens name
 * (bsq_slab_sync), so the slabs follow every swap. */
#ifndef SPATE_BSQ_SLABSET_H
#define SPATE_BSQ_SLABSET_H

#include "bsq_impl.h"
#include "bsq_slab.h"
#include "decomp.h"

enum { BSQ_BUF_U = 0, BSQ_BUF_V, BSQ_BUF_W, BSQ_BUF_T, BSQ_BUF_F = 4, BSQ_BUF_FOLD = 8,
	BSQ_BUF_LEV = 12, BSQ_NBUF = BSQ_BUF_LEV + BSQ_MG_MAXLEV * BSQ_NVEC };

/* One slab of this rank: planes [row0, row0 + rows) of level 0. */
struct bsq_slab {
	struct bsq_state s;      /* its planes (g.nz = rows); levels < nsplit */
	bsq_real *buf[BSQ_NBUF]; /* the buffers by id (NULL: none) */
	int row0, rows;
};

struct bsq_slabs {
	struct bsq_state proxy;  /* first: the control flow's state, of tokens */
	bsq_real tok[BSQ_NBUF];
	const struct bsq_ops *inner;  /* the verbs of one slab (the CPU's, CUDA's) */
	const struct bsq_slab_mem *mem; /* where the arrays live */
	int overlap;             /* enum bsq_overlap */
	int nz;                  /* planes of level 0 */
	int nsplit;              /* levels 0..nsplit-1 cut into slabs */
	struct decomp d[BSQ_MG_MAXLEV];      /* the cut of each split level */
	struct halo_plan hp[BSQ_MG_MAXLEV];  /* one plane of one vector */
	struct bsq_slab *sub;    /* [d[0].first, d[0].last) of d[0].n */
	struct bsq_state whole;  /* levels nsplit-1.. whole (the first: gathers) */
	bsq_real *wbuf[BSQ_NBUF];
	double *ps;              /* plane sums, nz */
	double t_sub[DECOMP_MAX];
	struct halo_ops xops;    /* the exchange in progress: level xl, buffer xid */
	int xl, xid;
	struct halo_nccl *nccl;  /* remote halos GPU to GPU (NULL: through the host) */
	int err;                 /* first error of an exchange or a reduction */
	int failed;              /* a step failed: the communicator is aborted */
};

/* The slab set of a stand-in grid, state or level. */
static inline struct bsq_slabs *bsq_slabs_of_grid(const struct bsq_grid *g)
{
	return (struct bsq_slabs *)(void *)g;
}
static inline int bsq_slab_id(const struct bsq_slabs *S, const bsq_real *tok)
{
	return (int)(tok - S->tok);
}

/* ---- bsq_slab_halo.c */
/* mem->copy, its error noted in S->err. */
void bsq_slab_copy(struct bsq_slabs *S, void *dst, const void *src, size_t bytes);
/* Every slab's (and the whole levels') arrays from the proxy's tokens. */
void bsq_slab_sync(struct bsq_slabs *S);
/* The slab's params: p with its z faces inside the stack BSQ_SLAB. */
void bsq_slab_params(const struct bsq_slabs *S, const struct bsq_slab *b,
	const struct bsq_params *p, struct bsq_params *out);
/* Ghost kinds of a slab: kind with its z faces inside the stack HALO. */
void bsq_slab_kinds(const struct bsq_slabs *S, const struct bsq_slab *b, const int *kind,
	int out[BSQ_NFACE]);
/* The ghost planes of buffer id at split level l from the neighbours:
 * start and finish (work may run between), or both. */
void bsq_slab_exchange_start(struct bsq_slabs *S, int l, int id);
void bsq_slab_exchange_finish(struct bsq_slabs *S);
void bsq_slab_exchange(struct bsq_slabs *S, int l, int id);
/* Whole level l's buffer id from the slabs' planes (every rank). */
void bsq_slab_gather_level(struct bsq_slabs *S, int l, int id);
/* The slabs' planes of buffer id at level l from the whole level. */
void bsq_slab_scatter_level(struct bsq_slabs *S, int l, int id);
/* The sum over the whole stack of split level l from ps[0..nz_l), this
 * rank's planes filled: gathered, then added in the planes' order. */
double bsq_slab_sum_planes(struct bsq_slabs *S, int l, double *ps);
/* The max over every rank. */
double bsq_slab_max(struct bsq_slabs *S, double m);

/* ---- bsq_slab_ops.c: the verbs on the stand-in. */
extern const struct bsq_ops bsq_ops_slab;

#endif
