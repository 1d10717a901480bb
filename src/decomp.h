/* decomp.h: the decomposition layer, shared by both physics modules.
 *
 * A domain is a stack of ny planes (2D: grid rows; 3D: x-y slices), each
 * contiguous in memory.  It is cut into n subdomains of whole planes; a
 * subdomain owns planes [row0, row0 + rows) and keeps g ghost planes on each
 * side, so a halo is one contiguous block per field and needs no packing.
 * MPI ranks own contiguous groups of subdomains; the neighbours of a
 * subdomain are the ones before and after it in the stack (DESIGN.md,
 * "Decomposition layer"; Jacobsen et al. 2010, 1D slab decomposition).
 *
 * Without MPI, or when the program was not started by mpirun, there is one
 * rank and every call below that communicates is a local no-op. */
#ifndef SPATE_DECOMP_H
#define SPATE_DECOMP_H

#include <stddef.h>

/* Most subdomains in one run. */
#define DECOMP_MAX 256

/* One subdomain: planes [row0, row0 + rows) on MPI rank `rank`. */
struct decomp_part {
	int row0, rows;
	int rank;
};

/* A decomposition of ny planes into n subdomains over nranks ranks; this
 * rank owns subdomains [first, last). */
struct decomp {
	int ny, n;
	int nranks, rank;
	int first, last;
	struct decomp_part part[DECOMP_MAX];
};

/* Split ny planes into n parts of at least min_rows each, in proportion to
 * workload[0..n-1] (NULL: equal), rounding the cumulative boundaries to the
 * nearest plane.  Fills row0[] and rows[]; returns 0 or -SPATE_EINVAL (no
 * message: the caller names the key). */
int decomp_rows(int ny, int n, const double *workload, int min_rows, int *row0, int *rows);

/* The decomposition of ny planes into n subdomains (workload as above) over
 * the ranks of this run: rank r owns subdomains [n r / P, n (r + 1) / P).
 * Returns 0, or -SPATE_EINVAL after a message naming `what`. */
int decomp_plan(struct decomp *d, int ny, int n, const double *workload, int min_rows,
	const char *what);

/* ---- the MPI world (decomp.c).  One process, one rank, when built without
 * MPI or started without mpirun. */

/* Start MPI when this process was started by an MPI launcher (MPI_Init_thread,
 * MPI_THREAD_FUNNELED); returns 0 or -SPATE_EDEVICE. */
int decomp_world_init(int *argc, char ***argv);
/* Finish MPI if started; returns status unchanged.  A failing status with
 * more than one rank aborts every rank (MPI_Abort), so none waits forever. */
int decomp_world_fini(int status);
/* After every rank read and checked the same input with its messages held
 * (spate_log_hold), status its exit status (0: it got through): the
 * messages are printed by rank 0 where every rank failed alike or all got
 * through, else by the ranks that failed (dropped by the others), and every
 * rank learns whether
 * all got through.  Returns 0 if they did, else this rank's status or the
 * largest of the others' (so every rank stops, and decomp_world_fini then
 * finishes MPI without aborting: none is left waiting). */
int decomp_world_agree(int status);
/* Every rank stops here of itself, knowing why (a signal agreed by
 * spate_interrupted_all, the guard's reduced flags): decomp_world_fini then
 * finishes MPI without aborting, as after decomp_world_agree.  Local: no
 * message passes. */
void decomp_world_stop_together(void);
/* Whether the ranks stop together (decomp_world_agree stopped them, or
 * decomp_world_stop_together): each knows the fault. */
int decomp_world_agreed(void);
int decomp_world_rank(void);
int decomp_world_size(void);

/* v[0..n-1] = the maximum over all ranks (exact: no rounding).  *wait, when
 * not NULL, grows by the seconds spent in the reduction. */
int decomp_max(double *v, int n, double *wait);
/* The wet bounding box of the whole domain from each rank's box[4] = {j_min,
 * j_max, i_min, i_max} (its subdomains' boxes merged; empty: {INT_MAX, -1,
 * INT_MAX, -1}): the four numbers are all that travel (one MPI_Allreduce).
 * *wait, when not NULL, grows by the seconds spent. */
int decomp_bbox(int box[4], double *wait);
/* v[0..ny) per plane: each rank fills the planes of its subdomains, and
 * afterwards every rank holds every plane's value (MPI_Allgatherv). */
int decomp_allgather_planes(double *v, const struct decomp *d, double *wait);
/* The same for planes of `plane` bytes each: v holds plane 0 of the whole
 * stack; every rank fills its subdomains' planes, and afterwards holds all
 * of them (one MPI_Allgatherv; a plane at most 1 GiB). */
int decomp_allgather_rows(void *v, size_t plane, const struct decomp *d, double *wait);
/* The planes of every rank to rank 0 only: rank 0's own planes already lie
 * in whole (plane 0 of the stack; in place), another rank sends its
 * `count` planes from mine (whole and mine may be NULL where unused).  One
 * MPI_Gatherv; a plane at most 1 GiB. */
int decomp_gather_rows(const void *mine, void *whole, size_t plane, const struct decomp *d);
/* From rank 0's whole array (plane 0: the ghost plane below the stack)
 * to every other rank its planes with one ghost plane each side: rank r
 * receives array planes [o, o + c + 2) into mine, o and c the first plane
 * and the count of its subdomains' planes of d.  Rank 0 sends (whole),
 * the others receive (mine).  A plane at most 1 GiB. */
int decomp_scatter_span(const void *whole, void *mine, size_t plane, const struct decomp *d);
/* all[r] = rank r's v, on every rank (all: world size values). */
int decomp_allgather_one(double v, double *all);
/* Rank 0's values of v[0..n-1] on every rank. */
int decomp_bcast(double *v, int n);
/* Gather planes to rank 0: this rank's `count` planes of `plane` bytes at
 * `send` land at plane `offset[r]` of recv on rank 0 (recv may equal send
 * there: in place).  counts and offsets are given for every rank. */
int decomp_gather_planes(const void *send, void *recv, size_t plane, const int *count,
	const int *offset);

/* ---- halo exchange (halo.c): a plan built once, then executed. */

/* How the exchange reaches the subdomains' data (the physics module's job):
 * get copies the g planes next to edge `side` (0 = south/low, 1 =
 * north/high) of subdomain `sub` into buf; put copies buf into its ghost
 * planes on that side; copy (optional, NULL: get then put through the
 * link's buffer) moves the edge planes of `from` straight into the ghost
 * planes of `to` when both are on this rank (device to device).  All return
 * 0 or -SPATE_E*. */
struct halo_nccl;
/* Most blocks of one halo message (halo_ops.nblk). */
#define HALO_MAX_BLK 4
struct halo_ops {
	void *user;
	int (*get)(void *user, int sub, int side, void *buf);
	int (*put)(void *user, int sub, int side, const void *buf);
	int (*copy)(void *user, int from, int side_from, int to);
	/* Remote links GPU to GPU (optional; nccl NULL: host buffers and MPI):
	 * nccl, an open communicator (halo_nccl_open); a halo is nblk blocks
	 * (1 to HALO_MAX_BLK, the plan's bytes / nblk each: the flood's w, hu,
	 * hv are 3, a Boussinesq slab's plane 1; no default, every caller that
	 * sets nccl says how many); dev gives the device addresses of the
	 * blocks ptr[0..nblk) of the halo of `sub` at edge `side` (ghost 0: its
	 * edge planes, sent; 1: its ghost planes, received) and the stream that
	 * orders them with the subdomain's work; mark(sub, 0) and mark(sub, 1)
	 * bracket the transfers on that stream (timed as halo copies). */
	struct halo_nccl *nccl;
	int nblk;
	int (*dev)(void *user, int sub, int side, int ghost, void *ptr[HALO_MAX_BLK],
		void **stream);
	int (*mark)(void *user, int sub, int end);
	/* skip[k] != 0: no link of subdomain k moves (a subdomain that rests,
	 * swe_balance.h; its halos and its neighbours' stay as they are, and
	 * keep(user, sub, side) says so to the subdomain of this rank that a
	 * skipped link would have filled).  NULL: none skipped. */
	const int *skip;
	void (*keep)(void *user, int sub, int side);
};

/* One message: subdomain `from`'s edge planes to subdomain `to`'s ghosts. */
struct halo_link {
	int from, to;       /* subdomains (to = from +- 1) */
	int side_from;      /* edge of `from` sent: 1 north (to = from + 1), 0 south */
	int local;          /* both on this rank */
	void *buf;          /* bytes of the message */
};

struct halo_plan {
	const struct decomp *d;
	size_t bytes;       /* per message: fields x g planes x plane size */
	int n;
	struct halo_link *link;
	void *req;          /* MPI requests, 2 per link */
	int nreq;           /* requests posted by halo_exchange_start */
};

/* The links of every internal edge that touches this rank. */
int halo_plan_build(struct halo_plan *h, const struct decomp *d, size_t bytes);
/* Move every halo: receive remote ones (non-blocking), send this rank's
 * edges, copy local ones, wait, put.  t_sub[sub] (global subdomain index)
 * grows by the seconds each subdomain spent on it, waits included. */
int halo_exchange(struct halo_plan *h, const struct halo_ops *ops, double *t_sub);
/* halo_exchange in two halves, so that work can run while the messages
 * travel: start posts the receives, gets and sends this rank's edges and
 * moves the local links; finish waits for the remote messages and puts them.
 * Every start must be followed by its finish, also after an error. */
int halo_exchange_start(struct halo_plan *h, const struct halo_ops *ops, double *t_sub);
int halo_exchange_finish(struct halo_plan *h, const struct halo_ops *ops, double *t_sub);
void halo_plan_free(struct halo_plan *h);

/* ---- remote links GPU to GPU (halo_nccl.c): one NCCL communicator over
 * every rank. */

/* [parallel] transport of both modules: how halos travel between GPUs of
 * different ranks: host-staged MPI, or GPU to GPU through NCCL (auto: NCCL
 * when built and usable, else MPI). */
enum halo_transport { HALO_TRANSPORT_AUTO = 0, HALO_TRANSPORT_MPI = 1, HALO_TRANSPORT_NCCL = 2 };

/* Collective: the communicator for [parallel] transport (enum
 * halo_transport) when remote links should use it, else *out = NULL (one
 * rank; transport = mpi; auto without NCCL, or where a rank drives several
 * GPUs or two ranks share one: a note, then MPI).  gpu: the subdomains are
 * on GPUs and offer device halos; dev[0..n): the GPUs of this rank's
 * subdomains.  Returns 0, or -SPATE_EUNSUPPORTED / -SPATE_EDEVICE after a
 * message when transport = nccl cannot be had. */
int halo_nccl_open(struct halo_nccl **out, int transport, int gpu, const int *dev, int n);
/* The remote links of plan h, all in one NCCL group (ops->nccl, nblk, dev
 * and mark set): receives into this rank's ghost planes, sends of its edge
 * planes, enqueued on the subdomains' streams.  t_sub grows by the host's
 * seconds.  Returns 0, -SPATE_EINVAL (nblk out of range or not dividing
 * the plan's bytes) or -SPATE_EDEVICE. */
int halo_nccl_exchange(const struct halo_plan *h, const struct halo_ops *ops, double *t_sub);
/* abort = 1 after a failed run: stop pending transfers, wait for no peer. */
void halo_nccl_close(struct halo_nccl *c, int abort);

#endif
