/* params.h: the flood scenario's parameters: defaults, the scenario file,
 * --section.key=value overrides, validation and the resolved text */
#ifndef SPATE_PARAMS_H
#define SPATE_PARAMS_H

#include "swe.h"

/* The sides' names in [boundary]: west, east, south, north (SWE_WEST...). */
extern const char *const swe_side_names[4];
void swe_params_defaults(struct swe_params *p);
/* Reads an INI scenario file; returns 0 or -SPATE_E* with a message naming
 * the file, line and key. */
int swe_params_load(struct swe_params *p, const char *path);
/* Applies one "section.key=value" override; `origin` names it in messages. */
int swe_params_set(struct swe_params *p, const char *section, const char *key,
	const char *value, const char *origin, int line);
int swe_params_validate(const struct swe_params *p);
/* Key i of the table (0, 1, ...): its section and name; 0, or -1 past the end. */
int swe_params_key(int i, const char **section, const char **key);
/* Whether [section] key takes one real number (1: a key of the table with
 * a real value, <side>_level, inflow_scale), another kind of value (0), or
 * is no key at all (-1). */
int swe_params_key_real(const char *section, const char *key);
/* Whether p's set-up reads [section] key (1) or ignores it (0). */
int swe_key_used(const struct swe_params *p, const char *section, const char *key);
/* [section] key, set but not read by p's set-up: a message naming the key,
 * the set-up and the fix; returns -SPATE_EINVAL (params_setup.c). */
int swe_key_unused(const struct swe_params *p, const char *section, const char *key);
/* The keys set explicitly that p's set-up ignores: 0, or -SPATE_EINVAL after
 * swe_key_unused's message (params_check.c). */
int swe_params_check_used(const struct swe_params *p);
/* While on, swe_params_set reports nothing on stderr (the scenario-file
 * reader checks a key first and reports later, params_file.c). */
void swe_params_set_quiet(int on);
/* Writes the resolved parameters as INI text. */
void swe_params_print(const struct swe_params *p, void *file);
/* The same text in a malloc'd string (NULL when out of memory). */
char *swe_params_text(const struct swe_params *p);

#endif
