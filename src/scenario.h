/* scenario.h: INI scenario files for every physics module: the file read
 * key by key (libinih) into the module's parameters through its `set`
 * function, with file:line in every message; the first bad key reported
 * once, after libinih's own syntax check. */
#ifndef SPATE_SCENARIO_H
#define SPATE_SCENARIO_H

#include <stddef.h>

/* A section a module requires, and the keys it needs at least. */
struct spate_section_need {
	const char *section;
	const char *keys;       /* "setup, nx, ny and dx" */
};

/* What the reader needs of a module. */
struct spate_scenario_module {
	const char *const *sections;    /* the module's sections, NULL-terminated */
	const struct spate_section_need *needs; /* required ones, {NULL, NULL}-terminated */
	size_t params_size;             /* bytes of the parameter struct */
	/* Apply section.key = value to params; origin and line name it in
	 * messages.  0 or -SPATE_E* (after a message unless quiet). */
	int (*set)(void *params, const char *section, const char *key, const char *value,
		const char *origin, int line);
	/* While on, set reports nothing on stderr. */
	void (*quiet)(int on);
};

/* Read the scenario file at path into params (filled with defaults by the
 * caller).  Returns 0 or -SPATE_E* after a message naming the file, line
 * and key. */
int spate_scenario_load(const struct spate_scenario_module *m, void *params, const char *path);

/* The physics model a scenario file asks for: the value of [physics] model
 * into model (n bytes), "" when it has none.  Returns 0, or -SPATE_EIO after
 * a message when the file cannot be read. */
int spate_scenario_model(const char *path, char *model, size_t n);

#endif
