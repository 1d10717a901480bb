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

/* Every rank's plane data of the series to rank 0 (in place there), where
 * bsq_diag_series_of adds them in the order of the planes. */
int bsq_slabs_series(struct bsq_slabs *S, const struct bsq_params *p, double *energy,
	double *nusselt)
{
	const int rank = decomp_world_rank(), P = decomp_world_size();
	struct bsq_state loc;
	struct bsq_grid whole = S->proxy.g;
	bsq_real **f[4] = { &loc.u, &loc.v, &loc.w, &loc.T };
	double *d = NULL, k0d[DECOMP_MAX], nkd[DECOMP_MAX], bad = 0;
	int count[DECOMP_MAX], offset[DECOMP_MAX];
	size_t per, n;
	int k0, nk, c, r, rc = 0;
	whole.nz = S->nz;
	per = BSQ_SERIES_PER(&whole);
	bsq_slabs_mine(S, &k0, &nk);
	memset(&loc, 0, sizeof loc);
	loc.g = whole;
	loc.g.nz = nk;
	n = bsq_count(&loc.g);
	for (c = 0; c < 4 && !rc; c++)
		rc = !(*f[c] = malloc(n * sizeof(bsq_real))) ? -SPATE_ENOMEM :
			bsq_slabs_planes(S, c, *f[c]);
	/* rank 0 holds every plane's data, its own in place */
	if (!rc && !(d = malloc((rank == 0 ? (size_t)whole.nz : (size_t)nk) * per * sizeof *d)))
		rc = -SPATE_ENOMEM;
	if (!rc)
		bsq_diag_series_planes(&loc, p, rank == 0 ? d + (size_t)k0 * per : d);
	bad = rc != 0;
	if (!(r = decomp_max(&bad, 1, NULL)) && bad == 0 &&
		!(r = decomp_allgather_one(k0, k0d)) && !(r = decomp_allgather_one(nk, nkd))) {
		for (c = 0; c < P; c++) {
			offset[c] = (int)k0d[c];
			count[c] = (int)nkd[c];
		}
		r = decomp_gather_planes(rank == 0 ? d + (size_t)k0 * per : d, d, per * sizeof *d,
			count, offset);
	}
	if (!rc && !r && bad == 0 && rank == 0)
		bsq_diag_series_of(&whole, p, d, energy, nusselt);
	for (c = 0; c < 4; c++)
		free(*f[c]);
	free(d);
	return rc ? rc : r ? r : bad ? -SPATE_ENOMEM : 0;
}
