/* params_setup.c: which keys each set-up reads ([domain] setup), so that a
 * key set for another set-up is an error rather than silently ignored:
 * "dem is set but setup = circular_dambreak: add setup = dem".
 *
 * The set-ups read (setup.c point_state, terrain/init.c, terrain/forcing.c):
 *   the built-in ones  the grid: nx, ny, dx, dy, x0, y0
 *   circular_dambreak, bumps_dambreak  h_in, h_out, radius, dam_x, dam_y
 *   dambreak1d         h_in, h_out, dam_x
 *   lake_at_rest       level
 *   smooth_wave        amplitude
 *   thacker_bowl       h_in (the bowl's depth h0)
 *   dem                the DEM and its rasters, the initial water of a DEM
 * Every other key (physics, boundary, run, output, gauges, parallel, and
 * data_dir, which gauge files use too) is read by every set-up. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "params.h"

#define BUILTIN "circular_dambreak|bumps_dambreak|lake_at_rest|dambreak1d|smooth_wave|" \
	"thacker_bowl"
#define DAMS "circular_dambreak|bumps_dambreak"

/* A key read by some set-ups only: '|'-separated. */
static const struct {
	const char *sec, *key, *setups;
} only[] = {
	{ "domain", "nx", BUILTIN }, { "domain", "ny", BUILTIN },
	{ "domain", "dx", BUILTIN }, { "domain", "dy", BUILTIN },
	{ "domain", "x0", BUILTIN }, { "domain", "y0", BUILTIN },
	{ "domain", "dem", "dem" }, { "domain", "nodata", "dem" },
	{ "domain", "banks", "dem" },
	{ "domain", "wall_height", "dem" }, { "domain", "cellsize", "dem" },
	{ "domain", "crop", "dem" }, { "domain", "max_abs_elevation", "dem" },
	{ "initial", "h_in", DAMS "|dambreak1d|thacker_bowl" }, { "initial", "h_out", DAMS "|dambreak1d" },
	{ "initial", "radius", DAMS }, { "initial", "dam_x", DAMS "|dambreak1d" },
	{ "initial", "dam_y", DAMS }, { "initial", "level", "lake_at_rest" },
	{ "initial", "amplitude", "smooth_wave" },
	{ "initial", "fill_level", "dem" }, { "initial", "reservoir_level", "dem" },
	{ "initial", "reservoir_line", "dem" }, { "initial", "dry_disk", "dem" },
	{ "initial", "polygon", "dem" }, { "initial", "polygon_level", "dem" },
	{ "initial", "depth_file", "dem" }, { "initial", "level_file", "dem" },
	{ "physics", "manning_file", "dem" }, { "physics", "rain_files", "dem" },
};

/* The set-ups that read [sec] key; NULL: all of them. */
static const char *setups_of(const char *sec, const char *key)
{
	for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
		if (!strcmp(only[i].sec, sec) && !strcmp(only[i].key, key))
			return only[i].setups;
	return NULL;
}

int swe_key_used(const struct swe_params *p, const char *section, const char *key)
{
	const char *s = setups_of(section, key);
	return !s || spate_listed(s, p->setup);
}

int swe_key_unused(const struct swe_params *p, const char *sec, const char *key)
{
	const char *s = setups_of(sec, key);
	if (!strcmp(s, "dem"))
		spate_log_error("scenario", "[%s] %s is set but setup = %s: add setup = dem (or "
			"remove %s)", sec, key, p->setup, key);
	else if (!strcmp(p->setup, "dem") && !strcmp(s, BUILTIN))
		spate_log_error("scenario", "[%s] %s is set but setup = dem takes the grid from "
			"the DEM: remove %s (cellsize resamples the DEM, crop cuts it)", sec, key, key);
	else {
		char list[128];
		size_t k;
		snprintf(list, sizeof list, "%s", s);
		for (k = 0; list[k]; k++)
			list[k] = list[k] == '|' ? '/' : list[k];
		spate_log_error("scenario", "[%s] %s is set but setup = %s does not read it: remove "
			"it, or use a set-up that does (%s)", sec, key, p->setup, list);
	}
	return -SPATE_EINVAL;
}
