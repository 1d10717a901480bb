/* swe_cpu_guard.c: the instability guard of the CPU backend (struct
 * spate_backend's guard): the flag its steps set (swe_guard.h), the copy of
 * the last good state and of its flood products, and the test hook that
 * plants a NaN.  The same for a single domain (swe_cpu.c's table) and a
 * subdomain (swe_cpu_sub_ops), whose rows may move: the copies are of the
 * rows held when kept.  Below the driver's guard (swe_watch.c). */
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
		if (x->good && x->good_n != n) {   /* rows moved since the last keep */
			free(x->good);
			x->good = NULL;
		}
		if (!x->good && !(x->good = malloc(3 * n * sizeof(real))))
			return -SPATE_ENOMEM;
		x->good_n = n;
		for (int f = 0; f < 3; f++)
			memcpy(x->good + f * n, s[f], n * sizeof(real));
		if (x->good_prod && (!x->prod || x->good_np != np)) {
			free(x->good_prod);
			x->good_prod = NULL;
		}
		if (x->prod && !x->good_prod && !(x->good_prod = malloc(np)))
			return -SPATE_ENOMEM;
		x->good_np = np;
		if (x->prod)
			memcpy(x->good_prod, x->prod, np);
		return 0;
	case SWE_GUARD_REWIND:
		if (!x->good || x->good_n != n || (x->prod && (!x->good_prod || x->good_np != np)))
			return -SPATE_EINVAL;
		for (int f = 0; f < 3; f++)
			memcpy(s[f], x->good + f * n, n * sizeof(real));
		if (x->prod)
			memcpy(x->prod, x->good_prod, np);
		return 0;
	case SWE_GUARD_PLANT:
	case SWE_GUARD_PLANT_SILENT:
		cell += (long)x->xlo * x->s.pitch;   /* indices as swe_cpu_sample's */
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
