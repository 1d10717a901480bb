/* fuzz_hydrograph.c: libFuzzer target for the hydrograph reader: spate has
 * no hydrograph file; a table "t0 q0, t1 q1, ..." is the value of a
 * [boundary] <side>_hydrograph key, parsed by swe_params_set.  The input
 * (up to its first NUL) is that value.  A table it accepts must have 1 to
 * SWE_HYDRO_MAX points, increasing times and finite discharges >= 0, and
 * swe_hydrograph must give a value between the smallest and largest q at
 * any time.  Built by `make fuzz`; seeds in tests/fuzz/hydrograph/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "swe_cell.h"
#include "params.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct swe_params p;
	const struct swe_bc *b = &p.bc[0];
	char *v = malloc(size + 1);
	double lo = INFINITY, hi = -INFINITY;
	if (!v)
		return 0;
	memcpy(v, data, size);
	v[size] = 0;
	static int once;
	if (!once++)
		fuzz_file(data, 0, "unused");   /* spate's messages to /dev/null */
	swe_params_defaults(&p);
	if (swe_params_set(&p, "boundary", "west_hydrograph", v, "fuzz", 1) == 0) {
		if (b->n < 1 || b->n > SWE_HYDRO_MAX)
			abort();
		for (int k = 0; k < b->n; k++) {
			if (!isfinite(b->t[k]) || !isfinite(b->q[k]) || b->q[k] < 0 ||
				(k && !(b->t[k] > b->t[k - 1])))
				abort();
			lo = fmin(lo, b->q[k]);
			hi = fmax(hi, b->q[k]);
		}
		for (int k = 0; k <= 2 * b->n; k++) {
			double t = k % 2 ? b->t[k / 2] : (k / 2 < b->n ? b->t[k / 2] - 1 :
				b->t[b->n - 1] + 1), q = swe_hydrograph(b->t, b->q, b->n, t);
			if (!(q >= lo - 1e-9 * hi && q <= hi * (1 + 1e-12)))
				abort();
		}
	}
	free(v);
	return 0;
}
