/* bsq_transfer.h: the multigrid transfers between levels, one cell at a
 * time, for the CPU loops (bsq_mg_restrict.c, bsq_mg_level.c) and the CUDA
 * kernels (cuda/bsq_cuda_mg.cu) alike: restriction (of a field or of the
 * residual), trilinear and piecewise-constant prolongation and the update
 * of a fine value by the prolongated one.  The formulas are bsq_kern.h's;
 * the indexing is bsq_impl.h's. */
#ifndef SPATE_BSQ_TRANSFER_H
#define SPATE_BSQ_TRANSFER_H

#include "bsq_impl.h"

/* Cell-centred coarsening by c (1 or 2: bsq_mg_plan) along one direction:
 * the parent of fine cell i >= 1 (a shift: divisions by a c the compiler
 * cannot see made the prolongation instruction-bound on a GPU), and the
 * side (-1, +1; 0 when not coarsened) of the next coarse cell nearest. */
HOSTDEVICE static inline int bsq_parent(int i, int c) { return c == 2 ? ((i - 1) >> 1) + 1 : i; }
HOSTDEVICE static inline int bsq_far(int i, int c) { return c == 1 ? 0 : ((i - 1) & 1) ? 1 : -1; }

/* Restriction to a coarse cell from its cx cy cz children in the fine
 * field a (strides sy, sz; c0: the first child; in the order z, y, x): their
 * mean, or with rhs of the residuals rhs - lap(a) (spacing h), as computed
 * apart.  bsq_restrict_at: at coarse cell (I, J, K) of fine grid gf
 * (bsq_mg_restrict.c). */
HOSTDEVICE static inline bsq_real bsq_restrict_from(const bsq_real *a, const bsq_real *rhs,
	const struct bsq_h *h, size_t c0, size_t sy, size_t sz, int cx, int cy, int cz)
{
	bsq_real sum = 0;
	int a1, b1, d1;
	for (d1 = 0; d1 < cz; d1++)
		for (b1 = 0; b1 < cy; b1++)
			for (a1 = 0; a1 < cx; a1++) {
				size_t c = c0 + (size_t)d1 * sz + (size_t)b1 * sy + (size_t)a1;
				sum += rhs ? bsq_residual_at(a, rhs, c, sy, sz, h) : a[c];
			}
	return bsq_restrict(sum, cx * cy * cz);
}
HOSTDEVICE static inline bsq_real bsq_restrict_at(const bsq_real *a, const bsq_real *rhs,
	const struct bsq_h *h, const struct bsq_grid *gf, int cx, int cy, int cz, int I, int J, int K)
{
	return bsq_restrict_from(a, rhs, h, bsq_idx(gf, (I - 1) * cx + 1, (J - 1) * cy + 1,
		(K - 1) * cz + 1), bsq_sy(gf), bsq_sz(gf), cx, cy, cz);
}

/* Trilinear prolongation from a fine cell's parent r and the offsets ox,
 * oy, oz (elements) of its far neighbours in x, y, z (0: not coarsened):
 * bsq_pl nested over z, y, then x; reads the coarse ghosts.  bsq_pl_at: to
 * fine cell (i, j, k) from coarse field q of grid gc, coarsening cx, cy, cz
 * (bsq_mg_interp_pl.c). */
HOSTDEVICE static inline bsq_real bsq_pl_from(const bsq_real *r, ptrdiff_t ox, ptrdiff_t oy,
	ptrdiff_t oz)
{
	bsq_real xn = bsq_pl(bsq_pl(r[0], r[oz]), bsq_pl(r[oy], r[oy + oz]));
	bsq_real xf = bsq_pl(bsq_pl(r[ox], r[ox + oz]), bsq_pl(r[ox + oy], r[ox + oy + oz]));
	return bsq_pl(xn, xf);
}
HOSTDEVICE static inline bsq_real bsq_pl_at(const bsq_real *q, const struct bsq_grid *gc, int cx,
	int cy, int cz, int i, int j, int k)
{
	const ptrdiff_t sy = (ptrdiff_t)bsq_sy(gc), sz = (ptrdiff_t)bsq_sz(gc);
	return bsq_pl_from(q + bsq_idx(gc, bsq_parent(i, cx), bsq_parent(j, cy), bsq_parent(k, cz)),
		bsq_far(i, cx), bsq_far(j, cy) * sy, bsq_far(k, cz) * sz);
}

/* Piecewise-constant prolongation: the parent's value. */
HOSTDEVICE static inline bsq_real bsq_pc_at(const bsq_real *q, const struct bsq_grid *gc, int cx,
	int cy, int cz, int i, int j, int k)
{
	return q[bsq_idx(gc, bsq_parent(i, cx), bsq_parent(j, cy), bsq_parent(k, cz))];
}

/* The prolongated value at fine cell (i, j, k): trilinear when pl, else
 * piecewise constant. */
HOSTDEVICE static inline bsq_real bsq_interp_at(const bsq_real *q, const struct bsq_grid *gc,
	int cx, int cy, int cz, int i, int j, int k, int pl)
{
	return pl ? bsq_pl_at(q, gc, cx, cy, cz, i, j, k) : bsq_pc_at(q, gc, cx, cy, cz, i, j, k);
}

/* A prolongation's update of a fine value q by the prolongated coarse value
 * P: a q + P (a = 1: V-cycle correction; a = 0: full multigrid start). */
HOSTDEVICE static inline bsq_real bsq_prolong_add(bsq_real a, bsq_real q, bsq_real P)
{
	return a * q + P;
}

#endif
