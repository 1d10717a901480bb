/* swe_cpu_guard.c: the instability guard of the CPU backend (struct
 * spate_backend's guard): the flag its steps set (swe_guard.h), the copy of
 * the last good state and of its flood products, and the test hook that
 * plants a NaN.  Beside the
 * single domain (swe_cpu.c), below the driver's guard (swe_guard.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe_cpu_mem.h"
#include "swe_backend.h"
#include "swe_guard.h"
#include "products_kern.h"

int swe_cpu_guard(struct swe_backend_ctx *x, int op, long cell, int *bad)
{
	size_t n = (size_t)(x->s.ny + 2 * SWE_GHOST) * x->s.pitch;
	size_t np = (size_t)x->s.nx * x->rows * sizeof *x->prod;
	real *s[3] = { x->s.w, x->s.hu, x->s.hv };
	switch (op) {
	case SWE_GUARD_CHECK:
		*bad = x->bad;
		return 0;
	case SWE_GUARD_KEEP:
		if (!x->good && !(x->good = malloc(3 * n * sizeof(real))))
			return -SPATE_ENOMEM;
		for (int f = 0; f < 3; f++)
			memcpy(x->good + f * n, s[f], n * sizeof(real));
		if (x->prod && !x->good_prod && !(x->good_prod = malloc(np)))
			return -SPATE_ENOMEM;
		if (x->prod)
			memcpy(x->good_prod, x->prod, np);
		return 0;
	case SWE_GUARD_REWIND:
		if (!x->good)
			return -SPATE_EINVAL;
		for (int f = 0; f < 3; f++)
			memcpy(s[f], x->good + f * n, n * sizeof(real));
		if (x->prod && x->good_prod)
			memcpy(x->prod, x->good_prod, np);
		return 0;
	case SWE_GUARD_PLANT:
	case SWE_GUARD_PLANT_SILENT:
		if (cell < 0 || (size_t)cell >= n)
			return -SPATE_EINVAL;
		x->s.w[cell] = NAN;
		if (op == SWE_GUARD_PLANT)
			swe_guard_note(x->s.w[cell], x->s.hu[cell], x->s.hv[cell], &x->bad);
		return 0;
	default:
		return -SPATE_EINVAL;
	}
}
