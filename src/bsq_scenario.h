/* bsq_scenario.h: a Boussinesq scenario: the scenario file's keys (sections
 * [domain], [physics], [boundary], [solver], [run], [parallel], [output]), each checked
 * as it is read, then resolved into the solver's parameters (bsq.h): the
 * built-in set-up first, then every key given explicitly over it. */
#ifndef SPATE_BSQ_SCENARIO_H
#define SPATE_BSQ_SCENARIO_H

#include "bsq.h"

#define BSQ_PATH_MAX 1024

/* [run] device: where the steps run (auto: CUDA when a GPU is there). */
enum bsq_device { BSQ_DEVICE_CPU = 0, BSQ_DEVICE_CUDA, BSQ_DEVICE_AUTO };

struct bsq_config {
	/* [domain] setup and its knobs */
	char setup[32];         /* none, cavity, cavity3d, heated_cavity, rayleigh_benard,
	                           taylor_green */
	int n;                  /* cells per side of a set-up */
	double re, ra, pr;      /* Reynolds, Rayleigh, Prandtl numbers of a set-up */
	int plates;             /* rayleigh_benard: 1 free-slip, 0 no-slip */
	double wavenumber, amplitude;
	/* every solver parameter, set explicitly where set[] says so */
	struct bsq_params p;
	unsigned char set[128]; /* per key of the table (bsq_scenario.c): given */
	/* [run] */
	double end_time;        /* s (in the scenario's units) */
	long max_steps;         /* 0: unlimited */
	int threads;            /* OpenMP threads, 0: default */
	int device;             /* enum bsq_device */
	/* [parallel] */
	int subdomains;         /* slabs of whole x-y planes (bsq_slab.h) */
	int overlap;            /* enum bsq_overlap */
	int transport;          /* slabs on GPUs over ranks: enum halo_transport */
	/* [output] */
	char out_dir[BSQ_PATH_MAX];
	double out_interval;    /* s between snapshots (0: only the end) */
	int netcdf;             /* write results.nc (where built with NetCDF) */
	int profiles;           /* centreline profiles as CSV at the end */
	double series_interval; /* s between rows of series.csv (0: every step) */
	double checkpoint_every; /* s between checkpoints (0: none) */
};

/* Defaults: no set-up (bsq_params_default), end_time 1, output in
 * "bsq-out", NetCDF and profiles on. */
void bsq_config_defaults(struct bsq_config *c);

/* Apply section.key = value; origin and line name it in messages (with
 * "did you mean" for a misspelt key).  0 or -SPATE_EINVAL. */
int bsq_config_set(struct bsq_config *c, const char *section, const char *key,
	const char *value, const char *origin, int line);
/* While on, bsq_config_set reports nothing on stderr. */
void bsq_config_quiet(int on);

/* Read the scenario file at path into c (defaults first). */
int bsq_config_load(struct bsq_config *c, const char *path);

/* The solver parameters of c: the set-up's, then the explicit keys,
 * unchecked.  0, or -SPATE_EINVAL after a message (a set-up's bad value). */
int bsq_config_params(const struct bsq_config *c, struct bsq_params *p);

/* bsq_config_params, then checked (bsq_scenario_check.c): NCCL there where
 * asked for, every given key read by the set-up, the boundary kinds and
 * thermal it resolves to (else a message naming each that is not: a key of
 * another set-up, gbeta, T0 or kappa with thermal = no, a wall velocity
 * that is no moving wall's tangential one, a temperature on a periodic
 * face), the parameters valid (bsq_check).  0, -SPATE_EINVAL or
 * -SPATE_EUNSUPPORTED after a message. */
int bsq_config_resolve(const struct bsq_config *c, struct bsq_params *p);

/* Whether [section] key was given (in the scenario file or on the command
 * line): 1 or 0. */
int bsq_config_given(const struct bsq_config *c, const char *section, const char *key);

/* Whether the set-up, boundary kinds and thermal of c, resolved to p,
 * read [section] key (bsq_scenario_check.c; the rule bsq_config_resolve
 * holds the given keys to): 1 or 0. */
int bsq_config_reads(const struct bsq_config *c, const struct bsq_params *p,
	const char *section, const char *key);

/* The resolved keys as INI text (malloc'd; NULL when out of memory); with
 * keep (bsq_config_reads, for --print-params), only the keys it keeps, so
 * that the text reads back. */
char *bsq_config_text(const struct bsq_config *c, int (*keep)(const struct bsq_config *c,
	const struct bsq_params *p, const char *section, const char *key));

#endif
