/* swe_cpu_rhs.c: the CPU right-hand side L(U), row by row, with early exit
 * of dry blocks ([parallel] early_exit).
 *
 * Each cell is reconstructed once per direction and each face flux computed
 * once (faces between two threads' rows twice, by the same code: the same
 * bits); the y faces of a row are carried to the next row.
 *
 * Early exit.  A cell of depth exactly 0 (h = w <= 0) reconstructs to depth 0
 * at all four faces whatever its neighbours: when its level is below its
 * highest face bed it is partially flooded at level L = its lowest face bed
 * (kp07_cell_level of depth 0); when not, its bed is flat and the limited
 * surface, tilted onto the bed if need be, stays at the bed.  The
 * central-upwind flux between two faces of depth 0 is exactly (0, 0, 0) and
 * so is the bed source: a cell whose own depth and its four neighbours' are
 * 0 has L = (-0, +0, +0) exactly, the bits swe_rhs gives from those fluxes.
 * A centre bed that rounds up to the highest face bed while the face beds
 * differ (a flat bed only in exact arithmetic) is reconstructed as partially
 * flooded when dry (kp07_reconstruct_wd), so this holds on every bed.
 *
 * The dry map: block b of a row is columns [b B, (b + 1) B) (B = CPU_BLOCK);
 * it is dry when the cells of columns b B - 1 .. (b + 1) B of the row are
 * dry.  A block is skipped in row j when it is dry in rows j - 1, j
 * and j + 1; the other (active) blocks are computed in spans of consecutive
 * blocks, the y faces of a block rebuilt when the row below skipped it. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <limits.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "spate.h"
#include "swe_cpu_rhs.h"
#include "swe_backend.h"

long swe_cpu_rows_skipped, swe_cpu_blocks_skipped, swe_cpu_blocks_seen;

/* Per-thread row buffers: reconstructed faces and fluxes of one row, and the
 * dry map of three rows. */
struct rowbuf {
	struct kp07_face *xw, *xe;   /* x faces of cells -1..nx */
	struct kp07_face *ys, *yn;   /* y faces of the current row */
	struct kp07_face *ys1, *yn1; /* y faces of the next row */
	struct kp07_flux *fx, *gs, *gn;
	unsigned char *dm, *d0, *dp; /* dry blocks of rows j - 1, j, j + 1 */
	unsigned char *act;          /* blocks computed in row j */
	unsigned char *have;         /* blocks whose ys, yn, gs row j - 1 computed */
};

static int nblocks(int nx)
{
	return (nx + CPU_BLOCK - 1) / CPU_BLOCK;
}

/* A multiple of 64 bytes, so every thread's buffers stay aligned. */
size_t swe_cpu_rowbuf_bytes(int nx)
{
	size_t b = (size_t)(nx + 2) * (6 * sizeof(struct kp07_face) + 3 * sizeof(struct kp07_flux)) +
		5 * (size_t)nblocks(nx);
	return (b + 63) / 64 * 64;
}

static struct rowbuf rowbuf_of(void *base, int nx)
{
	struct rowbuf r;
	struct kp07_face *f = base;
	size_t n = (size_t)nx + 2, nb = (size_t)nblocks(nx);
	r.xw = f;
	r.xe = f + n;
	r.ys = f + 2 * n;
	r.yn = f + 3 * n;
	r.ys1 = f + 4 * n;
	r.yn1 = f + 5 * n;
	r.fx = (struct kp07_flux *)(f + 6 * n);
	r.gs = r.fx + n;
	r.gn = r.gs + n;
	r.dm = (unsigned char *)(r.gn + n);
	r.d0 = r.dm + nb;
	r.dp = r.d0 + nb;
	r.act = r.dp + nb;
	r.have = r.act + nb;
	return r;
}

/* Columns [*i0, *i1] of block b that its dry test looks at. */
static void block_cols(int b, int nx, int *i0, int *i1)
{
	int e = (b + 1) * CPU_BLOCK;
	*i0 = b * CPU_BLOCK - 1;
	*i1 = e < nx ? e : nx;
}

/* The dry map of view row j (-1..ny) into d[0..nb). */
static void dry_blocks(const struct swe_backend_ctx *x, const struct swe_view *v, int j,
	unsigned char *d)
{
	for (int b = 0; b < x->nb; b++) {
		int i0, i1, dry = 1;
		long k;
		block_cols(b, v->nx, &i0, &i1);
		k = swe_vidx(v, i0, j);
		for (int i = i0; dry && i <= i1; i++, k++)
			dry = v->w[k] <= 0;
		d[b] = (unsigned char)dry;
	}
}

/* Reconstruct row j along y into (s, n), columns [i0, i1). */
static void recon_row_y(const struct swe_view *v, struct swe_coef c, int j, int i0, int i1,
	struct kp07_face *s, struct kp07_face *n)
{
	for (int i = i0; i < i1; i++)
		swe_recon_y(v, c, i, j, &s[i], &n[i]);
}

/* Row j, columns [lo, hi) of a span of active blocks [b0, b1).  cx, cs, cn:
 * whether the x faces, the face (j-1|j), the face (j|j+1) are owned. */
static void rhs_span(struct swe_backend_ctx *x, const struct swe_view *v, struct rowbuf *r,
	int j, int b0, int b1, int cx, int cs, int cn, real *mx, real *my)
{
	struct swe_coef c = x->c;
	int nx = v->nx, lo = b0 * CPU_BLOCK, hi = b1 * CPU_BLOCK < nx ? b1 * CPU_BLOCK : nx;
	for (int b = b0; b < b1; b++) {
		int i0 = b * CPU_BLOCK, i1 = i0 + CPU_BLOCK < nx ? i0 + CPU_BLOCK : nx;
		if (r->have[b])
			continue;
		/* the y faces of rows j-1 and j, the flux between them */
		recon_row_y(v, c, j - 1, i0, i1, r->ys1, r->yn1);
		recon_row_y(v, c, j, i0, i1, r->ys, r->yn);
		for (int i = i0; i < i1; i++) {
			r->gs[i] = kp07_central_upwind(r->yn1[i], r->ys[i], c);
			if (cs)
				*my = swe_max(*my, r->gs[i].a);
		}
	}
	for (int i = lo - 1; i <= hi; i++)
		swe_recon_x(v, c, i, j, &r->xw[i + 1], &r->xe[i + 1]);
	recon_row_y(v, c, j + 1, lo, hi, r->ys1, r->yn1);
	for (int i = lo; i <= hi; i++) {
		r->fx[i] = kp07_central_upwind(r->xe[i], r->xw[i + 1], c);
		if (cx)
			*mx = swe_max(*mx, r->fx[i].a);
	}
	for (int i = lo; i < hi; i++) {
		r->gn[i] = kp07_central_upwind(r->yn[i], r->ys1[i], c);
		if (cn)
			*my = swe_max(*my, r->gn[i].a);
	}
	for (int i = lo; i < hi; i++) {
		long k = swe_vidx(v, i, j);
		real Sx = kp07_bed_source(r->xw[i + 1], r->xe[i + 1], c.g, v->inv_dx);
		real Sy = kp07_bed_source(r->ys[i], r->yn[i], c.g, v->inv_dy);
		swe_rhs(r->fx[i], r->fx[i + 1], r->gs[i], r->gn[i], Sx, Sy, v->inv_dx, v->inv_dy,
			&x->Lw[k], &x->Lhu[k], &x->Lhv[k]);
	}
}

/* Which blocks of row j to compute (r->act), from the dry maps of rows j-1,
 * j, j+1 (rotated here); returns how many. */
static int active_blocks(const struct swe_backend_ctx *x, const struct swe_view *v,
	struct rowbuf *r, int j)
{
	unsigned char *t;
	int n = 0;
	if (!x->early) {
		memset(r->act, 1, (size_t)x->nb);
		return x->nb;
	}
	dry_blocks(x, v, j + 1, r->dp);
	for (int b = 0; b < x->nb; b++) {
		r->act[b] = !(r->dm[b] && r->d0[b] && r->dp[b]);
		n += r->act[b];
	}
	t = r->dm;
	r->dm = r->d0;
	r->d0 = r->dp;
	r->dp = t;
	return n;
}

/* L = L(U) on rows [j0, j1) of one thread; maxima of the owned faces. */
static void rhs_rows(struct swe_backend_ctx *x, const struct swe_view *v, struct rowbuf r,
	int j0, int j1, int o0, int o1, real *mx, real *my)
{
	long rows_skipped = 0, blocks_skipped = 0;
	int nx = v->nx, nb = x->nb;
	memset(r.have, 0, (size_t)nb);
	if (x->early) {
		dry_blocks(x, v, j0 - 1, r.dm);
		dry_blocks(x, v, j0, r.d0);
	}
	for (int j = j0; j < j1; j++) {
		int cx = j >= o0 && j < o1, cs = j >= o0 && j <= o1, cn = j + 1 >= o0 && j + 1 <= o1;
		int nact = active_blocks(x, v, &r, j);
		struct kp07_face *t;
		struct kp07_flux *tf;
		for (int b = 0; b < nb; b++) {
			int b1 = b;
			if (!r.act[b]) {
				int i1 = (b + 1) * CPU_BLOCK < nx ? (b + 1) * CPU_BLOCK : nx;
				for (int i = b * CPU_BLOCK; i < i1; i++) {
					long k = swe_vidx(v, i, j);
					x->Lw[k] = -(real)0;
					x->Lhu[k] = 0;
					x->Lhv[k] = 0;
				}
				continue;
			}
			while (b1 < nb && r.act[b1])
				b1++;
			rhs_span(x, v, &r, j, b, b1, cx, cs, cn, mx, my);
			b = b1 - 1;
		}
		if (nact < nb && cx) {
			/* the face speeds of the fluxes skipped: -0 */
			*mx = swe_max(*mx, -(real)0);
			*my = swe_max(*my, -(real)0);
		}
		blocks_skipped += nb - nact;
		rows_skipped += nact == 0;
		memcpy(r.have, r.act, (size_t)nb);
		t = r.ys; r.ys = r.ys1; r.ys1 = t;
		t = r.yn; r.yn = r.yn1; r.yn1 = t;
		tf = r.gs; r.gs = r.gn; r.gn = tf;
	}
	if (blocks_skipped) {
#pragma omp atomic
		swe_cpu_rows_skipped += rows_skipped;
#pragma omp atomic
		swe_cpu_blocks_skipped += blocks_skipped;
	}
#pragma omp atomic
	swe_cpu_blocks_seen += (long)nb * (j1 - j0);
}

void swe_cpu_rhs(struct swe_backend_ctx *x, struct swe_view v, int j0, int j1, int o0, int o1,
	double *ax, double *ay)
{
	real mx = 0, my = 0;
#pragma omp parallel reduction(max : mx, my)
	{
		int tid = 0, nt = 1;
#ifdef _OPENMP
		tid = omp_get_thread_num();
		nt = omp_get_num_threads();
#endif
		int a = j0 + (int)((long)(j1 - j0) * tid / nt);
		int b = j0 + (int)((long)(j1 - j0) * (tid + 1) / nt);
		if (a < b)
			rhs_rows(x, &v, rowbuf_of((char *)x->rowbuf + (size_t)tid *
				swe_cpu_rowbuf_bytes(v.nx), v.nx), a, b, o0, o1, &mx, &my);
	}
	*ax = mx;
	*ay = my;
}

void swe_cpu_activity(struct swe_backend_ctx *x, int *work, int box[4])
{
	struct swe_view v = swe_cpu_view(x, x->s.w, x->s.hu, x->s.hv);
	int o0 = x->xlo, nx = v.nx, j0 = INT_MAX, j1 = INT_MIN, i0 = INT_MAX, i1 = INT_MIN;
	if (work) {
#pragma omp parallel
		{
			int tid = 0, nt = 1;
#ifdef _OPENMP
			tid = omp_get_thread_num();
			nt = omp_get_num_threads();
#endif
			struct rowbuf r = rowbuf_of((char *)x->rowbuf + (size_t)tid *
				swe_cpu_rowbuf_bytes(nx), nx);
			int a = (int)((long)x->rows * tid / nt), b = (int)((long)x->rows * (tid + 1) / nt);
			if (a < b && x->early) {
				dry_blocks(x, &v, o0 + a - 1, r.dm);
				dry_blocks(x, &v, o0 + a, r.d0);
			}
			for (int j = a; j < b; j++) {
				int n = 0;
				active_blocks(x, &v, &r, o0 + j);
				for (int q = 0; q < x->nb; q++)
					if (r.act[q])
						n += (q + 1) * CPU_BLOCK < nx ? CPU_BLOCK : nx - q * CPU_BLOCK;
				work[j] = n;
			}
		}
	}
	if (!box)
		return;
#pragma omp parallel for reduction(min : j0, i0) reduction(max : j1, i1) schedule(static)
	for (int j = 0; j < x->rows; j++)
		for (int i = 0; i < nx; i++) {
			long k = swe_vidx(&v, i, o0 + j);
			if (v.w[k] > 0) {
				j0 = j < j0 ? j : j0;
				j1 = j > j1 ? j : j1;
				i0 = i < i0 ? i : i0;
				i1 = i > i1 ? i : i1;
			}
		}
	box[0] = j0 == INT_MAX ? INT_MAX : x->row0 + j0;
	box[1] = j1 == INT_MIN ? -1 : x->row0 + j1;
	box[2] = i0;
	box[3] = i1 == INT_MIN ? -1 : i1;
}
