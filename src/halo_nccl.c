/* halo_nccl.c: remote halo links GPU to GPU through NCCL ([parallel]
 * transport = nccl, or auto where NCCL is built and usable).
 *
 * The host-staged path (halo.c) copies a subdomain's edge planes into a
 * pinned buffer, waits, sends it by MPI, and the receiver copies it into
 * its ghost planes.  Here the same messages go from device memory to
 * device memory by ncclSend/ncclRecv, all of one exchange in one
 * ncclGroupStart/End, on the stream that orders each subdomain's halos
 * with its stages: the host enqueues and goes on, the receiver's next
 * stage follows its ncclRecv on that stream, and the interior rows of the
 * stage compute on the other stream while the halos travel, as on the
 * host path.  The bytes are the same, so are the results.
 *
 * One communicator spans every rank: rank 0's unique id reaches the others
 * by MPI_Bcast, then ncclCommInitRank on the rank's GPU; NCCL connects two
 * ranks at their first transfer (about a second on two H200s), so the
 * neighbouring ranks (r - 1, r + 1: each rank owns a block of subdomains)
 * exchange a byte at once, outside the steps.  NCCL wants one
 * GPU per rank: where a rank drives several GPUs or two ranks share one
 * (compared by UUID, gathered from every rank, so that every rank takes
 * the same path), the halos stay host-staged, with a note.
 *
 * Messages: the caller's blocks of a halo (halo_ops.nblk: the flood's w,
 * hu, hv; a Boussinesq slab's one plane), bytes / nblk each, in the order
 * of the plan's links, which two neighbouring ranks share; NCCL matches the
 * sends and receives between two ranks in their order. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "decomp.h"

#if defined(HAVE_NCCL) && defined(HAVE_MPI)
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>
MPI_Comm decomp_world_comm(void);

struct halo_nccl {
	ncclComm_t comm;
	int device;
};

/* What a rank tells the others about its GPUs. */
struct gpu_note {
	int ndev;                 /* distinct GPUs of its subdomains; -1: unknown */
	unsigned char uuid[16];   /* the GPU's, when ndev = 1 */
};

/* Distinct values of dev[0..n). */
static int distinct(const int *dev, int n)
{
	int c = 0;
	for (int k = 0; k < n; k++) {
		int seen = 0;
		for (int j = 0; j < k && !seen; j++)
			seen = dev[j] == dev[k];
		c += !seen;
	}
	return c;
}

/* Collective: 1 when every rank drives one GPU and no two ranks the same
 * one; else 0 and why[] says which ranks. */
static int one_gpu_per_rank(const int *dev, int n, char *why, size_t len)
{
	struct gpu_note mine, *all;
	struct cudaDeviceProp prop;
	int P = decomp_world_size(), ok = 1;
	memset(&mine, 0, sizeof mine);
	mine.ndev = distinct(dev, n);
	if (mine.ndev == 1) {
		if (cudaGetDeviceProperties(&prop, dev[0]) == cudaSuccess)
			memcpy(mine.uuid, prop.uuid.bytes, sizeof mine.uuid);
		else
			mine.ndev = -1;
		cudaGetLastError();
	}
	all = calloc((size_t)P, sizeof *all);
	if (!all || MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine,
		MPI_BYTE, decomp_world_comm()) != MPI_SUCCESS) {
		snprintf(why, len, "cannot compare the ranks' GPUs");
		free(all);
		return 0;
	}
	for (int r = 0; r < P && ok; r++)
		if (all[r].ndev != 1) {
			ok = 0;
			if (all[r].ndev < 0)
				snprintf(why, len, "rank %d cannot query its GPU", r);
			else
				snprintf(why, len, "rank %d drives %d GPUs (NCCL takes one per rank)", r,
					all[r].ndev);
		}
	for (int r = 0; r < P && ok; r++)
		for (int s = r + 1; s < P && ok; s++)
			if (!memcmp(all[r].uuid, all[s].uuid, sizeof all[r].uuid)) {
				ok = 0;
				snprintf(why, len, "ranks %d and %d share a GPU (NCCL takes one per "
					"rank)", r, s);
			}
	free(all);
	return ok;
}

/* Collective: the communicator of every rank on GPU `device`.  Returns 0,
 * or -SPATE_EDEVICE on every rank when any rank failed (text in why). */
static int comm_init(struct halo_nccl *c, char *why, size_t len)
{
	struct {
		int ok;
		ncclUniqueId id;
	} b;
	int rank = decomp_world_rank(), bad = 0, any = 0;
	ncclResult_t e = ncclSuccess;
	memset(&b, 0, sizeof b);
	if (rank == 0) {
		e = ncclGetUniqueId(&b.id);
		b.ok = e == ncclSuccess;
	}
	if (MPI_Bcast(&b, (int)sizeof b, MPI_BYTE, 0, decomp_world_comm()) != MPI_SUCCESS)
		b.ok = 0;
	if (!b.ok) {
		snprintf(why, len, "ncclGetUniqueId on rank 0: %s", ncclGetErrorString(e));
		return -SPATE_EDEVICE;
	}
	if (cudaSetDevice(c->device) != cudaSuccess) {
		cudaGetLastError();
		bad = 1;
		snprintf(why, len, "rank %d: cannot use GPU %d", rank, c->device);
	} else if ((e = ncclCommInitRank(&c->comm, decomp_world_size(), b.id, rank)) !=
		ncclSuccess) {
		bad = 1;
		c->comm = NULL;
		snprintf(why, len, "rank %d: ncclCommInitRank: %s", rank, ncclGetErrorString(e));
	}
	/* every rank learns whether all have a communicator */
	if (MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, decomp_world_comm()) != MPI_SUCCESS)
		any = 1;
	if (any && !bad) {
		snprintf(why, len, "another rank could not join the NCCL communicator");
		ncclCommAbort(c->comm);
		c->comm = NULL;
	}
	return any ? -SPATE_EDEVICE : 0;
}

/* Collective: connect each rank to ranks r - 1 and r + 1 with one byte each
 * way.  Returns 0, or -SPATE_EDEVICE on every rank when any rank failed. */
static int connect_neighbours(struct halo_nccl *c, char *why, size_t len)
{
	int r = decomp_world_rank(), P = decomp_world_size(), bad = 0, any = 0;
	unsigned char *b = NULL;
	cudaStream_t s = NULL;
	ncclResult_t e = ncclSuccess;
	if (cudaMalloc((void **)&b, 4) != cudaSuccess || cudaMemset(b, 0, 4) != cudaSuccess ||
		cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
		bad = 1;
		snprintf(why, len, "rank %d: cannot allocate on GPU %d", r, c->device);
	} else {
		ncclGroupStart();
		for (int i = 0; i < 2; i++) {
			int peer = i ? r + 1 : r - 1;
			if (peer < 0 || peer >= P)
				continue;
			if (e == ncclSuccess)
				e = ncclSend(b + i, 1, ncclUint8, peer, c->comm, s);
			if (e == ncclSuccess)
				e = ncclRecv(b + 2 + i, 1, ncclUint8, peer, c->comm, s);
		}
		if (ncclGroupEnd() != ncclSuccess || e != ncclSuccess ||
			cudaStreamSynchronize(s) != cudaSuccess) {
			bad = 1;
			snprintf(why, len, "rank %d: first transfer to its neighbours failed", r);
		}
	}
	if (s)
		cudaStreamDestroy(s);
	cudaFree(b);
	cudaGetLastError();
	if (MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, decomp_world_comm()) != MPI_SUCCESS)
		any = 1;
	if (any && !bad)
		snprintf(why, len, "another rank could not reach its neighbours through NCCL");
	return any ? -SPATE_EDEVICE : 0;
}

int halo_nccl_open(struct halo_nccl **out, int transport, int gpu, const int *dev, int n)
{
	const char *name = transport == HALO_TRANSPORT_NCCL ? "nccl" : "auto";
	char why[160] = "";
	struct halo_nccl *c;
	int rc, v;
	*out = NULL;
	if (transport == HALO_TRANSPORT_MPI || decomp_world_size() == 1)
		return 0; /* no remote link, or none wanted on GPUs */
	if (!gpu) {
		if (transport != HALO_TRANSPORT_NCCL)
			return 0;
		spate_log_error("parallel", "transport = nccl moves halos between GPUs: run with "
			"--device=cuda, or set transport = auto or mpi");
		return -SPATE_EINVAL;
	}
	if (!one_gpu_per_rank(dev, n, why, sizeof why)) {
		if (decomp_world_rank() == 0)
			spate_log_info("spate: [parallel] transport = %s: %s: remote halos go "
				"host-staged through MPI\n", name, why);
		return 0;
	}
	c = calloc(1, sizeof *c);
	if (!c)
		return -SPATE_ENOMEM;
	c->device = dev[0];
	rc = comm_init(c, why, sizeof why);
	if (!rc && (rc = connect_neighbours(c, why, sizeof why))) {
		ncclCommAbort(c->comm);
		c->comm = NULL;
	}
	if (rc) {
		free(c);
		if (transport == HALO_TRANSPORT_NCCL) {
			spate_log_error("parallel", "transport = nccl: %s", why);
			return rc;
		}
		if (decomp_world_rank() == 0)
			spate_log_info("spate: [parallel] transport = auto: %s: remote halos go "
				"host-staged through MPI\n", why);
		return 0;
	}
	if (decomp_world_rank() == 0 && ncclGetVersion(&v) == ncclSuccess)
		spate_log_info("spate: remote halos GPU to GPU through NCCL %d.%d.%d (%d ranks, "
			"one GPU each)\n", v / 10000, v / 100 % 100, v % 100, decomp_world_size());
	*out = c;
	return 0;
}

int halo_nccl_exchange(const struct halo_plan *h, const struct halo_ops *ops, double *t_sub)
{
	const struct decomp *d = h->d;
	ncclComm_t comm = ops->nccl->comm;
	unsigned char marked[DECOMP_MAX];
	double t0 = spate_now(), dt;
	int me = d->rank, rc = 0, nblk = ops->nblk;
	size_t n;
	ncclResult_t e;
	/* a caller that forgot nblk would send the wrong bytes: refuse it */
	if (nblk < 1 || nblk > HALO_MAX_BLK || h->bytes % (size_t)nblk) {
		spate_log_error("nccl", "halo of %zu bytes in %d blocks: the caller must set "
			"nblk to 1..%d dividing the bytes", h->bytes, nblk, HALO_MAX_BLK);
		return -SPATE_EINVAL;
	}
	n = h->bytes / (size_t)nblk;
	memset(marked, 0, sizeof marked);
	for (int k = 0; k < h->n && !rc; k++) {
		const struct halo_link *l = &h->link[k];
		int sub = d->part[l->to].rank == me ? l->to : l->from;
		if (!l->local && !marked[sub]) {
			marked[sub] = 1;
			rc = ops->mark(ops->user, sub, 0);
		}
	}
	if ((e = ncclGroupStart()) != ncclSuccess)
		goto fail;
	for (int k = 0; k < h->n && !rc; k++) {
		const struct halo_link *l = &h->link[k];
		int recv = d->part[l->to].rank == me;
		void *p[HALO_MAX_BLK], *stream;
		if (l->local)
			continue;
		rc = recv ? ops->dev(ops->user, l->to, 1 - l->side_from, 1, p, &stream) :
			ops->dev(ops->user, l->from, l->side_from, 0, p, &stream);
		for (int f = 0; f < nblk && !rc; f++) {
			e = recv ? ncclRecv(p[f], n, ncclUint8, d->part[l->from].rank, comm,
					(cudaStream_t)stream) :
				ncclSend(p[f], n, ncclUint8, d->part[l->to].rank, comm,
					(cudaStream_t)stream);
			rc = e == ncclSuccess ? 0 : -SPATE_EDEVICE;
		}
	}
	e = ncclGroupEnd(); /* also after an error: every start has its end */
	if (rc || e != ncclSuccess)
		goto fail;
	dt = spate_now() - t0;
	for (int k = d->first; k < d->last && !rc; k++)
		if (marked[k]) {
			rc = ops->mark(ops->user, k, 1);
			t_sub[k] += dt;
		}
	return rc;
fail:
	spate_log_error("nccl", "halo exchange between ranks: %s", rc ? spate_strerror(rc) :
		ncclGetErrorString(e));
	return rc ? rc : -SPATE_EDEVICE;
}

void halo_nccl_close(struct halo_nccl *c, int abort)
{
	if (!c)
		return;
	if (c->comm) {
		if (abort)
			ncclCommAbort(c->comm);
		else
			ncclCommDestroy(c->comm);
	}
	free(c);
}

#else /* without NCCL (or MPI): the host-staged path only */

int halo_nccl_open(struct halo_nccl **out, int transport, int gpu, const int *dev, int n)
{
	(void)gpu;
	(void)dev;
	(void)n;
	*out = NULL;
	if (transport == HALO_TRANSPORT_NCCL && decomp_world_size() > 1) {
		spate_log_error("parallel", "transport = nccl: this spate was built without NCCL "
			"(reconfigure with --with-nccl, or set transport = auto or mpi)");
		return -SPATE_EUNSUPPORTED;
	}
	return 0;
}

int halo_nccl_exchange(const struct halo_plan *h, const struct halo_ops *ops, double *t_sub)
{
	(void)h;
	(void)ops;
	(void)t_sub;
	return -SPATE_EUNSUPPORTED;
}

void halo_nccl_close(struct halo_nccl *c, int abort)
{
	(void)c;
	(void)abort;
}
#endif
