/* fuzz_bsq_scenario.c: libFuzzer target for the Boussinesq scenario reader:
 * the input as a scenario file through bsq_config_load (INI parsing, every
 * key's value and unit, did-you-mean), then bsq_config_resolve (the set-up
 * over the defaults, the explicit keys, bsq_check's checks across keys) and
 * bsq_config_text.  No state is allocated: a valid file may ask for 2^42
 * cells.  Built by `make fuzz`; seeds in tests/fuzz/bsq_scenario/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "spate.h"
#include "bsq.h"
#include "bsq_scenario.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bsq_config c;
	struct bsq_params p;
	const char *path = fuzz_file(data, size, "bsq.conf");
	spate_set_quiet(1);
	bsq_config_defaults(&c);
	if (path && bsq_config_load(&c, path) == 0 && bsq_config_resolve(&c, &p) == 0)
		free(bsq_config_text(&c));
	return 0;
}
