/* fuzz_ckpt.c: libFuzzer target for the flood checkpoint reader
 * (swe_ckpt_read): the input as a checkpoint file through the format
 * sniffing, spate's binary reader and the module's unpacking.  A
 * checkpoint it accepts must hold a grid of at least one cell and its
 * three arrays.  Inputs that sniff as NetCDF are left out: that reader is
 * libnetcdf over libhdf5, and libhdf5 (Debian 12's 1.10.8) crashes within
 * seconds on mutated NetCDF-4 files, inside the library (see
 * doc/robustness.md): spate opens a checkpoint.nc only when its bytes match
 * its sum file, which fuzz_ckpt_nc fuzzes.  Built by `make fuzz`; seeds in
 * tests/fuzz/ckpt/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "checkpoint.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct swe_ckpt c;
	const char *path;
	if (size >= 3 && (!memcmp(data, "\x89HD", 3) || !memcmp(data, "CDF", 3)))
		return 0;
	path = fuzz_file(data, size, "checkpoint");
	if (!path || swe_ckpt_read(path, &c) != 0)
		return 0;
	if (c.real_bytes == (int)sizeof(real) && (c.nx < 1 || c.ny < 1 || !c.w || !c.hu || !c.hv))
		abort();
	swe_ckpt_free(&c);
	return 0;
}
