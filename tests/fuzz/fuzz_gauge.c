/* fuzz_gauge.c: libFuzzer target for the gauge CSV reader (gauge_load): the
 * input as a gauge file "name,x,y" on a grid of 40 x 30 cells of 2 m from
 * (100, 200), radius 1.  A set it accepts must hold gauges inside the grid
 * whose cells (the centre first) are interior cells.  Built by `make fuzz`;
 * seeds in tests/fuzz/gauge/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "gauge.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct swe_state s;
	struct gauge_set gs;
	const char *path = fuzz_file(data, size, "gauges.csv");
	memset(&s, 0, sizeof s);
	s.nx = 40;
	s.ny = 30;
	s.pitch = s.nx + 2 * SWE_GHOST;
	s.cpitch = s.pitch + 1;
	s.dx = s.dy = 2;
	s.x0 = 100;
	s.y0 = 200;
	if (!path || gauge_load(&gs, path, &s, 1, 0.01) != 0)
		return 0;
	for (int k = 0; k < gs.n; k++) {
		if (gs.g[k].i < 0 || gs.g[k].i >= s.nx || gs.g[k].j < 0 || gs.g[k].j >= s.ny)
			abort();
		for (int m = 0; m < gs.per; m++) {
			long q = gs.idx[(size_t)k * gs.per + m];
			long i = q % s.pitch - SWE_GHOST, j = q / s.pitch - SWE_GHOST;
			if (i < 0 || i >= s.nx || j < 0 || j >= s.ny)
				abort();
		}
	}
	gauge_free(&gs);
	return 0;
}
