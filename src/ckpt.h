/* ckpt.h: a checkpoint of any physics module: a small header (the module's
 * name and format version, named numbers, one text) and named arrays of
 * 1 to 4 dimensions.  The run services write and read it (ckpt_file.h) in
 * either format (ckpt_bin.c, ckpt_nc.c) without knowing what it holds; a
 * module packs its state into it and takes it back out by name. */
#ifndef SPATE_CKPT_H
#define SPATE_CKPT_H

#include <stddef.h>
#include <stdint.h>

#define SPATE_CKPT_NAME 32   /* longest name, with its NUL */
#define SPATE_CKPT_NUMS 64   /* most named numbers */
#define SPATE_CKPT_ARRAYS 32 /* most named arrays */
#define SPATE_CKPT_DIMS 4

/* Element types of an array. */
enum spate_ckpt_type { SPATE_CKPT_F32 = 0, SPATE_CKPT_F64 = 1 };

struct spate_ckpt_array {
	char name[SPATE_CKPT_NAME];
	int type;                       /* enum spate_ckpt_type */
	int ndims;
	size_t dims[SPATE_CKPT_DIMS];   /* slowest first */
	void *data;                     /* owned */
};

struct spate_ckpt {
	char module[SPATE_CKPT_NAME];   /* "swe", "bsq": the physics that wrote it */
	int version;                    /* the module's layout version */
	int nnum;
	char num_name[SPATE_CKPT_NUMS][SPATE_CKPT_NAME];
	double num[SPATE_CKPT_NUMS];
	char *text;                     /* free text (resolved parameters), owned, or NULL */
	char time_units[64];            /* CF units of number "t" ("seconds since <start>",
	                                   cftime.h), or "": NetCDF has it as variable time */
	int narr;
	struct spate_ckpt_array arr[SPATE_CKPT_ARRAYS];
};

/* 64-bit FNV-1a (Fowler, Noll, Vo) of n bytes, continuing from h (start:
 * SPATE_FNV_START): the bed hash of a checkpoint, the sum of a file. */
#define SPATE_FNV_START 0xcbf29ce484222325ULL
uint64_t spate_fnv1a(uint64_t h, const void *data, size_t n);

/* The bytes of one element of type t (0 for an unknown type). */
size_t spate_ckpt_type_size(int type);
/* Elements of array a. */
size_t spate_ckpt_count(const struct spate_ckpt_array *a);

/* Set number name to v (added, or replaced); 0 or -SPATE_EINVAL (full). */
int spate_ckpt_set(struct spate_ckpt *c, const char *name, double v);
/* Number name into *v; 0, or -SPATE_EFORMAT when c has none of that name. */
int spate_ckpt_get(const struct spate_ckpt *c, const char *name, double *v);

/* Add array name of type and dims[ndims] (zeroed, owned by c); returns its
 * data, or NULL when out of memory, full, or the name is taken. */
void *spate_ckpt_add(struct spate_ckpt *c, const char *name, int type, int ndims,
	const size_t *dims);
/* The same for an array the caller allocated (malloc): c takes data over
 * (frees it with the rest) and returns 0, or -SPATE_EINVAL (c left as it
 * was, data still the caller's). */
int spate_ckpt_adopt(struct spate_ckpt *c, const char *name, int type, int ndims,
	const size_t *dims, void *data);
/* The array of that name, or NULL. */
const struct spate_ckpt_array *spate_ckpt_find(const struct spate_ckpt *c, const char *name);

/* Free everything c owns and clear it. */
void spate_ckpt_free(struct spate_ckpt *c);

#endif
