/* bsq_cuda.h: the Boussinesq module's CUDA backend (issue 21), public side.
 *
 * The state lives on one GPU; a step is the CPU's step (bsq_step_on, the
 * same control flow: FMG on the first step, V-cycles or Jacobi sweeps to the
 * tolerance, dt from the CFL and diffusion limits) with the verbs of
 * cuda/bsq_cuda*.cu, one thread per cell, every formula from bsq_kern.h.
 * Results equal the CPU's to round-off.
 *
 * Use: bsq_init on the host (set-up, validation), bsq_cuda_init (upload),
 * bsq_cuda_step as often as needed, bsq_cuda_download when the host needs the
 * fields (outputs, checkpoints), bsq_cuda_free.  Without CUDA (configure
 * found none) every function but bsq_cuda_available returns -SPATE_EDEVICE
 * with a message. */
#ifndef SPATE_BSQ_CUDA_H
#define SPATE_BSQ_CUDA_H

#include "bsq.h"

struct bsq_cuda;

/* The number of usable CUDA devices: 0 when built without CUDA or none is
 * there (not an error). */
int bsq_cuda_available(void);
/* A device copy of s (fields, explicit terms, multigrid levels, time) on the
 * current device, for the parameters p (those given to bsq_init).  *ctx is
 * set on success.  Returns 0, -SPATE_EDEVICE or -SPATE_ENOMEM. */
int bsq_cuda_init(struct bsq_cuda **ctx, const struct bsq_state *s, const struct bsq_params *p);
/* One step on the device (bsq_step's contract).  Returns 0, -SPATE_ENUMERIC
 * or -SPATE_EDEVICE. */
int bsq_cuda_step(struct bsq_cuda *ctx, const struct bsq_params *p, struct bsq_stats *st);
/* n V-cycles on the device state (bsq_vcycles), finished.  Returns 0 or
 * -SPATE_EDEVICE. */
int bsq_cuda_vcycles(struct bsq_cuda *ctx, const struct bsq_params *p, int n);
/* Copies the device state into s (the state given to bsq_cuda_init, or one
 * of the same grid): fields, ghosts, pressure, explicit terms, time and
 * step count.  Returns 0 or -SPATE_EDEVICE. */
int bsq_cuda_download(struct bsq_cuda *ctx, struct bsq_state *s);
/* The same for u, v, w and T alone (what a series row reads: a quarter of
 * the arrays), with the time and step count; the other host arrays are left
 * as they were. */
int bsq_cuda_download_flow(struct bsq_cuda *ctx, struct bsq_state *s);
/* Releases the device copy (ctx may be NULL). */
void bsq_cuda_free(struct bsq_cuda *ctx);

/* The whole state w (host, after bsq_init) cut into n slabs on the current
 * GPU (bsq_slab.h; one set at a time; under mpirun this rank's slabs on GPU
 * rank mod GPUs, halos GPU to GPU through NCCL or through host buffers and
 * MPI as transport, enum halo_transport, says and the machine allows), each
 * slab's cell kernels on its own stream with overlap = streams; then
 * bsq_slabs_step, bsq_slabs_gather and bsq_slabs_free as on the CPU.  The
 * same bits as bsq_cuda_step on one domain.  Collective.  Returns 0,
 * -SPATE_EINVAL, -SPATE_EDEVICE, -SPATE_EUNSUPPORTED or -SPATE_ENOMEM. */
struct bsq_slabs;
int bsq_cuda_slabs_init(struct bsq_slabs **out, const struct bsq_state *w,
	const struct bsq_params *p, int n, int overlap, int transport);

#endif
