/* swe_step.h: the KP07 stencil on arrays, for the CPU loops and the CUDA
 * kernels alike.  The formulas are in swe_kern.h; this layer only gathers a
 * cell's neighbours and bed values from arrays laid out as in swe.h (row
 * major, SWE_GHOST ghost layers, corners in a (nx+2G+1)-wide array) and
 * hands them to those formulas.  A view may point at global memory or at a
 * tile in GPU shared memory: only the pitches differ. */
#ifndef SPATE_SWE_STEP_H
#define SPATE_SWE_STEP_H

#include "swe_cell.h"

struct swe_view {
	real *w, *hu, *hv;     /* cell arrays: w holds the DEPTH h (swe_kern.h) */
	const real *Bc;        /* corners */
	const real *Bm;        /* cell-centre bed */
	int nx, ny;            /* interior cells */
	int pitch, cpitch;     /* row lengths of cell and corner arrays */
	real inv_dx, inv_dy;   /* 1/m */
};

HOSTDEVICE static inline long swe_vidx(const struct swe_view *v, int i, int j)
{
	return (long)(j + SWE_GHOST) * v->pitch + (i + SWE_GHOST);
}

HOSTDEVICE static inline long swe_vcidx(const struct swe_view *v, int I, int J)
{
	return (long)(J + SWE_GHOST) * v->cpitch + (I + SWE_GHOST);
}

/* The beds at the four face midpoints of cell (i, j). */
HOSTDEVICE static inline void swe_face_beds(const struct swe_view *v, int i, int j, real *Bw,
	real *Be, real *Bs, real *Bn)
{
	long c = swe_vcidx(v, i, j);
	real b00 = v->Bc[c], b10 = v->Bc[c + 1];
	real b01 = v->Bc[c + v->cpitch], b11 = v->Bc[c + v->cpitch + 1];
	*Bw = swe_bed_face(b00, b01);
	*Be = swe_bed_face(b10, b11);
	*Bs = swe_bed_face(b00, b10);
	*Bn = swe_bed_face(b01, b11);
}

/* The desingularised inverse depth of the cell at index k. */
HOSTDEVICE static inline real swe_vinv_depth(const struct swe_view *v, struct swe_coef c, long k)
{
	return kp07_cell_inv_depth(v->w[k], c.kappa4);
}

/* Reconstruction of cell (i, j) along x: states at its west and east faces. */
HOSTDEVICE static inline void swe_recon_x(const struct swe_view *v, struct swe_coef c, int i,
	int j, struct kp07_face *fw, struct kp07_face *fe)
{
	long k = swe_vidx(v, i, j);
	real Bw, Be, Bs, Bn;
	swe_face_beds(v, i, j, &Bw, &Be, &Bs, &Bn);
	kp07_reconstruct_wd(v->w[k - 1], v->w[k], v->w[k + 1], v->hu[k - 1], v->hu[k],
		v->hu[k + 1], v->hv[k - 1], v->hv[k], v->hv[k + 1], v->Bm[k - 1], v->Bm[k + 1],
		Bw, Be, Bs, Bn, v->Bm[k],
		swe_vinv_depth(v, c, k - 1), swe_vinv_depth(v, c, k), swe_vinv_depth(v, c, k + 1),
		c.theta, fw, fe);
}

/* Reconstruction of cell (i, j) along y: states at its south and north faces
 * (normal momentum hv, tangential hu). */
HOSTDEVICE static inline void swe_recon_y(const struct swe_view *v, struct swe_coef c, int i,
	int j, struct kp07_face *fs, struct kp07_face *fn)
{
	long k = swe_vidx(v, i, j), p = v->pitch;
	real Bw, Be, Bs, Bn;
	swe_face_beds(v, i, j, &Bw, &Be, &Bs, &Bn);
	kp07_reconstruct_wd(v->w[k - p], v->w[k], v->w[k + p], v->hv[k - p], v->hv[k],
		v->hv[k + p], v->hu[k - p], v->hu[k], v->hu[k + p], v->Bm[k - p], v->Bm[k + p],
		Bs, Bn, Bw, Be, v->Bm[k],
		swe_vinv_depth(v, c, k - p), swe_vinv_depth(v, c, k), swe_vinv_depth(v, c, k + p),
		c.theta, fs, fn);
}

/* Flux through the x-face between cells (i, j) and (i+1, j). */
HOSTDEVICE static inline struct kp07_flux swe_flux_x(const struct swe_view *v,
	struct swe_coef c, int i, int j)
{
	struct kp07_face aw, ae, bw, be;
	swe_recon_x(v, c, i, j, &aw, &ae);
	swe_recon_x(v, c, i + 1, j, &bw, &be);
	return kp07_central_upwind(ae, bw, c);
}

/* Flux through the y-face between cells (i, j) and (i, j+1). */
HOSTDEVICE static inline struct kp07_flux swe_flux_y(const struct swe_view *v,
	struct swe_coef c, int i, int j)
{
	struct kp07_face as, an, bs, bn;
	swe_recon_y(v, c, i, j, &as, &an);
	swe_recon_y(v, c, i, j + 1, &bs, &bn);
	return kp07_central_upwind(an, bs, c);
}

/* Right-hand side of cell (i, j) from the fluxes through its four faces and
 * its own bed-slope sources. */
HOSTDEVICE static inline void swe_cell_rhs(const struct swe_view *v, struct swe_coef c, int i,
	int j, struct kp07_flux Fw, struct kp07_flux Fe, struct kp07_flux Gs, struct kp07_flux Gn,
	real *Lw, real *Lhu, real *Lhv)
{
	struct kp07_face fw, fe, fs, fn;
	real Sx, Sy;
	swe_recon_x(v, c, i, j, &fw, &fe);
	swe_recon_y(v, c, i, j, &fs, &fn);
	Sx = kp07_bed_source(fw, fe, c.g, v->inv_dx);
	Sy = kp07_bed_source(fs, fn, c.g, v->inv_dy);
	swe_rhs(Fw, Fe, Gs, Gn, Sx, Sy, v->inv_dx, v->inv_dy, Lw, Lhu, Lhv);
}

/* Forward-Euler update of one cell from values: (h, hu, hv) = finish(U + dt L),
 * U = (w0, hu0, hv0) and L given (w0, *w: depths). */
HOSTDEVICE static inline void swe_euler_vals(real w0, real hu0, real hv0, real Lw, real Lhu,
	real Lhv, real dt, struct swe_coef c, real *w, real *hu, real *hv)
{
	real a = swe_depth_euler(w0, Lw, dt, hu0, hv0, 1u), b = hu0 + dt * Lhu, d = hv0 + dt * Lhv;
	swe_finish(&a, &b, &d, dt, c);
	*w = a;
	*hu = b;
	*hv = d;
}

/* Forward-Euler update of the cell at array index k: out = finish(U + dt L). */
HOSTDEVICE static inline void swe_euler_cell(const struct swe_view *u, const real *Lw,
	const real *Lhu, const real *Lhv, long k, real dt, struct swe_coef c,
	real *w, real *hu, real *hv)
{
	swe_euler_vals(u->w[k], u->hu[k], u->hv[k], Lw[k], Lhu[k], Lhv[k], dt, c, w, hu, hv);
}

/* Second SSP-RK2 stage of one cell from values: U^n = (w0, hu0, hv0),
 * U* = (ws, hus, hvs), L* = (Lw, Lhu, Lhv); out = finish((U^n + F(U* + dt L*))/2)
 * where F is the Manning friction of an Euler step (swe_friction, on the
 * depth of U* + dt L*).  Friction damps only the new half: damping the whole
 * average, U^n included, would hold flow where friction dominates (dt g n^2
 * |u| / h^(4/3) small) at 2/3 of its terminal velocity S/k instead of S/k
 * (the fixed point of u = (u + F(u* + dt S))/2, u* = F(u + dt S), is
 * exactly S/k). */
HOSTDEVICE static inline void swe_rk2_vals(real w0, real hu0, real hv0, real ws, real hus,
	real hvs, real Lw, real Lhu, real Lhv, real dt, struct swe_coef c, real *w,
	real *hu, real *hv)
{
	real a = swe_depth_rk2(w0, ws, Lw, dt, hu0, hv0);
	real hs = ws + dt * Lw, bu = hus + dt * Lhu, bv = hvs + dt * Lhv, b, d;
	struct swe_coef c0 = c;
	if (c.n2 > 0 && hs > c.dry)
		swe_friction(hs, &bu, &bv, c.n2, dt, c);
	b = (real)0.5 * (hu0 + bu);
	d = (real)0.5 * (hv0 + bv);
	c0.n2 = 0;
	swe_finish(&a, &b, &d, dt, c0);
	*w = a;
	*hu = b;
	*hv = d;
}

/* Second SSP-RK2 stage at array index k: out = finish((U^n + U* + dt L*)/2). */
HOSTDEVICE static inline void swe_rk2_cell(const struct swe_view *u, const struct swe_view *s,
	const real *Lw, const real *Lhu, const real *Lhv, long k, real dt, struct swe_coef c,
	real *w, real *hu, real *hv)
{
	swe_rk2_vals(u->w[k], u->hu[k], u->hv[k], s->w[k], s->hu[k], s->hv[k], Lw[k], Lhu[k],
		Lhv[k], dt, c, w, hu, hv);
}

/* Ghost cell `layer` (0 = next to the edge) at position m along side `side`
 * (enum swe_side): its array index and the index of the interior cell it is
 * built from. */
HOSTDEVICE static inline void swe_bc_cells(const struct swe_view *v, int side, int kind,
	int layer, int m, long *ghost, long *src)
{
	int s = swe_bc_source(kind, layer);
	switch (side) {
	case 0: *ghost = swe_vidx(v, -1 - layer, m); *src = swe_vidx(v, s, m); break;
	case 1: *ghost = swe_vidx(v, v->nx + layer, m); *src = swe_vidx(v, v->nx - 1 - s, m); break;
	case 2: *ghost = swe_vidx(v, m, -1 - layer); *src = swe_vidx(v, m, s); break;
	default: *ghost = swe_vidx(v, m, v->ny + layer); *src = swe_vidx(v, m, v->ny - 1 - s); break;
	}
}

/* Write ghost cell `layer` at position m of side `side` of U from the values
 * (w, hu, hv) of its source cell (swe_bc_cells).  value: the side's level or
 * inflow discharge per unit width at this time. */
HOSTDEVICE static inline void swe_bc_put(const struct swe_view *v, int side, int kind,
	real value, real grav, int layer, int m, real w, real hu, real hv)
{
	long g, s;
	int along_x = side < 2, sign = (side == 0 || side == 2) ? 1 : -1;
	real n = along_x ? hu : hv, t = along_x ? hv : hu;
	swe_bc_cells(v, side, kind, layer, m, &g, &s);
	(void)s;
	swe_bc_ghost(kind, sign, value, v->Bm[g], grav, &w, &n, &t);
	v->w[g] = w;
	v->hu[g] = along_x ? n : t;
	v->hv[g] = along_x ? t : n;
}

/* Fill one ghost cell of U from its source cell. */
HOSTDEVICE static inline void swe_bc_cell(struct swe_view *v, int side, int kind, real value,
	real grav, int layer, int m)
{
	long g, s;
	swe_bc_cells(v, side, kind, layer, m, &g, &s);
	swe_bc_put(v, side, kind, value, grav, layer, m, v->w[s], v->hu[s], v->hv[s]);
}

/* Write ghost cell `layer` at m of side `side` of a rate L (same map, linear
 * part) from the rate (Lw0, Lhu0, Lhv0) of its source cell. */
HOSTDEVICE static inline void swe_bc_put_rate(const struct swe_view *v, real *Lw, real *Lhu,
	real *Lhv, int side, int kind, int layer, int m, real Lw0, real Lhu0, real Lhv0)
{
	long g, s;
	int along_x = side < 2;
	real n = along_x ? Lhu0 : Lhv0, t = along_x ? Lhv0 : Lhu0;
	swe_bc_cells(v, side, kind, layer, m, &g, &s);
	swe_bc_ghost_rate(kind, &Lw0, &n, &t);
	Lw[g] = Lw0;
	Lhu[g] = along_x ? n : t;
	Lhv[g] = along_x ? t : n;
}

/* Fill one ghost cell of a rate L from its source cell. */
HOSTDEVICE static inline void swe_bc_cell_rate(const struct swe_view *v, real *Lw, real *Lhu,
	real *Lhv, int side, int kind, int layer, int m)
{
	long g, s;
	swe_bc_cells(v, side, kind, layer, m, &g, &s);
	swe_bc_put_rate(v, Lw, Lhu, Lhv, side, kind, layer, m, Lw[s], Lhu[s], Lhv[s]);
}

#ifndef __CUDACC__
struct swe_bcdev;
struct swe_params;
/* Host loops over all ghost cells (swe_bc.c). */
void swe_bc_fill(struct swe_view *v, const struct swe_bcdev *b, const struct swe_params *p,
	double t);
void swe_bc_fill_rate(const struct swe_view *v, const struct swe_bcdev *b, real *Lw, real *Lhu,
	real *Lhv);
/* The same on the sides in `sides` only: bit 1 << side (enum swe_side) each
 * (a subdomain fills the global edges it touches; the rest is halo). */
void swe_bc_fill_sides(struct swe_view *v, const struct swe_bcdev *b, const struct swe_params *p,
	double t, unsigned sides);
void swe_bc_fill_rate_sides(const struct swe_view *v, const struct swe_bcdev *b, real *Lw,
	real *Lhu, real *Lhv, unsigned sides);
#endif

#endif
