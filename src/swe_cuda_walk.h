/* swe_cuda_walk.h: the walk of one tile by one warp in the stage kernels
 * (walk<S2>).
 * Included by cuda/swe_cuda_kern.cu alone, which shares the tiles out
 * between warps and launches the kernels.
 *
 * The strip walk.  Each warp owns a strip of 32 columns and kp.rows rows,
 * lane = column.  Its two outer columns on each side are halo: the warp
 * updates the 28 inner ones, and strips overlap by four columns.  A lane walks
 * up its column with a sliding window in registers: three rows of the state,
 * the face beds, the north face of the row below and the flux through it, so
 * each cell is reconstructed once per direction and each y-face flux is
 * computed once.  The x-neighbours (states, reconstructed west faces, the
 * flux through the west face) come from the neighbouring lanes by warp
 * shuffles: no shared memory and no barrier in the walk.  The next row is
 * loaded one row ahead.
 *
 * A face flux shared by two strips is computed by both, by the same code
 * from the same values, hence to the same bits: mass is conserved to
 * round-off.  To keep it so, every state, reconstruction and flux comes out
 * of the one loop body (the first rows of a strip run it with the x part
 * switched off), never out of a separate prologue. */
#ifndef SPATE_SWE_CUDA_WALK_H
#define SPATE_SWE_CUDA_WALK_H

#include "swe_cuda_dev.h"

/* One tile of a stage, or a part of its rows (swe_cuda_kern.cu and the top
 * of this file):
 * the warp's strip of 32 columns from c0 - HALO and rows [j0, jend) of the
 * tile's [js - 2, jn + 2).  Stage 1 (S2 false) reads U^n and writes L;
 * stage 2 reads U^n and L, makes U* on the fly and writes U^{n+1}.  Returns
 * the tile map's flags of what it wrote (stage 2, tile_bands, with the
 * tile's bands: rows below js, rows from jn; 0 in stage 1).  One long
 * function on purpose: split into inlined helpers (the x rates, the store
 * of a cell) the stage kernels got
 * other register allocations and ran 2-3% longer on H200s (eighth
 * session: bumps 0.684 -> 0.699 s, Malpasset 10 m 4.16 -> 4.27 s). */
template <bool S2>
__device__ static inline unsigned short walk(const kparams_t &kp, const ctl_t *q, const step_t &a,
	const struct swe_view &u, real dt, int c0, int j0, int jend, int js, int jn, swe_rbits &bx,
	swe_rbits &by)
{
	const int lane = threadIdx.x & (WARP - 1);
	const int col = c0 - HALO + lane, colc = min(col, kp.nx + SWE_GHOST - 1);
	/* lanes that update their cell, and lanes whose east face is a face of
	 * the domain next to an updated cell */
	const bool upd = lane >= HALO && lane < WARP - HALO && col < kp.nx;
	const bool xface = lane >= HALO - 1 && lane < WARP - HALO && col < kp.nx;
	const struct swe_coef c = kp.c;
	/* not-dry cells seen by this lane: anywhere, in the tile's two southern
	 * rows, in its two northern rows (the tile map's bands) */
	bool wet = false, wet_s = false, wet_n = false;
	/* row j+2 of the window, loaded one iteration ahead */
	real nw_, nhu, nhv, nLw = 0, nLhu = 0, nLhv = 0, nBm, nc0, nc1;
	/* rows j and j+1 of the state (U^n, or U* in stage 2; w: depth) and their
	 * desingularised inverse depths, computed once per cell as each row
	 * enters the window */
	real w0 = 0, hu0 = 0, hv0 = 0, w1 = 0, hu1 = 0, hv1 = 0, r0 = 0, r1 = 0;
	/* corners at the bottom of row j+1; beds of row j (faces, centre), of
	 * row j+1 (centre) */
	real ca0 = 0, ca1 = 0, bw0 = 0, be0 = 0, bs0 = 0, bn0 = 0, bm0 = 0, bm1 = 0, bmm = 0;
	/* north face of row j, its bed source, the flux below row j */
	struct kp07_face fn0 = { 0, 0, 0, 0 };
	struct kp07_flux g0 = { 0, 0, 0, 0 };
	real sy0 = 0;
	/* early exit: row j-1 of the state (to rebuild fn0 and sy0 after a
	 * skipped row), rows j-1 and j dry, fn0 and sy0 not computed */
	real wm = 0, hum = 0, hvm = 0, rm = 0;
	bool drym = false, dry0 = false, stale = false;
	auto fetch = [&](int r) {
		long k, kc;
		r = min(r, kp.ny + SWE_GHOST - 1);
		k = swe_vidx(&u, colc, r);
		kc = swe_vcidx(&u, colc, r);
		nw_ = u.w[k];
		nhu = u.hu[k];
		nhv = u.hv[k];
		if (S2) {
			nLw = a.Lw[k];
			nLhu = a.Lhu[k];
			nLhv = a.Lhv[k];
		}
		nBm = u.Bm[k];
		nc0 = u.Bc[kc];
		nc1 = u.Bc[kc + 1];
	};

	fetch(j0 - 2);
#pragma unroll 1
	for (int j = j0 - 4; j < jend; j++) {
		real w2, hu2, hv2, r2, cb0 = nc0, cb1 = nc1, bm2 = nBm, bw1, be1, bs1, bn1;
		real sy1 = 0;
		struct kp07_face fs1 = fn0, fn1 = fn0;
		struct kp07_flux g1 = g0;

		if (S2)
			swe_euler_vals(nw_, nhu, nhv, nLw, nLhu, nLhv, dt, c, &w2, &hu2, &hv2);
		else {
			w2 = nw_;
			hu2 = nhu;
			hv2 = nhv;
		}
		r2 = kp07_cell_inv_depth(w2, c.kappa4);
		fetch(j + 3);

		/* y: reconstruct row j+1, flux through its south face */
		bw1 = swe_bed_face(ca0, cb0);
		be1 = swe_bed_face(ca1, cb1);
		bs1 = bn0;
		bn1 = swe_bed_face(cb0, cb1);
		/* Early exit: where rows j-1, j and j+1 are dry (depth exactly
		 * 0, on any bed: kp07_reconstruct_wd) in all 32 lanes, every face of row j and
		 * the faces between rows has depth 0: the fluxes are (0, 0, 0),
		 * the bed sources 0, and L of row j is (-0, +0, +0), the bits
		 * swe_rhs gives.  The y-faces of row j+1 are left stale and
		 * rebuilt (same code, same values) when a row is computed again;
		 * the flux below it is the zero flux.  From row j0 - 2 on: the
		 * first rows of the walk pass on only such faces and fluxes
		 * (row j0 - 3 is never loaded and reads as dry, which changes
		 * only whether row j0 - 1's faces are made now or rebuilt). */
		bool dry1 = kp.early && w1 <= 0;
		bool skip = kp.early && j >= j0 - 2 && __all_sync(FULL_MASK, drym && dry0 && dry1);
		if (skip) {
			fs1.h = fs1.eta = fs1.hn = fs1.ht = 0;
			fn1 = fs1;
			g1.f0 = 0;
			g1.fn = 0;
			g1.ft = 0;
			g1.a = -(real)0;
			sy1 = 0;
			stale = true;
		} else if (j >= j0 - 2) {
			if (stale) {
				struct kp07_face fs0;
				kp07_reconstruct_wd(wm, w0, w1, hvm, hv0, hv1, hum, hu0, hu1, bmm, bm1,
					bs0, bn0, bw0, be0, bm0, rm, r0, r1, c.theta, &fs0, &fn0);
				sy0 = kp07_bed_source(fs0, fn0, c.g, kp.inv_dy);
				stale = false;
			}
			kp07_reconstruct_wd(w0, w1, w2, hv0, hv1, hv2, hu0, hu1, hu2, bm0, bm2, bs1,
				bn1, bw1, be1, bm1, r0, r1, r2, c.theta, &fs1, &fn1);
			/* row j0 - 1 gives only its north face: the flux below it
			 * and its bed source serve no row of the walk */
			if (j >= j0 - 1) {
				sy1 = kp07_bed_source(fs1, fn1, c.g, kp.inv_dy);
				g1 = kp07_central_upwind(fn0, fs1, c);
				if (upd)
					by = bits_max(by, speed_bits(g1.a));
			}
		}

		/* x: reconstruct row j, flux through the east face; the west
		 * face's flux is the west neighbour's east one */
		if (j >= j0) {
			struct kp07_face fw, fe, fr;
			struct kp07_flux fxe, fxw;
			real sx, Lw, Lhu, Lhv;
			if (skip) {
				Lw = -(real)0;
				Lhu = 0;
				Lhv = 0;
			} else {
			kp07_reconstruct_wd(__shfl_up_sync(FULL_MASK, w0, 1), w0,
				__shfl_down_sync(FULL_MASK, w0, 1), __shfl_up_sync(FULL_MASK, hu0, 1),
				hu0, __shfl_down_sync(FULL_MASK, hu0, 1),
				__shfl_up_sync(FULL_MASK, hv0, 1), hv0,
				__shfl_down_sync(FULL_MASK, hv0, 1), __shfl_up_sync(FULL_MASK, bm0, 1),
				__shfl_down_sync(FULL_MASK, bm0, 1), bw0, be0, bs0, bn0, bm0,
				__shfl_up_sync(FULL_MASK, r0, 1), r0,
				__shfl_down_sync(FULL_MASK, r0, 1), c.theta, &fw, &fe);
			sx = kp07_bed_source(fw, fe, c.g, kp.inv_dx);
			fr.h = __shfl_down_sync(FULL_MASK, fw.h, 1);
			fr.eta = 0; /* not used by the flux */
			fr.hn = __shfl_down_sync(FULL_MASK, fw.hn, 1);
			fr.ht = __shfl_down_sync(FULL_MASK, fw.ht, 1);
			fxe = kp07_central_upwind(fe, fr, c);
			fxw.f0 = __shfl_up_sync(FULL_MASK, fxe.f0, 1);
			fxw.fn = __shfl_up_sync(FULL_MASK, fxe.fn, 1);
			fxw.ft = __shfl_up_sync(FULL_MASK, fxe.ft, 1);
			fxw.a = 0;
			if (xface)
				bx = bits_max(bx, speed_bits(fxe.a));
			swe_rhs(fxw, fxe, g0, g1, sx, sy0, kp.inv_dx, kp.inv_dy, &Lw, &Lhu, &Lhv);
			}
			if (upd) {
				long k = swe_vidx(&u, col, j);
				if (!S2) {
					a.Lw[k] = Lw;
					a.Lhu[k] = Lhu;
					a.Lhv[k] = Lhv;
					each_ghost_of(u, kp, col, j, [&](int side, int layer, int m) {
						swe_bc_put_rate(&u, a.Lw, a.Lhu, a.Lhv, side,
							kp.bcd.kind[side], layer, m, Lw, Lhu, Lhv);
					});
				} else {
					struct swe_view o = gview(kp, a.w1, a.hu1, a.hv1, a.Bc, a.Bm);
					real nw, nu, nv;
					swe_rk2_vals(u.w[k], u.hu[k], u.hv[k], w0, hu0, hv0, Lw, Lhu, Lhv,
						dt, c, &nw, &nu, &nv);
					a.w1[k] = nw;
					a.hu1[k] = nu;
					a.hv1[k] = nv;
					swe_guard_note(nw, nu, nv, &a.q->bad);
					/* not dry: the tile map keeps the tile and its
					 * neighbours computed */
					if (!(nw <= 0)) {
						wet = true;
						wet_s = wet_s || j < js;
						wet_n = wet_n || j >= jn;
					}
					each_ghost_of(o, kp, col, j, [&](int side, int layer, int m) {
						swe_bc_put(&o, side, kp.bcd.kind[side],
							side_value_dev(kp, side, q->t), c.g, layer, m, nw,
							nu, nv);
					});
				}
			}
		}

		/* slide the window up one row */
		wm = w0;
		hum = hu0;
		hvm = hv0;
		rm = r0;
		drym = dry0;
		dry0 = dry1;
		w0 = w1;
		hu0 = hu1;
		hv0 = hv1;
		w1 = w2;
		hu1 = hu2;
		hv1 = hv2;
		r0 = r1;
		r1 = r2;
		ca0 = cb0;
		ca1 = cb1;
		bw0 = bw1;
		be0 = be1;
		bs0 = bs1;
		bn0 = bn1;
		bmm = bm0;
		bm0 = bm1;
		bm1 = bm2;
		fn0 = fn1;
		sy0 = sy1;
		g0 = g1;
	}
	if (!S2)
		return 0;
	return tile_bands(__ballot_sync(FULL_MASK, wet), __ballot_sync(FULL_MASK, wet_s),
		__ballot_sync(FULL_MASK, wet_n));
}

#endif
