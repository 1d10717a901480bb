/* bsq_slab.c: a Boussinesq state cut into slabs (bsq_slab.h): the cut, the
 * slabs' and the whole levels' memory, the halo plans (built once), the
 * step (bsq_step_on on the stand-in, bsq_slab_ops.c) and the gather back.
 *
 * The cut: whole planes, in units of A planes, A the largest plane count of
 * one multigrid level's plane (nz / nz_l) that leaves at least two units a
 * slab, so that the first levels stay cut; a level is cut while every slab's
 * first plane and plane count divide by its A (its planes pair up with the
 * coarse planes); the coarser ones are whole. */
#include <stdlib.h>
#include <string.h>

#include "bsq_slabset.h"
#include "spate.h"

/* Planes of level 0 in one plane of level l. */
static int zc(const struct bsq_state *w, int l)
{
	return w->g.nz / w->lev[l].g.nz;
}

static int cut(struct bsq_slabs *S, const struct bsq_state *w, int n)
{
	int A = 1, l, k, err;
	for (l = 0; l < w->nlev; l++)
		if (S->nz / zc(w, l) >= 2 * n)
			A = zc(w, l);
	if ((err = decomp_plan(&S->d[0], S->nz / A, n, NULL, 1, "bsq: [parallel] subdomains")))
		return err;
	S->d[0].ny = S->nz;
	for (k = 0; k < n; k++) {
		S->d[0].part[k].row0 *= A;
		S->d[0].part[k].rows *= A;
	}
	for (S->nsplit = 0; S->nsplit < w->nlev; S->nsplit++) {
		int z = zc(w, S->nsplit), ok = 1;
		for (k = 0; k < n; k++)
			ok &= S->d[0].part[k].row0 % z == 0 && S->d[0].part[k].rows % z == 0;
		if (!ok)
			break;
		S->d[S->nsplit] = S->d[0];
		S->d[S->nsplit].ny = S->nz / z;
		for (k = 0; k < n; k++) {
			S->d[S->nsplit].part[k].row0 /= z;
			S->d[S->nsplit].part[k].rows /= z;
		}
	}
	return 0;
}

/* The host's memory. */
static int host_copy(void *dst, const void *src, size_t bytes)
{
	memcpy(dst, src, bytes);
	return 0;
}

static const struct bsq_slab_mem host_mem = { 0, spate_alloc, free, host_copy, NULL, NULL, NULL,
	NULL, NULL, NULL, NULL };

/* A copy of planes [k0, k0 + n) of the host array a (grid g) in a new
 * array of n planes of the slabs' memory (a NULL: zeros, as bsq_init
 * leaves a multigrid vector). */
static bsq_real *planes(struct bsq_slabs *S, const bsq_real *a, const struct bsq_grid *g, int k0,
	int n)
{
	size_t bytes = (size_t)n * bsq_sz(g) * sizeof(bsq_real);
	bsq_real *b = S->mem->alloc(bytes), *z = NULL;
	if (b && !a) {
		a = z = calloc(1, bytes);
		k0 = z ? 0 : -1;
	}
	if (b && (k0 < 0 || S->mem->copy(b, a + (size_t)k0 * bsq_sz(g), bytes))) {
		S->mem->release(b);
		b = NULL;
	}
	free(z);
	return b;
}

/* The whole state's array of buffer id. */
static const bsq_real *whole_buf(const struct bsq_state *w, int id)
{
	const bsq_real *const f[4] = { w->u, w->v, w->w, w->T };
	if (id < BSQ_BUF_F)
		return f[id];
	if (id < BSQ_BUF_FOLD)
		return w->F[id - BSQ_BUF_F];
	if (id < BSQ_BUF_LEV)
		return w->Fold[id - BSQ_BUF_FOLD];
	id -= BSQ_BUF_LEV;
	return w->lev[id / BSQ_NVEC].v[id % BSQ_NVEC];
}

/* Slab k of this rank: its state and levels 0..nsplit-1 (no arrays yet). */
static void slab_shape(struct bsq_slabs *S, const struct bsq_state *w, int k)
{
	struct bsq_slab *b = &S->sub[k];
	int l;
	b->row0 = S->d[0].part[k].row0;
	b->rows = S->d[0].part[k].rows;
	b->s.g = w->g;
	b->s.g.nz = b->rows;
	b->s.n = bsq_count(&b->s.g);
	b->s.nlev = S->nsplit;
	for (l = 0; l < S->nsplit; l++) {
		struct bsq_level *L = &b->s.lev[l];
		int z = zc(w, l);
		*L = w->lev[l];
		L->g.nz = b->rows / z;
		L->k0 = b->row0 / z;
		L->slabs = NULL;
		bsq_slab_kinds(S, b, w->lev[l].ghost, L->ghost);
	}
}

/* Buffer id's split level (0 for the fields). */
static int level_of(int id)
{
	return id < BSQ_BUF_LEV ? 0 : (id - BSQ_BUF_LEV) / BSQ_NVEC;
}

/* Whether the state of p has buffer id (bsq_vec_held): decided from p, so
 * that every rank skips the same buffers, whatever its state holds. */
static int held(const struct bsq_params *p, int id)
{
	return id < BSQ_BUF_LEV || bsq_vec_held(p, level_of(id), (id - BSQ_BUF_LEV) % BSQ_NVEC);
}

/* Buffer id of every slab of this rank, its planes (ghost planes included)
 * from src, an array of grid g whose plane 0 is plane `base` of the whole
 * level's array. */
static int slabs_fill(struct bsq_slabs *S, int id, const bsq_real *src, const struct bsq_grid *g,
	int base)
{
	int k, l = level_of(id);
	for (k = S->d[0].first; k < S->d[0].last; k++) {
		struct bsq_slab *b = &S->sub[k];
		const struct bsq_level *L = &b->s.lev[l];
		int k0 = id < BSQ_BUF_LEV ? b->row0 : L->k0, nz = id < BSQ_BUF_LEV ? b->rows : L->g.nz;
		if (!(b->buf[id] = planes(S, src, g, k0 - base, nz + 2)))
			return -SPATE_ENOMEM;
	}
	return 0;
}

/* Buffer id of this rank's slabs from rank 0's whole array (rank 0: its
 * own from w, then each other rank's span sent; the others: their span
 * received, then cut into their slabs).  Collective: every rank learns
 * whether one failed (err, from an earlier buffer, or now) and then none
 * moves a plane, so that no rank waits for a message that will not come. */
static int slabs_scatter(struct bsq_slabs *S, const struct bsq_state *w, int id, int err)
{
	const int l = level_of(id), me = decomp_world_rank();
	const struct bsq_grid *g = id < BSQ_BUF_LEV ? &w->g : &w->lev[l].g;
	const struct decomp *d = &S->d[l];
	const size_t sz = bsq_sz(g);
	bsq_real *span = NULL;
	double bad;
	int k, count = 0, rc;
	for (k = d->first; k < d->last; k++)
		count += d->part[k].rows;
	if (!err && me == 0)
		err = slabs_fill(S, id, whole_buf(w, id), g, 0);
	else if (!err && !(span = malloc(((size_t)count + 2) * sz * sizeof *span)))
		err = -SPATE_ENOMEM;
	bad = err != 0;
	if ((rc = decomp_max(&bad, 1, NULL)) || bad > 0) {
		free(span);
		return err ? err : rc ? rc : -SPATE_EDEVICE;
	}
	err = decomp_scatter_span(me == 0 ? whole_buf(w, id) : NULL, span, sz * sizeof *span, d);
	if (!err && me != 0)
		err = slabs_fill(S, id, span, g, d->part[d->first].row0);
	free(span);
	return err;
}

/* Every buffer of this rank's slabs (fields, split levels' vectors that p
 * holds) from w; under mpirun where a rank holds only w's shape
 * (bsq_init_shape), from rank 0's w. */
static int slabs_init(struct bsq_slabs *S, const struct bsq_state *w, const struct bsq_params *p)
{
	double scatter = w->u == NULL;
	int k, id, err;
	for (k = S->d[0].first; k < S->d[0].last; k++)
		slab_shape(S, w, k);
	if ((err = decomp_max(&scatter, 1, NULL)))
		return err;
	for (id = 0; id < BSQ_BUF_LEV + S->nsplit * BSQ_NVEC; id++) {
		if (!held(p, id))
			continue;
		if (scatter > 0)
			err = slabs_scatter(S, w, id, err);
		else if ((err = slabs_fill(S, id, whole_buf(w, id), id < BSQ_BUF_LEV ? &w->g :
			&w->lev[level_of(id)].g, 0)))
			return err;
	}
	return err;
}

/* The stand-in: w's grid, levels and time, every array a token. */
static void proxy_init(struct bsq_slabs *S, const struct bsq_state *w)
{
	struct bsq_state *P = &S->proxy;
	int c, l, v;
	*P = *w;
	P->u = &S->tok[BSQ_BUF_U];
	P->v = &S->tok[BSQ_BUF_V];
	P->w = &S->tok[BSQ_BUF_W];
	P->T = &S->tok[BSQ_BUF_T];
	for (c = 0; c < 4; c++) {
		P->F[c] = &S->tok[BSQ_BUF_F + c];
		P->Fold[c] = &S->tok[BSQ_BUF_FOLD + c];
	}
	for (l = 0; l < w->nlev; l++) {
		P->lev[l].slabs = S;
		P->lev[l].k0 = 0;
		for (v = 0; v < BSQ_NVEC; v++)
			P->lev[l].v[v] = &S->tok[BSQ_BUF_LEV + l * BSQ_NVEC + v];
	}
	P->p = P->lev[0].v[BSQ_PHI];
}

/* The whole levels nsplit-1.. (the first for the gathers), copied from w;
 * no PREV: only the split level 0 extrapolates. */
static int whole_init(struct bsq_slabs *S, const struct bsq_state *w)
{
	int l, v;
	if (S->nsplit >= w->nlev)
		return 0;
	S->whole.g = w->g;
	S->whole.nlev = w->nlev;
	for (l = S->nsplit - 1; l < w->nlev; l++) {
		S->whole.lev[l] = w->lev[l];
		S->whole.lev[l].slabs = NULL;
		for (v = 0; v < BSQ_NVEC; v++) {
			int id = BSQ_BUF_LEV + l * BSQ_NVEC + v;
			if (v == BSQ_PREV)
				continue;
			if (!(S->wbuf[id] = planes(S, whole_buf(w, id), &w->lev[l].g, 0,
				w->lev[l].g.nz + 2)))
				return -SPATE_ENOMEM;
		}
	}
	return 0;
}

static int check(const struct bsq_params *p, int n)
{
	int P = decomp_world_size();
	if (n < 1 || n > p->nz || n > DECOMP_MAX) {
		spate_log_error("bsq", "[parallel] subdomains = %d: must be 1 to nz = %d (at most %d)", n,
			p->nz, DECOMP_MAX);
		return -SPATE_EINVAL;
	}
	if ((n > 1 || P > 1) && p->vel_bc[BSQ_ZM] == BSQ_PERIODIC) {
		spate_log_error("bsq", "[parallel] subdomains = %d on %d rank(s): slabs are cut along z, "
			"which is periodic here; periodic z runs on one subdomain only (use "
			"subdomains = 1 and one rank, or walls at z)", n, P);
		return -SPATE_EINVAL;
	}
	return 0;
}

int bsq_slabs_init(struct bsq_slabs **out, const struct bsq_state *w, const struct bsq_params *p,
	int n, int overlap, int transport)
{
	return bsq_slabs_init_on(out, w, p, n, overlap, transport, &bsq_ops_cpu, &host_mem);
}

/* Collective: the NCCL communicator for the halos between ranks (halo.c,
 * halo_nccl.c), where the slabs are on a GPU that offers device planes and
 * transport allows it; every rank gets here or none (the checks and the cut
 * before are the same on every rank), before any allocation that one rank
 * alone could fail.  A rank's slabs share one GPU. */
static int open_nccl(struct bsq_slabs *S, int transport)
{
	int gpu = S->mem->gpu ? S->mem->gpu() : 0;
	return halo_nccl_open(&S->nccl, transport, S->mem->device && S->mem->gpu &&
		S->mem->halo_stream && S->mem->halo_mark && S->mem->halo_wait, &gpu, 1);
}

int bsq_slabs_init_on(struct bsq_slabs **out, const struct bsq_state *w,
	const struct bsq_params *p, int n, int overlap, int transport, const struct bsq_ops *inner,
	const struct bsq_slab_mem *mem)
{
	struct bsq_slabs *S;
	int err, l;
	*out = NULL;
	if ((err = check(p, n)) || !(S = calloc(1, sizeof *S))) {
		if (mem->close)
			mem->close();
		return err ? err : -SPATE_ENOMEM;
	}
	S->inner = inner;
	S->mem = mem;
	S->overlap = overlap;
	S->nz = w->g.nz;
	if ((err = cut(S, w, n)) || (err = open_nccl(S, transport))) {
		bsq_slabs_free(S);
		return err;
	}
	err = -SPATE_ENOMEM;
	if (!(S->sub = calloc((size_t)n, sizeof *S->sub)) ||
		!(S->ps = malloc((size_t)S->nz * sizeof *S->ps)))
		goto fail;
	for (l = 0; l < S->nsplit; l++)
		if ((err = halo_plan_build(&S->hp[l], &S->d[l],
			bsq_sz(&w->lev[l].g) * sizeof(bsq_real))))
			goto fail;
	if ((err = slabs_init(S, w, p)) || (err = whole_init(S, w)))
		goto fail;
	proxy_init(S, w);
	bsq_slab_sync(S);
	*out = S;
	return 0;
fail:
	spate_log_error("bsq", "%d slabs of %d x %d x %d cells: %s", n, p->nx, p->ny, p->nz,
		spate_strerror(err));
	S->failed = 1;
	bsq_slabs_free(S);
	return err;
}

int bsq_slabs_step(struct bsq_slabs *S, const struct bsq_params *p, struct bsq_stats *st)
{
	int err;
	S->err = 0;
	err = bsq_step_on(&bsq_ops_slab, &S->proxy, p, st);
	if (S->mem->finish && !S->err)
		S->err = S->mem->finish();
	if (!err && S->err) {
		spate_log_error("bsq", "step %ld: halo exchange or reduction between slabs: %s",
			S->proxy.step, spate_strerror(S->err));
		err = S->err;
	}
	S->failed |= err != 0;
	return err;
}

/* Every rank's planes of buffer id into the whole array a (grid g): on
 * every rank (root 0), or on rank 0 only (root 1), where the other ranks'
 * planes travel from mine (their own planes one after the other; a is NULL
 * there). */
static int gather_buf(struct bsq_slabs *S, int id, bsq_real *a, const struct bsq_grid *g,
	int root, bsq_real *mine)
{
	const size_t sz = bsq_sz(g);
	const int r0 = S->sub[S->d[0].first].row0;
	int k;
	for (k = S->d[0].first; k < S->d[0].last; k++)
		bsq_slab_copy(S, (a ? a + ((size_t)S->sub[k].row0 + 1) * sz :
			mine + (size_t)(S->sub[k].row0 - r0) * sz), S->sub[k].buf[id] + sz,
			(size_t)S->sub[k].rows * sz * sizeof(bsq_real));
	if (S->err)
		return S->err;
	if (!root)
		return decomp_allgather_rows(a + sz, sz * sizeof(bsq_real), &S->d[0], NULL);
	return decomp_gather_rows(mine, a ? a + sz : NULL, sz * sizeof(bsq_real), &S->d[0]);
}

static int gather_to(struct bsq_slabs *S, struct bsq_state *w, const struct bsq_params *p,
	int root)
{
	const struct bsq_state *P = &S->proxy;
	const bsq_real *const src[4] = { P->u, P->v, P->w, P->T };
	bsq_real *dst[4] = { NULL, NULL, NULL, NULL }, *mine = NULL;
	struct bsq_grid g = P->g;
	int c, err = 0, Tkind[BSQ_NFACE], k;
	size_t rows = 0;
	bsq_slab_sync(S);
	S->err = 0;
	g.nz = S->nz;
	if (w) {
		dst[0] = w->u;
		dst[1] = w->v;
		dst[2] = w->w;
		dst[3] = w->T;
		w->p = w->lev[0].v[BSQ_PHI];
	} else {
		/* a rank without the whole state stages its own planes */
		for (k = S->d[0].first; k < S->d[0].last; k++)
			rows += (size_t)S->sub[k].rows;
		if (!(mine = malloc((rows ? rows : 1) * bsq_sz(&g) * sizeof(bsq_real))))
			err = -SPATE_ENOMEM;
	}
	if (root) {
		/* every rank learns whether one cannot take part, rather than wait
		 * for it in the gather */
		double bad = err != 0;
		if (decomp_max(&bad, 1, NULL) || bad > 0)
			err = err ? err : -SPATE_ENOMEM;
	}
	for (c = 0; c < 4 && !err; c++)
		err = gather_buf(S, bsq_slab_id(S, src[c]), dst[c], &g, root, mine);
	for (c = 0; c < 4 && !err; c++)
		if (!(err = gather_buf(S, bsq_slab_id(S, P->F[c]), w ? w->F[c] : NULL, &g, root,
			mine)))
			err = gather_buf(S, bsq_slab_id(S, P->Fold[c]), w ? w->Fold[c] : NULL, &g,
				root, mine);
	if (!err)
		err = gather_buf(S, bsq_slab_id(S, P->p), w ? w->p : NULL, &g, root, mine);
	if (!err && held(p, bsq_slab_id(S, P->lev[0].v[BSQ_PREV])))
		err = gather_buf(S, bsq_slab_id(S, P->lev[0].v[BSQ_PREV]),
			w ? w->lev[0].v[BSQ_PREV] : NULL, &g, root, mine);
	free(mine);
	if (err) {
		spate_log_error("bsq", "gathering the slabs: %s", spate_strerror(err));
		return err;
	}
	if (!w)
		return 0;
	bsq_bc_kinds_T(p, Tkind);
	bsq_bc_velocity(&w->g, w->u, w->v, w->w, p);
	bsq_bc_scalar(&w->g, w->T, Tkind, p->wall_T);
	bsq_mg_ghosts(&w->lev[0], BSQ_PHI);
	w->t = P->t;
	w->dt_prev = P->dt_prev;
	w->step = P->step;
	return 0;
}

int bsq_slabs_gather(struct bsq_slabs *S, struct bsq_state *w, const struct bsq_params *p)
{
	return gather_to(S, w, p, 0);
}

int bsq_slabs_gather_root(struct bsq_slabs *S, struct bsq_state *w, const struct bsq_params *p)
{
	return gather_to(S, decomp_world_rank() == 0 ? w : NULL, p, 1);
}

int bsq_slabs_split(const struct bsq_slabs *S)
{
	return S->nsplit;
}

void bsq_slabs_part(const struct bsq_slabs *S, int k, int *row0, int *rows)
{
	*row0 = S->d[0].part[k].row0;
	*rows = S->d[0].part[k].rows;
}

void bsq_slabs_free(struct bsq_slabs *S)
{
	int l, id, k;
	if (!S)
		return;
	/* first: after a failure its pending transfers stop (abort), so that
	 * freeing their planes waits for no peer */
	halo_nccl_close(S->nccl, S->failed);
	for (l = 0; l < BSQ_MG_MAXLEV; l++)
		if (S->hp[l].link)
			halo_plan_free(&S->hp[l]);
	if (S->sub)
		for (k = S->d[0].first; k < S->d[0].last; k++)
			for (id = 0; id < BSQ_NBUF; id++)
				if (S->sub[k].buf[id])
					S->mem->release(S->sub[k].buf[id]);
	for (id = 0; id < BSQ_NBUF; id++)
		if (S->wbuf[id])
			S->mem->release(S->wbuf[id]);
	if (S->mem && S->mem->close)
		S->mem->close();
	free(S->sub);
	free(S->ps);
	free(S);
}
