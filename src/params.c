/* params.c: shallow-water parameters: --section.key=value settings (the one
 * place that knows every key) and printing; the defaults and the checks
 * across keys are in params_check.c, scenario files are read in
 * params_file.c. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spate.h"
#include "swe.h"
#include "params.h"
#include "cftime.h"
#include "params_keys.h"

#define F(f) offsetof(struct swe_params, f)
#define S(f) sizeof(((struct swe_params *)0)->f)
#define SETUPS "circular_dambreak|bumps_dambreak|lake_at_rest|dambreak1d|smooth_wave|thacker_bowl|dem"
static const struct key keys[] = {
	{ "domain", "setup", K_STR, F(setup), S(setup), 0, 0, SETUPS },
	{ "domain", "nx", K_INT, F(nx), 0, 4, 1 << 20, NULL },
	{ "domain", "ny", K_INT, F(ny), 0, 4, 1 << 20, NULL },
	{ "domain", "dx", K_DBL, F(dx), 0, 1e-6, 1e6, NULL },
	{ "domain", "dy", K_DBL, F(dy), 0, 1e-6, 1e6, NULL },
	{ "domain", "x0", K_DBL, F(x0), 0, -1e12, 1e12, NULL },
	{ "domain", "y0", K_DBL, F(y0), 0, -1e12, 1e12, NULL },
	{ "domain", "dem", K_STR, F(dem), S(dem), 0, 0, NULL },
	{ "domain", "data_dir", K_STR, F(data_dir), S(data_dir), 0, 0, NULL },
	{ "domain", "nodata", K_CHOICE, F(nodata_mask), 0, 0, 0, "wall|mask" },
	{ "domain", "banks", K_CHOICE, F(banks), 0, 0, 0, "no|yes" },
	{ "domain", "wall_height", K_DBL, F(wall_height), 0, 0, 1e5, NULL },
	{ "domain", "max_abs_elevation", K_DBL, F(max_abs_elevation), 0, 1, 1e7, NULL },
	{ "domain", "cellsize", K_DBL, F(cellsize), 0, 0, 1e6, NULL },
	{ "initial", "h_in", K_DBL, F(h_in), 0, 0, 1e4, NULL },
	{ "initial", "h_out", K_DBL, F(h_out), 0, 0, 1e4, NULL },
	{ "initial", "radius", K_DBL, F(radius), 0, 0, 1e9, NULL },
	{ "initial", "dam_x", K_DBL, F(dam_x), 0, -1e12, 1e12, NULL },
	{ "initial", "dam_y", K_DBL, F(dam_y), 0, -1e12, 1e12, NULL },
	{ "initial", "level", K_DBL, F(level), 0, -1e5, 1e5, NULL },
	{ "initial", "amplitude", K_DBL, F(amplitude), 0, 0, 1e3, NULL },
	{ "initial", "fill_level", K_DBL, F(fill_level), 0, -1e5, 1e5, NULL },
	{ "initial", "reservoir_level", K_DBL, F(reservoir_level), 0, -1e5, 1e5, NULL },
	{ "initial", "polygon", K_STR, F(polygon), S(polygon), 0, 0, NULL },
	{ "initial", "polygon_level", K_DBL, F(polygon_level), 0, -1e5, 1e5, NULL },
	{ "initial", "depth_file", K_STR, F(depth_file), S(depth_file), 0, 0, NULL },
	{ "initial", "level_file", K_STR, F(level_file), S(level_file), 0, 0, NULL },
	{ "physics", "model", K_CHOICE, F(model), 0, 0, 0, "shallow_water" },
	{ "physics", "g", K_DBL, F(g), 0, 1e-3, 1e3, NULL },
	{ "physics", "manning", K_DBL, F(manning), 0, 0, 10, NULL },
	{ "physics", "cfl", K_DBL, F(cfl), 0, 1e-6, 1, NULL },
	{ "physics", "theta", K_DBL, F(theta), 0, 1, 2, NULL },
	{ "physics", "kappa", K_DBL, F(kappa), 0, 0, 1, NULL },
	{ "physics", "dry_tol", K_DBL, F(dry_tol), 0, 0, 1, NULL },
	{ "physics", "manning_file", K_STR, F(manning_file), S(manning_file), 0, 0, NULL },
	{ "physics", "rain", K_DBL, F(rain), 0, 0, 1e4, NULL },
	{ "physics", "rain_files", K_STR, F(rain_files), S(rain_files), 0, 0, NULL },
	/* last of [physics]: swe_params_print writes [boundary] after it */
	{ "physics", "integrator", K_CHOICE, F(integrator), 0, 0, 0, "euler|rk2" },
	{ "run", "end_time", K_DBL, F(end_time), 0, 0, 1e9, NULL },
	{ "run", "max_steps", K_LONG, F(max_steps), 0, 0, 1e15, NULL },
	{ "run", "max_dt", K_DBL, F(max_dt), 0, 0, 1e9, NULL },
	{ "run", "guard_every", K_LONG, F(guard_every), 0, 0, 1e15, NULL },
	{ "run", "device", K_STR, F(device), S(device), 0, 0, "auto|cpu|cuda" },
	{ "run", "threads", K_INT, F(threads), 0, 0, 4096, NULL },
	{ "run", "start_time", K_STR, F(start_time), S(start_time), 0, 0, NULL },
	{ "output", "dir", K_STR, F(out_dir), S(out_dir), 0, 0, NULL },
	{ "output", "interval", K_DBL, F(out_interval), 0, 0, 1e9, NULL },
	{ "output", "grids", K_CHOICE, F(write_grids), 0, 0, 0, "no|yes" },
	{ "output", "products", K_CHOICE, F(products), 0, 0, 0, "no|yes" },
	{ "output", "threshold", K_DBL, F(threshold), 0, 0, 100, NULL },
	{ "output", "hazard_scheme", K_CHOICE, F(hazard_scheme), 0, 0, 0, "none|arr2019|fd2320" },
	{ "output", "format", K_CHOICE, F(out_format), 0, 0, 0, "ascii|netcdf|both" },
	{ "output", "checkpoint_every", K_DBL, F(checkpoint_every), 0, 0, 1e9, NULL },
	{ "gauges", "file", K_STR, F(gauge_file), S(gauge_file), 0, 0, NULL },
	{ "gauges", "radius", K_INT, F(gauge_radius), 0, 0, 10, NULL },
	{ "gauges", "threshold", K_DBL, F(gauge_threshold), 0, 0, 100, NULL },
	{ "gauges", "interval", K_DBL, F(gauge_interval), 0, 0, 1e9, NULL },
	{ "parallel", "subdomains", K_INT, F(subdomains), 0, 1, SWE_SUB_MAX, NULL },
	{ "parallel", "early_exit", K_CHOICE, F(early_exit), 0, 0, 0, "off|on|auto" },
	{ "parallel", "early_exit_steps", K_INT, F(early_exit_steps), 0, 1, 1000, NULL },
	{ "parallel", "early_exit_interval", K_INT, F(early_exit_interval), 0, 1, 1e9, NULL },
	{ "parallel", "balance", K_CHOICE, F(balance), 0, 0, 0, "static|bbox|rows" },
	{ "parallel", "balance_interval", K_INT, F(balance_interval), 0, 1, 1e9, NULL },
	{ "parallel", "balance_gain", K_DBL, F(balance_gain), 0, 0, 1e6, NULL },
	{ "parallel", "probe", K_CHOICE, F(probe), 0, 0, 0, "off|on" },
	{ "parallel", "probe_steps", K_INT, F(probe_steps), 0, 1, 1000, NULL },
	/* K_INT with a word: "auto" stands for 0 */
	{ "parallel", "ghost_expansion", K_INT, F(ghost_expansion), 0, 1, 32, "auto" },
	{ "parallel", "overlap", K_CHOICE, F(overlap), 0, 0, 0, "none|compute|streams" },
	{ "parallel", "gpus", K_INT, F(gpus), 0, 0, 1024, NULL },
	{ "parallel", "transport", K_CHOICE, F(transport), 0, 0, 0, "auto|mpi|nccl" },
};
#undef F
#undef S

const char *const swe_side_names[4] = { "west", "east", "south", "north" };

_Static_assert(sizeof keys / sizeof keys[0] <= SWE_KEYS_MAX, "raise SWE_KEYS_MAX in swe.h");
const struct key *const swe_param_keys = keys;
const size_t swe_param_nkeys = sizeof keys / sizeof keys[0];

int swe_params_key(int i, const char **section, const char **key)
{
	if (i < 0 || i >= (int)(sizeof keys / sizeof keys[0]))
		return -1;
	*section = keys[i].sec;
	*key = keys[i].key;
	return 0;
}

int swe_params_key_real(const char *section, const char *key)
{
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(keys[i].sec, section) && !strcmp(keys[i].key, key))
			return keys[i].type == K_DBL;
	if (strcmp(section, "boundary") == 0 && strcmp(key, "inflow_scale") == 0)
		return 1;
	for (int s = 0; !strcmp(section, "boundary") && s < 4; s++) {
		size_t n = strlen(swe_side_names[s]);
		if (!strncmp(key, swe_side_names[s], n) && !strcmp(key + n, "_level"))
			return 1;
		if (!strncmp(key, swe_side_names[s], n) && (!key[n] || !strcmp(key + n,
			"_hydrograph") || !strcmp(key + n, "_discharge")))
			return 0;
	}
	return (strcmp(section, "domain") == 0 && strcmp(key, "crop") == 0) ||
		(strcmp(section, "initial") == 0 && strcmp(key, "reservoir_line") == 0) ||
		(strcmp(section, "initial") == 0 && strcmp(key, "dry_disk") == 0) ||
		(strcmp(section, "parallel") == 0 && strcmp(key, "workload") == 0) ? 0 : -1;
}

/* Index of `word` in a '|'-separated list, or -1. */
static int choice_index(const char *list, const char *word)
{
	int idx = 0;
	size_t n = strlen(word);
	const char *s = list;
	while (s && *s) {
		const char *e = strchr(s, '|');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len == n && strncasecmp(s, word, n) == 0)
			return idx;
		idx++;
		s = e ? e + 1 : NULL;
	}
	return -1;
}

static int parse_double(const char *v, double *out)
{
	char *end;
	double d;
	errno = 0;
	d = strtod(v, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == v || *end || errno == ERANGE || !isfinite(d))
		return -1;
	*out = d;
	return 0;
}

/* 1 while swe_params_load checks a key without messages (params_file.c). */
static int quiet_set;

void swe_params_set_quiet(int on)
{
	quiet_set = on;
}

/* "spate: FILE:LINE: " or, for line 0 (command line, tests), "spate: ORIGIN: ". */
static void where(const char *origin, int line)
{
	if (line > 0)
		spate_log_text("spate: %s:%d: ", origin, line);
	else
		spate_log_text("spate: %s: ", origin);
}

#define BAD(...) do { \
		if (!quiet_set) { \
			where(origin, line); \
			spate_log_text("[%s] %s = %s: ", section, key, value); \
			spate_log_text(__VA_ARGS__); \
			spate_log_text("\n"); \
		} \
		return -SPATE_EINVAL; \
	} while (0)

/* Hydrograph "t0 q0, t1 q1, ...": times strictly increasing.  Parsed into
 * locals, so a rejected value leaves the side's table as it was. */
static int parse_hydrograph(struct swe_bc *b, const char *value, const char *origin, int line,
	const char *section, const char *key)
{
	double tt[SWE_HYDRO_MAX], qq[SWE_HYDRO_MAX];
	const char *s = value;
	int n = 0;
	while (*s) {
		char *end;
		double t, q;
		errno = 0;
		t = strtod(s, &end);
		if (end == s || !isfinite(t))
			BAD("expected pairs \"time discharge, time discharge, ...\"");
		s = end;
		q = strtod(s, &end);
		if (end == s || !isfinite(q))
			BAD("pair %d has a time but no discharge", n + 1);
		s = end;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == ',' || *s == ';')
			s++;
		else if (*s)
			BAD("unexpected '%c' after pair %d", *s, n + 1);
		while (*s == ' ' || *s == '\t')
			s++;
		if (n >= SWE_HYDRO_MAX)
			BAD("more than %d points", SWE_HYDRO_MAX);
		if (n > 0 && t <= tt[n - 1])
			BAD("times must increase (point %d at %g s follows %g s)", n + 1, t, tt[n - 1]);
		if (q < 0)
			BAD("discharge must be >= 0 (point %d)", n + 1);
		tt[n] = t;
		qq[n] = q;
		n++;
	}
	if (n == 0)
		BAD("empty hydrograph");
	memcpy(b->t, tt, (size_t)n * sizeof *tt);
	memcpy(b->q, qq, (size_t)n * sizeof *qq);
	b->n = n;
	return 0;
}

static int set_boundary(struct swe_params *p, const char *key, const char *value,
	const char *origin, int line)
{
	const char *section = "boundary";
	if (strcmp(section, "boundary") == 0 && strcmp(key, "inflow_scale") == 0) {
		double f;
		if (parse_double(value, &f) || f < 0 || f > 1000)
			BAD("must be a factor in [0, 1000] on every inflow hydrograph's discharge");
		p->inflow_scale = f;
		p->has_inflow_scale = 1;
		return 0;
	}
	for (int s = 0; s < 4; s++) {
		size_t n = strlen(swe_side_names[s]);
		if (strncmp(key, swe_side_names[s], n) != 0)
			continue;
		if (key[n] == 0) {
			int k = choice_index("wall|outflow|level|inflow", value);
			if (k < 0)
				BAD("must be one of wall, outflow, level, inflow");
			p->bc[s].kind = k;
			return 0;
		}
		if (strcmp(key + n, "_level") == 0) {
			if (parse_double(value, &p->bc[s].level))
				BAD("not a number");
			return 0;
		}
		if (strcmp(key + n, "_hydrograph") == 0)
			return parse_hydrograph(&p->bc[s], value, origin, line, section, key);
		if (strcmp(key + n, "_discharge") == 0) {
			int k = choice_index("width|total", value);
			if (k < 0)
				BAD("must be 'width' (m^2/s per metre of boundary) or 'total' (m^3/s)");
			p->bc[s].total = k;
			return 0;
		}
	}
	BAD("unknown key; [boundary] takes west, east, south, north (wall|outflow|level|inflow), "
		"<side>_level, <side>_hydrograph, <side>_discharge and inflow_scale");
}

/* "a b c ...": exactly n finite numbers. */
static int parse_vector(const char *v, double *out, int n)
{
	char *end;
	for (int k = 0; k < n; k++) {
		errno = 0;
		out[k] = strtod(v, &end);
		if (end == v || errno == ERANGE || !isfinite(out[k]))
			return -1;
		v = end;
		while (*v == ' ' || *v == '\t' || *v == ',')
			v++;
	}
	return *v ? -1 : 0;
}

/* The keys that are not one value of the table: vectors and lists.
 * Returns 0 or -SPATE_EINVAL where it is one of them, else 1. */
static int set_vector(struct swe_params *p, const char *section, const char *key,
	const char *value, const char *origin, int line)
{
	if (strcmp(section, "initial") == 0 && strcmp(key, "reservoir_line") == 0) {
		if (parse_vector(value, p->reservoir_line, 4))
			BAD("expected four numbers: x1 y1 x2 y2 (upstream is left of p1 -> p2)");
		if (p->reservoir_line[0] == p->reservoir_line[2] &&
			p->reservoir_line[1] == p->reservoir_line[3])
			BAD("the two points of the line must differ");
		p->has_reservoir = 1;
		return 0;
	}
	if (strcmp(section, "domain") == 0 && strcmp(key, "crop") == 0) {
		if (parse_vector(value, p->crop, 4) || p->crop[2] <= p->crop[0] ||
			p->crop[3] <= p->crop[1])
			BAD("expected four numbers: xmin ymin xmax ymax, with xmin < xmax, ymin < ymax");
		p->has_crop = 1;
		return 0;
	}
	if (strcmp(section, "parallel") == 0 && strcmp(key, "workload") == 0) {
		char *end;
		const char *v = value;
		int n = 0;
		while (*v) {
			double f;
			errno = 0;
			f = strtod(v, &end);
			if (end == v || errno == ERANGE || !(f > 0) || !isfinite(f))
				BAD("expected relative workloads > 0, one per subdomain: 60,40");
			if (n >= SWE_SUB_MAX)
				BAD("more than %d subdomains", SWE_SUB_MAX);
			p->workload[n++] = f;
			v = end;
			while (*v == ' ' || *v == '\t' || *v == ',')
				v++;
		}
		if (n == 0)
			BAD("expected relative workloads > 0, one per subdomain: 60,40");
		p->nworkload = n;
		return 0;
	}
	if (strcmp(section, "initial") == 0 && strcmp(key, "dry_disk") == 0) {
		if (parse_vector(value, p->dry_disk, 3) || p->dry_disk[2] < 0)
			BAD("expected three numbers: x y radius (radius >= 0)");
		p->has_dry_disk = 1;
		return 0;
	}
	return 1;
}

/* Key k of the table from its text. */
static int set_table(struct swe_params *p, const struct key *k, const char *section,
	const char *key, const char *value, const char *origin, int line)
{
	char *field = (char *)p + k->off;
	double d;
	switch (k->type) {
	case K_STR:
		if (!strcmp(key, "start_time")) {   /* ISO 8601 in UTC, kept canonical */
			const char *why;
			if (spate_time_parse(value, field, &why))
				BAD("%s", why);
			return 0;
		}
		if (k->choices && choice_index(k->choices, value) < 0)
			BAD("must be one of %s", k->choices);
		if (strlen(value) >= k->size || !*value)
			BAD("must be 1 to %zu characters", k->size - 1);
		snprintf(field, k->size, "%s", value);
		return 0;
	case K_CHOICE: {
		int c = choice_index(k->choices, value);
		if (c < 0 && !strcmp(key, "model")) /* boussinesq: main.c picks the module */
			BAD("must be %s or boussinesq (spate-scenario(5))", k->choices);
		if (c < 0)
			BAD("must be one of %s", k->choices);
		*(int *)field = strcmp(key, "integrator") == 0 ? c + 1 : c;
		return 0;
	}
	default:
		if (k->choices && choice_index(k->choices, value) == 0) {
			*(int *)field = 0;
			return 0;
		}
		if (parse_double(value, &d))
			BAD("not a number%s%s", k->choices ? " or " : "", k->choices ? k->choices : "");
		if (d < k->lo || d > k->hi)
			BAD("must be in [%g, %g]%s%s", k->lo, k->hi, k->choices ? " or " : "",
				k->choices ? k->choices : "");
		if (k->type == K_INT || k->type == K_LONG) {
			if (d != floor(d))
				BAD("must be a whole number");
			if (k->type == K_INT)
				*(int *)field = (int)d;
			else
				*(long *)field = (long)d;
		} else {
			*(double *)field = d;
		}
		return 0;
	}
}

/* Neither a key of the table nor a vector: the section or the key is
 * unknown (the keys of a known section listed). */
static int set_unknown(const char *section, const char *key, const char *value,
	const char *origin, int line)
{
	const struct key *near = NULL;
	int best = 3;       /* suggest keys at most 2 edits away */
	size_t i;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(keys[i].sec, section) == 0)
			break;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		if (spate_edit_distance(section, keys[k].sec) < best) {
			best = spate_edit_distance(section, keys[k].sec);
			near = &keys[k];
		}
	if (i == sizeof keys / sizeof keys[0])
		BAD("unknown section [%s]%s%s%s; sections are [domain], [initial], [physics], "
			"[boundary], [run], [output], [gauges], [parallel]", section,
			near ? " (did you mean [" : "", near ? near->sec : "", near ? "]?)" : "");
	near = NULL;
	best = 3;
	if (quiet_set)
		return -SPATE_EINVAL;
	where(origin, line);
	spate_log_text("[%s] %s: unknown key", section, key);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		int d = spate_edit_distance(key, keys[i].key) + (strcmp(section, keys[i].sec) != 0);
		if (d < best) {
			best = d;
			near = &keys[i];
		}
	}
	if (near)
		spate_log_text(" (did you mean [%s] %s?)", near->sec, near->key);
	spate_log_text("; [%s] takes:", section);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(keys[i].sec, section) == 0)
			spate_log_text(" %s", keys[i].key);
	spate_log_text("\n");
	return -SPATE_EINVAL;
}

int swe_params_set(struct swe_params *p, const char *section, const char *key,
	const char *value, const char *origin, int line)
{
	int rc;
	if (strcmp(section, "boundary") == 0)
		return set_boundary(p, key, value, origin, line);
	if ((rc = set_vector(p, section, key, value, origin, line)) <= 0)
		return rc;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(keys[i].sec, section) && !strcmp(keys[i].key, key)) {
			if ((rc = set_table(p, &keys[i], section, key, value, origin, line)) == 0)
				p->given[i] = 1;
			return rc;
		}
	return set_unknown(section, key, value, origin, line);
}
#undef BAD
