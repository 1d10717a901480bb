/* balance.h: load balancing in the decomposition layer, shared by both
 * physics modules (DESIGN.md, "Load balancing"; Skevik 2014, ch. 4).
 *
 * The work of a run is a number per plane (the cells a step computes there:
 * those of the wet bounding box, or the active cells of the plane); a
 * subdomain's speed is its measured seconds per unit of work.  Every
 * `interval` steps the plane boundaries move so that every subdomain's
 * predicted time (speed x work) is the same, by whole planes between
 * neighbouring subdomains only (never through a global gather), and only
 * when the time saved over the next interval pays for the move.
 *
 * Every rank calls these functions with the same inputs (reduced before) and
 * so takes the same decisions. */
#ifndef SPATE_BALANCE_H
#define SPATE_BALANCE_H

#include <stdio.h>
#include "decomp.h"

/* The seconds of every phase of a decomposed run (Skevik's tables 4.2-4.4),
 * the largest over the ranks, and what the balancing did. */
struct balance_report {
	int valid;            /* 1 after a decomposed run in this process */
	int n, nranks;        /* subdomains, ranks */
	char balance[8];      /* static, bbox, rows */
	char early[8];        /* off, on, auto */
	int ghost_k;          /* ghost cell expansion in use at the end */
	long steps;
	double simulation;    /* time stepping (exchanges included), s */
	double exchange;      /* halo exchanges, the busiest subdomain, s */
	double probe;         /* the initial speed probe, s */
	double tuning;        /* choosing the ghost cell expansion (its trial steps
	                         are also simulation), s */
	double bbox;          /* measuring the work and the speeds, s */
	double redecomp;      /* planning and moving planes, s */
	long measures;        /* work measurements (every interval) */
	long moves;           /* re-decompositions carried out */
	long skipped;         /* planned but not worth their cost */
	long rests;           /* intervals a subdomain sat out, summed over them */
	long rest_moves;      /* moves after which a subdomain rested */
	long planes_moved;    /* planes that changed subdomain, in all */
	long early_trials;    /* early-exit trials (auto) */
	int early_on;         /* subdomains that kept early exit on at the end */
	int row0[DECOMP_MAX], rows[DECOMP_MAX]; /* the final decomposition */
	double speed[DECOMP_MAX]; /* probe: cells per second of each subdomain */
};

/* Subdomains with the same group[k] run one after another (the CPU
 * subdomains of one rank, each with all its threads): a group's time is the
 * sum of its subdomains' times, and a step takes as long as the slowest
 * group.  Subdomains that run at the same time (one device each) are groups
 * of their own (group NULL: all of them).
 *
 * New boundaries bnew[0..n] (bnew[0] = 0, bnew[n] = ny) for planes of work
 * work[0..ny) (>= 0) and subdomains of sec[0..n) seconds per unit of work,
 * so that every group's predicted time (sum of sec[k] x the work of k's
 * planes) is as equal as whole planes allow: subdomain k's share of the
 * work is proportional to 1 / (sec[k] x the size of its group).  Each
 * subdomain keeps at least min_rows planes and gives away at most its old
 * planes less min_rows (so every plane moves to a neighbour, from planes
 * that are the giver's before the move); bold[0..n]: the boundaries now.
 * Returns the predicted time of the slowest group after the move (before
 * it: balance_time with bold). */
double balance_plan(int ny, int n, const double *work, const double *sec, const int *group,
	const int *bold, int min_rows, int *bnew);
/* The predicted time of the slowest group with boundaries b[0..n]. */
double balance_time(int n, const double *work, const double *sec, const int *group,
	const int *b);

/* How the mover reaches the subdomains' data (the physics module's job);
 * each returns 0 or -SPATE_E*.  bytes: the message that carries n planes.
 * pack: the n planes of subdomain `sub` next to edge `side` (0 low, 1 high)
 * into buf.  resize: subdomain `sub` owns gain_lo more planes at its low
 * edge and gain_hi more at its high edge (< 0: fewer), the new ones from
 * the messages lo and hi. */
struct balance_ops {
	void *user;
	size_t (*bytes)(void *user, int sub, int n);
	int (*pack)(void *user, int sub, int side, int n, void *buf);
	int (*resize)(void *user, int sub, int gain_lo, int gain_hi, const void *lo,
		const void *hi);
	/* NULL, or: subdomain `sub` takes n planes at edge `side` (0 low, 1
	 * high) straight from subdomain `from` of this rank, whose planes stay
	 * until its resize.  Used for the edges between subdomains of one rank
	 * (every take before any resize); the others travel as messages. */
	int (*take)(void *user, int sub, int side, int n, int from);
};

/* Move planes so that subdomain k owns [bnew[k], bnew[k + 1]) (a plan of
 * balance_plan: planes go to neighbours only): pack every message first,
 * send those between ranks (non-blocking MPI) and resize.  Updates d; adds
 * the planes that changed subdomain to *moved.  Returns 0 or -SPATE_E*. */
int balance_move(struct decomp *d, const int *bnew, const struct balance_ops *ops,
	long *moved);

/* Finish the report of a run from the counters and seconds acc gathered on
 * this rank: the phases' seconds become the largest over the ranks (the
 * simulation is advance_s less the balancing's own phases), exchange_s[k]
 * and early_on[k] are per subdomain of this rank.  The result is
 * balance_last(), printed by rank 0.  Collective. */
void balance_report(const struct balance_report *acc, const struct decomp *d, long steps,
	double advance_s, const double *exchange_s, const int *early_on);
/* The report of the last decomposed run of this process (valid = 0: none). */
struct balance_report *balance_last(void);
/* Print the phase table on stderr (spate_log_info; rank 0 only). */
void balance_print(const struct balance_report *r);
/* Write `,\n  "decomposition": {...}` to a JSON summary when the last run
 * was decomposed; nothing otherwise. */
void balance_json(FILE *f);

#endif
