/* halo.c: halo exchange between neighbouring subdomains, through one plan
 * built once (HPGMG-FV's habit) and then only executed.
 *
 * Every internal edge k | k+1 carries two messages: the top g planes of k
 * to the south ghosts of k+1, the bottom g planes of k+1 to the north ghosts
 * of k.  When both subdomains live on this rank the message is a copy
 * (device to device where the physics module offers one, else through one
 * buffer); otherwise it travels by non-blocking MPI between host buffers
 * (tag 2k upwards, 2k+1 downwards), or GPU to GPU through NCCL when the
 * caller offers it (halo_ops.nccl; halo_nccl.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_MPI
#include <mpi.h>
MPI_Comm decomp_world_comm(void);
#endif

#include "spate.h"
#include "decomp.h"

int halo_plan_build(struct halo_plan *h, const struct decomp *d, size_t bytes)
{
	int me = d->rank;
	memset(h, 0, sizeof *h);
	h->d = d;
	h->bytes = bytes;
	h->link = calloc(2 * (size_t)(d->n > 1 ? d->n - 1 : 1), sizeof *h->link);
	if (!h->link)
		return -SPATE_ENOMEM;
	for (int k = 0; k + 1 < d->n; k++) {
		int rk = d->part[k].rank, rk1 = d->part[k + 1].rank;
		if (rk != me && rk1 != me)
			continue;
		for (int dir = 0; dir < 2; dir++) {
			struct halo_link *l = &h->link[h->n++];
			l->from = dir ? k + 1 : k;
			l->to = dir ? k : k + 1;
			l->side_from = dir ? 0 : 1;
			l->local = rk == rk1;
			l->buf = spate_alloc(bytes);
			if (!l->buf) {
				halo_plan_free(h);
				return -SPATE_ENOMEM;
			}
		}
	}
#ifdef HAVE_MPI
	h->req = calloc(2 * (size_t)(h->n + 1), sizeof(MPI_Request));
	if (!h->req) {
		halo_plan_free(h);
		return -SPATE_ENOMEM;
	}
#endif
	return 0;
}

/* A link that does not move: one of its subdomains rests. */
static int skipped(const struct halo_ops *ops, const struct halo_link *l)
{
	return ops->skip && (ops->skip[l->from] || ops->skip[l->to]);
}

int halo_exchange_start(struct halo_plan *h, const struct halo_ops *ops, double *t_sub)
{
	const struct decomp *d = h->d;
	int me = d->rank, rc = 0, nreq = 0, gpu = ops->nccl && ops->dev && ops->mark;
	if (gpu)
		rc = halo_nccl_exchange(h, ops, t_sub);
#ifdef HAVE_MPI
	MPI_Request *req = h->req;
	for (int k = 0; k < h->n && !gpu; k++) {
		struct halo_link *l = &h->link[k];
		if (skipped(ops, l))
			continue;
		if (!l->local && d->part[l->to].rank == me)
			MPI_Irecv(l->buf, (int)h->bytes, MPI_BYTE, d->part[l->from].rank,
				2 * (l->from < l->to ? l->from : l->to) + (l->from > l->to),
				decomp_world_comm(), &req[nreq++]);
	}
#endif
	for (int k = 0; k < h->n && !rc; k++) {
		struct halo_link *l = &h->link[k];
		double t0 = spate_now(), t1;
		if (skipped(ops, l) && d->part[l->to].rank == me && ops->keep)
			ops->keep(ops->user, l->to, 1 - l->side_from);
		if (d->part[l->from].rank != me || (gpu && !l->local) || skipped(ops, l))
			continue;
		if (l->local && ops->copy) {
			rc = ops->copy(ops->user, l->from, l->side_from, l->to);
			t_sub[l->from] += spate_now() - t0;
			continue;
		}
		rc = ops->get(ops->user, l->from, l->side_from, l->buf);
		t1 = spate_now();
		t_sub[l->from] += t1 - t0;
		if (rc)
			break;
		if (l->local) {
			rc = ops->put(ops->user, l->to, 1 - l->side_from, l->buf);
			t_sub[l->to] += spate_now() - t1;
		}
#ifdef HAVE_MPI
		else {
			MPI_Isend(l->buf, (int)h->bytes, MPI_BYTE, d->part[l->to].rank,
				2 * (l->from < l->to ? l->from : l->to) + (l->from > l->to),
				decomp_world_comm(), &req[nreq++]);
			t_sub[l->from] += spate_now() - t1;
		}
#endif
	}
	h->nreq = nreq;
	return rc;
}

int halo_exchange_finish(struct halo_plan *h, const struct halo_ops *ops, double *t_sub)
{
	int rc = 0;
#ifdef HAVE_MPI
	const struct decomp *d = h->d;
	int me = d->rank;
	if (h->nreq) {
		/* the wait counts once for every subdomain of this rank with a
		 * remote neighbour */
		double t0 = spate_now(), wait;
		int last = -1;
		if (MPI_Waitall(h->nreq, h->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
			rc = -SPATE_EDEVICE;
		wait = spate_now() - t0;
		for (int k = 0; k < h->n; k++) {
			struct halo_link *l = &h->link[k];
			double t1 = spate_now();
			if (l->local || d->part[l->to].rank != me || skipped(ops, l))
				continue;
			if (!rc)
				rc = ops->put(ops->user, l->to, 1 - l->side_from, l->buf);
			t_sub[l->to] += spate_now() - t1 + (l->to != last ? wait : 0);
			last = l->to;
		}
	}
#else
	(void)ops;
	(void)t_sub;
#endif
	h->nreq = 0;
	return rc;
}

int halo_exchange(struct halo_plan *h, const struct halo_ops *ops, double *t_sub)
{
	int rc = halo_exchange_start(h, ops, t_sub), rc2 = halo_exchange_finish(h, ops, t_sub);
	return rc ? rc : rc2;
}

void halo_plan_free(struct halo_plan *h)
{
	if (h->link)
		for (int k = 0; k < h->n; k++)
			free(h->link[k].buf);
	free(h->link);
	free(h->req);
	memset(h, 0, sizeof *h);
}
