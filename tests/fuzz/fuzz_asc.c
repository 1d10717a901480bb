/* fuzz_asc.c: libFuzzer target for the built-in ESRI ASCII grid reader
 * (terrain_read_asc): the input as an .asc file; a grid it accepts must
 * hold finite values or NAN (NODATA) only.  Built by `make fuzz`; seeds in
 * tests/fuzz/asc/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "spate.h"
#include "terrain.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct terrain_grid *g = malloc(sizeof *g);  /* 8 KiB of CRS text */
	const char *path = fuzz_file(data, size, "grid.asc");
	if (g && path && terrain_read_asc(path, g) == 0) {
		for (long k = 0; k < (long)g->nx * g->ny; k++)
			if (isinf(g->v[k]))
				abort();
		terrain_free(g);
	}
	free(g);
	return 0;
}
