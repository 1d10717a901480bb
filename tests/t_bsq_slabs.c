/* t_bsq_slabs.c: the Boussinesq state cut into slabs of whole x-y planes
 * (bsq_slab.h, issue 21) against one domain (bsq_step): the same bits.
 *
 * Each case runs STEPS steps on one domain, then on 1, 2, 3 and 5 slabs
 * (uneven plane counts among them: 16 planes as 6 + 4 + 6 with multigrid,
 * 5 + 6 + 5 with Jacobi, 3 + 3 + 4 + 3 + 3) under each overlap strategy
 * (none, compute, streams), gathers the slabs and requires u, v, w, T and p,
 * ghosts included, byte for byte equal, and every step's statistics (dt,
 * V-cycles or sweeps, residual, max and RMS divergence) equal.  Cases:
 * Rayleigh-Benard 16 x 4 x 16 (periodic x and y, no-slip plates, thermal),
 * the lid-driven cavity 16 x 1 x 16 (periodic y) and 8 x 8 x 16 (walls), each
 * with multigrid (trilinear and constant prolongation) and Jacobi, and the
 * 2D cavity with warm_start = previous (no PREV to cut, move or gather;
 * with linear, the default, PREV is compared too).  Also: periodic z and
 * more slabs than planes are refused.
 *
 * Under mpiexec (tests/bsq_mpi.sh) every rank runs the same cases (STEPS_MPI
 * steps) with as many slabs as ranks and one more (ranks own groups of
 * slabs), and compares the gathered fields with its own one-domain run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bsqtest.h"
#include "bsq_slab.h"
#include "decomp.h"

/* Steps of each case; under mpiexec fewer (the ranks share this machine's
 * cores, and every sweep is a message). */
#define STEPS 12
#define STEPS_MPI 4

static int steps(void)
{
	return decomp_world_size() > 1 ? STEPS_MPI : STEPS;
}

enum { RB, CAVITY2D, CAVITY3D };

static void setup(struct bsq_params *p, int kind, int solver, int interp, int warm)
{
	bsq_params_default(p);
	switch (kind) {
	case RB:
		assert_int_equal(bsq_setup_rb(p, 16, 4, 16, 2500, 0.71, 0, 3.117, 1e-2), 0);
		break;
	case CAVITY2D:
		assert_int_equal(bsq_setup_cavity(p, 16, 100, 0), 0);
		break;
	default:
		assert_int_equal(bsq_setup_cavity(p, 16, 100, 1), 0);
		p->nx = p->ny = 8;
		p->lx = p->ly = 0.5;
	}
	p->solver = solver;
	p->interp = interp;
	p->warm = warm;
	p->tol = solver == BSQ_SOLVER_JACOBI ? 1e-5 : BSQTEST_TOL(1e-9);
	p->max_sweeps = 20000;
}

/* One domain: the state and every step's statistics. */
static void run_one(struct bsq_state *s, const struct bsq_params *p, struct bsq_stats *st)
{
	int i;
	assert_int_equal(bsq_init(s, p), 0);
	for (i = 0; i < steps(); i++)
		assert_int_equal(bsq_step(s, p, &st[i]), 0);
}

static void same_stats(const struct bsq_stats *a, const struct bsq_stats *b)
{
	assert_memory_equal(&a->dt, &b->dt, sizeof a->dt);
	assert_int_equal(a->cycles, b->cycles);
	assert_int_equal(a->fmg, b->fmg);
	assert_memory_equal(&a->residual, &b->residual, sizeof a->residual);
	assert_memory_equal(&a->div_max, &b->div_max, sizeof a->div_max);
	assert_memory_equal(&a->div_l2, &b->div_l2, sizeof a->div_l2);
}

static void same_fields(const struct bsq_state *a, const struct bsq_state *b)
{
	size_t n = a->n * sizeof(bsq_real);
	assert_memory_equal(a->u, b->u, n);
	assert_memory_equal(a->v, b->v, n);
	assert_memory_equal(a->w, b->w, n);
	assert_memory_equal(a->T, b->T, n);
	assert_memory_equal(a->p, b->p, n);
	assert_true(!a->lev[0].v[BSQ_PREV] == !b->lev[0].v[BSQ_PREV]);
	if (a->lev[0].v[BSQ_PREV])
		assert_memory_equal(a->lev[0].v[BSQ_PREV], b->lev[0].v[BSQ_PREV], n);
	assert_true(a->t == b->t && a->step == b->step);
}

/* n slabs with overlap strategy ov against the one-domain run (ref, st). */
static void compare(const struct bsq_params *p, const struct bsq_state *ref,
	const struct bsq_stats *st, int n, int ov)
{
	struct bsq_state w;
	struct bsq_slabs *S;
	struct bsq_stats sst;
	int i;
	assert_int_equal(bsq_init(&w, p), 0);
	assert_int_equal(bsq_slabs_init(&S, &w, p, n, ov, HALO_TRANSPORT_AUTO), 0);
	for (i = 0; i < steps(); i++) {
		assert_int_equal(bsq_slabs_step(S, p, &sst), 0);
		same_stats(&st[i], &sst);
	}
	assert_int_equal(bsq_slabs_gather(S, &w, p), 0);
	same_fields(ref, &w);
	if (decomp_world_rank() == 0)
		printf("  %d slabs (%d levels cut), overlap %d: equal; last step %d %s, residual "
			"%.3e\n", n, bsq_slabs_split(S), ov, sst.cycles,
			p->solver == BSQ_SOLVER_JACOBI ? "sweeps" : "V-cycles", sst.residual);
	bsq_slabs_free(S);
	bsq_free(&w);
}

/* The case against 1, 2, 3 and 5 slabs (under MPI: ranks and ranks + 1),
 * each overlap strategy. */
static void check_case(int kind, int solver, int interp, int warm)
{
	struct bsq_params p;
	struct bsq_state ref;
	struct bsq_stats st[STEPS];
	const int P = decomp_world_size();
	const int serial[] = { 1, 2, 3, 5 }, mpi[] = { P, P + 1 };
	const int *ns = P > 1 ? mpi : serial;
	int nn = P > 1 ? 2 : 4, i, ov;
	setup(&p, kind, solver, interp, warm);
	run_one(&ref, &p, st);
	for (i = 0; i < nn; i++)
		for (ov = BSQ_OVERLAP_NONE; ov <= BSQ_OVERLAP_STREAMS; ov++)
			compare(&p, &ref, st, ns[i], ov);
	bsq_free(&ref);
}

static void test_rb_mg(void **u)
{
	(void)u;
	check_case(RB, BSQ_SOLVER_MG, BSQ_INTERP_PL, BSQ_WARM_LINEAR);
}

static void test_rb_jacobi(void **u)
{
	(void)u;
	check_case(RB, BSQ_SOLVER_JACOBI, BSQ_INTERP_PL, BSQ_WARM_LINEAR);
}

static void test_cavity2d_mg(void **u)
{
	(void)u;
	check_case(CAVITY2D, BSQ_SOLVER_MG, BSQ_INTERP_PL, BSQ_WARM_LINEAR);
}

static void test_cavity2d_mg_pc(void **u)
{
	(void)u;
	check_case(CAVITY2D, BSQ_SOLVER_MG, BSQ_INTERP_PC, BSQ_WARM_LINEAR);
}

static void test_cavity2d_mg_previous(void **u)
{
	(void)u;
	check_case(CAVITY2D, BSQ_SOLVER_MG, BSQ_INTERP_PL, BSQ_WARM_PREVIOUS);
}

static void test_cavity2d_jacobi(void **u)
{
	(void)u;
	check_case(CAVITY2D, BSQ_SOLVER_JACOBI, BSQ_INTERP_PL, BSQ_WARM_LINEAR);
}

static void test_cavity3d_mg(void **u)
{
	(void)u;
	check_case(CAVITY3D, BSQ_SOLVER_MG, BSQ_INTERP_PL, BSQ_WARM_LINEAR);
}

/* The cuts: uneven plane counts, and levels cut only while they pair up. */
static void test_cut(void **u)
{
	struct bsq_params p;
	struct bsq_state w;
	struct bsq_slabs *S;
	int row0, rows;
	(void)u;
	if (decomp_world_size() > 1)
		skip();
	setup(&p, CAVITY2D, BSQ_SOLVER_MG, BSQ_INTERP_PL, BSQ_WARM_LINEAR);
	assert_int_equal(bsq_init(&w, &p), 0);
	assert_int_equal(bsq_slabs_init(&S, &w, &p, 3, BSQ_OVERLAP_NONE,
		HALO_TRANSPORT_AUTO), 0);
	bsq_slabs_part(S, 1, &row0, &rows);
	assert_int_equal(row0, 6);
	assert_int_equal(rows, 4);
	assert_int_equal(bsq_slabs_split(S), 2);
	bsq_slabs_free(S);
	assert_int_equal(bsq_slabs_init(&S, &w, &p, 2, BSQ_OVERLAP_NONE,
		HALO_TRANSPORT_AUTO), 0);
	assert_int_equal(bsq_slabs_split(S), 4);
	bsq_slabs_free(S);
	assert_int_equal(bsq_slabs_init(&S, &w, &p, 17, BSQ_OVERLAP_NONE,
		HALO_TRANSPORT_AUTO), -SPATE_EINVAL);
	assert_null(S);
	bsq_free(&w);
}

static void test_periodic_z_refused(void **u)
{
	struct bsq_params p;
	struct bsq_state w;
	struct bsq_slabs *S;
	(void)u;
	bsq_params_default(&p);
	assert_int_equal(bsq_setup_tg(&p, 16, 0.05), 0);
	assert_int_equal(bsq_init(&w, &p), 0);
	assert_int_equal(bsq_slabs_init(&S, &w, &p, 2, BSQ_OVERLAP_NONE,
		HALO_TRANSPORT_AUTO), -SPATE_EINVAL);
	assert_null(S);
	bsq_free(&w);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_periodic_z_refused),
		cmocka_unit_test(test_rb_mg),
		cmocka_unit_test(test_rb_jacobi),
		cmocka_unit_test(test_cavity2d_mg),
		cmocka_unit_test(test_cavity2d_mg_pc),
		cmocka_unit_test(test_cavity2d_mg_previous),
		cmocka_unit_test(test_cavity2d_jacobi),
		cmocka_unit_test(test_cavity3d_mg),
	};
	int rc;
	if (decomp_world_init(&argc, &argv))
		return 99;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	return decomp_world_fini(rc);
}
