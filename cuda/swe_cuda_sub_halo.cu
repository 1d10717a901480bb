/* swe_cuda_sub_halo.cu: the halos of a GPU subdomain (swe_cuda_sub.cu):
 * through pinned host buffers (halo_get, halo_put; MPI in halo.c), straight
 * into a neighbour of this process (halo_copy: one kernel storing into its
 * memory in device-dt mode, else peer copies), or GPU to GPU through NCCL
 * (halo_dev, halo_mark; halo_nccl.c).  Every transfer is ordered on the
 * edge stream; the receiver's next stage waits for its event, and the rows
 * it fills become valid ghost rows (swe_cuda_sub_valid).
 *
 * A copy into a neighbour y of this process also waits, with ghost cell
 * expansion, for what y's last step still writes in those ghost rows of U.
 * An exchange finds y->mu > 0 valid rows there when it comes before they
 * ran out: the first exchange due after rows moved at a step that was not
 * a multiple of k (a measure a few steps late, a batch cut short by the
 * guard's checks, or no-op steps before a new rain raster, which the
 * exchanges count and the measures do not: swe_multi_dev.c).  Those
 * y->mu rows were made by y's last stage 2 and then changed in place by
 * its sources (rain adds r dt to the depth it finds, friction scales the
 * momentum: swe_cuda_sub_sources), while this copy waited only for y's
 * stage 1 (the time step).  A copy that fell in between got the sources
 * twice, and from those rows the edge rows left the bits of one GPU;
 * without sources every writer stores the values the copy brings, and
 * nothing showed.  With sources, whatever y's last step wrote there is on
 * y's edge stream or before the point where that stream waits for the main
 * one (the step's last stage is one launch then: stage,
 * swe_cuda_sub_predict); an exchange every k steps finds y->mu = 0 and
 * keeps its overlap.  Copies through the host (halo_put, rows_put) run on
 * y's own edge stream, or after y is idle. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda_sub.h"
}

#include <cuda_runtime.h>
#include <string.h>

#define G SWE_GHOST
#define MAX_PEER 64

/* ---- halos */

void swe_cuda_sub_enable_peer(int a, int b)
{
	static unsigned char done[MAX_PEER][MAX_PEER];
	int can = 0, cur = 0;
	if (a == b || a >= MAX_PEER || b >= MAX_PEER || done[a][b])
		return;
	done[a][b] = done[b][a] = 1;
	cudaGetDevice(&cur);
	for (int k = 0; k < 2; k++) {
		int from = k ? b : a, to = k ? a : b;
		if (cudaDeviceCanAccessPeer(&can, from, to) == cudaSuccess && can) {
			cudaSetDevice(from);
			cudaDeviceEnablePeerAccess(to, 0);
		}
	}
	cudaGetLastError(); /* "already enabled", or none: copies are staged */
	cudaSetDevice(cur);
}

int swe_cuda_sub_halo_get(struct swe_backend_ctx *x, int st, int side, void *buf)
{
	real *f[3];
	size_t n = swe_cuda_sub_halo(x);
	int rc = swe_cuda_sub_fields(x, st, f), i;
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	i = swe_cuda_sub_tstart(x, x->edge, 1);
	for (int k = 0; k < 3; k++) {
		const real *src = swe_cuda_sub_row(f[k], x, side ? x->rows - G : 0);
		CUDA_CHECK(cudaMemcpyAsync(x->hsend[side] + k * n, src, n * sizeof(real),
			cudaMemcpyDeviceToHost, x->edge));
	}
	swe_cuda_sub_tstop(x, i, x->edge);
	CUDA_CHECK(cudaStreamSynchronize(x->edge));
	memcpy(buf, x->hsend[side], 3 * n * sizeof(real));
	return 0;
}

int swe_cuda_sub_halo_put(struct swe_backend_ctx *x, int st, int side, const void *buf)
{
	real *f[3];
	size_t n = swe_cuda_sub_halo(x);
	int rc = swe_cuda_sub_fields(x, st, f), i;
	if (rc)
		return rc;
	CUDA_CHECK(cudaSetDevice(x->device));
	CUDA_CHECK(cudaEventSynchronize(x->ev_put[side])); /* hrecv free again */
	memcpy(x->hrecv[side], buf, 3 * n * sizeof(real));
	swe_cuda_sub_valid(x, st, side, G);
	i = swe_cuda_sub_tstart(x, x->edge, 1);
	for (int k = 0; k < 3; k++) {
		real *dst = swe_cuda_sub_row(f[k], x, side ? x->rows : -G);
		CUDA_CHECK(cudaMemcpyAsync(dst, x->hrecv[side] + k * n, n * sizeof(real),
			cudaMemcpyHostToDevice, x->edge));
	}
	swe_cuda_sub_tstop(x, i, x->edge);
	CUDA_CHECK(cudaEventRecord(x->ev_put[side], x->edge));
	return 0;
}

/* The three fields of a halo, n reals each, from one subdomain to another
 * (device-dt mode: the neighbour's memory is addressable from here). */
struct halo_move {
	const real *src[3];
	real *dst[3];
};

__global__ static void k_halo_push(struct halo_move h, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	int k = blockIdx.y;
	if (i < n)
		h.dst[k][i] = h.src[k][i];
}

int swe_cuda_sub_halo_copy(struct swe_backend_ctx *x, int st, int side,
	struct swe_backend_ctx *y, int rows)
{
	real *f[3], *g[3];
	size_t n = (size_t)rows * x->kp.pitch;
	int rc = swe_cuda_sub_fields(x, st, f), i;
	if (rc || (rc = swe_cuda_sub_fields(y, st, g)))
		return rc;
	if (rows < G || rows > y->halo || rows > x->rows)
		return -SPATE_EINVAL;
	if (rows > G) {
		/* more than the edge rows (ghost cell expansion): the interior's
		 * rows too, written on the main stream, maybe not yet enqueued */
		if ((rc = swe_cuda_sub_interior(x)))
			return rc;
		if (x->edge != x->main) {
			CUDA_CHECK(cudaSetDevice(x->device));
			CUDA_CHECK(cudaEventRecord(x->ev_main, x->main));
			CUDA_CHECK(cudaStreamWaitEvent(x->edge, x->ev_main, 0));
		}
		/* and after what y's last step still writes in these ghost rows
		 * of U, once they outlast an exchange (see the top of the file);
		 * the other stages' arrays travel this wide only after rows moved
		 * (swe_multi_exchange_moved: U^{n+1}, which the sources change
		 * too), seldom: those copies always wait */
		if (st != SWE_STAGE_U || y->mu[1 - side] > 0) {
			CUDA_CHECK(cudaSetDevice(y->device));
			CUDA_CHECK(cudaEventRecord(y->ev_ghost, y->edge));
			CUDA_CHECK(cudaSetDevice(x->device));
			CUDA_CHECK(cudaStreamWaitEvent(x->edge, y->ev_ghost, 0));
		}
	}
	swe_cuda_sub_valid(y, st, 1 - side, rows);
	swe_cuda_sub_enable_peer(x->device, y->device);
	CUDA_CHECK(cudaSetDevice(x->device));
	i = swe_cuda_sub_tstart(x, x->edge, 1);
	if (x->devdt && !x->halo_memcpy) {
		/* device-dt mode has peer access (or one device): one kernel
		 * stores the three fields into the neighbour's ghost rows (three
		 * copies, each a copy engine's round trip, cost more per step) */
		struct halo_move h;
		for (int k = 0; k < 3; k++) {
			h.dst[k] = swe_cuda_sub_row(g[k], y, side ? -rows : y->rows);
			h.src[k] = swe_cuda_sub_row(f[k], x, side ? x->rows - rows : 0);
		}
		k_halo_push<<<dim3((unsigned)((n + 255) / 256), 3), 256, 0, x->edge>>>(h, n);
		CUDA_CHECK(cudaGetLastError());
	}
	for (int k = 0; k < 3 && !(x->devdt && !x->halo_memcpy); k++) {
		real *dst = swe_cuda_sub_row(g[k], y, side ? -rows : y->rows);
		const real *src = swe_cuda_sub_row(f[k], x, side ? x->rows - rows : 0);
		/* a plain copy between unified addresses in device-dt mode, which
		 * a graph can record */
		if (x->devdt)
			CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(real), cudaMemcpyDefault,
				x->edge));
		else
			CUDA_CHECK(cudaMemcpyPeerAsync(dst, y->device, src, x->device,
				n * sizeof(real), x->edge));
	}
	swe_cuda_sub_tstop(x, i, x->edge);
	CUDA_CHECK(cudaEventRecord(x->ev_out[side], x->edge));
	y->wait_in[1 - side] = &x->ev_out[side];
	return 0;
}


/* The edge stream carries the halo copies: the receiver's edge rows of the
 * next stage follow its NCCL receives there, and the sender's edge rows are
 * written there only after its sends (the interior rows, on the main
 * stream, neither read ghost rows nor write edge rows). */
int swe_cuda_sub_halo_dev(struct swe_backend_ctx *x, int st, int side, int ghost,
	void *ptr[3], void **stream)
{
	real *f[3];
	int rc = swe_cuda_sub_fields(x, st, f);
	int j = ghost ? (side ? x->rows : -G) : (side ? x->rows - G : 0);
	if (rc)
		return rc;
	if (ghost) /* NCCL receives into them */
		swe_cuda_sub_valid(x, st, side, G);
	for (int k = 0; k < 3; k++)
		ptr[k] = swe_cuda_sub_row(f[k], x, j);
	*stream = x->edge;
	return 0;
}

int swe_cuda_sub_halo_mark(struct swe_backend_ctx *x, int end)
{
	CUDA_CHECK(cudaSetDevice(x->device));
	if (!end) {
		x->tmark = swe_cuda_sub_tstart(x, x->edge, 1);
	} else {
		swe_cuda_sub_tstop(x, x->tmark, x->edge);
		x->tmark = -1;
	}
	CUDA_CHECK(cudaGetLastError());
	return 0;
}
