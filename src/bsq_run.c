/* bsq_run.c: the Boussinesq run driver (bsq_run.h): set-up or restart, the
 * time loop (run_clock.h) with the progress line, snapshots at the first
 * step at or past each output time, series rows, checkpoints, signals;
 * profiles and the summary at the end.  The second client of the run
 * services, which it calls without changing them. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "spate.h"
#include "bsq_cuda.h"
#include "bsq_slab.h"
#include "decomp.h"
#include "bsq_run.h"
#include "bsq_out.h"
#include "bsq_ckpt.h"
#include "run_clock.h"
#include "run_signal.h"
#include "progress.h"
#include "summary.h"

#ifdef HAVE_NETCDF
#define HAVE_NC 1
#else
#define HAVE_NC 0
#endif

/* A run in progress. */
struct run {
	const struct bsq_config *c;
	const struct bsq_run_opts *o;
	struct bsq_result *r;
	struct bsq_params p;
	struct bsq_state s;         /* the host copy (the state itself on the CPU) */
	struct bsq_cuda *gpu;       /* the device state, or NULL on the CPU */
	struct bsq_slabs *slabs;    /* the state in slabs ([parallel], mpirun), or NULL */
	int slabs_gpu;              /* 1: the slabs are on the GPU */
	struct bsq_stats st;
	struct spate_clock clk;
	struct bsq_out out;
	int writes;                 /* this process writes the files (rank 0) */
	int ncpar;                  /* results.nc written in parallel: each rank its planes */
	long snap_step;         /* the step of the last snapshot written (-1: none) */
};

/* In parallel: this rank's planes of the five fields straight from its
 * slabs into results.nc (collective; no gather). */
static int snapshot_planes(struct run *u)
{
	struct bsq_state loc;
	int rc = bsq_slabs_local(u->slabs, 5, &loc);
	if (rc)
		return rc;
	loc.t = u->s.t;
	loc.step = u->s.step;
	rc = bsq_out_snapshot(&u->out, &loc, u->clk.index);
	bsq_slabs_local_free(&loc);
	return rc;
}

static int snapshot(struct run *u)
{
	int rc = u->ncpar ? snapshot_planes(u) : bsq_out_snapshot(&u->out, &u->s, u->clk.index);
	u->clk.index++;
	u->snap_step = u->s.step;
	return rc;
}

static int checkpoint(struct run *u)
{
	char path[BSQ_PATH_MAX + 64];
	int rc = bsq_ckpt_write(u->c, &u->s, &u->clk, u->r->cycles_total, path,
		sizeof path);
	if (!rc)
		spate_log_info("spate: checkpoint at t = %.6g, step %ld: %s\n", u->s.t, u->s.step,
			path);
	return rc;
}

/* [parallel] subdomains > 1, or several MPI ranks: the state in slabs of
 * whole planes (bsq_slab.h), at least one a rank; on the GPU where the
 * device says so. */
static int start_slabs(struct run *u)
{
	int n = u->c->subdomains, P = decomp_world_size();
	if (n <= 1 && P <= 1)
		return 0;
	n = n < P ? P : n;
	u->slabs_gpu = u->c->device == BSQ_DEVICE_CUDA ||
		(u->c->device == BSQ_DEVICE_AUTO && bsq_cuda_available() > 0);
	if (u->slabs_gpu)
		return bsq_cuda_slabs_init(&u->slabs, &u->s, &u->p, n, u->c->overlap,
			u->c->transport);
	return bsq_slabs_init(&u->slabs, &u->s, &u->p, n, u->c->overlap, u->c->transport);
}

/* The slabs' fields into rank 0's whole state (collective), counted. */
static int gather_root(struct run *u)
{
	u->r->gathers++;
	return bsq_slabs_gather_root(u->slabs, &u->s, &u->p);
}

/* The slabs' fields into rank 0's whole state when any rank needs them
 * (due; only rank 0 writes): collective, every rank calls it. */
static int gather(struct run *u, int due)
{
	double any = due;
	int rc;
	if (!u->slabs)
		return 0;
	if ((rc = decomp_max(&any, 1, NULL)))
		return rc;
	return any > 0 ? gather_root(u) : 0;
}

/* Under mpirun: rank 0 reads the checkpoint into its whole state; the
 * others, which hold only its shape, learn the outcome, the time, step and
 * solver count (their planes come with the slabs) and the output clock
 * (they write their planes of results.nc in parallel).  Collective. */
static int restart_ranks(struct run *u)
{
	double v[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	int rc;
	if (decomp_world_rank() == 0) {
		v[0] = bsq_ckpt_read(u->o->restart, u->c, &u->s, &u->clk, &u->r->cycles_total);
		v[1] = u->s.t;
		v[2] = u->s.dt_prev;
		v[3] = (double)u->s.step;
		v[4] = (double)u->r->cycles_total;
		v[5] = u->clk.next_out;
		v[6] = u->clk.next_ckpt;
		v[7] = u->clk.index;
	}
	if ((rc = decomp_bcast(v, 8)))
		return rc;
	if (v[0] != 0)
		return (int)v[0]; /* rank 0 said why */
	u->s.t = v[1];
	u->s.dt_prev = v[2];
	u->s.step = (long)v[3];
	u->r->cycles_total = (long)v[4];
	u->clk.next_out = v[5];
	u->clk.next_ckpt = v[6];
	u->clk.index = (int)v[7];
	return 0;
}

/* Whether results.nc is written in parallel: under mpirun, built against
 * the MPI flavour of NetCDF, when there is a results.nc.  The same answer
 * on every rank. */
static int parallel_results(const struct run *u)
{
#ifdef HAVE_NETCDF_PAR
	return u->slabs && decomp_world_size() > 1 && u->c->netcdf && !u->o->no_output;
#else
	return 0;
#endif
}

/* The outputs: files on rank 0; under mpirun results.nc either by every
 * rank for its planes (parallel), or by rank 0 from gathered fields. */
static int open_out(struct run *u)
{
	struct bsq_out_part part;
	int P = decomp_world_size(), rc;
	if (!u->ncpar) {
		if (u->writes && P > 1 && u->c->netcdf && HAVE_NC)
			spate_log_info("spate: %s/results.nc written by rank 0 from the gathered "
				"fields (this spate's NetCDF is the serial flavour)\n", u->c->out_dir);
		return u->writes ? bsq_out_open(&u->out, u->c, &u->p, &u->s, u->o->restart != NULL,
			NULL) : 0;
	}
	bsq_slabs_mine(u->slabs, &part.k0, &part.nk);
	part.files = u->writes;
	if (!(rc = bsq_out_open(&u->out, u->c, &u->p, &u->s, u->o->restart != NULL, &part)))
		spate_log_info("spate: %s/results.nc written in parallel: each of %d ranks writes "
			"its own planes (NetCDF-4 over MPI-IO), no gather for snapshots\n",
			u->c->out_dir, P);
	return rc;
}

static int start(struct run *u)
{
	/* under mpirun the whole state is built (set-up, checkpoint) on rank 0
	 * only; the other ranks get their slabs' planes from it */
	int rc, mpi = decomp_world_size() > 1, shape = mpi && decomp_world_rank() > 0;
	if ((rc = bsq_config_resolve(u->c, &u->p)) ||
		(rc = shape ? bsq_init_shape(&u->s, &u->p) : bsq_init(&u->s, &u->p)))
		return rc;
	spate_clock_start(&u->clk, u->c->end_time, u->c->out_interval, u->c->checkpoint_every);
	if (u->o->restart && (rc = mpi ? restart_ranks(u) : bsq_ckpt_read(u->o->restart, u->c,
		&u->s, &u->clk, &u->r->cycles_total)))
		return rc;
	if ((rc = start_slabs(u)))
		return rc;
	if (!u->slabs && (u->c->device == BSQ_DEVICE_CUDA ||
		(u->c->device == BSQ_DEVICE_AUTO && bsq_cuda_available() > 0)))
		if ((rc = bsq_cuda_init(&u->gpu, &u->s, &u->p)))
			return rc;
	u->writes = !u->o->no_output && !u->o->follower;
	u->ncpar = parallel_results(u);
	if ((rc = open_out(u)))
		return rc;
	if ((u->writes || u->ncpar) && !u->o->restart)
		rc = snapshot(u);
	return rc;
}

/* After a step: the series row, a snapshot or a checkpoint when due; on
 * the GPU the fields come down once, and only when one of them is.  The
 * slabs are gathered to rank 0 for a checkpoint, and for a snapshot unless
 * results.nc is written in parallel; a series row takes its sums from every
 * rank's planes (bsq_slabs_series: a few numbers a plane travel). */
static int after_step(struct run *u)
{
	int series = 0, out = 0, ckpt = 0, rc = 0;
	double energy = 0, nusselt = 0;
	u->r->cycles_total += u->st.cycles;
	if (u->writes) {
		series = bsq_out_series_due(&u->out, u->s.t);
		ckpt = spate_clock_ckpt_due(&u->clk, u->s.t);
	}
	if (u->writes || u->ncpar)
		out = spate_clock_output_due(&u->clk, u->s.t);
	if (u->slabs) {
		/* rank 0 knows whether a row or a gather is due; both need every
		 * rank: one reduction tells them */
		double due[2] = { series, ckpt || (out && !u->ncpar) };
		if ((rc = decomp_max(due, 2, NULL)) ||
			(due[0] > 0 && (rc = bsq_slabs_series(u->slabs, &u->p, &energy, &nusselt))) ||
			(due[1] > 0 && (rc = gather_root(u))))
			return rc;
	}
	if (!(u->writes || u->ncpar))
		return 0;
	/* a series row alone reads u, v, w and T: a quarter of the arrays (at
	 * 384 x 384 x 192 a row every step took 0.4 s a step with every array
	 * brought over, against 12 ms for the step itself) */
	if (u->gpu && (out || ckpt) && (rc = bsq_cuda_download(u->gpu, &u->s)))
		return rc;
	if (u->gpu && series && !(out || ckpt) && (rc = bsq_cuda_download_flow(u->gpu, &u->s)))
		return rc;
	if (series && (rc = u->slabs ?
		bsq_out_series_row(&u->out, u->s.t, u->s.step, &u->st, energy, nusselt) :
		bsq_out_series(&u->out, &u->s, &u->st)))
		return rc;
	if (out && (rc = snapshot(u)))
		return rc;
	if (ckpt)
		rc = checkpoint(u);
	return rc;
}

/* One step on the CPU, in slabs or on the GPU; in slabs and on the GPU the
 * host copy follows only the clock (after_step and finish bring the fields
 * over when they need them). */
static int step(struct run *u)
{
	int rc;
	if (!u->gpu && !u->slabs)
		return bsq_step(&u->s, &u->p, &u->st);
	rc = u->slabs ? bsq_slabs_step(u->slabs, &u->p, &u->st) :
		bsq_cuda_step(u->gpu, &u->p, &u->st);
	if (rc)
		return rc;
	u->s.t = u->st.t;
	u->s.dt_prev = u->st.dt;
	u->s.step++;
	return 0;
}

static int loop(struct run *u)
{
	const struct bsq_config *c = u->c;
	struct spate_progress pr;
	long steps0 = u->s.step;
	int rc = 0, stop;
	spate_progress_start(&pr, u->s.t, steps0, c->end_time,
		(double)u->s.g.nx * u->s.g.ny * u->s.g.nz);
	/* the ranks agree on a signal at every step (spate_interrupted_all): one
	 * that reached one rank alone left it in the gather below while the
	 * others stepped on */
	while (u->s.t < c->end_time && !spate_interrupted_all() &&
		!(c->max_steps > 0 && u->s.step >= c->max_steps)) {
		if ((rc = step(u)) || (rc = after_step(u)))
			return rc;
		spate_progress_tick(&pr, u->s.t, u->s.step, u->st.dt);
	}
	u->r->wall_s = spate_progress_end(&pr, u->s.t, u->s.step, u->st.dt,
		&u->r->cell_steps_per_s);
	stop = u->s.t < c->end_time && (spate_interrupted_all() || c->checkpoint_every > 0);
	if (stop && (rc = gather(u, u->writes)))
		return rc;
	if (u->writes && stop && !(u->gpu && (rc = bsq_cuda_download(u->gpu, &u->s))))
		rc = checkpoint(u);
	return rc;
}

static int finish(struct run *u)
{
	struct bsq_result *r = u->r;
	double l2;
	int rc = 0;
	if ((u->gpu && (rc = bsq_cuda_download(u->gpu, &u->s))) || (rc = gather(u, 1)))
		return rc;
	r->cuda = u->gpu != NULL || u->slabs_gpu;
	r->n[0] = u->p.nx;
	r->n[1] = u->p.ny;
	r->n[2] = u->p.nz;
	r->len[0] = u->p.lx;
	r->len[1] = u->p.ly;
	r->len[2] = u->p.lz;
	r->steps = u->s.step;
	r->t = u->s.t;
	r->residual = u->st.residual;
	r->cycles = u->st.cycles;
	r->ranks = decomp_world_size();
	if ((rc = decomp_allgather_one(spate_resident_mib(0), r->resident_mib)) ||
		(rc = decomp_allgather_one(spate_resident_mib(1), r->peak_mib)))
		return rc;
	if (u->ncpar && u->snap_step != u->s.step && (rc = snapshot(u)))
		return rc;
	if (!u->s.u)
		return 0; /* a rank that holds only its slabs reports nothing */
	r->energy = bsq_diag_energy(&u->s);
	bsq_diag_div(&u->s, &r->div_max, &l2);
	r->nusselt = bsq_nusselt(&u->s, &u->p);
	if (u->writes && !u->ncpar && u->snap_step != u->s.step)
		rc = snapshot(u);
	if (!rc && u->writes)
		rc = bsq_out_profiles(&u->out, &u->s);
	r->outputs = u->clk.index;
	return rc;
}

int bsq_run(const struct bsq_config *c, const struct bsq_run_opts *o, struct bsq_result *r)
{
	struct run u;
	int rc, rc2;
	memset(&u, 0, sizeof u);
	memset(r, 0, sizeof *r);
	u.c = c;
	u.o = o;
	u.r = r;
	u.snap_step = -1;
#ifdef _OPENMP
	if (c->threads > 0)
		omp_set_num_threads(c->threads);
#endif
	spate_signals_catch();
	rc = start(&u);
	if (!rc) {
		char slabs[64] = "";
		if (u.slabs)
			snprintf(slabs, sizeof slabs, ", %d slabs on %d rank(s), %d levels cut",
				c->subdomains < decomp_world_size() ? decomp_world_size() : c->subdomains,
				decomp_world_size(), bsq_slabs_split(u.slabs));
		spate_log_info("spate: boussinesq %s, %d x %d x %d cells, %s pressure, %s, %s%s%s\n",
			c->setup, u.s.g.nx, u.s.g.ny, u.s.g.nz, u.p.solver == BSQ_SOLVER_MG ?
			"multigrid" : "Jacobi", sizeof(bsq_real) == 8 ? "double" : "single",
			u.gpu || u.slabs_gpu ? "CUDA" : "CPU", slabs, o->restart ? ", restarted" : "");
		rc = loop(&u);
	}
	if (!rc)
		rc = finish(&u);
	rc2 = u.writes || u.ncpar ? bsq_out_close(&u.out) : 0;
	rc = rc ? rc : rc2;
	rc = spate_signals_end(rc, u.s.t, "", c->end_time, u.s.step, c->out_dir);
	bsq_cuda_free(u.gpu);
	bsq_slabs_free(u.slabs);
	bsq_free(&u.s);
	return rc;
}

int bsq_write_summary(const char *path, const struct bsq_config *c, const struct bsq_result *r)
{
	struct spate_summary s;
	char device[64];
	int rc, threads = 1;
#ifdef _OPENMP
	threads = omp_get_max_threads();
#endif
	if (r->cuda)
		snprintf(device, sizeof device, "CUDA GPU");
	else
		snprintf(device, sizeof device, "CPU (%d OpenMP threads)", threads);
	if ((rc = spate_summary_open(&s, path, "bsq", c->setup, r->cuda ? "cuda" : "cpu", device,
		sizeof(bsq_real) == 8 ? "double" : "single")))
		return rc;
	spate_summary_int(&s, "nx", r->n[0]);
	spate_summary_int(&s, "ny", r->n[1]);
	spate_summary_int(&s, "nz", r->n[2]);
	spate_summary_num(&s, "lx", r->len[0]);
	spate_summary_num(&s, "ly", r->len[1]);
	spate_summary_num(&s, "lz", r->len[2]);
	spate_summary_int(&s, "steps", r->steps);
	spate_summary_num(&s, "sim_time", r->t);
	spate_summary_fmt(&s, "wall_s", "%.6f", r->wall_s);
	spate_summary_fmt(&s, "cell_updates_per_s", "%.6g", r->cell_steps_per_s);
	spate_summary_num(&s, "kinetic_energy", r->energy);
	spate_summary_fmt(&s, "div_max", "%.6e", r->div_max);
	spate_summary_fmt(&s, "pressure_residual", "%.6e", r->residual);
	spate_summary_int(&s, "pressure_cycles_last", r->cycles);
	spate_summary_int(&s, "pressure_cycles_total", r->cycles_total);
	if (!isnan(r->nusselt))
		spate_summary_num(&s, "nusselt", r->nusselt);
	spate_summary_int(&s, "outputs", r->outputs);
	spate_summary_nums(&s, "resident_mib", r->resident_mib, r->ranks, "%.1f");
	spate_summary_nums(&s, "peak_mib", r->peak_mib, r->ranks, "%.1f");
	spate_summary_int(&s, "gathers", r->gathers);
	return spate_summary_close(&s, path);
}
