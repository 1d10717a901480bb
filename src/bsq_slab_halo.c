/* bsq_slab_halo.c: what moves between slabs: the tokens' buffers, each
 * slab's boundary kinds, the ghost planes (a halo plan per split level, one
 * plane of one vector per message: through host buffers and MPI between
 * ranks, or GPU to GPU through NCCL where the slabs are on GPUs and a
 * communicator is open), the gathers of a level into its whole copy and
 * back, and the reductions (maxima; sums of plane sums in the planes'
 * order, which any cut reproduces). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bsq_slabset.h"
#include "spate.h"

static bsq_real *buf_of(bsq_real *const *buf, const struct bsq_slabs *S, const bsq_real *tok)
{
	return buf[bsq_slab_id(S, tok)];
}

/* The arrays of state s (levels [l0, l1)) from the proxy's tokens. */
static void sync_state(const struct bsq_slabs *S, bsq_real *const *buf, struct bsq_state *s,
	int l0, int l1)
{
	const struct bsq_state *P = &S->proxy;
	int c, l, v;
	if (l0 == 0) {
		s->u = buf_of(buf, S, P->u);
		s->v = buf_of(buf, S, P->v);
		s->w = buf_of(buf, S, P->w);
		s->T = buf_of(buf, S, P->T);
		s->p = buf_of(buf, S, P->p);
		for (c = 0; c < 4; c++) {
			s->F[c] = buf_of(buf, S, P->F[c]);
			s->Fold[c] = buf_of(buf, S, P->Fold[c]);
		}
	}
	for (l = l0; l < l1; l++)
		for (v = 0; v < BSQ_NVEC; v++)
			s->lev[l].v[v] = buf_of(buf, S, P->lev[l].v[v]);
}

void bsq_slab_sync(struct bsq_slabs *S)
{
	int k;
	for (k = S->d[0].first; k < S->d[0].last; k++)
		sync_state(S, S->sub[k].buf, &S->sub[k].s, 0, S->nsplit);
	if (S->nsplit < S->proxy.nlev)
		sync_state(S, S->wbuf, &S->whole, S->nsplit - 1, S->proxy.nlev);
}

void bsq_slab_params(const struct bsq_slabs *S, const struct bsq_slab *b,
	const struct bsq_params *p, struct bsq_params *out)
{
	*out = *p;
	if (b->row0 > 0)
		out->vel_bc[BSQ_ZM] = BSQ_SLAB;
	if (b->row0 + b->rows < S->nz)
		out->vel_bc[BSQ_ZP] = BSQ_SLAB;
}

void bsq_slab_kinds(const struct bsq_slabs *S, const struct bsq_slab *b, const int *kind,
	int out[BSQ_NFACE])
{
	memcpy(out, kind, BSQ_NFACE * sizeof *out);
	if (b->row0 > 0)
		out[BSQ_ZM] = BSQ_GHOST_HALO;
	if (b->row0 + b->rows < S->nz)
		out[BSQ_ZP] = BSQ_GHOST_HALO;
}

/* ---- ghost planes through the decomposition layer's halo plan */

/* Plane k of the exchanged buffer of slab sub, and the plane's bytes. */
static bsq_real *plane_of(const struct bsq_slabs *S, int sub, int k, size_t *bytes)
{
	const struct bsq_grid *g = &S->sub[sub].s.lev[S->xl].g;
	*bytes = bsq_sz(g) * sizeof(bsq_real);
	return S->sub[sub].buf[S->xid] + (size_t)k * bsq_sz(g);
}

/* side 0: the slab's first plane; 1: its last. */
static bsq_real *edge(const struct bsq_slabs *S, int sub, int side, size_t *n)
{
	return plane_of(S, sub, side ? S->sub[sub].s.lev[S->xl].g.nz : 1, n);
}

/* side 0: the ghost plane below; 1: above. */
static bsq_real *ghost(const struct bsq_slabs *S, int sub, int side, size_t *n)
{
	return plane_of(S, sub, side ? S->sub[sub].s.lev[S->xl].g.nz + 1 : 0, n);
}

static int get(void *user, int sub, int side, void *out)
{
	const struct bsq_slabs *S = user;
	size_t n;
	const bsq_real *a = edge(S, sub, side, &n);
	return S->mem->copy(out, a, n);
}

static int put(void *user, int sub, int side, const void *in)
{
	const struct bsq_slabs *S = user;
	size_t n;
	bsq_real *a = ghost(S, sub, side, &n);
	return S->mem->copy(a, in, n);
}

/* Both slabs on this rank: the edge plane straight into the ghost plane. */
static int copy(void *user, int from, int side_from, int to)
{
	const struct bsq_slabs *S = user;
	size_t n;
	const bsq_real *a = edge(S, from, side_from, &n);
	return S->mem->copy(ghost(S, to, 1 - side_from, &n), a, n);
}

/* Remote links GPU to GPU (halo_nccl.c): the plane of slab sub that side
 * sends (recv 0: its edge plane) or receives (1: its ghost plane), one
 * block, and the slab's halo stream.  The transfers start once the edge
 * planes are written (mark 0), run while the interior planes are computed
 * (overlap = compute or streams), and bsq_slab_exchange_finish makes the
 * work after it wait for them (mark 1, halo_wait). */
static int dev(void *user, int sub, int side, int recv, void *ptr[HALO_MAX_BLK], void **stream)
{
	const struct bsq_slabs *S = user;
	size_t n;
	ptr[0] = recv ? ghost(S, sub, side, &n) : edge(S, sub, side, &n);
	*stream = S->mem->halo_stream(sub);
	return 0;
}

static int mark(void *user, int sub, int end)
{
	const struct bsq_slabs *S = user;
	return S->mem->halo_mark(sub, end);
}

static void note(struct bsq_slabs *S, int rc)
{
	if (rc && !S->err)
		S->err = rc;
}

void bsq_slab_copy(struct bsq_slabs *S, void *dst, const void *src, size_t bytes)
{
	note(S, S->mem->copy(dst, src, bytes));
}

void bsq_slab_exchange_start(struct bsq_slabs *S, int l, int id)
{
	S->xl = l;
	S->xid = id;
	memset(&S->xops, 0, sizeof S->xops);
	S->xops.user = S;
	S->xops.get = get;
	S->xops.put = put;
	S->xops.copy = copy;
	if (S->nccl) {
		S->xops.nccl = S->nccl;
		S->xops.nblk = 1;
		S->xops.dev = dev;
		S->xops.mark = mark;
	}
	note(S, halo_exchange_start(&S->hp[l], &S->xops, S->t_sub));
}

void bsq_slab_exchange_finish(struct bsq_slabs *S)
{
	int k;
	note(S, halo_exchange_finish(&S->hp[S->xl], &S->xops, S->t_sub));
	if (S->nccl)
		for (k = S->d[S->xl].first; k < S->d[S->xl].last; k++)
			note(S, S->mem->halo_wait(k));
}

void bsq_slab_exchange(struct bsq_slabs *S, int l, int id)
{
	bsq_slab_exchange_start(S, l, id);
	bsq_slab_exchange_finish(S);
}

/* ---- whole levels */

void bsq_slab_gather_level(struct bsq_slabs *S, int l, int id)
{
	const struct bsq_grid *W = &S->whole.lev[l].g;
	const size_t sz = bsq_sz(W), plane = sz * sizeof(bsq_real);
	bsq_real *hbuf = NULL;
	int k;
	/* slabs on a GPU over several ranks: the planes travel through the host
	 * and MPI, also where the halos go through NCCL (an all-gather of the
	 * last cut level, twice a V-cycle: left host-staged for now, see
	 * doc/bench/boussinesq.md, "Slabs") */
	if (S->mem->device && decomp_world_size() > 1 &&
		!(hbuf = malloc(((size_t)W->nz + 2) * plane))) {
		note(S, -SPATE_ENOMEM);
		return;
	}
	for (k = S->d[l].first; k < S->d[l].last; k++) {
		const struct bsq_slab *b = &S->sub[k];
		bsq_slab_copy(S, (hbuf ? hbuf : S->wbuf[id]) + ((size_t)S->d[l].part[k].row0 + 1) * sz,
			b->buf[id] + sz, (size_t)b->s.lev[l].g.nz * plane);
	}
	note(S, decomp_allgather_rows((hbuf ? hbuf : S->wbuf[id]) + sz, plane, &S->d[l], NULL));
	if (hbuf)
		bsq_slab_copy(S, S->wbuf[id] + sz, hbuf + sz, (size_t)W->nz * plane);
	free(hbuf);
}

void bsq_slab_scatter_level(struct bsq_slabs *S, int l, int id)
{
	const size_t sz = bsq_sz(&S->whole.lev[l].g);
	int k;
	for (k = S->d[l].first; k < S->d[l].last; k++) {
		const struct bsq_slab *b = &S->sub[k];
		bsq_slab_copy(S, b->buf[id] + sz, S->wbuf[id] + ((size_t)S->d[l].part[k].row0 + 1) * sz,
			(size_t)b->s.lev[l].g.nz * sz * sizeof(bsq_real));
	}
}

/* ---- reductions */

double bsq_slab_sum_planes(struct bsq_slabs *S, int l, double *ps)
{
	note(S, decomp_allgather_planes(ps, &S->d[l], NULL));
	return bsq_sum_ordered(ps, S->d[l].ny);
}

double bsq_slab_max(struct bsq_slabs *S, double m)
{
	note(S, decomp_max(&m, 1, NULL));
	return m;
}
