/* bsq_cuda_gs.h: what the Boussinesq CUDA backend's sweeps share (CUDA
 * C++, for cuda/bsq_cuda_gs.cu, one sweep a pass, and
 * cuda/bsq_cuda_gs_two.cu, two sweeps a pass): a tile's pairs of cells
 * along x, the arguments of a sweep kernel, and the two-sweep pass that
 * bsq_cuda_smooth calls. */
#ifndef SPATE_BSQ_CUDA_GS_H
#define SPATE_BSQ_CUDA_GS_H

/* Pairs along x of a tile (a warp a row: cells 2a - 1 and 2a of pair a). */
#define PX 32

/* A sweep kernel's level, arrays and walk: nzc planes a chunk; px, py:
 * periodic in x, in y (more than one cell). */
struct gs_args {
	const bsq_real *in, *rhs;
	bsq_real *out;
	struct bsq_h h;
	struct bsq_grid g;
	int k0, px, py, nzc;
	int wx, wy; /* direct sweeps: from a first cell to its ghost's source */
};

/* The rows of a k_gs_two tile for two sweeps of level l, 0 where the
 * level does not take it (cuda/bsq_cuda_gs_two.cu); l must be one that one
 * launch can sweep (bsq_cuda_gs.cu's fused_ok). */
int bsq_cuda_two_rows(const struct bsq_level *l);

/* Two sweeps of level l's vector phi (right-hand side x.rhs) in one pass,
 * tiles of rows rows (bsq_cuda_two_rows); phi and BSQ_TMP swapped. */
void bsq_cuda_smooth_two(struct bsq_level *l, int phi, struct gs_args &x, int rows);

#endif
