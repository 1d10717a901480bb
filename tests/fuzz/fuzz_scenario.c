/* fuzz_scenario.c: libFuzzer target for the flood scenario reader: the
 * input as a scenario file through swe_params_load (INI parsing, every
 * key's value, did-you-mean), then swe_params_validate (the checks across
 * keys and set-ups) and swe_params_text.  Built by `make fuzz`; seeds in
 * tests/fuzz/scenario/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spate.h"
#include "swe.h"
#include "params.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct swe_params p;   /* ~40 KiB: not on the stack */
	const char *path = fuzz_file(data, size, "scenario.conf");
	swe_params_defaults(&p);
	if (path && swe_params_load(&p, path) == 0 && swe_params_validate(&p) == 0)
		free(swe_params_text(&p));
	return 0;
}
