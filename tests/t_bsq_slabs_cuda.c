/* t_bsq_slabs_cuda.c: the Boussinesq state cut into slabs on one GPU
 * (bsq_cuda_slabs_init, issue 21) against one domain on the same GPU
 * (bsq_cuda_step): the same bits.
 *
 * Each case runs STEPS steps on the GPU as one domain, then as 1, 2, 3 and 5
 * slabs (uneven plane counts among them) under each overlap strategy (none;
 * compute: interior planes first, then the edge planes after the halo;
 * streams: the same with each slab's cell kernels on its own stream),
 * gathers the slabs and requires u, v, w, T and p, ghosts included, byte for
 * byte equal, and every step's statistics (dt, V-cycles or sweeps,
 * residual, max and RMS divergence) equal.  Cases: Rayleigh-Benard
 * 16 x 4 x 16 (periodic x and y, no-slip plates, thermal), the lid-driven
 * cavity 16 x 1 x 16 with multigrid (trilinear and constant prolongation)
 * and Jacobi, and 8 x 8 x 16 with walls.  Prints each comparison.
 *
 * Skipped (exit 77) when built without CUDA or no GPU is there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bsqtest.h"
#include "bsq_cuda.h"
#include "bsq_slab.h"
#include "decomp.h"

#define STEPS 12

enum { RB, CAVITY2D, CAVITY3D };

static void setup(struct bsq_params *p, int kind, int solver, int interp)
{
	bsq_params_default(p);
	if (kind == RB)
		assert_int_equal(bsq_setup_rb(p, 16, 4, 16, 2500, 0.71, 0, 3.117, 1e-2), 0);
	else
		assert_int_equal(bsq_setup_cavity(p, 16, 100, kind == CAVITY3D), 0);
	if (kind == CAVITY3D) {
		p->nx = p->ny = 8;
		p->lx = p->ly = 0.5;
	}
	p->solver = solver;
	p->interp = interp;
	p->tol = solver == BSQ_SOLVER_JACOBI ? 1e-5 : BSQTEST_TOL(1e-9);
	p->max_sweeps = 20000;
}

static void same_stats(const struct bsq_stats *sa, const struct bsq_stats *sb)
{
	assert_memory_equal(&sa->dt, &sb->dt, sizeof sa->dt);
	assert_int_equal(sa->cycles, sb->cycles);
	assert_memory_equal(&sa->residual, &sb->residual, sizeof sa->residual);
	assert_memory_equal(&sa->div_max, &sb->div_max, sizeof sa->div_max);
	assert_memory_equal(&sa->div_l2, &sb->div_l2, sizeof sa->div_l2);
}

static void same_fields(const struct bsq_state *a, const struct bsq_state *b)
{
	size_t n = a->n * sizeof(bsq_real);
	assert_memory_equal(a->u, b->u, n);
	assert_memory_equal(a->v, b->v, n);
	assert_memory_equal(a->w, b->w, n);
	assert_memory_equal(a->T, b->T, n);
	assert_memory_equal(a->p, b->p, n);
}

static void check_case(int kind, int solver, int interp)
{
	static const int ns[] = { 1, 2, 3, 5 };
	struct bsq_params p;
	struct bsq_state ref, w;
	struct bsq_stats st[STEPS], sst;
	struct bsq_cuda *gpu;
	int i, j, ov;
	setup(&p, kind, solver, interp);
	assert_int_equal(bsq_init(&ref, &p), 0);
	assert_int_equal(bsq_cuda_init(&gpu, &ref, &p), 0);
	for (i = 0; i < STEPS; i++)
		assert_int_equal(bsq_cuda_step(gpu, &p, &st[i]), 0);
	assert_int_equal(bsq_cuda_download(gpu, &ref), 0);
	bsq_cuda_free(gpu);
	for (j = 0; j < 4; j++)
		for (ov = BSQ_OVERLAP_NONE; ov <= BSQ_OVERLAP_STREAMS; ov++) {
			struct bsq_slabs *S;
			assert_int_equal(bsq_init(&w, &p), 0);
			assert_int_equal(bsq_cuda_slabs_init(&S, &w, &p, ns[j], ov,
				HALO_TRANSPORT_AUTO), 0);
			for (i = 0; i < STEPS; i++) {
				assert_int_equal(bsq_slabs_step(S, &p, &sst), 0);
				same_stats(&st[i], &sst);
			}
			assert_int_equal(bsq_slabs_gather(S, &w, &p), 0);
			same_fields(&ref, &w);
			printf("  GPU, %d slabs (%d levels cut), overlap %d: equal to one domain; last "
				"step %d %s\n", ns[j], bsq_slabs_split(S), ov, sst.cycles,
				solver == BSQ_SOLVER_JACOBI ? "sweeps" : "V-cycles");
			bsq_slabs_free(S);
			bsq_free(&w);
		}
	bsq_free(&ref);
}

static void test_rb_mg(void **u)
{
	(void)u;
	check_case(RB, BSQ_SOLVER_MG, BSQ_INTERP_PL);
}

static void test_cavity2d_mg(void **u)
{
	(void)u;
	check_case(CAVITY2D, BSQ_SOLVER_MG, BSQ_INTERP_PL);
}

static void test_cavity2d_mg_pc(void **u)
{
	(void)u;
	check_case(CAVITY2D, BSQ_SOLVER_MG, BSQ_INTERP_PC);
}

static void test_cavity2d_jacobi(void **u)
{
	(void)u;
	check_case(CAVITY2D, BSQ_SOLVER_JACOBI, BSQ_INTERP_PL);
}

static void test_cavity3d_mg(void **u)
{
	(void)u;
	check_case(CAVITY3D, BSQ_SOLVER_MG, BSQ_INTERP_PL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rb_mg),
		cmocka_unit_test(test_cavity2d_mg),
		cmocka_unit_test(test_cavity2d_mg_pc),
		cmocka_unit_test(test_cavity2d_jacobi),
		cmocka_unit_test(test_cavity3d_mg),
	};
	if (bsq_cuda_available() < 1) {
		printf("t_bsq_slabs_cuda: no CUDA GPU (or built without CUDA): skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
