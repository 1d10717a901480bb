/* bsq_slab_out.c: this rank's planes of the slabs (bsq_slab.h) for an
 * output that each rank writes for its own planes (results.nc in
 * parallel): no gather, no message. */
#include "bsq_slabset.h"
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
