/* params_keys.h: the flood module's key table as params.c defines it, for
 * the files of the parameters alone (params.c sets keys, params_print.c
 * writes them back); everyone else goes through params.h. */
#ifndef SPATE_PARAMS_KEYS_H
#define SPATE_PARAMS_KEYS_H

#include <stddef.h>

enum key_type { K_INT, K_LONG, K_DBL, K_STR, K_CHOICE };

/* One key of the table: where its value lives in struct swe_params. */
struct key {
	const char *sec, *key;
	int type;
	size_t off, size;   /* field offset; string capacity */
	double lo, hi;      /* allowed range (numbers) */
	const char *choices; /* K_CHOICE/K_STR: '|'-separated, NULL = free text;
	                        K_INT: a word that stands for 0 (e.g. auto) */
};

/* The table, in the order swe_params_print writes it, and its length. */
extern const struct key *const swe_param_keys;
extern const size_t swe_param_nkeys;

#endif
