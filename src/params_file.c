/* params_file.c: the flood module's scenario files: its sections, the
 * required ones, and the reading (scenario.c) through swe_params_set. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "spate.h"
#include "swe.h"
#include "params.h"
#include "scenario.h"

static const char *const sections[] = { "domain", "initial", "physics", "boundary", "run", "output",
	"gauges", "parallel", NULL };

static const struct spate_section_need needs[] = {
	{ "domain", "setup, nx, ny and dx" },
	{ "run", "end_time = SECONDS" },
	{ NULL, NULL }
};

static int set(void *params, const char *section, const char *key, const char *value,
	const char *origin, int line)
{
	return swe_params_set(params, section, key, value, origin, line);
}

int swe_params_load(struct swe_params *p, const char *path)
{
	static const struct spate_scenario_module m = { sections, needs, sizeof(struct swe_params),
		set, swe_params_set_quiet };
	return spate_scenario_load(&m, p, path);
}
