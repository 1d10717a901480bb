/* swe_cpu_sub.c: moving whole rows between neighbouring CPU subdomains
 * (dynamic load balancing, balance.h), at a step boundary.
 *
 * A step is bitwise the same for any decomposition, so a row may change
 * owner between two steps when everything the next steps read of it moves
 * with it:
 *   - U = (w, hu, hv) of the row, ghost columns included;
 *   - the spare state buffer's row: after the next commit it is the current
 *     state, and its ghost columns (the boundary values of an earlier step)
 *     are what a download shows;
 *   - the bed of the row and of `halo` rows either side (cell-centre and
 *     corner values: the gaining side's new ghost rows need them), and so
 *     the Manning raster when there is one;
 *   - the flood products of the row, when kept.
 * U*, L and the ghost rows of internal edges are rebuilt by the next step
 * (it starts with a halo exchange; a resting subdomain, which computes no
 * U*, hands its U for it: swe_multi_halo.c); the dry map is derived from
 * the bed.
 *
 * The message of n rows, in reals unless noted (P = pitch, C = cpitch, g =
 * halo rows):  U: 3 n P;  spare: 3 n P;  Bm: (n + 2g) P;  Bc: (n + 2g + 1) C;
 * n2 (Manning raster, when there is one): (n + 2g) P; then n nx struct
 * swe_prod when products are kept. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#include "swe_state.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_cpu_ctx.h"
#include "swe_cpu_mem.h"
#include "swe_cpu_sub.h"
#include "swe_sub.h"
#include "products_kern.h"
#include "swe_backend.h"

/* Offsets (reals) of the parts of a message of n rows. */
struct pack_layout {
	size_t u, spare, bm, bc, n2, end;   /* end: reals before the products */
};

static struct pack_layout layout(const struct swe_backend_ctx *x, int n)
{
	struct pack_layout l;
	size_t P = (size_t)x->s.pitch, C = (size_t)x->s.cpitch, g = (size_t)x->halo;
	l.u = 0;
	l.spare = 3 * (size_t)n * P;
	l.bm = 6 * (size_t)n * P;
	l.bc = l.bm + ((size_t)n + 2 * g) * P;
	l.n2 = l.bc + ((size_t)n + 2 * g + 1) * C;
	l.end = l.n2 + (x->n2 ? ((size_t)n + 2 * g) * P : 0);
	return l;
}

size_t swe_cpu_rows_bytes(struct swe_backend_ctx *x, int n)
{
	size_t b = layout(x, n).end * sizeof(real);
	if (x->prod)
		b += (size_t)n * x->s.nx * sizeof(struct swe_prod);
	return b;
}

/* Cell row v (view, -G..ny+G-1) of array a. */
static real *row_of(const struct swe_backend_ctx *x, real *a, int v)
{
	return a + (size_t)(v + SWE_GHOST) * x->s.pitch;
}

/* Corner row J (view, -G..ny+G) of the corner array. */
static real *crow_of(const struct swe_backend_ctx *x, real *a, int J)
{
	return a + (size_t)(J + SWE_GHOST) * x->s.cpitch;
}

int swe_cpu_rows_pack(struct swe_backend_ctx *x, int side, int n, void *buf)
{
	struct pack_layout l = layout(x, n);
	real *b = buf, *u[6];
	size_t P = (size_t)x->s.pitch * sizeof(real);
	int a = side ? x->rows - n : 0, va = x->xlo + a, g = x->halo;
	if (n < 1 || n > x->rows || va - g < -SWE_GHOST || va + n + g > x->s.ny + SWE_GHOST)
		return -SPATE_EINVAL;
	u[0] = x->s.w;
	u[1] = x->s.hu;
	u[2] = x->s.hv;
	u[3] = x->w1;
	u[4] = x->hu1;
	u[5] = x->hv1;
	for (int f = 0; f < 6; f++)
		memcpy(b + (size_t)f * n * x->s.pitch, row_of(x, u[f], va), (size_t)n * P);
	memcpy(b + l.bm, row_of(x, x->s.Bm, va - g), (size_t)(n + 2 * g) * P);
	memcpy(b + l.bc, crow_of(x, x->s.Bc, va - g),
		(size_t)(n + 2 * g + 1) * x->s.cpitch * sizeof(real));
	if (x->n2)
		memcpy(b + l.n2, row_of(x, x->n2, va - g), (size_t)(n + 2 * g) * P);
	if (x->prod)
		memcpy(b + l.end, x->prod + (size_t)a * x->s.nx,
			(size_t)n * x->s.nx * sizeof(struct swe_prod));
	return 0;
}

/* Rows of `from` (view rows shifted by d: new v <- old v - d) into `to`,
 * where the old view has them; nrows rows of `width` reals from row -G. */
static void shift_rows(real *to, const real *from, int new_rows, int old_rows, int d,
	size_t width)
{
	for (int v = -SWE_GHOST; v < new_rows - SWE_GHOST; v++) {
		int o = v - d;
		if (o >= -SWE_GHOST && o < old_rows - SWE_GHOST)
			memcpy(to + (size_t)(v + SWE_GHOST) * width,
				from + (size_t)(o + SWE_GHOST) * width, width * sizeof(real));
	}
}

/* A message of n rows that become owned rows [j, j + n) of y (new layout):
 * the state and products (the bed: new_bed). */
static void unpack(struct swe_backend_ctx *y, const void *buf, int j, int n)
{
	struct pack_layout l = layout(y, n);
	const real *b = buf;
	real *u[6];
	size_t P = (size_t)y->s.pitch * sizeof(real);
	int v = y->xlo + j;
	u[0] = y->s.w;
	u[1] = y->s.hu;
	u[2] = y->s.hv;
	u[3] = y->w1;
	u[4] = y->hu1;
	u[5] = y->hv1;
	for (int f = 0; f < 6; f++)
		memcpy(row_of(y, u[f], v), b + (size_t)f * n * y->s.pitch, (size_t)n * P);
	if (y->prod)
		memcpy(y->prod + (size_t)j * y->s.nx, b + l.end,
			(size_t)n * y->s.nx * sizeof(struct swe_prod));
}

/* The bed (and Manning raster) a message of n rows brings, for view rows
 * [v - halo, v + n + halo) of y where y has them. */
static void bed_from(struct swe_backend_ctx *y, const void *buf, int v, int n)
{
	struct pack_layout l = layout(y, n);
	const real *b = buf;
	int G = SWE_GHOST, g = y->halo;
	for (int r = -g; r < n + g; r++)
		if (v + r >= -G && v + r < y->s.ny + G) {
			memcpy(row_of(y, y->s.Bm, v + r), b + l.bm + (size_t)(r + g) * y->s.pitch,
				(size_t)y->s.pitch * sizeof(real));
			if (y->n2)
				memcpy(row_of(y, y->n2, v + r), b + l.n2 + (size_t)(r + g) * y->s.pitch,
					(size_t)y->s.pitch * sizeof(real));
		}
	for (int r = -g; r <= n + g; r++)
		if (v + r >= -G && v + r <= y->s.ny + G)
			memcpy(crow_of(y, y->s.Bc, v + r), b + l.bc + (size_t)(r + g) * y->s.cpitch,
				(size_t)y->s.cpitch * sizeof(real));
}

/* The bed of the new layout: the old rows where they are, then the bed the
 * messages bring (before the work arrays, whose dry map derives from it). */
static void new_bed(struct swe_backend_ctx *y, const struct swe_backend_ctx *x, int d,
	int gain_lo, int gain_hi, const void *lo, const void *hi)
{
	int G = SWE_GHOST;
	shift_rows(y->s.Bm, x->s.Bm, y->s.ny + 2 * G, x->s.ny + 2 * G, d, (size_t)y->s.pitch);
	if (y->n2)
		shift_rows(y->n2, x->n2, y->s.ny + 2 * G, x->s.ny + 2 * G, d, (size_t)y->s.pitch);
	shift_rows(y->s.Bc, x->s.Bc, y->s.ny + 2 * G + 1, x->s.ny + 2 * G + 1, d,
		(size_t)y->s.cpitch);
	if (gain_lo > 0)
		bed_from(y, lo, y->xlo, gain_lo);
	if (gain_hi > 0)
		bed_from(y, hi, y->xlo + y->rows - gain_hi, gain_hi);
}

int swe_cpu_rows_resize(struct swe_backend_ctx *x, int gain_lo, int gain_hi, const void *lo,
	const void *hi)
{
	struct swe_backend_ctx y = *x;
	int rows = x->rows + gain_lo + gain_hi, G = SWE_GHOST, d = gain_lo;
	size_t P = (size_t)x->s.pitch;
	if (rows < G || (gain_lo > 0 && !lo) || (gain_hi > 0 && !hi) ||
		(!(x->sides & 1u << SWE_SOUTH) ? 0 : gain_lo) != 0 ||
		(!(x->sides & 1u << SWE_NORTH) ? 0 : gain_hi) != 0)
		return -SPATE_EINVAL;
	y.rows = rows;
	y.row0 = x->row0 - gain_lo;
	/* y's arrays are its own: none yet (a failure frees only those) */
	memset(&y.s, 0, sizeof y.s);
	y.w1 = y.hu1 = y.hv1 = y.ws = y.hus = y.hvs = y.Lw = y.Lhu = y.Lhv = NULL;
	y.prod = NULL;
	y.n2 = NULL;
	if (swe_state_alloc(&y.s, x->s.nx, rows + x->xlo + x->xhi, x->s.dx, x->s.dy))
		return -SPATE_ENOMEM;
	if (x->n2 && !(y.n2 = swe_cpu_alloc_like(&y.s)))
		goto nomem;
	y.s.x0 = x->s.x0;
	y.s.y0 = x->s.y0 - gain_lo * x->s.dy;
	y.s.bref = x->s.bref;
	new_bed(&y, x, d, gain_lo, gain_hi, lo, hi);
	if (x->prod && !(y.prod = malloc((size_t)rows * x->s.nx * sizeof *y.prod)))
		goto nomem;
	if (swe_cpu_alloc_work(&y))
		goto nomem;
	shift_rows(y.s.w, x->s.w, y.s.ny + 2 * G, x->s.ny + 2 * G, d, P);
	shift_rows(y.s.hu, x->s.hu, y.s.ny + 2 * G, x->s.ny + 2 * G, d, P);
	shift_rows(y.s.hv, x->s.hv, y.s.ny + 2 * G, x->s.ny + 2 * G, d, P);
	shift_rows(y.w1, x->w1, y.s.ny + 2 * G, x->s.ny + 2 * G, d, P);
	shift_rows(y.hu1, x->hu1, y.s.ny + 2 * G, x->s.ny + 2 * G, d, P);
	shift_rows(y.hv1, x->hv1, y.s.ny + 2 * G, x->s.ny + 2 * G, d, P);
	if (y.prod)
		for (int j = 0; j < rows; j++)
			if (j - d >= 0 && j - d < x->rows)
				memcpy(y.prod + (size_t)j * x->s.nx, x->prod + (size_t)(j - d) * x->s.nx,
					(size_t)x->s.nx * sizeof *y.prod);
	if (gain_lo > 0)
		unpack(&y, lo, 0, gain_lo);
	if (gain_hi > 0)
		unpack(&y, hi, rows - gain_hi, gain_hi);
	y.mu[0] = y.mu[1] = y.ms[0] = y.ms[1] = 0;
	swe_cpu_free_work(x);
	free(x->prod);
	*x = y;
	return 0;
nomem:
	free(y.prod);
	swe_cpu_free_work(&y);
	spate_log_error("cpu", "out of memory moving rows (%d x %d grid)", x->s.nx, rows);
	return -SPATE_ENOMEM;
}

/* ---- rows and cells of a subdomain (struct swe_sub_ops: rows_get,
 * rows_put, sample) */

/* Gauge cells: local state indices count from the first owned row less
 * SWE_GHOST. */
int swe_cpu_sample(struct swe_backend_ctx *x, const long *idx, int n, real *w, real *hu,
	real *hv)
{
	long o = (long)x->xlo * x->s.pitch;
	for (int k = 0; k < n; k++) {
		w[k] = x->s.w[idx[k] + o];
		hu[k] = x->s.hu[idx[k] + o];
		hv[k] = x->s.hv[idx[k] + o];
	}
	return 0;
}

/* Copy owned rows [j0, j1) (j from -halo to rows + halo) of U or U* to or
 * from three row blocks.  A put beyond an internal edge makes those rows
 * the valid ghost rows of that copy there (ghost cell expansion). */
static int cpu_rows_copy(struct swe_backend_ctx *x, int stage, int j0, int j1, real *w,
	real *hu, real *hv, int put)
{
	real *a[3];
	real *b[3];
	size_t off = (size_t)(x->xlo + j0 + SWE_GHOST) * x->s.pitch;
	size_t n = (size_t)(j1 - j0) * x->s.pitch * sizeof(real);
	if (x->xlo + j0 < -SWE_GHOST || x->xlo + j1 > x->s.ny + SWE_GHOST || j0 > j1)
		return -SPATE_EINVAL;
	a[0] = (stage == SWE_STAGE_U ? x->s.w : x->ws) + off;
	a[1] = (stage == SWE_STAGE_U ? x->s.hu : x->hus) + off;
	a[2] = (stage == SWE_STAGE_U ? x->s.hv : x->hvs) + off;
	b[0] = w;
	b[1] = hu;
	b[2] = hv;
	for (int f = 0; f < 3; f++)
		memcpy(put ? a[f] : b[f], put ? b[f] : a[f], n);
	if (put && j1 == 0)
		(stage == SWE_STAGE_U ? x->mu : x->ms)[0] = -j0;
	if (put && j0 == x->rows)
		(stage == SWE_STAGE_U ? x->mu : x->ms)[1] = j1 - x->rows;
	return 0;
}

int swe_cpu_rows_get(struct swe_backend_ctx *x, int stage, int j0, int j1, real *w,
	real *hu, real *hv)
{
	return cpu_rows_copy(x, stage, j0, j1, w, hu, hv, 0);
}

int swe_cpu_rows_put(struct swe_backend_ctx *x, int stage, int j0, int j1, const real *w,
	const real *hu, const real *hv)
{
	return cpu_rows_copy(x, stage, j0, j1, (real *)w, (real *)hu, (real *)hv, 1);
}
