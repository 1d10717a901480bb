/* swe_cuda_sub_rows.cu: dynamic load balancing of GPU subdomains, moving
 * rows (swe_cuda_sub.cu; the sub-operations rows_bytes, rows_pack,
 * rows_resize and rows_take of swe_multi.h; the CPU's are in
 * src/swe_cpu_sub.c; where the work is: swe_cuda_sub_activity.cu).
 *
 * Moving rows between two steps changes no bit of the results when all that
 * the next steps read of a row moves with it: both ping-pong copies of U =
 * (w, hu, hv) and the rates L (a tile the tile map skips keeps in them what
 * a step would write, see k_tiles), ghost columns included; the bed of the
 * row and of `halo` rows either side (cell centres and corners: the
 * gaining side's new ghost rows need them, and with ghost cell expansion
 * the rows beyond them that the stages compute on); the flood products;
 * and, per column of tiles, the dry streak of the tile that held the row.
 * The ghost rows of internal edges (with ghost cell expansion all `halo`
 * of them) are exchanged by the driver before the next step.  The Manning
 * raster and the rain rates are held for the whole grid: nothing of them
 * moves; the tiles on which rain falls are found again for the new rows
 * (swe_cuda_sub_tiles).
 *
 * The tile map after a move: a new tile keeps the smallest streak of the
 * rows within two rows of it (tiles are columns of tiles in every
 * subdomain alike: the streak of the tile column holding a row says that
 * the row and two cells around it were dry that long), so dry tiles stay
 * skipped; the tiles next to the new internal edges are computed, and
 * every other one gets flags that the next step rewrites (computed) or
 * that say dry (skipped).
 *
 * The message of n rows, in reals (P = pitch, C = cpitch, H = halo):
 * U, the other copy of U, L: 9 n P;  Bm: (n + 2H) P;  Bc: (n + 2H + 1) C;
 * the streaks: n ntx bytes, rounded up to reals;  then n nx struct swe_prod
 * when products are kept. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda_sub.h"
#include "products_kern.h"
}

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#define G SWE_GHOST

/* The ten row arrays of a subdomain: U (parity 0, 1), L, Bm (in the order
 * of struct swe_cuda_store). */
#define NF SWE_CUDA_NF

static void row_arrays(struct swe_backend_ctx *x, real **f[NF])
{
	real **a[NF] = { &x->w[0], &x->hu[0], &x->hv[0], &x->w[1], &x->hu[1], &x->hv[1],
		&x->Lw, &x->Lhu, &x->Lhv, &x->Bm };
	memcpy(f, a, sizeof a);
}

/* Rows of room either side of `rows` rows from global row row0: half as
 * many again at each internal edge (no more than the rows beyond it), none
 * without balancing; at least the ghost rows of ghost cell expansion beyond
 * SWE_GHOST. */
static void room(const struct swe_backend_ctx *x, int row0, int rows, int *lo, int *hi)
{
	int h = x->room ? rows / 2 + 1 : 0, e = x->halo - G;
	int hl = row0 > 0 && e > h ? e : h, hh = row0 + rows < x->gny && e > h ? e : h;
	*lo = hl < row0 ? hl : row0;
	*hi = hh < x->gny - row0 - rows ? hh : x->gny - row0 - rows;
}

void swe_cuda_sub_store_free(struct swe_cuda_store *s)
{
	for (int k = 0; k < NF; k++)
		cudaFree(s->f[k]);
	cudaFree(s->Bc);
	cudaFree(s->prod);
	memset(s, 0, sizeof *s);
}

int swe_cuda_sub_store_new(const struct swe_backend_ctx *x, int row0, int rows,
	struct swe_cuda_store *s)
{
	int lo, hi;
	size_t n, nc;
	room(x, row0, rows, &lo, &hi);
	memset(s, 0, sizeof *s);
	s->cap = lo + rows + hi;
	s->off = lo;
	n = (size_t)(s->cap + 2 * G) * x->kp.pitch * sizeof(real);
	nc = (size_t)(s->cap + 2 * G + 1) * x->kp.cpitch * sizeof(real);
	for (int k = 0; k < NF; k++) {
		CUDA_ALLOC((void **)&s->f[k], n);
		CUDA_CHECK(cudaMemset(s->f[k], 0, n));
	}
	CUDA_ALLOC((void **)&s->Bc, nc);
	if (x->prod)
		CUDA_ALLOC((void **)&s->prod,
			(size_t)s->cap * x->kp.nx * sizeof(struct swe_prod));
	return 0;
}

void swe_cuda_sub_store_use(struct swe_backend_ctx *x)
{
	real **f[NF];
	size_t o = (size_t)x->st.off;
	row_arrays(x, f);
	for (int k = 0; k < NF; k++)
		*f[k] = x->st.f[k] ? x->st.f[k] + o * x->kp.pitch : NULL;
	x->Bc = x->st.Bc ? x->st.Bc + o * x->kp.cpitch : NULL;
	x->prod = x->st.prod ? x->st.prod + o * x->kp.nx : NULL;
}

/* Those a message carries for n rows, in its order: U, the other copy of
 * U, L (f[k] indexes row_arrays). */
static int msg_field(const struct swe_backend_ctx *x, int k)
{
	return k < 3 ? 3 * x->cur + k : k < 6 ? 3 * (1 - x->cur) + k - 3 : k;
}

/* Offsets (reals) of the parts of a message of n rows. */
struct pack_layout {
	size_t bm, bc, st, end; /* end: reals before the products */
};

static struct pack_layout layout(const struct swe_backend_ctx *x, int n)
{
	struct pack_layout l;
	size_t P = (size_t)x->kp.pitch, C = (size_t)x->kp.cpitch, H = (size_t)x->halo;
	l.bm = 9 * (size_t)n * P;
	l.bc = l.bm + ((size_t)n + 2 * H) * P;
	l.st = l.bc + ((size_t)n + 2 * H + 1) * C;
	l.end = l.st + ((size_t)n * x->kp.ntx + sizeof(real) - 1) / sizeof(real);
	return l;
}

size_t swe_cuda_sub_rows_bytes(struct swe_backend_ctx *x, int n)
{
	size_t b = layout(x, n).end * sizeof(real);
	if (x->prod)
		b += (size_t)n * x->kp.nx * sizeof(struct swe_prod);
	return b;
}

/* Corner row J (-G .. rows + G) of a corner array of x. */
static real *crow(const struct swe_backend_ctx *x, real *Bc, int J)
{
	return Bc + (size_t)(J + G) * x->kp.cpitch;
}

/* Per row j in [a, a + n) and column of tiles tx the streak of the tile
 * that holds it, into st[(j - a) ntx + tx] (0 without the tile map). */
static int row_streaks(struct swe_backend_ctx *x, int a, int n, unsigned char *st)
{
	int ntx = x->kp.ntx, R = x->kp.rows;
	size_t nt = (size_t)ntx * x->kp.nty;
	unsigned char *m;
	cudaError_t e;
	memset(st, 0, (size_t)n * ntx);
	if (!x->kp.tiles)
		return 0;
	if (!(m = (unsigned char *)malloc(nt)))
		return -SPATE_ENOMEM;
	e = cudaMemcpy(m, x->streak, nt, cudaMemcpyDeviceToHost);
	for (int j = a; j < a + n && e == cudaSuccess; j++)
		memcpy(st + (size_t)(j - a) * ntx, m + (size_t)(j / R) * ntx, (size_t)ntx);
	free(m);
	CUDA_CHECK(e);
	return 0;
}

int swe_cuda_sub_rows_pack(struct swe_backend_ctx *x, int side, int n, void *buf)
{
	struct pack_layout l = layout(x, n);
	real *b = (real *)buf, **f[NF];
	size_t P = (size_t)x->kp.pitch * sizeof(real), C = (size_t)x->kp.cpitch * sizeof(real);
	int a = side ? x->rows - n : 0, H = x->halo, rc;
	/* the bed of H rows either side: rows x holds */
	if (n < 1 || n > x->rows || a - H < -swe_cuda_sub_held(x, 0) ||
		a + n + H > x->rows + swe_cuda_sub_held(x, 1))
		return -SPATE_EINVAL;
	if ((rc = swe_cuda_sub_sync(x)))
		return rc;
	row_arrays(x, f);
	for (int k = 0; k < 9; k++)
		CUDA_CHECK(cudaMemcpy(b + (size_t)k * n * x->kp.pitch,
			swe_cuda_sub_row(*f[msg_field(x, k)], x, a), (size_t)n * P,
			cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(b + l.bm, swe_cuda_sub_row(x->Bm, x, a - H), (size_t)(n + 2 * H) * P,
		cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(b + l.bc, crow(x, x->Bc, a - H), (size_t)(n + 2 * H + 1) * C,
		cudaMemcpyDeviceToHost));
	if ((rc = row_streaks(x, a, n, (unsigned char *)(b + l.st))))
		return rc;
	if (x->prod)
		CUDA_CHECK(cudaMemcpy(b + l.end, x->prod + (size_t)a * x->kp.nx,
			(size_t)n * x->kp.nx * sizeof(struct swe_prod), cudaMemcpyDeviceToHost));
	return 0;
}

/* Rows [v0, v1) of a layout at `to` (rows of `width` reals counted from
 * -G) from the old one at `from`, where row v was old row v - d. */
static int shift(real *to, const real *from, int v0, int v1, int d, size_t width)
{
	if (v1 > v0)
		CUDA_CHECK(cudaMemcpy(to + (size_t)(v0 + G) * width,
			from + (size_t)(v0 - d + G) * width, (size_t)(v1 - v0) * width * sizeof(real),
			cudaMemcpyDeviceToDevice));
	return 0;
}

/* The rows x keeps when it gains gain_lo rows at the south and gain_hi at
 * the north (< 0: loses them), row v of the new layout being old row
 * v - gain_lo, into a new store s: every row array with its ghost rows,
 * the bed also in the rows held beyond them (swe_cuda_sub_held), the
 * products of the owned rows. */
static int keep_rows(struct swe_backend_ctx *x, struct swe_cuda_store *s, int gain_lo,
	int gain_hi)
{
	size_t P = (size_t)x->kp.pitch, C = (size_t)x->kp.cpitch, o = (size_t)s->off;
	int rows = x->rows + gain_lo + gain_hi, d = gain_lo, rc = 0;
	int v0 = -G > d - G ? -G : d - G, v1 = rows < x->rows + d ? rows : x->rows + d;
	int lo = swe_cuda_sub_held(x, 0), hi = swe_cuda_sub_held(x, 1);
	int b0 = -lo > d - lo ? -lo : d - lo, b1 = v1 + hi;
	real **f[NF];
	row_arrays(x, f);
	v1 += G;
	for (int k = 0; k < NF && !rc; k++) /* the bed, Bm, last */
		rc = k < NF - 1 ? shift(s->f[k] + o * P, *f[k], v0, v1, d, P) :
			shift(s->f[k] + o * P, *f[k], b0, b1, d, P);
	if (!rc) /* corner rows: one more */
		rc = shift(s->Bc + o * C, x->Bc, b0, b1 + 1, d, C);
	v0 = d > 0 ? d : 0;
	v1 -= G;
	if (!rc && s->prod && v1 > v0)
		CUDA_CHECK(cudaMemcpy(s->prod + (o + v0) * x->kp.nx, x->prod + (size_t)(v0 - d) *
			x->kp.nx, (size_t)(v1 - v0) * x->kp.nx * sizeof(struct swe_prod),
			cudaMemcpyDeviceToDevice));
	return rc;
}

/* Room for x's rows after gaining gain_lo rows at the south and gain_hi at
 * the north (< 0: losing them): in place while the store has it, else in a
 * new store holding the rows kept; the streaks of the rows kept into st
 * (new layout, rows x ntx).  x's array pointers then show the new layout
 * (its rows, row0 and tiles are finish's to change). */
static int make_room(struct swe_backend_ctx *x, int gain_lo, int gain_hi, unsigned char *st)
{
	int rows = x->rows + gain_lo + gain_hi, d = gain_lo, off = x->st.off - gain_lo, rc;
	int v0 = d > 0 ? d : 0, v1 = rows < x->rows + d ? rows : x->rows + d;
	struct swe_cuda_store s;
	if (v1 > v0 && (rc = row_streaks(x, v0 - d, v1 - v0, st + (size_t)v0 * x->kp.ntx)))
		return rc;
	/* in place while the store holds the rows beyond the edges too */
	if (off >= swe_cuda_sub_held(x, 0) - G &&
		off + rows + swe_cuda_sub_held(x, 1) - G <= x->st.cap) {
		x->st.off = off;
		swe_cuda_sub_store_use(x);
		return 0;
	}
	rc = swe_cuda_sub_store_new(x, x->row0 - gain_lo, rows, &s);
	if (!rc)
		rc = keep_rows(x, &s, gain_lo, gain_hi);
	if (rc) {
		swe_cuda_sub_store_free(&s);
		return rc;
	}
	swe_cuda_sub_store_free(&x->st);
	x->st = s;
	swe_cuda_sub_store_use(x);
	return 0;
}

/* The rows of the bed that n rows becoming owned rows [j, j + n) of x's
 * layout of `rows` rows bring: halo rows either side, those x holds. */
static void bed_rows(const struct swe_backend_ctx *x, int rows, int j, int n, int *r0, int *r1)
{
	int lo = swe_cuda_sub_held(x, 0), hi = swe_cuda_sub_held(x, 1), H = x->halo;
	*r0 = j - H < -lo ? -lo : j - H;
	*r1 = j + n + H > rows + hi ? rows + hi : j + n + H;
}

/* A message of n rows that become owned rows [j, j + n) of x's new layout
 * of `rows` rows, with their bed (bed_rows); their streaks into st. */
static int unpack(struct swe_backend_ctx *x, int rows, const void *buf, int j, int n,
	unsigned char *st)
{
	struct pack_layout l = layout(x, n);
	const real *b = (const real *)buf;
	size_t P = (size_t)x->kp.pitch, C = (size_t)x->kp.cpitch;
	int r0, r1, H = x->halo;
	real **f[NF];
	row_arrays(x, f);
	for (int k = 0; k < 9; k++)
		CUDA_CHECK(cudaMemcpy(swe_cuda_sub_row(*f[msg_field(x, k)], x, j),
			b + (size_t)k * n * P, (size_t)n * P * sizeof(real), cudaMemcpyHostToDevice));
	/* message bed row r is row j - H + r of the layout */
	bed_rows(x, rows, j, n, &r0, &r1);
	CUDA_CHECK(cudaMemcpy(swe_cuda_sub_row(x->Bm, x, r0), b + l.bm + (size_t)(r0 - j + H) * P,
		(size_t)(r1 - r0) * P * sizeof(real), cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(crow(x, x->Bc, r0), b + l.bc + (size_t)(r0 - j + H) * C,
		(size_t)(r1 - r0 + 1) * C * sizeof(real), cudaMemcpyHostToDevice));
	memcpy(st + (size_t)j * x->kp.ntx, b + l.st, (size_t)n * x->kp.ntx);
	if (x->prod)
		CUDA_CHECK(cudaMemcpy(x->prod + (size_t)j * x->kp.nx, b + l.end,
			(size_t)n * x->kp.nx * sizeof(struct swe_prod), cudaMemcpyHostToDevice));
	return 0;
}

/* The tile map of the new layout from the rows' streaks st (see the top of
 * the file), after swe_cuda_sub_tiles made the lists. */
static int map_from_rows(struct swe_backend_ctx *x, const unsigned char *st)
{
	int ntx = x->kp.ntx, nty = x->kp.nty, R = x->kp.rows, rows = x->rows, n = ntx * nty;
	int south = !(x->kp.sides & 1u << SWE_SOUTH), north = !(x->kp.sides & 1u << SWE_NORTH);
	unsigned char *sk = (unsigned char *)malloc((size_t)n), *act = (unsigned char *)malloc(n);
	unsigned short *wet = (unsigned short *)malloc((size_t)n * SWE_CUDA_SPLIT * sizeof *wet);
	int *list = (int *)malloc((size_t)n * sizeof *list), cnt[2] = { 0, 0 }, rc = 0;
	if (!sk || !act || !wet || !list)
		rc = -SPATE_ENOMEM;
	for (int t = 0; t < n && !rc; t++) {
		int tx = t % ntx, j0 = t / ntx * R, j1 = j0 + R < rows ? j0 + R : rows, s = 3;
		/* k_tiles' tiles next to an internal edge: computed, not listed,
		 * their streak that of their own rows */
		int edge = (south && j0 < G) || (north && j1 > rows - G);
		for (int j = j0 - 2 > 0 ? j0 - 2 : 0; j < j1 + 2 && j < rows; j++)
			s = st[(size_t)j * ntx + tx] < s ? st[(size_t)j * ntx + tx] : s;
		sk[t] = (unsigned char)s;
		act[t] = s < 3 ? 1 : edge ? 2 : 0;
		/* computed: rewritten; skipped: dry (every part's flags) */
		for (int q = 0; q < SWE_CUDA_SPLIT; q++)
			wet[(size_t)t * SWE_CUDA_SPLIT + q] = s < 3 || edge ? 0xffff : 0;
		if (s < 3 && !edge)
			list[cnt[0]++] = t;
	}
	cnt[1] = cnt[0];
	if (!rc) {
		cudaError_t e = cudaMemcpy(x->streak, sk, (size_t)n, cudaMemcpyHostToDevice);
		if (e == cudaSuccess)
			e = cudaMemcpy(x->act, act, (size_t)n, cudaMemcpyHostToDevice);
		if (e == cudaSuccess)
			e = cudaMemcpy(x->wet, wet, (size_t)n * SWE_CUDA_SPLIT * sizeof *wet,
				cudaMemcpyHostToDevice);
		for (int p = 0; p < 2 && e == cudaSuccess; p++)
			e = cudaMemcpy(x->tl[p], list, (size_t)cnt[0] * sizeof *list,
				cudaMemcpyHostToDevice);
		if (e == cudaSuccess)
			e = cudaMemcpy(x->tcnt, cnt, sizeof cnt, cudaMemcpyHostToDevice);
		if (e == cudaSuccess)
			e = cudaDeviceSynchronize();
		if (e != cudaSuccess) {
			spate_log_error("cuda", "%s:%d: the tile map after a move: %s", __FILE__,
				__LINE__, cudaGetErrorString(e));
			rc = -SPATE_EDEVICE;
		}
	}
	free(sk);
	free(act);
	free(wet);
	free(list);
	return rc;
}

/* x owns its new layout: row0, rows, the row ranges and the tile map. */
static int finish(struct swe_backend_ctx *x, int gain_lo, int gain_hi, const unsigned char *st)
{
	int rc;
	/* the ghost rows at internal edges hold nothing valid until the
	 * exchange that follows every move */
	x->mu[0] = x->mu[1] = x->ms[0] = x->ms[1] = 0;
	x->row0 -= gain_lo;
	x->rows += gain_lo + gain_hi;
	x->kp.ny = x->rows;
	x->kp.ncell = (long)(x->rows + 2 * G) * x->kp.pitch;
	rc = swe_cuda_sub_tiles(x);
	if (!rc && x->kp.tiles)
		rc = map_from_rows(x, st);
	return rc;
}

static int move_failed(const struct swe_backend_ctx *x, int rc)
{
	spate_log_error("cuda", "cannot move rows: subdomain of rows %d-%d on device %d",
		x->row0, x->row0 + x->rows - 1, x->device);
	return rc;
}

int swe_cuda_sub_rows_resize(struct swe_backend_ctx *x, int gain_lo, int gain_hi,
	const void *lo, const void *hi)
{
	int rows = x->rows + gain_lo + gain_hi, rc;
	unsigned char *st;
	if (rows < G || (gain_lo > 0 && !lo) || (gain_hi > 0 && !hi) ||
		(gain_lo && (x->kp.sides & 1u << SWE_SOUTH)) ||
		(gain_hi && (x->kp.sides & 1u << SWE_NORTH)))
		return -SPATE_EINVAL;
	/* (the sync leaves x's device current) */
	if ((rc = swe_cuda_sub_sync(x)))
		return rc;
	if (!(st = (unsigned char *)calloc((size_t)rows * x->kp.ntx, 1)))
		return -SPATE_ENOMEM;
	rc = make_room(x, gain_lo, gain_hi, st);
	if (!rc && gain_lo > 0)
		rc = unpack(x, rows, lo, 0, gain_lo, st);
	if (!rc && gain_hi > 0)
		rc = unpack(x, rows, hi, rows - gain_hi, gain_hi, st);
	if (!rc)
		rc = finish(x, gain_lo, gain_hi, st);
	free(st);
	return rc ? move_failed(x, rc) : 0;
}

/* Device to device, whichever devices (unified addresses). */
static int dcopy(void *to, const void *from, size_t bytes)
{
	CUDA_CHECK(cudaMemcpy(to, from, bytes, cudaMemcpyDefault));
	return 0;
}

int swe_cuda_sub_rows_take(struct swe_backend_ctx *x, int side, int n,
	struct swe_backend_ctx *from)
{
	int rows = x->rows + n, j = side ? x->rows : 0, a = side ? 0 : from->rows - n, rc;
	int gl = side ? 0 : n, gh = side ? n : 0, r0, r1;
	size_t P = (size_t)x->kp.pitch * sizeof(real), C = (size_t)x->kp.cpitch * sizeof(real);
	real **f[NF], **g[NF];
	unsigned char *st;
	if (n < 1 || n > from->rows || from->kp.pitch != x->kp.pitch ||
		(x->kp.sides & 1u << (side ? SWE_NORTH : SWE_SOUTH)) ||
		from->row0 != (side ? x->row0 + x->rows : x->row0 - from->rows))
		return -SPATE_EINVAL;
	if ((rc = swe_cuda_sub_sync(from)) || (rc = swe_cuda_sub_sync(x)))
		return rc;
	if (!(st = (unsigned char *)calloc((size_t)rows * x->kp.ntx, 1)))
		return -SPATE_ENOMEM;
	rc = make_room(x, gl, gh, st);
	row_arrays(x, f);
	row_arrays(from, g);
	for (int k = 0; k < 9 && !rc; k++)
		rc = dcopy(swe_cuda_sub_row(*f[msg_field(x, k)], x, j),
			swe_cuda_sub_row(*g[msg_field(from, k)], from, a), (size_t)n * P);
	/* the bed of the new rows and of halo rows either side (bed_rows; from
	 * holds them: it keeps at least halo rows) */
	bed_rows(x, rows, j, n, &r0, &r1);
	if (!rc)
		rc = dcopy(swe_cuda_sub_row(x->Bm, x, r0), swe_cuda_sub_row(from->Bm, from,
			a + r0 - j), (size_t)(r1 - r0) * P);
	if (!rc)
		rc = dcopy(crow(x, x->Bc, r0), crow(from, from->Bc, a + r0 - j),
			(size_t)(r1 - r0 + 1) * C);
	if (!rc)
		rc = row_streaks(from, a, n, st + (size_t)j * x->kp.ntx);
	if (!rc && x->prod && from->prod)
		rc = dcopy(x->prod + (size_t)j * x->kp.nx, from->prod + (size_t)a * x->kp.nx,
			(size_t)n * x->kp.nx * sizeof(struct swe_prod));
	if (!rc)
		rc = finish(x, gl, gh, st);
	free(st);
	return rc ? move_failed(x, rc) : 0;
}
