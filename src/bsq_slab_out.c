/* bsq_slab_out.c: this rank's planes of the slabs (bsq_slab.h) for an
 * output that each rank writes for its own planes (results.nc in
 * parallel): no gather, no message; the series' sums from every rank's
 * planes (a plane's few numbers to rank 0, not its fields). */
#include <stdlib.h>
#include <string.h>

#include "bsq_slabset.h"
#include "decomp.h"
#include "spate.h"

void bsq_slabs_mine(const struct bsq_slabs *S, int *k0, int *nk)
{
	const struct bsq_slab *a = &S->sub[S->d[0].first], *b = &S->sub[S->d[0].last - 1];
	*k0 = a->row0;
	*nk = b->row0 + b->rows - a->row0;
}

int bsq_slabs_planes(struct bsq_slabs *S, int field, bsq_real *a)
{
	const struct bsq_state *P = &S->proxy;
	const bsq_real *const tok[5] = { P->u, P->v, P->w, P->T, P->p };
	const size_t sz = bsq_sz(&P->g);
	int id, k, k0, nk;
	if (field < 0 || field > 4)
		return -SPATE_EINVAL;
	id = bsq_slab_id(S, tok[field]);
	bsq_slabs_mine(S, &k0, &nk);
	S->err = 0;
	/* slab b's plane q (0: its ghost below) is a's plane b->row0 - k0 + q;
	 * a ghost plane comes from the slab at that end only */
	for (k = S->d[0].first; k < S->d[0].last; k++) {
		const struct bsq_slab *b = &S->sub[k];
		int q0 = k == S->d[0].first ? 0 : 1, q1 = k == S->d[0].last - 1 ? b->rows + 2 :
			b->rows + 1;
		bsq_slab_copy(S, a + (size_t)(b->row0 - k0 + q0) * sz, b->buf[id] + (size_t)q0 * sz,
			(size_t)(q1 - q0) * sz * sizeof(bsq_real));
	}
	if (S->err)
		spate_log_error("bsq", "this rank's planes for the output: %s",
			spate_strerror(S->err));
	return S->err;
}

int bsq_slabs_local(struct bsq_slabs *S, int nf, struct bsq_state *loc)
{
	bsq_real **f[5] = { &loc->u, &loc->v, &loc->w, &loc->T, &loc->p };
	int k0, c, rc = 0;
	memset(loc, 0, sizeof *loc);
	loc->g = S->proxy.g;
	bsq_slabs_mine(S, &k0, &loc->g.nz);
	for (c = 0; c < nf && c < 5 && !rc; c++)
		rc = !(*f[c] = malloc(bsq_count(&loc->g) * sizeof(bsq_real))) ? -SPATE_ENOMEM :
			bsq_slabs_planes(S, c, *f[c]);
	if (rc)
		bsq_slabs_local_free(loc);
	return rc;
}

void bsq_slabs_local_free(struct bsq_state *loc)
{
	free(loc->u);
	free(loc->v);
	free(loc->w);
	free(loc->T);
	free(loc->p);
	loc->u = loc->v = loc->w = loc->T = loc->p = NULL;
}

/* This rank's plane data of the series into d (its first plane first):
 * host slabs read in place, device slabs through a copy of their planes. */
static int series_mine(struct bsq_slabs *S, const struct bsq_params *p, double *d)
{
	const struct bsq_state *P = &S->proxy;
	const size_t per = BSQ_SERIES_PER(&P->g);
	struct bsq_state v;
	int k, k0, nk, rc;
	bsq_slabs_mine(S, &k0, &nk);
	if (S->mem->device) {
		if (!(rc = bsq_slabs_local(S, 4, &v)))
			bsq_diag_series_planes(&v, p, d);
		bsq_slabs_local_free(&v);
		return rc;
	}
	for (k = S->d[0].first; k < S->d[0].last; k++) {
		const struct bsq_slab *b = &S->sub[k];
		memset(&v, 0, sizeof v);
		v.g = P->g;
		v.g.nz = b->rows;
		v.u = b->buf[bsq_slab_id(S, P->u)];
		v.v = b->buf[bsq_slab_id(S, P->v)];
		v.w = b->buf[bsq_slab_id(S, P->w)];
		v.T = b->buf[bsq_slab_id(S, P->T)];
		bsq_diag_series_planes(&v, p, d + (size_t)(b->row0 - k0) * per);
	}
	return 0;
}

/* Every rank's plane data of the series to rank 0 (in place there), where
 * bsq_diag_series_of adds them in the order of the planes. */
int bsq_slabs_series(struct bsq_slabs *S, const struct bsq_params *p, double *energy,
	double *nusselt)
{
	const int rank = decomp_world_rank();
	struct bsq_grid whole = S->proxy.g;
	size_t per = BSQ_SERIES_PER(&whole);
	double *d, bad;
	int k0, nk, rc = 0, r;
	whole.nz = S->nz;
	bsq_slabs_mine(S, &k0, &nk);
	/* rank 0 holds every plane's data, its own in place */
	if (!(d = malloc((rank == 0 ? (size_t)whole.nz : (size_t)nk) * per * sizeof *d)))
		rc = -SPATE_ENOMEM;
	else
		rc = series_mine(S, p, rank == 0 ? d + (size_t)k0 * per : d);
	bad = rc != 0;
	if (!(r = decomp_max(&bad, 1, NULL)) && bad == 0)
		r = decomp_gather_rows(d, d, per * sizeof *d, &S->d[0]);
	if (!r && bad == 0 && rank == 0)
		bsq_diag_series_of(&whole, p, d, energy, nusselt);
	free(d);
	return rc ? rc : r ? r : bad ? -SPATE_ENOMEM : 0;
}
