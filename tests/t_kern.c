/* t_kern.c: unit tests of the KP07 formulas in swe_kern.h (and the stencil
 * layer swe_step.h for the one-cell lake-at-rest balance).
 *
 * Every test compares against a value worked out by hand or a property that
 * holds exactly in exact arithmetic; tolerances are a few ulps of `real`
 * scaled by the size of the numbers involved. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "swe_kern.h"
#include "swe_cell.h"
#include "swe_step.h"
#include "swe_guard.h"

#ifdef SPATE_DOUBLE
#define EPS 1e-12
#else
#define EPS 1e-5
#endif

/* |a - b| <= tol, with both values in the failure message. */
#define assert_close(a, b, tol) do { \
		double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol); \
		if (!(fabs(a_ - b_) <= t_)) \
			fail_msg("%s = %.9g, %s = %.9g: differ by %.3g > %.3g", #a, a_, #b, b_, \
				fabs(a_ - b_), t_); \
	} while (0)

/* Deterministic uniform numbers in [lo, hi) (xorshift64*). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static double urand(double lo, double hi)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return lo + (hi - lo) * (double)((rng_state * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-53;
}

static struct swe_coef coef(void)
{
	struct swe_coef c;
	c.g = (real)9.81;
	c.theta = (real)1.3;
	c.kappa4 = (real)1e-12;  /* kappa = 1e-3 m */
	c.dry = (real)1e-6;
	c.n2 = 0;
	return c;
}

static struct kp07_face face(real B, real h, real hn, real ht)
{
	struct kp07_face f;
	(void)B;
	f.h = h;
	f.eta = h;
	f.hn = hn;
	f.ht = ht;
	return f;
}

/* ------------------------------------------------------------ minmod */

static void test_minmod(void **st)
{
	(void)st;
	assert_close(kp07_minmod(1, 2, 3), 1, 0);
	assert_close(kp07_minmod(3, 2, 1), 1, 0);
	assert_close(kp07_minmod(2, 0.5, 3), 0.5, 0);
	assert_close(kp07_minmod(-1, -2, -3), -1, 0);
	assert_close(kp07_minmod(-3, -0.25, -2), -0.25, 0);
	assert_close(kp07_minmod(1, -1, 2), 0, 0);
	assert_close(kp07_minmod(-1, 1, -2), 0, 0);
	assert_close(kp07_minmod(0, 1, 2), 0, 0);
	assert_close(kp07_minmod(1, 2, 0), 0, 0);
	assert_close(kp07_minmod(0, 0, 0), 0, 0);
}

/* The limited half increment: linear data with theta >= 1 is reproduced
 * exactly; an extremum gives a flat cell. */
static void test_half_slope(void **st)
{
	(void)st;
	assert_close(kp07_half_slope(1, 2, 3, (real)1.3), 0.5, 0);
	assert_close(kp07_half_slope(3, 2, 1, (real)1.0), -0.5, 0);
	assert_close(kp07_half_slope(1, 3, 2, (real)1.3), 0, 0);
	/* steep on one side: theta * the smaller one-sided difference */
	assert_close(kp07_half_slope(0, 1, 11, (real)1.5), 0.5 * 1.5, EPS);
	assert_close(kp07_half_slope(0, 10, 11, (real)2.0), 0.5 * 2.0, EPS);
}

/* ------------------------------------------------------------ reconstruction */

/* Random cells with w0 >= bed centre: face levels never below the face bed,
 * face depths >= 0, and the cell mean kept (w^- + w^+ = 2 w0), for w and for
 * both momenta. */
static void test_reconstruct_random(void **st)
{
	int corrected = 0, capped = 0, n = 200000;
	(void)st;
	for (int it = 0; it < n; it++) {
		struct kp07_face fm, fp;
		real Bm = (real)urand(-1, 1), Bp = (real)urand(-1, 1);
		real Bc = (real)0.5 * (Bm + Bp);
		/* a quarter of the cells exactly at the bed centre (dry), the rest wet */
		real w0 = it % 4 == 0 ? Bc : Bc + (real)urand(0, 1.5);
		real wm = (real)urand(-1, 2.5), wp = (real)urand(-1, 2.5);
		real nm = (real)urand(-2, 2), n0 = (real)urand(-2, 2), np = (real)urand(-2, 2);
		real tm = (real)urand(-2, 2), t0 = (real)urand(-2, 2), tp = (real)urand(-2, 2);
		real theta = (real)urand(1, 2);
		double scale = 4 * EPS * (1 + fabs((double)w0) + fabs((double)Bm) + fabs((double)Bp));
		real dw = kp07_half_slope(wm, w0, wp, theta);
		int tilted = w0 - dw < Bm || w0 + dw < Bp;
		corrected += tilted;
		kp07_reconstruct(wm, w0, wp, nm, n0, np, tm, t0, tp, Bm, Bp, 0,
			kp07_inv_depth((real)1e-3, (real)1e-8), kp07_cell_inv_depth(w0 - Bc, (real)1e-8),
			kp07_inv_depth((real)1e-3, (real)1e-8), theta, &fm, &fp);
		if (!(fm.h >= 0 && fp.h >= 0))
			fail_msg("case %d: negative face depth %g, %g", it, (double)fm.h, (double)fp.h);
		if (!(fm.eta >= Bm - scale && fp.eta >= Bp - scale))
			fail_msg("case %d: face level below the bed: w- = %.9g < B- = %.9g or "
				"w+ = %.9g < B+ = %.9g", it, (double)fm.eta, (double)Bm, (double)fp.eta,
				(double)Bp);
		assert_close(fm.eta + fp.eta, 2 * w0, scale);
		assert_close(fm.h, swe_max(fm.eta - Bm, 0), 0);
		assert_close(fp.h, swe_max(fp.eta - Bp, 0), 0);
		if (!tilted) {
			/* face velocities stay within twice the cells' velocities; where
			 * that bound does not bind, the momentum's mean is the cell's */
			real k4 = (real)1e-8, r0 = kp07_inv_depth(w0 - Bc, k4), rs = kp07_inv_depth((real)1e-3, k4);
			double umax = 2 * fmax(fmax(fabs(nm * rs), fabs(n0 * r0)), fabs(np * rs));
			double dn = kp07_half_slope(nm, n0, np, theta);
			double tol = 4 * EPS * (1 + fabs((double)n0));
			if (!(fabs(fm.hn) <= fm.h * umax * (1 + 1e-6) + tol && fabs(fp.hn) <= fp.h * umax *
				(1 + 1e-6) + tol))
				fail_msg("case %d: face velocity beyond the cells' (%g, %g > %g)", it,
					(double)(fm.hn / fm.h), (double)(fp.hn / fp.h), umax);
			if (fabs(fm.hn - (n0 - dn)) < tol && fabs(fp.hn - (n0 + dn)) < tol)
				assert_close(fm.hn + fp.hn, 2 * n0, tol);
			else
				capped++;
		} else {
			/* tilted onto the bed: both faces move with the cell's velocity,
			 * so a thin face carries a thin share of the momentum */
			double u = (double)n0 * kp07_inv_depth(w0 - Bc, (real)1e-8);
			assert_close(fm.hn, fm.h * u, 1e-5 * (1 + fabs(fm.h * u)));
			assert_close(fp.hn, fp.h * u, 1e-5 * (1 + fabs(fp.h * u)));
			if (w0 - Bc > 0.1) /* h >> kappa: the mean momentum is the cell's */
				assert_close(fm.hn + fp.hn, 2 * n0, 1e-4 * (1 + fabs((double)n0)));
		}
	}
	/* the positivity correction and the velocity bound must have been exercised */
	assert_true(corrected > n / 20);
	assert_true(capped > 0);
}

/* A flat surface over a sloping bed stays flat (no correction needed). */
static void test_reconstruct_flat(void **st)
{
	struct kp07_face fm, fp;
	real r1 = kp07_inv_depth(1, (real)1e-8);
	(void)st;
	kp07_reconstruct(2, 2, 2, 0, 0, 0, 0, 0, 0, (real)0.4, (real)1.2, 0, r1,
		kp07_cell_inv_depth((real)1.2, (real)1e-8), r1, (real)1.3, &fm, &fp);
	assert_close(fm.eta, 2, 0);
	assert_close(fp.eta, 2, 0);
	assert_close(fm.h, 1.6, EPS);
	assert_close(fp.h, 0.8, EPS);
}

/* ------------------------------------------------------------ wet/dry cells */

static void test_sort4(void **st)
{
	static const int perm[24][4] = {
		{ 0, 1, 2, 3 }, { 0, 1, 3, 2 }, { 0, 2, 1, 3 }, { 0, 2, 3, 1 }, { 0, 3, 1, 2 },
		{ 0, 3, 2, 1 }, { 1, 0, 2, 3 }, { 1, 0, 3, 2 }, { 1, 2, 0, 3 }, { 1, 2, 3, 0 },
		{ 1, 3, 0, 2 }, { 1, 3, 2, 0 }, { 2, 0, 1, 3 }, { 2, 0, 3, 1 }, { 2, 1, 0, 3 },
		{ 2, 1, 3, 0 }, { 2, 3, 0, 1 }, { 2, 3, 1, 0 }, { 3, 0, 1, 2 }, { 3, 0, 2, 1 },
		{ 3, 1, 0, 2 }, { 3, 1, 2, 0 }, { 3, 2, 0, 1 }, { 3, 2, 1, 0 } };
	static const real v[4] = { -1, (real)0.5, 2, 7 };
	(void)st;
	for (int k = 0; k < 24; k++) {
		real a = v[perm[k][0]], b = v[perm[k][1]], c = v[perm[k][2]], d = v[perm[k][3]];
		swe_sort4(&a, &b, &c, &d);
		if (a != v[0] || b != v[1] || c != v[2] || d != v[3])
			fail_msg("permutation %d sorted to %g %g %g %g", k, (double)a, (double)b,
				(double)c, (double)d);
	}
}

/* The level of a partially flooded cell inverts its depth-level relation:
 * h(L) = 1/4 sum max(L - b_f, 0), and above every face bed L = h + mean b. */
static void test_cell_level(void **st)
{
	(void)st;
	for (int it = 0; it < 100000; it++) {
		real b[4], h = it % 10 == 0 ? 0 : (real)pow(10, urand(-6, 0.5));
		real L, hb, mean, bmin;
		double tol;
		for (int f = 0; f < 4; f++)
			b[f] = (real)urand(-1, 1);
		mean = (real)0.25 * (b[0] + b[1] + b[2] + b[3]);
		L = kp07_cell_level(h, b[0], b[1], b[2], b[3], &bmin);
		assert_true(bmin == swe_min(swe_min(b[0], b[1]), swe_min(b[2], b[3])));
		L += bmin;
		hb = swe_depth_at_level(L, b[0], b[1], b[2], b[3]);
		tol = 8 * EPS * (2 + h);
		assert_close(hb, h, tol);
		/* the level is at least the lowest face bed, at most h + mean bed */
		assert_true(L >= swe_min(swe_min(b[0], b[1]), swe_min(b[2], b[3])) - tol);
		assert_true(L <= h + mean + tol);
		if (L >= swe_max(swe_max(b[0], b[1]), swe_max(b[2], b[3])))
			assert_close(L, h + mean, tol);
		/* monotone: more water, higher level */
		assert_true(kp07_cell_level(h * 2 + (real)1e-3, b[0], b[1], b[2], b[3], &mean) +
			bmin > L);
	}
	{
		/* by hand: face beds 0, 0, 1, 1 hold a depth of 0.25 at level 0.5 */
		real bmin;
		assert_close(kp07_cell_level((real)0.25, 0, 1, 0, 1, &bmin), 0.5, EPS);
		assert_close(swe_depth_at_level((real)0.5, 1, 0, 1, 0), 0.25, EPS);
		assert_close(kp07_cell_level(0, (real)0.3, 1, 2, 3, &bmin), 0, 0);
		assert_close(bmin, (real)0.3, 0);
		/* a film of 1e-7 m on beds 100 m up keeps its depth (to rounding
		 * of the depth, not of the level) */
		assert_close(kp07_cell_level((real)1e-7, 100, (real)100.5, 101, 102, &bmin), 4e-7,
			4e-7 * 4 * EPS);
	}
}

/* Wet/dry-aware reconstruction in both directions of random cells, partly
 * flooded or not: face depths >= 0, face levels on or above the face bed,
 * and the four face depths average to the cell depth (KP07's 2D positivity
 * argument and the mass balance of a partly flooded cell rest on it). */
static void test_reconstruct_wd_random(void **st)
{
	int partial = 0, n = 100000;
	(void)st;
	for (int it = 0; it < n; it++) {
		struct kp07_face fw, fe, fs, fn;
		real Bw = (real)urand(-1, 1), Be = (real)urand(-1, 1);
		real Bs = (real)urand(-1, 1), Bn = (real)urand(-1, 1);
		real Bc = (real)0.25 * (Bw + Be + Bs + Bn);
		real top = swe_max(swe_max(Bw, Be), swe_max(Bs, Bn));
		real h0 = it % 5 == 0 ? 0 : (real)pow(10, urand(-5, 0.3));
		real B1 = (real)urand(-1, 1), B2 = (real)urand(-1, 1);
		real B3 = (real)urand(-1, 1), B4 = (real)urand(-1, 1);
		real h1 = swe_max((real)urand(-1, 2) - B1, 0), h2 = swe_max((real)urand(-1, 2) - B2, 0);
		real h3 = swe_max((real)urand(-1, 2) - B3, 0), h4 = swe_max((real)urand(-1, 2) - B4, 0);
		real theta = (real)urand(1, 2);
		double tol = 16 * EPS * (2 + fabs((double)h0));
		real rs = kp07_inv_depth((real)1e-3, (real)1e-8);
		real rc = kp07_cell_inv_depth(h0, (real)1e-8);
		int part = !(h0 >= top - Bc);
		partial += part;
		kp07_reconstruct_wd(h1, h0, h2, 1, (real)0.5, 2, 0, 0, 0, B1, B2, Bw, Be, Bs, Bn, Bc,
			rs, rc, rs, theta, &fw, &fe);
		kp07_reconstruct_wd(h3, h0, h4, 0, 0, 0, 1, (real)0.5, 2, B3, B4, Bs, Bn, Bw, Be, Bc,
			rs, rc, rs, theta, &fs, &fn);
		if (!(fw.h >= 0 && fe.h >= 0 && fs.h >= 0 && fn.h >= 0))
			fail_msg("case %d: negative face depth", it);
		assert_close(0.25 * ((double)fw.h + fe.h + fs.h + fn.h), (double)h0, tol);
		if (part) {
			/* partly flooded: flat at one level, one velocity: the momentum
			 * at a face is its depth times the cell's velocity */
			double u = 0.5 * kp07_inv_depth(h0, (real)1e-8);
			assert_close(fw.eta, fe.eta, 0);
			assert_close(fs.eta, fw.eta, 0);
			assert_close(fw.hn, fw.h * u, 1e-5 * (1 + fabs(fw.h * u)));
			assert_close(fe.hn, fe.h * u, 1e-5 * (1 + fabs(fe.h * u)));
			assert_close(fs.ht, fs.h * u, 1e-5 * (1 + fabs(fs.h * u)));
			if (h0 > 0.1) /* h >> kappa: the face momenta average to the cell's */
				assert_close(0.25 * ((double)fw.hn + fe.hn + fs.ht + fn.ht), 0.5, 1e-4);
		} else {
			/* fully flooded: levels relative to the centre bed */
			assert_close(fw.h, swe_max(fw.eta - (Bw - Bc), 0), tol);
			assert_close(fe.h, swe_max(fe.eta - (Be - Bc), 0), tol);
		}
	}
	assert_true(partial > n / 10);
}

/* A film far thinner than an ulp of its terrain's height keeps its depth
 * through the reconstruction: the face depths average to the cell depth to
 * rounding of the depth (with the level stored, they were quanta of 1e-5 m
 * at 100 m). */
static void test_reconstruct_film(void **st)
{
	struct kp07_face fw, fe, fs, fn;
	real r = kp07_inv_depth((real)1e-7, (real)1e-8);
	real h0 = (real)3e-7;
	(void)st;
	/* a slope: face beds 100 +- 0.05 m, partly flooded */
	kp07_reconstruct_wd(0, h0, 0, 0, 0, 0, 0, 0, 0, (real)99.9, (real)100.1, (real)99.95,
		(real)100.05, 100, 100, 100, r, r, r, (real)1.3, &fw, &fe);
	kp07_reconstruct_wd(0, h0, 0, 0, 0, 0, 0, 0, 0, 100, 100, 100, 100, (real)99.95,
		(real)100.05, 100, r, r, r, (real)1.3, &fs, &fn);
	assert_close(0.25 * ((double)fw.h + fe.h + fs.h + fn.h), 3e-7, 3e-7 * 8 * EPS);
	assert_close(fw.h, 4 * 3e-7, 4 * 3e-7 * 8 * EPS);
	/* flat, fully flooded: the face depths are the depth */
	kp07_reconstruct_wd(h0, h0, h0, 0, 0, 0, 0, 0, 0, 100, 100, 100, 100, 100, 100, 100, r,
		r, r, (real)1.3, &fw, &fe);
	assert_close(fw.h, h0, 0);
	assert_close(fe.h, h0, 0);
}

/* ------------------------------------------------------------ velocity */

static void test_velocity(void **st)
{
	real k4 = (real)1e-12;   /* kappa = 1e-3 m */
	(void)st;
	/* h >> kappa: q / h */
	assert_close(kp07_velocity(1, 2, k4), 2, 2 * EPS);
	assert_close(kp07_velocity((real)0.5, -3, k4), -6, 6 * EPS);
	assert_close(kp07_velocity((real)0.1, (real)0.05, k4), 0.5, 2 * EPS);
	/* h = kappa: still exactly q / h (h^4 = kappa^4) */
	assert_close(kp07_velocity((real)1e-3, (real)1e-3, k4), 1, 10 * EPS);
	/* h -> 0 with q = h * 1 m/s: u = sqrt(2) h^2 / kappa^2 -> 0 */
	assert_close(kp07_velocity(0, 0, k4), 0, 0);
	assert_close(kp07_velocity(0, 1, k4), 0, 0);
	assert_close(kp07_velocity((real)1e-5, (real)1e-5, k4), 1.41421356 * 1e-4, 1e-6);
	assert_true(fabs((double)kp07_velocity((real)1e-6, (real)1e-6, k4)) < 1e-5);
	/* above kappa the inverse depth is 1 / h, correctly rounded (bits) */
	for (int i = 0; i < 1000; i++) {
		real h = (real)pow(10, urand(-2.9, 3));
		assert_true(kp07_inv_depth(h, k4) == (real)1 / h);
	}
	/* below kappa KP07's formula, continuous at kappa from both sides */
	assert_close(kp07_inv_depth((real)2e-4, k4),
		1.41421356237 * 2e-4 / sqrt(pow(2e-4, 4) + 1e-12), 4 * EPS * 5.6e3);
	assert_close(kp07_inv_depth((real)(1e-3 * (1 - 1e-4)), k4), 1e3, 1e3 * 1e-3);
	assert_close(kp07_inv_depth((real)(1e-3 * (1 + 1e-4)), k4), 1e3, 1e3 * 1e-3);
	/* monotone approach: never faster than q / h */
	for (int i = 0; i < 1000; i++) {
		real h = (real)pow(10, urand(-8, 1)), q = (real)urand(-5, 5) * h;
		double u = kp07_velocity(h, q, k4);
		assert_true(fabs(u) <= fabs((double)q / (double)h) * (1 + 4 * EPS));
		assert_true(u * (double)q >= 0);
	}
}

/* The zero-safe forms give the bits of the plain ones (swe_kern.h): the
 * quotient everywhere, the square root but at a zero (the zero), under
 * SWE_SQRT_MIN (the root of SWE_SQRT_MIN) and at infinity (NaN) */
static void test_zero_forms(void **st)
{
	static const double xs[] = { 0, -0.0, 1e-40, 3.9e-31, 3.9443045261050590e-31, 1e-30, 0.3,
		2, 7e25, 1e30, 3.4e38, INFINITY };
	(void)st;
	for (size_t i = 0; i < sizeof xs / sizeof *xs; i++) {
		real x = (real)xs[i], a = R_SQRT(x), b = swe_sqrt0(x);
		if (x > 0 && x < SWE_SQRT_MIN)
			a = R_SQRT(SWE_SQRT_MIN);
		if (isinf(x)) {
			assert_true(isnan(b)); /* a bad state either way */
			continue;
		}
		assert_memory_equal(&a, &b, sizeof a);
		a = x / (real)0.7;
		b = swe_div0(x, (real)0.7);
		assert_memory_equal(&a, &b, sizeof a);
		a = -x / (real)3e20;
		b = swe_div0(-x, (real)3e20);
		assert_memory_equal(&a, &b, sizeof a);
	}
	assert_true(isnan(swe_sqrt0((real)NAN)) && isnan(swe_div0((real)NAN, 1)));
	/* the flux's speed ratio: the quotient, a zero kept with its sign, in
	 * single precision the span bounded by SWE_SPAN_MAX (a NaN span too) */
	{
		real z = -(real)0, q = kp07_speed_ratio(-(real)0.3, (real)0.9), e = -(real)0.3 / (real)0.9;
		assert_memory_equal(&q, &e, sizeof q);
		q = kp07_speed_ratio(z, (real)2);
		assert_memory_equal(&q, &z, sizeof q);
#ifndef SPATE_DOUBLE
		assert_true(kp07_speed_ratio(-1, (real)1e30) == -1 / SWE_SPAN_MAX);
		assert_true(kp07_speed_ratio(-1, (real)NAN) == -1 / SWE_SPAN_MAX);
#endif
		assert_true(isnan(kp07_speed_ratio((real)NAN, 1)));
		assert_true(SWE_SPAN_MAX == (real)ldexp(1, 26));
	}
	/* the bound: 2^-101 (single), 2^-960 (double), within the GPU's fast paths */
#ifdef SPATE_DOUBLE
	assert_true(SWE_SQRT_MIN == ldexp(1, -960));
	{
		real t = (real)1e-300, a = swe_sqrt0(t), b = R_SQRT(SWE_SQRT_MIN);
		assert_memory_equal(&a, &b, sizeof a);
		t = (real)1e-280;
		a = swe_sqrt0(t);
		b = R_SQRT(t);
		assert_memory_equal(&a, &b, sizeof a);
	}
#else
	assert_true(SWE_SQRT_MIN == (real)ldexp(1, -101));
#endif
	/* a dry cell's inverse depth is its zero, also where kappa^4 underflows */
	{
		real z = 0, m = -(real)0, a = kp07_inv_depth(z, (real)1e-12),
		     b = kp07_inv_depth(m, (real)1e-12), c = kp07_inv_depth(z, 0);
		assert_memory_equal(&a, &z, sizeof a);
		assert_memory_equal(&b, &m, sizeof b);
		assert_memory_equal(&c, &z, sizeof c);
	}
	/* the reciprocal: 1 / x in its range, bounded beyond it */
	for (int e = -120; e < 100; e += 7) {
		real x = (real)ldexp(1.37, e);
		assert_true(swe_recip(x) == (real)1 / x);
	}
#ifdef SPATE_DOUBLE
	assert_true(swe_recip((real)INFINITY) == 0);
#else
	assert_true(swe_recip((real)INFINITY) == (real)1 / SWE_RECIP_MAX);
#endif
	assert_true(isnan(swe_recip((real)NAN)));
}

/* swe_pos and swe_clamp against the plain compares they replace (max(x,
 * 0); x > m ? m : x < -m ? -m : x), to the bit, zeros with their signs
 * included; a NaN stays NaN under the clamp. */
static void test_pos_clamp(void **st)
{
	static const double xs[] = { 0, -0.0, 1e-310, -1e-310, 1e-40, -1e-40, 0.5, -0.5, 2, -2,
		3e38, -3e38, INFINITY, -INFINITY };
	static const double ms[] = { 0, 1e-40, 0.5, 1, 2, 1e30, INFINITY };
	(void)st;
	for (size_t i = 0; i < sizeof xs / sizeof *xs; i++) {
		real x = (real)xs[i], a = x > 0 ? x : 0, b = swe_pos(x);
		assert_memory_equal(&a, &b, sizeof a);
		for (size_t k = 0; k < sizeof ms / sizeof *ms; k++) {
			real m = (real)ms[k];
			a = x > m ? m : x < -m ? -m : x;
			b = swe_clamp(x, m);
			assert_memory_equal(&a, &b, sizeof a);
		}
	}
	for (int i = 0; i < 100000; i++) {
		real x = (real)ldexp(urand(-1, 1), (int)urand(-140, 120));
		real m = (real)ldexp(urand(0, 1), (int)urand(-140, 120));
		real a = x > 0 ? x : 0, b = swe_pos(x);
		assert_memory_equal(&a, &b, sizeof a);
		a = x > m ? m : x < -m ? -m : x;
		b = swe_clamp(x, m);
		assert_memory_equal(&a, &b, sizeof a);
	}
	assert_true(isnan(swe_clamp((real)NAN, 1)));
	assert_true(swe_pos(-(real)NAN) == 0);
}

/* The CFL bound in parts (swe_cell.h): the least of the bounds of several
 * speeds (swe_cfl_q; NaN: none) gives swe_cfl_dt of their largest speed,
 * to the bit, as the GPU's per-cell kernels take it (a block's speeds, its
 * bound).  Speeds of float values, as the kernels keep them; sets with
 * zeros and with every speed zero (dt = cap) among them. */
static void test_cfl_parts(void **st)
{
	unsigned int s = 12345u;
	(void)st;
	for (int k = 0; k < 4000; k++) {
		double amax[2] = { 0, 0 }, qmin[2] = { NAN, NAN }, d[2] = { 10, 7.5 };
		const double cap = k % 5 == 0 ? 1e-3 : 1e3, cfl = 0.45;
		for (int b = 0; b < 6; b++)
			for (int xy = 0; xy < 2; xy++) {
				double a, q;
				s = s * 1664525u + 1013904223u;
				a = (double)(float)ldexp(1 + (s >> 8) / 16777216.0, (int)(s % 48) - 24);
				if (k % 7 == 0 || (s >> 4) % 5 == 0)
					a = 0;
				amax[xy] = a > amax[xy] ? a : amax[xy];
				q = swe_cfl_q(a, d[xy], cfl);
				if (!isnan(q) && (isnan(qmin[xy]) || q < qmin[xy]))
					qmin[xy] = q;
			}
		{
			double a = swe_cfl_min(qmin[0], qmin[1], cap);
			double b = swe_cfl_dt(amax[0], amax[1], d[0], d[1], cfl, cap);
			assert_memory_equal(&a, &b, sizeof a);
		}
	}
	assert_true(swe_cfl_dt(0, 0, 10, 10, 0.45, 2.5) == 2.5);
}

/* ------------------------------------------------------------ central-upwind flux */

static void test_flux_dry(void **st)
{
	struct swe_coef c = coef();
	struct kp07_flux F;
	(void)st;
	F = kp07_central_upwind(face((real)0.3, 0, 0, 0), face((real)0.7, 0, 0, 0), c);
	assert_close(F.f0, 0, 0);
	assert_close(F.fn, 0, 0);
	assert_close(F.ft, 0, 0);
	assert_close(F.a, 0, 0);
	/* dry faces with (spurious) momentum still carry nothing */
	F = kp07_central_upwind(face(0, 0, 1, 1), face(0, 0, -1, 2), c);
	assert_close(F.f0, 0, 0);
	assert_close(F.fn, 0, 0);
	assert_close(F.ft, 0, 0);
}

/* Identical states on both sides give the physical flux F(U). */
static void test_flux_consistency(void **st)
{
	struct swe_coef c = coef();
	struct kp07_flux F;
	double g = c.g;
	(void)st;
	for (int k = 0; k < 5; k++) {
		double h = 0.25 + k;
		F = kp07_central_upwind(face((real)0.5, (real)h, 0, 0), face((real)0.5, (real)h, 0, 0), c);
		assert_close(F.f0, 0, EPS * g * h * h);
		assert_close(F.fn, 0.5 * g * h * h, EPS * g * h * h);
		assert_close(F.ft, 0, EPS * g * h * h);
		assert_close(F.a, sqrt(g * h), EPS * sqrt(g * h));
	}
	{
		/* moving water: (hu, hu^2 + g h^2/2, h u v) */
		double h = 2, u = 1.5, v = -0.5, s = g * h * h;
		F = kp07_central_upwind(face(1, (real)h, (real)(h * u), (real)(h * v)),
			face(1, (real)h, (real)(h * u), (real)(h * v)), c);
		assert_close(F.f0, h * u, EPS * s);
		assert_close(F.fn, h * u * u + 0.5 * g * h * h, EPS * s);
		assert_close(F.ft, h * u * v, EPS * s);
		assert_close(F.a, u + sqrt(g * h), EPS * 10);
	}
}

/* Mirror symmetry: swapping the sides and reversing the normal momentum
 * reverses the mass and tangential fluxes and keeps the normal one. */
static void test_flux_mirror(void **st)
{
	struct swe_coef c = coef();
	(void)st;
	for (int it = 0; it < 20000; it++) {
		real BL = (real)urand(-1, 1), BR = (real)urand(-1, 1);
		real hL = it % 7 == 0 ? 0 : (real)urand(0, 3), hR = it % 5 == 0 ? 0 : (real)urand(0, 3);
		struct kp07_face L = face(BL, hL, (real)urand(-4, 4) * hL, (real)urand(-4, 4) * hL);
		struct kp07_face R = face(BR, hR, (real)urand(-4, 4) * hR, (real)urand(-4, 4) * hR);
		struct kp07_face Lm = R, Rm = L;
		struct kp07_flux F, M;
		double scale;
		Lm.hn = -R.hn;
		Rm.hn = -L.hn;
		F = kp07_central_upwind(L, R, c);
		M = kp07_central_upwind(Lm, Rm, c);
		scale = 8 * EPS * (1 + fabs((double)F.f0) + fabs((double)F.fn) + fabs((double)F.ft) +
			(double)F.a * (3 + fabs((double)BL) + fabs((double)BR)) + c.g * 9);
		assert_close(M.f0, -F.f0, scale);
		assert_close(M.fn, F.fn, scale);
		assert_close(M.ft, -F.ft, scale);
		assert_close(M.a, F.a, scale);
	}
}

/* Upwinding: a supercritical flow from the left takes the left flux. */
static void test_flux_upwind(void **st)
{
	struct swe_coef c = coef();
	struct kp07_flux F;
	double g = c.g, h = 1, u = 10; /* u > sqrt(g h) */
	(void)st;
	F = kp07_central_upwind(face(0, (real)h, (real)(h * u), 0), face(0, (real)0.5, (real)2, 0), c);
	assert_close(F.f0, h * u, EPS * 100);
	assert_close(F.fn, h * u * u + 0.5 * g * h * h, EPS * 1000);
}

/* ------------------------------------------------------------ finish (positivity, friction) */

static void test_finish_positivity(void **st)
{
	struct swe_coef c = coef();
	real w, hu, hv;
	(void)st;
	/* negative depth: set to zero, momentum zeroed */
	w = (real)-0.1; hu = 1; hv = -1;
	swe_finish(&w, &hu, &hv, (real)0.1, c);
	assert_close(w, 0, 0);
	assert_close(hu, 0, 0);
	assert_close(hv, 0, 0);
	/* thinner than the dry tolerance: kept, momentum zeroed */
	w = (real)0.5e-6; hu = 1; hv = 1;
	swe_finish(&w, &hu, &hv, (real)0.1, c);
	assert_close(w, (real)0.5e-6, 0);
	assert_close(hu, 0, 0);
	assert_close(hv, 0, 0);
	/* wet, no friction: untouched */
	w = 3; hu = (real)1.5; hv = (real)-0.5;
	swe_finish(&w, &hu, &hv, 10, c);
	assert_close(w, 3, 0);
	assert_close(hu, 1.5, 0);
	assert_close(hv, -0.5, 0);
	/* random: h >= 0 always */
	for (int it = 0; it < 10000; it++) {
		w = (real)urand(-0.5, 1);
		hu = (real)urand(-3, 3);
		hv = (real)urand(-3, 3);
		c.n2 = (real)(it % 2 ? 0.03 * 0.03 : 0);
		swe_finish(&w, &hu, &hv, (real)urand(0, 10), c);
		assert_true(w >= 0);
	}
}

/* Friction-dominated flow under a constant driving force S (m^2/s^2 per
 * unit depth, as a slope g S0 h): the RK2 step with Manning friction must
 * settle at the terminal velocity u = sqrt(S h^(1/3) / (g n^2)), where the
 * force balances friction, and so must the split sources (swe_sources,
 * Manning rasters) after Euler or RK2 steps without friction.  Damping the
 * whole RK2 average would settle at 2/3 of it. */
static void test_rk2_terminal_velocity(void **st)
{
	struct swe_coef c = coef(), c0;
	double n = 0.05, S = 0.01, h = 1, dt = 0.1;
	double want = sqrt(S * pow(h, 1.0 / 3.0) / (9.81 * n * n));
	real w = (real)h, hu = 0, hv = 0, ws, hus, hvs, w1 = (real)h, hu1 = 0, hv1 = 0;
	(void)st;
	c.n2 = (real)(n * n);
	c0 = c;
	c0.n2 = 0;
	for (int k = 0; k < 20000; k++) {
		/* in-stage friction: L = (0, S, 0) at both stages */
		swe_euler_vals(w, hu, hv, 0, (real)S, 0, (real)dt, c, &ws, &hus, &hvs);
		swe_rk2_vals(w, hu, hv, ws, hus, hvs, 0, (real)S, 0, (real)dt, c, &w, &hu, &hv);
		/* split friction after a frictionless RK2 step */
		swe_euler_vals(w1, hu1, hv1, 0, (real)S, 0, (real)dt, c0, &ws, &hus, &hvs);
		swe_rk2_vals(w1, hu1, hv1, ws, hus, hvs, 0, (real)S, 0, (real)dt, c0, &w1, &hu1,
			&hv1);
		swe_sources(&w1, &hu1, &hv1, 0, c.n2, (real)dt, c);
	}
	assert_close(hu / h, want, 1e-3 * want);
	assert_close(hu1 / h, want, 1e-3 * want);
	assert_close(hv, 0, EPS);
	assert_close(w, h, EPS);
}

static void test_finish_manning(void **st)
{
	struct swe_coef c = coef();
	double n = 0.03, h = 0.8, qx = 1.2, qy = -0.4, dt = 5;
	double u = qx / h, v = qy / h, d;
	real w = (real)h, hu = (real)qx, hv = (real)qy;
	(void)st;
	c.n2 = (real)(n * n);
	swe_finish(&w, &hu, &hv, (real)dt, c);
	d = 1 + dt * 9.81 * n * n * sqrt(u * u + v * v) / pow(h, 4.0 / 3.0);
	assert_close(w, h, EPS);
	assert_close(hu, qx / d, 10 * EPS);
	assert_close(hv, qy / d, 10 * EPS);
	assert_true(fabs((double)hu) < qx && fabs((double)hv) < -qy);
	assert_true(hu > 0 && hv < 0);  /* friction never reverses the flow */
	/* stronger friction, longer step: still decreasing, never reversing */
	for (int k = 1; k <= 6; k++) {
		real w2 = (real)0.5, hu2 = 2, hv2 = 2;
		c.n2 = (real)(0.01 * k * 0.01 * k);
		swe_finish(&w2, &hu2, &hv2, (real)(10 * k), c);
		assert_true(hu2 > 0 && hu2 < 2);
		assert_true(hv2 > 0 && hv2 < 2);
	}
}

/* ------------------------------------------------------------ time step, hydrograph */

static void test_cfl_dt(void **st)
{
	(void)st;
	/* dt = cfl/2 min(dx/ax, dy/ay) */
	assert_close(swe_cfl_dt(10, 0, 10, 10, 0.5, 1e9), 0.25, 1e-15);
	assert_close(swe_cfl_dt(0, 4, 10, 2, 0.5, 1e9), 0.125, 1e-15);
	assert_close(swe_cfl_dt(10, 4, 10, 2, 0.45, 1e9), 0.225 * 0.5, 1e-15);
	assert_close(swe_cfl_dt(10, 1, 10, 2, 0.45, 1e9), 0.225, 1e-15);
	/* still water: the cap */
	assert_close(swe_cfl_dt(0, 0, 10, 10, 0.45, 7.5), 7.5, 0);
	/* the cap when smaller than the bound */
	assert_close(swe_cfl_dt(10, 10, 10, 10, 0.45, 0.01), 0.01, 0);
	/* the KP07 forward-Euler bound dt <= dx / (4 a) at cfl = 0.5 */
	assert_true(swe_cfl_dt(3.7, 2.1, 5, 5, 0.5, 1e9) <= 5 / (4 * 3.7) * (1 + 1e-15));
}

static void test_hydrograph(void **st)
{
	static const double t[3] = { 0, 10, 20 }, q[3] = { 0, 100, 50 };
	static const double t1[1] = { 5 }, q1[1] = { 3 };
	(void)st;
	assert_close(swe_hydrograph(t, q, 3, -5), 0, 0);
	assert_close(swe_hydrograph(t, q, 3, 0), 0, 0);
	assert_close(swe_hydrograph(t, q, 3, 2.5), 25, 1e-12);
	assert_close(swe_hydrograph(t, q, 3, 10), 100, 1e-12);
	assert_close(swe_hydrograph(t, q, 3, 15), 75, 1e-12);
	assert_close(swe_hydrograph(t, q, 3, 19), 55, 1e-12);
	assert_close(swe_hydrograph(t, q, 3, 20), 50, 1e-12);
	assert_close(swe_hydrograph(t, q, 3, 1e6), 50, 0);
	assert_close(swe_hydrograph(t1, q1, 1, 0), 3, 0);
	assert_close(swe_hydrograph(t1, q1, 1, 100), 3, 0);
	assert_close(swe_hydrograph(t, q, 0, 5), 0, 0);
}

/* ------------------------------------------------------------ lake at rest, one cell */

#define NX 6
#define NY 5
#define G SWE_GHOST
#define PITCH (NX + 2 * G)
#define CPITCH (PITCH + 1)
#define NCELL ((NY + 2 * G) * PITCH)
#define NCORN ((NY + 2 * G + 1) * CPITCH)

/* A constant level over an uneven bed, at rest: the flux differences balance
 * the bed sources, so every L vanishes (KP07 sec. 2.3).  With `emerged`, the
 * level lies below some of the bed, so that cells are wet, partly flooded
 * (w from the level by swe_depth_at_level) and dry. */
static void lake_balance(int emerged)
{
	static real w[NCELL], hu[NCELL], hv[NCELL], Bc[NCORN], Bm[NCELL];
	struct swe_coef c = coef();
	struct swe_view v;
	double level = -1e9, dx = 10, dy = 7.5, bmin = 1e9;
	int counts[3] = { 0, 0, 0 };  /* dry, partly flooded, wet */
	for (int J = -G; J <= NY + G; J++)
		for (int I = -G; I <= NX + G; I++) {
			/* a slope, a curvature and noise */
			double b = 0.05 * I * dx + 0.02 * J * dy + 0.3 * sin(0.7 * I + 0.3 * J) +
				urand(-0.2, 0.2);
			Bc[(J + G) * CPITCH + I + G] = (real)b;
			level = b > level ? b : level;
			bmin = b < bmin ? b : bmin;
		}
	level = emerged ? 0.5 * (level + bmin) : level + 0.3;
	v.w = w;
	v.hu = hu;
	v.hv = hv;
	v.Bc = Bc;
	v.Bm = Bm;
	v.nx = NX;
	v.ny = NY;
	v.pitch = PITCH;
	v.cpitch = CPITCH;
	v.inv_dx = (real)(1 / dx);
	v.inv_dy = (real)(1 / dy);
	for (int j = -G; j < NY + G; j++)
		for (int i = -G; i < NX + G; i++) {
			long k = swe_vidx(&v, i, j), kc = swe_vcidx(&v, i, j);
			real Bw, Be, Bs, Bn, top;
			Bm[k] = swe_bed_centre(Bc[kc], Bc[kc + 1], Bc[kc + CPITCH], Bc[kc + CPITCH + 1]);
			swe_face_beds(&v, i, j, &Bw, &Be, &Bs, &Bn);
			top = swe_max(swe_max(Bw, Be), swe_max(Bs, Bn));
			/* w holds the depth */
			w[k] = level >= top ? (real)level - Bm[k] :
				swe_depth_at_level((real)level, Bw, Be, Bs, Bn);
			if (i >= 0 && j >= 0 && i < NX && j < NY)
				counts[w[k] <= 0 ? 0 : level >= top ? 2 : 1]++;
			hu[k] = 0;
			hv[k] = 0;
		}
	if (emerged && (counts[0] == 0 || counts[1] == 0 || counts[2] == 0))
		fail_msg("set-up: %d dry, %d partly flooded, %d wet cells: want some of each",
			counts[0], counts[1], counts[2]);
	for (int j = 0; j < NY; j++)
		for (int i = 0; i < NX; i++) {
			struct kp07_flux Fw = swe_flux_x(&v, c, i - 1, j), Fe = swe_flux_x(&v, c, i, j);
			struct kp07_flux Gs = swe_flux_y(&v, c, i, j - 1), Gn = swe_flux_y(&v, c, i, j);
			real Lw, Lhu, Lhv;
			double hmax = level - bmin + 1, scale = 16 * EPS * c.g * hmax * hmax /
				(dx < dy ? dx : dy);
			swe_cell_rhs(&v, c, i, j, Fw, Fe, Gs, Gn, &Lw, &Lhu, &Lhv);
			/* the momentum fluxes alone do not vanish (but for dry cells): the bed
			 * matters */
			if (!emerged)
				assert_true(fabs((double)(Fe.fn - Fw.fn)) +
					fabs((double)(Gn.fn - Gs.fn)) > 0.1);
			if (!(fabs((double)Lw) <= 4 * EPS && fabs((double)Lhu) <= scale &&
				fabs((double)Lhv) <= scale))
				fail_msg("cell (%d, %d), depth %.6g: L = (%.3g, %.3g, %.3g), limit "
					"%.3g, %.3g", i, j, (double)w[swe_vidx(&v, i, j)], (double)Lw, (double)Lhu, (double)Lhv,
					4 * EPS, scale);
		}
}

static void test_lake_balance(void **st)
{
	(void)st;
	lake_balance(0);
}

static void test_lake_balance_wetdry(void **st)
{
	(void)st;
	lake_balance(1);
}

/* swe_guard_note: the flag for NaN or +-Inf in any of h, hu, hv, and for
 * none of the finite states a run can hold (dry, deep, fast, the largest
 * values of a wave), and it never clears a flag. */
static void test_guard_note(void **st)
{
	const real big = (real)1e30, fin[][3] = {
		{ 0, 0, 0 }, { 1, -2, 3 }, { (real)1e-30, (real)-1e-30, 0 }, { big, -big, big },
		{ 1e4, 1e6, -1e6 },
	};
	const real odd[] = { NAN, INFINITY, -INFINITY };
	int bad = 0;
	(void)st;
	for (size_t k = 0; k < sizeof fin / sizeof fin[0]; k++)
		swe_guard_note(fin[k][0], fin[k][1], fin[k][2], &bad);
	assert_int_equal(bad, 0);
	for (int v = 0; v < 3; v++)
		for (int f = 0; f < 3; f++) {
			real q[3] = { 1, 2, 3 };
			q[f] = odd[v];
			bad = 0;
			swe_guard_note(q[0], q[1], q[2], &bad);
			assert_int_equal(bad, 1);
			swe_guard_note(1, 2, 3, &bad);
			assert_int_equal(bad, 1);
		}
	/* +Inf and -Inf in two variables: their sum is NaN */
	bad = 0;
	swe_guard_note(INFINITY, -INFINITY, 0, &bad);
	assert_int_equal(bad, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minmod),
		cmocka_unit_test(test_half_slope),
		cmocka_unit_test(test_reconstruct_random),
		cmocka_unit_test(test_reconstruct_flat),
		cmocka_unit_test(test_sort4),
		cmocka_unit_test(test_cell_level),
		cmocka_unit_test(test_reconstruct_wd_random),
		cmocka_unit_test(test_reconstruct_film),
		cmocka_unit_test(test_velocity),
		cmocka_unit_test(test_zero_forms),
		cmocka_unit_test(test_pos_clamp),
		cmocka_unit_test(test_cfl_parts),
		cmocka_unit_test(test_flux_dry),
		cmocka_unit_test(test_flux_consistency),
		cmocka_unit_test(test_flux_mirror),
		cmocka_unit_test(test_flux_upwind),
		cmocka_unit_test(test_finish_positivity),
		cmocka_unit_test(test_finish_manning),
		cmocka_unit_test(test_rk2_terminal_velocity),
		cmocka_unit_test(test_cfl_dt),
		cmocka_unit_test(test_hydrograph),
		cmocka_unit_test(test_lake_balance),
		cmocka_unit_test(test_lake_balance_wetdry),
		cmocka_unit_test(test_guard_note),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
