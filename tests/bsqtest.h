/* bsqtest.h: helpers shared by the Boussinesq tests (t_bsq_*.c): a close
 * assertion, runs to a time or to a steady state with every step's solve
 * checked, and the reference data folder (shared/data/reference: found as
 * $SPATE_DATA/reference, else ../shared/data/reference beside the source
 * tree, as tests/malpasset40.sh does). */
#ifndef SPATE_BSQTEST_H
#define SPATE_BSQTEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsq.h"
#include "spate.h"

/* A divergence tolerance t of a test, raised to BSQ_TOL_DEFAULT (1e-4) in a
 * single-precision build (bsq_kern.h: fp32 cannot reach 1e-8). */
#define BSQTEST_TOL(t) (sizeof(bsq_real) < 8 && (t) < BSQ_TOL_DEFAULT ? BSQ_TOL_DEFAULT : (t))

/* max |div u| d after a projection that stopped at tolerance tol: d <= tol;
 * in fp32 d <= 1.25 tol, since the correction u - dt grad phi rounds after the
 * solve's last residual (measured up to 1.3 tol at 1e-5 on 64^2 cells, hence tol 1e-4 there). */
#define BSQTEST_DIV_OK(d, tol) ((d) <= (tol) * (sizeof(bsq_real) < 8 ? 1.25 : 1))

/* At the start of main of a test that needs fp64: exit 77 (skip) in a
 * single-precision build, saying why. */
#define BSQTEST_NEEDS_DOUBLE(why)                                                          \
	do {                                                                               \
		if (sizeof(bsq_real) < 8) {                                                \
			printf("# skipped: this build's Boussinesq module is single precision " \
				"(--enable-bsq-single); %s\n", why);                              \
			return 77;                                                         \
		}                                                                          \
	} while (0)

/* Steps until s->t >= t_end (a fixed p->dt should divide t_end); every step
 * must succeed and leave max |div u| <= tol.  Returns the steps taken. */
static inline long bsqtest_run(struct bsq_state *s, const struct bsq_params *p, double t_end)
{
	struct bsq_stats st;
	long n = 0;
	while (s->t < t_end * (1 - 1e-12)) {
		int err = bsq_step(s, p, &st);
		if (err || !BSQTEST_DIV_OK(st.div_max, p->tol))
			fail_msg("step %ld (t = %g): error %d, max |div u| = %g (tol %g), %d cycles, "
				"residual %g", s->step, st.t, err, st.div_max, p->tol, st.cycles,
				st.residual);
		n++;
	}
	return n;
}

/* Runs in chunks of `chunk` time units until max over the faces of |u| +
 * |v| + |w| changes by less than `eps` times its size per unit time between
 * chunks, or t_max.  Returns the time reached. */
static inline double bsqtest_steady(struct bsq_state *s, const struct bsq_params *p, double chunk,
	double eps, double t_max)
{
	size_t n = s->n, c;
	double *prev = calloc(3 * n, sizeof *prev);
	if (!prev)
		fail_msg("out of memory");
	for (;;) {
		double change = 0, size = 0;
		for (c = 0; c < n; c++) {
			prev[c] = s->u[c];
			prev[n + c] = s->v[c];
			prev[2 * n + c] = s->w[c];
		}
		bsqtest_run(s, p, s->t + chunk);
		for (c = 0; c < n; c++) {
			change = fmax(change, fabs(s->u[c] - prev[c]) + fabs(s->v[c] - prev[n + c]) +
				fabs(s->w[c] - prev[2 * n + c]));
			size = fmax(size, fabs(s->u[c]) + fabs(s->v[c]) + fabs(s->w[c]));
		}
		if (change / chunk <= eps * size || s->t >= t_max)
			break;
	}
	free(prev);
	return s->t;
}

/* The path of reference file `name` in buf; 0 when readable, else -1
 * after a SKIP line. */
static inline int bsqtest_ref(const char *name, char *buf, size_t size)
{
	const char *data = getenv("SPATE_DATA"), *top = getenv("top_srcdir");
	FILE *f;
	if (data && *data)
		snprintf(buf, size, "%s/reference/%s", data, name);
	else
		snprintf(buf, size, "%s/../shared/data/reference/%s", top ? top : ".", name);
	if (!(f = fopen(buf, "r"))) {
		printf("SKIP: no %s (set SPATE_DATA)\n", buf);
		return -1;
	}
	fclose(f);
	return 0;
}

/* The cells a side of a validation run: n_check in make check, n_long with
 * SPATE_LONG_TESTS=1, or the value of environment variable env when set. */
static inline int bsqtest_cells(int n_check, int n_long, const char *env)
{
	const char *e = getenv("SPATE_LONG_TESTS"), *n = getenv(env);
	if (n && atoi(n) > 0)
		return atoi(n);
	return e && !strcmp(e, "1") ? n_long : n_check;
}

#endif
