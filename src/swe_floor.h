/* swe_floor.h: the arithmetic floor of a KP07 step, for `spate bench
 * --case=floor` (bench_floor.c) on the CPU (swe_floor.c) and the GPU
 * (cuda/swe_cuda_floor.cu) alike.
 *
 * A stage of a cell, as the stage kernels compute it (every reconstruction
 * and face flux once a cell: the inverse depth of the cell, its x and y
 * reconstructions, the fluxes through its east and north faces, the two bed
 * sources, the rates; stage 2 adds U* before and the RK2 update after), with
 * nothing around it: no walk, no halo, no tile map, no neighbour exchange.
 * What the kernels share between cells through registers, shuffles or
 * shared memory (the neighbours' states and inverse depths, the neighbours'
 * face states, the fluxes through the west and south faces) comes here from
 * a small table that stays in the L1 cache.  So the rate it runs at bounds
 * what any kernel of the same numerics can reach on the device: the
 * stage kernels are bound by the instructions they issue
 * (doc/bench/kernel.md), and this is the part of them no layout removes.
 *
 * The cells are wet and deep on a gentle bed (a few centimetres of relief,
 * read from the table like the rest, so that no bed term is known to the
 * compiler), so every formula takes its common path.  A thread (GPU) or an iteration (CPU)
 * does SWE_FLOOR_CELLS cells and returns the sum of their results, so
 * that nothing is optimised away; the CPU and the GPU give the same bits
 * (`spate bench --case=floor` prints a hash of them). */
#ifndef SPATE_SWE_FLOOR_H
#define SPATE_SWE_FLOOR_H

#include "swe_step.h"

/* Entries of each table (a power of two) and cells a thread. */
#define SWE_FLOOR_TAB 1024
#define SWE_FLOOR_CELLS 64

struct swe_floor_tab {
	real h[SWE_FLOOR_TAB], hu[SWE_FLOOR_TAB], hv[SWE_FLOOR_TAB];
	real r[SWE_FLOOR_TAB];                                      /* inverse depths */
	real fh[SWE_FLOOR_TAB], fn[SWE_FLOOR_TAB], ft[SWE_FLOOR_TAB]; /* face states */
	real f0[SWE_FLOOR_TAB], ff[SWE_FLOOR_TAB], fg[SWE_FLOOR_TAB]; /* fluxes, rates */
	real b[SWE_FLOOR_TAB];                                      /* beds */
};

/* Entry k (modulo the table's size) of the face states, and of the fluxes. */
HOSTDEVICE static inline struct kp07_face swe_floor_face(const struct swe_floor_tab *t,
	unsigned k)
{
	struct kp07_face f;
	k &= SWE_FLOOR_TAB - 1;
	f.h = t->fh[k];
	f.eta = 0; /* not used by the flux */
	f.hn = t->fn[k];
	f.ht = t->ft[k];
	return f;
}

HOSTDEVICE static inline struct kp07_flux swe_floor_flux(const struct swe_floor_tab *t,
	unsigned k)
{
	struct kp07_flux F;
	k &= SWE_FLOOR_TAB - 1;
	F.f0 = t->f0[k];
	F.fn = t->ff[k];
	F.ft = t->fg[k];
	F.a = 0;
	return F;
}

/* The SWE_FLOOR_CELLS cells of thread i: stage 1 (s2 = 0) or 2; with
 * inputs_only, only the table reads (summed), to tell their cost apart. */
HOSTDEVICE static inline real swe_floor_cells(const struct swe_floor_tab *t, struct swe_coef c,
	real dt, unsigned i, int s2, int inputs_only)
{
	real acc = 0, amax = 0;
	for (int n = 0; n < SWE_FLOOR_CELLS; n++) {
		unsigned k = i * 7u + (unsigned)n * 131u;
#define SWE_FLOOR_T(a, o) t->a[(k + (o)) & (SWE_FLOOR_TAB - 1)]
		real h0 = SWE_FLOOR_T(h, 0), hu0 = SWE_FLOOR_T(hu, 0), hv0 = SWE_FLOOR_T(hv, 0);
		real hW = SWE_FLOOR_T(h, 1), huW = SWE_FLOOR_T(hu, 1), hvW = SWE_FLOOR_T(hv, 1);
		real hE = SWE_FLOOR_T(h, 2), huE = SWE_FLOOR_T(hu, 2), hvE = SWE_FLOOR_T(hv, 2);
		real hS = SWE_FLOOR_T(h, 3), huS = SWE_FLOOR_T(hu, 3), hvS = SWE_FLOOR_T(hv, 3);
		real hN = SWE_FLOOR_T(h, 4), huN = SWE_FLOOR_T(hu, 4), hvN = SWE_FLOOR_T(hv, 4);
		real rW = SWE_FLOOR_T(r, 1), rE = SWE_FLOOR_T(r, 2), rS = SWE_FLOOR_T(r, 3);
		real rN = SWE_FLOOR_T(r, 4), r0, sx, sy, Lw, Lhu, Lhv;
		/* centre beds of the cell and its neighbours, its face beds */
		real Bc = SWE_FLOOR_T(b, 0), BW = SWE_FLOOR_T(b, 1), BE = SWE_FLOOR_T(b, 2);
		real BS = SWE_FLOOR_T(b, 3), BN = SWE_FLOOR_T(b, 4), Bw = SWE_FLOOR_T(b, 5);
		real Be = SWE_FLOOR_T(b, 6), Bs = SWE_FLOOR_T(b, 7), Bn = SWE_FLOOR_T(b, 8);
		struct kp07_face fw, fe, fs, fn, fr, fu;
		struct kp07_flux fxe, fxw, gn, gs;

		fr = swe_floor_face(t, k + 6); /* the east neighbour's west face */
		fu = swe_floor_face(t, k + 7); /* the north neighbour's south face */
		fxw = swe_floor_flux(t, k + 8);
		gs = swe_floor_flux(t, k + 9);
		if (inputs_only) {
			acc += h0 + hu0 + hv0 + hW + huW + hvW + hE + huE + hvE + hS + huS + hvS +
				hN + huN + hvN + rW + rE + rS + rN + fr.h + fr.hn + fr.ht + fu.h +
				fu.hn + fu.ht + fxw.f0 + fxw.fn + fxw.ft + gs.f0 + gs.fn + gs.ft +
				Bc + BW + BE + BS + BN + Bw + Be + Bs + Bn;
			if (s2)
				acc += SWE_FLOOR_T(f0, 5) + SWE_FLOOR_T(ff, 5) + SWE_FLOOR_T(fg, 5);
			continue;
		}
		if (s2) /* U* from U^n and the rates of stage 1 */
			swe_euler_vals(h0, hu0, hv0, SWE_FLOOR_T(f0, 5), SWE_FLOOR_T(ff, 5),
				SWE_FLOOR_T(fg, 5), dt, c, &h0, &hu0, &hv0);
		r0 = kp07_cell_inv_depth(h0, c.kappa4);
		kp07_reconstruct_wd(hW, h0, hE, huW, hu0, huE, hvW, hv0, hvE, BW, BE, Bw, Be, Bs,
			Bn, Bc, rW, r0, rE, c.theta, &fw, &fe);
		kp07_reconstruct_wd(hS, h0, hN, hvS, hv0, hvN, huS, hu0, huN, BS, BN, Bs, Bn, Bw,
			Be, Bc, rS, r0, rN, c.theta, &fs, &fn);
		sx = kp07_bed_source(fw, fe, c.g, (real)0.1);
		sy = kp07_bed_source(fs, fn, c.g, (real)0.1);
		fxe = kp07_central_upwind(fe, fr, c);
		gn = kp07_central_upwind(fn, fu, c);
		swe_rhs(fxw, fxe, gs, gn, sx, sy, (real)0.1, (real)0.1, &Lw, &Lhu, &Lhv);
		amax = swe_max(amax, swe_max(fxe.a, gn.a));
		if (s2) {
			real a, b, d;
			swe_rk2_vals(SWE_FLOOR_T(h, 0), SWE_FLOOR_T(hu, 0), SWE_FLOOR_T(hv, 0), h0, hu0,
				hv0, Lw, Lhu, Lhv, dt, c, &a, &b, &d);
			acc += a + b + d;
		} else {
			acc += Lw + Lhu + Lhv;
		}
#undef SWE_FLOOR_T
	}
	return acc + amax;
}

#ifdef __cplusplus
extern "C" {
#endif

/* The table (smooth, wet, deep water: depths 1.1-1.9 m, speeds under
 * 0.3 m/s, beds within 5 cm of 0) and the coefficients the floor runs
 * with. */
void swe_floor_fill(struct swe_floor_tab *t, struct swe_coef *c, real *dt);

/* The floor on the CPU: `threads` iterations (SWE_FLOOR_CELLS cells each),
 * every kernel (stage 1, 2, then their inputs alone) once and then `reps`
 * times; sec[k]: seconds a pass of kernel k; res[s]: the `threads` results
 * of stage s+1.  0, or -SPATE_EINVAL (message given). */
int swe_cpu_floor(const struct swe_floor_tab *t, struct swe_coef c, real dt, long threads,
	int reps, double sec[4], real *res[2]);

/* The floor on the current CUDA device: `threads` threads (SWE_FLOOR_CELLS
 * cells each), every kernel (stage 1, 2, then their inputs alone) once and
 * then `reps` times; sec[k]: seconds a launch of kernel k; res[s]: the
 * `threads` results of stage s+1 (host arrays).  0, or -SPATE_E* (message
 * given). */
int swe_cuda_floor(const struct swe_floor_tab *t, struct swe_coef c, real dt, long threads,
	int reps, double sec[4], real *res[2]);

#ifdef __cplusplus
}
#endif

#endif
