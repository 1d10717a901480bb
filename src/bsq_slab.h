/* bsq_slab.h: the Boussinesq state cut into slabs of whole x-y planes along
 * z, over subdomains of this process and over MPI ranks, through the
 * decomposition layer (decomp.h, halo plans built once; Jacobsen, Thibault
 * & Senocak 2010, 1D slab decomposition).
 *
 * A step is bsq_step_on, the control flow of one domain, on a stand-in
 * state whose verbs run on every slab of this rank and exchange the ghost
 * planes that the next verb reads: the fields after their boundary
 * conditions, the pressure before the correction, the multigrid vectors
 * before each smoother colour, residual and prolongation, Jacobi's iterate
 * before each sweep.  Multigrid levels are cut while every slab's planes pair
 * up with whole coarse planes; the coarser levels are gathered and solved
 * whole on every rank (the same work everywhere, no message but the gather).
 * Sums are made of plane sums added in the order of the planes, so any
 * number of slabs and ranks gives the bits of one domain (bsq_step).
 *
 * Overlap (Jacobsen et al.'s three strategies, [run] overlap): none
 * (exchange, then compute), compute (the interior planes computed while the
 * messages travel, then the edge planes), streams (CUDA streams; on the CPU
 * it runs as compute).  Every strategy gives the same bits. */
#ifndef SPATE_BSQ_SLAB_H
#define SPATE_BSQ_SLAB_H

#include <stddef.h>

#include "bsq.h"

enum bsq_overlap { BSQ_OVERLAP_NONE = 0, BSQ_OVERLAP_COMPUTE, BSQ_OVERLAP_STREAMS };

struct bsq_slabs;

/* Cuts the whole state w (after bsq_init with p) into n slabs over the
 * ranks of this run (n >= ranks; at most one slab per plane).  Rank 0
 * holds w whole; another rank may hold w whole too, or only its shape
 * (bsq_init_shape: a fresh start), and then its slabs' planes come from
 * rank 0's w (one message a buffer).  w is only read: the caller may free
 * it.  transport ([parallel] transport,
 * enum halo_transport of decomp.h) says how halos travel between ranks'
 * GPUs; on the host only nccl means anything (an error over several ranks).
 * Collective.  Returns 0, or -SPATE_EINVAL (periodic z, too many slabs: a
 * message naming `subdomains`; transport = nccl on the host), -SPATE_ENOMEM,
 * or halo_nccl_open's errors. */
int bsq_slabs_init(struct bsq_slabs **out, const struct bsq_state *w, const struct bsq_params *p,
	int n, int overlap, int transport);
/* One step (bsq_step's contract; p as bsq_step allows). */
int bsq_slabs_step(struct bsq_slabs *S, const struct bsq_params *p, struct bsq_stats *st);
/* The whole fields (u, v, w, T, p and the explicit terms), ghosts filled,
 * time and step count, into w (a state of the same grid) on every rank.
 * Returns 0 or -SPATE_EDEVICE. */
int bsq_slabs_gather(struct bsq_slabs *S, struct bsq_state *w, const struct bsq_params *p);
/* The same into w on rank 0 only (the other ranks may hold no whole state:
 * w is not touched there), their planes staged through a buffer of their
 * own planes.  Collective. */
int bsq_slabs_gather_root(struct bsq_slabs *S, struct bsq_state *w, const struct bsq_params *p);
/* This rank's planes: the first (0-based) and how many (its slabs are
 * side by side). */
void bsq_slabs_mine(const struct bsq_slabs *S, int *k0, int *nk);
/* This rank's planes of field (0 u, 1 v, 2 w, 3 T, 4 p) as they stand,
 * with one ghost plane on each side (the neighbour's plane inside the
 * stack, the boundary's at its ends): nk + 2 planes of the grid (bsq_sz
 * values each) into host array a, plane 0 the one below plane k0
 * (bsq_slabs_mine).  Not collective (bsq_slab_out.c).  Returns 0 or
 * -SPATE_EDEVICE. */
int bsq_slabs_planes(struct bsq_slabs *S, int field, bsq_real *a);
/* This rank's planes of the first nf fields (u, v, w, T, p) as a state of
 * nk planes (bsq_slabs_planes), host arrays; 0, -SPATE_ENOMEM or
 * -SPATE_EDEVICE (nothing left allocated).  Freed by bsq_slabs_local_free. */
int bsq_slabs_local(struct bsq_slabs *S, int nf, struct bsq_state *loc);
void bsq_slabs_local_free(struct bsq_state *loc);
/* The series row's kinetic energy and Nusselt number (bsq_diag_series_of:
 * the bits of the whole state's) from every rank's planes, without
 * gathering the fields: a plane's sums and wall terms travel to rank 0,
 * where *energy and *nusselt are set.  Collective (bsq_slab_out.c).
 * Returns 0, -SPATE_ENOMEM or -SPATE_EDEVICE. */
int bsq_slabs_series(struct bsq_slabs *S, const struct bsq_params *p, double *energy,
	double *nusselt);
/* Where the slabs' arrays live, for bsq_slabs_init_on: allocate and release
 * an array, copy bytes (either side host or the slabs' memory; 0 or
 * -SPATE_E*), run slab k's work on its own stream from now (k = -1: the
 * default; NULL: none), finish a step (wait; 0 or -SPATE_E*; NULL: none),
 * close (when the set is freed; NULL: none); for halos GPU to GPU between
 * ranks (NULL: none, halos through the host): the GPU of the slabs; slab
 * k's halo stream, on which NCCL's transfers of its planes run beside its
 * kernels; halo_mark(k, 0): the halo stream waits for all work enqueued so
 * far (the edge planes written), halo_mark(k, 1): the transfers enqueued
 * are the ones to wait for; halo_wait(k): the work enqueued from now on,
 * on any of the slabs' streams, waits for them.
 * bsq_slabs_init: host memory and the CPU's verbs; bsq_cuda_slabs_init
 * (bsq_cuda.h): one GPU. */
struct bsq_slab_mem {
	int device;             /* 1: not host memory (MPI messages go through the host) */
	void *(*alloc)(size_t bytes);
	void (*release)(void *a);
	int (*copy)(void *dst, const void *src, size_t bytes);
	void (*stream)(int k);
	int (*finish)(void);
	void (*close)(void);
	int (*gpu)(void);
	void *(*halo_stream)(int k);
	int (*halo_mark)(int k, int end);
	int (*halo_wait)(int k);
};
struct bsq_ops;
/* bsq_slabs_init with the verbs `inner` on the arrays of mem (both must
 * outlive the set); mem->close is called once, by bsq_slabs_free or here on
 * a failure. */
int bsq_slabs_init_on(struct bsq_slabs **out, const struct bsq_state *w,
	const struct bsq_params *p, int n, int overlap, int transport, const struct bsq_ops *inner,
	const struct bsq_slab_mem *mem);
/* Multigrid levels cut into slabs (the rest are whole). */
int bsq_slabs_split(const struct bsq_slabs *S);
/* The first plane (0-based) and the planes of slab k. */
void bsq_slabs_part(const struct bsq_slabs *S, int k, int *row0, int *rows);
void bsq_slabs_free(struct bsq_slabs *S);

#endif
