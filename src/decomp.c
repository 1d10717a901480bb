/* decomp.c: cutting a stack of planes into subdomains, and the MPI world
 * (ranks, reductions, gathers) that the decomposition layer runs on. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* sched_getaffinity, CPU_AND */
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_MPI
#include <mpi.h>
#endif
#if defined(HAVE_MPI) && defined(_OPENMP) && defined(__linux__)
#include <omp.h>
#include <sched.h>
#define SPATE_FAIR_THREADS 1
#endif

#include "spate.h"
#include "decomp.h"

int decomp_rows(int ny, int n, const double *workload, int min_rows, int *row0, int *rows)
{
	double total = 0, cum = 0;
	int b[DECOMP_MAX + 1];
	if (n < 1 || n > DECOMP_MAX || min_rows < 1 || (long)n * min_rows > ny)
		return -SPATE_EINVAL;
	for (int k = 0; k < n; k++) {
		double f = workload ? workload[k] : 1;
		if (!(f > 0) || !isfinite(f))
			return -SPATE_EINVAL;
		total += f;
	}
	b[0] = 0;
	b[n] = ny;
	for (int k = 1; k < n; k++) {
		cum += workload ? workload[k - 1] : 1;
		b[k] = (int)floor(ny * (cum / total) + 0.5);
	}
	/* at least min_rows each: push boundaries up, then down from the top */
	for (int k = 1; k < n; k++)
		if (b[k] < b[k - 1] + min_rows)
			b[k] = b[k - 1] + min_rows;
	for (int k = n - 1; k > 0; k--)
		if (b[k] > b[k + 1] - min_rows)
			b[k] = b[k + 1] - min_rows;
	for (int k = 0; k < n; k++) {
		row0[k] = b[k];
		rows[k] = b[k + 1] - b[k];
		if (rows[k] < min_rows)
			return -SPATE_EINVAL;
	}
	return 0;
}

int decomp_plan(struct decomp *d, int ny, int n, const double *workload, int min_rows,
	const char *what)
{
	int row0[DECOMP_MAX], rows[DECOMP_MAX], P = decomp_world_size();
	memset(d, 0, sizeof *d);
	if (n < P || n > DECOMP_MAX) {
		spate_log_error("decomp", "%s: %d subdomains on %d MPI ranks: need 1 to %d per "
			"rank and at most %d in all", what, n, P, DECOMP_MAX, DECOMP_MAX);
		return -SPATE_EINVAL;
	}
	if (decomp_rows(ny, n, workload, min_rows, row0, rows)) {
		spate_log_error("decomp", "%s: cannot cut %d rows into %d subdomains of at least %d "
			"rows each (fewer subdomains, or workloads > 0 closer to equal)", what, ny, n,
			min_rows);
		return -SPATE_EINVAL;
	}
	d->ny = ny;
	d->n = n;
	d->nranks = P;
	d->rank = decomp_world_rank();
	for (int k = 0; k < n; k++) {
		d->part[k].row0 = row0[k];
		d->part[k].rows = rows[k];
	}
	for (int r = 0; r < P; r++)
		for (int k = (int)((long)n * r / P); k < (int)((long)n * (r + 1) / P); k++)
			d->part[k].rank = r;
	d->first = (int)((long)n * d->rank / P);
	d->last = (int)((long)n * (d->rank + 1) / P);
	return 0;
}

/* ---------------------------------------------------------------- MPI world */

static int world_rank, world_size = 1;
#ifdef HAVE_MPI
static int world_started, world_stop_agreed;
static MPI_Comm world_comm;
#endif

/* Started by an MPI launcher (Open MPI, MPICH/Hydra, Slurm's PMI)? */
static int under_launcher(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
		"MPI_LOCALNRANKS" };
	for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
		if (getenv(vars[k]))
			return 1;
	return 0;
}

#ifdef SPATE_FAIR_THREADS
/* Under mpirun, each rank's OpenMP threads default to every CPU it may run
 * on; ranks that share those CPUs (mpirun --bind-to none, a launcher that
 * binds nothing) then run ranks x CPUs threads on them, and OpenMP's
 * barriers spin against MPI's polling: a Boussinesq cube on 2 ranks of a
 * 2-core machine took 107 s instead of 2.2 s.  Without OMP_NUM_THREADS,
 * each rank takes its CPUs divided by the ranks of its node whose CPUs
 * overlap its own (at least 1); [run] threads still overrides.  Collective
 * over the world (every rank calls it); quiet: no line about it (-q). */
static void fair_threads(int quiet)
{
	static cpu_set_t all[1024];   /* ranks of one node; more: left alone */
	cpu_set_t mine;
	MPI_Comm node;
	int n, share = 0, cpus;
	CPU_ZERO(&mine);
	if (sched_getaffinity(0, sizeof mine, &mine))
		CPU_ZERO(&mine);
	MPI_Comm_split_type(world_comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_size(node, &n);
	if (n <= (int)(sizeof all / sizeof *all)) {   /* the same n on every rank of the node */
		MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, node);
		for (int r = 0; r < n; r++) {
			cpu_set_t both;
			CPU_AND(&both, &mine, &all[r]);
			share += CPU_COUNT(&both) > 0;
		}
	}
	MPI_Comm_free(&node);
	cpus = CPU_COUNT(&mine);
	if (getenv("OMP_NUM_THREADS") || share < 2 || cpus < 1 ||
		cpus / share >= omp_get_max_threads())
		return;
	omp_set_num_threads(cpus / share > 1 ? cpus / share : 1);
	if (world_rank == 0 && !quiet)
		spate_log_info("spate: %d ranks share %d CPUs: %d OpenMP thread(s) each (choose with "
			"OMP_NUM_THREADS or [run] threads, or bind ranks: mpirun --bind-to core)\n",
			share, cpus, omp_get_max_threads());
}
#endif

int decomp_world_init(int *argc, char ***argv)
{
#ifdef HAVE_MPI
	int provided = 0;
	if (!under_launcher())
		return 0;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		spate_log_error("mpi", "MPI_Init_thread failed");
		return -SPATE_EDEVICE;
	}
	world_started = 1;
	MPI_Comm_dup(MPI_COMM_WORLD, &world_comm);
	MPI_Comm_rank(world_comm, &world_rank);
	MPI_Comm_size(world_comm, &world_size);
	if (provided < MPI_THREAD_FUNNELED && world_rank == 0)
		spate_log_error("mpi", "MPI offers no MPI_THREAD_FUNNELED; OpenMP threads may "
			"misbehave");
#ifdef SPATE_FAIR_THREADS
	if (world_size > 1) {
		int quiet = 0;
		for (int k = 1; k < *argc; k++)
			quiet |= !strcmp((*argv)[k], "-q") || !strcmp((*argv)[k], "--quiet");
		fair_threads(quiet);
	}
#endif
#else
	(void)argc;
	(void)argv;
	if (under_launcher() && getenv("OMPI_COMM_WORLD_RANK") &&
		strcmp(getenv("OMPI_COMM_WORLD_RANK"), "0") != 0) {
		/* every rank would run the whole problem and write the same files */
		spate_log_error("mpi", "started by mpirun, but this spate was built without MPI "
			"(reconfigure with --with-mpi)");
		return -SPATE_EUNSUPPORTED;
	}
#endif
	return 0;
}

int decomp_world_fini(int status)
{
#ifdef HAVE_MPI
	if (!world_started)
		return status;
	if (status != 0 && world_size > 1 && !world_stop_agreed)
		MPI_Abort(MPI_COMM_WORLD, status);
	MPI_Comm_free(&world_comm);
	MPI_Finalize();
	world_started = 0;
#endif
	return status;
}

int decomp_world_agree(int status)
{
	double v[2] = { status, status == 0 };
	if (world_size <= 1 || decomp_max(v, 2, NULL)) {
		spate_log_release(1);
		return status;
	}
	/* v[0]: the largest status, v[1]: 1 if some rank got through; where
	 * all got through, rank 0 prints what it held (the lines of a run's
	 * set-up, as one process prints them) */
	spate_log_release(status != 0 ? world_rank == 0 || v[1] > 0 :
		v[0] == 0 && world_rank == 0);
	if (v[0] == 0)
		return 0;
#ifdef HAVE_MPI
	world_stop_agreed = 1;
#endif
	return status ? status : (int)v[0];
}

void decomp_world_stop_together(void)
{
#ifdef HAVE_MPI
	world_stop_agreed = world_size > 1;
#endif
}

int decomp_world_agreed(void)
{
#ifdef HAVE_MPI
	return world_stop_agreed;
#else
	return 0;
#endif
}

int decomp_world_rank(void)
{
	return world_rank;
}

int decomp_world_size(void)
{
	return world_size;
}

int decomp_max(double *v, int n, double *wait)
{
#ifdef HAVE_MPI
	if (world_size > 1) {
		double t0 = spate_now();
		int rc = MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, world_comm);
		if (wait)
			*wait += spate_now() - t0;
		return rc == MPI_SUCCESS ? 0 : -SPATE_EDEVICE;
	}
#else
	(void)v;
	(void)n;
#endif
	(void)wait;
	return 0;
}

int decomp_bbox(int box[4], double *wait)
{
#ifdef HAVE_MPI
	if (world_size > 1) {
		/* one MIN reduction: the maxima travel negated (-1 and INT_MAX
		 * negate without overflow) */
		int v[4] = { box[0], -box[1], box[2], -box[3] }, rc;
		double t0 = spate_now();
		rc = MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_INT, MPI_MIN, world_comm);
		if (wait)
			*wait += spate_now() - t0;
		box[0] = v[0];
		box[1] = -v[1];
		box[2] = v[2];
		box[3] = -v[3];
		return rc == MPI_SUCCESS ? 0 : -SPATE_EDEVICE;
	}
#else
	(void)box;
#endif
	(void)wait;
	return 0;
}

#ifdef HAVE_MPI
/* The planes of each rank's subdomains: count[r] from offset[r]. */
static void rank_spans(const struct decomp *d, int *count, int *offset)
{
	for (int r = 0; r < d->nranks; r++) {
		int first = (int)((long)d->n * r / d->nranks);
		int last = (int)((long)d->n * (r + 1) / d->nranks) - 1;
		offset[r] = d->part[first].row0;
		count[r] = d->part[last].row0 + d->part[last].rows - offset[r];
	}
}

/* The MPI type of one plane of `plane` bytes (at most 1 GiB), committed;
 * the caller frees it.  0 or -SPATE_EINVAL. */
static int plane_type(size_t plane, MPI_Datatype *t)
{
	if (plane > (size_t)1 << 30)
		return -SPATE_EINVAL;
	MPI_Type_contiguous((int)plane, MPI_BYTE, t);
	MPI_Type_commit(t);
	return 0;
}
#endif

int decomp_allgather_planes(double *v, const struct decomp *d, double *wait)
{
#ifdef HAVE_MPI
	if (world_size > 1) {
		int count[DECOMP_MAX], offset[DECOMP_MAX], rc;
		double t0 = spate_now();
		rank_spans(d, count, offset);
		rc = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, v, count, offset, MPI_DOUBLE,
			world_comm);
		if (wait)
			*wait += spate_now() - t0;
		return rc == MPI_SUCCESS ? 0 : -SPATE_EDEVICE;
	}
#else
	(void)v;
	(void)d;
#endif
	(void)wait;
	return 0;
}

int decomp_allgather_rows(void *v, size_t plane, const struct decomp *d, double *wait)
{
#ifdef HAVE_MPI
	if (world_size > 1) {
		int count[DECOMP_MAX], offset[DECOMP_MAX], rc;
		double t0 = spate_now();
		MPI_Datatype t;
		if (plane_type(plane, &t))
			return -SPATE_EINVAL;
		rank_spans(d, count, offset);
		rc = MPI_Allgatherv(MPI_IN_PLACE, 0, t, v, count, offset, t, world_comm);
		MPI_Type_free(&t);
		if (wait)
			*wait += spate_now() - t0;
		return rc == MPI_SUCCESS ? 0 : -SPATE_EDEVICE;
	}
#else
	(void)v;
	(void)plane;
	(void)d;
#endif
	(void)wait;
	return 0;
}

int decomp_gather_rows(const void *mine, void *whole, size_t plane, const struct decomp *d)
{
#ifdef HAVE_MPI
	if (world_size > 1) {
		int count[DECOMP_MAX], offset[DECOMP_MAX];
		rank_spans(d, count, offset);
		if (world_rank == 0)
			return decomp_gather_planes(whole, whole, plane, count, offset);
		return decomp_gather_planes(mine, NULL, plane, count, offset);
	}
#else
	(void)mine;
	(void)whole;
	(void)plane;
	(void)d;
#endif
	return 0;
}

int decomp_scatter_span(const void *whole, void *mine, size_t plane, const struct decomp *d)
{
#ifdef HAVE_MPI
	if (world_size > 1) {
		int count[DECOMP_MAX], offset[DECOMP_MAX], rc = MPI_SUCCESS;
		MPI_Datatype t;
		if (plane_type(plane, &t))
			return -SPATE_EINVAL;
		rank_spans(d, count, offset);
		if (world_rank == 0) {
			for (int r = 1; r < world_size && rc == MPI_SUCCESS; r++)
				rc = MPI_Send((const char *)whole + (size_t)offset[r] * plane, count[r] + 2, t,
					r, 0, world_comm);
		} else {
			rc = MPI_Recv(mine, count[world_rank] + 2, t, 0, 0, world_comm, MPI_STATUS_IGNORE);
		}
		MPI_Type_free(&t);
		return rc == MPI_SUCCESS ? 0 : -SPATE_EDEVICE;
	}
#else
	(void)whole;
	(void)mine;
	(void)plane;
	(void)d;
#endif
	return 0;
}

int decomp_allgather_one(double v, double *all)
{
#ifdef HAVE_MPI
	if (world_size > 1)
		return MPI_Allgather(&v, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, world_comm) ==
			MPI_SUCCESS ? 0 : -SPATE_EDEVICE;
#endif
	all[0] = v;
	return 0;
}

int decomp_bcast(double *v, int n)
{
#ifdef HAVE_MPI
	if (world_size > 1)
		return MPI_Bcast(v, n, MPI_DOUBLE, 0, world_comm) == MPI_SUCCESS ? 0 : -SPATE_EDEVICE;
#else
	(void)v;
	(void)n;
#endif
	return 0;
}

int decomp_gather_planes(const void *send, void *recv, size_t plane, const int *count,
	const int *offset)
{
#ifdef HAVE_MPI
	MPI_Datatype t;
	int rc;
	if (world_size == 1)
		return 0;
	if (plane_type(plane, &t))
		return -SPATE_EINVAL;
	if (world_rank == 0)
		rc = MPI_Gatherv(send == recv ? MPI_IN_PLACE : send, count[0], t, recv, count,
			offset, t, 0, world_comm);
	else
		rc = MPI_Gatherv(send, count[world_rank], t, NULL, NULL, NULL, t, 0, world_comm);
	MPI_Type_free(&t);
	return rc == MPI_SUCCESS ? 0 : -SPATE_EDEVICE;
#else
	(void)send;
	(void)recv;
	(void)plane;
	(void)count;
	(void)offset;
	return 0;
#endif
}

#ifdef HAVE_MPI
/* For halo.c: the communicator of the run. */
MPI_Comm decomp_world_comm(void);
MPI_Comm decomp_world_comm(void)
{
	return world_comm;
}
#endif
