/* nctable.h: a table of a results file (field.h: struct spate_table), for
 * ncout.c: its dimension, row numbers and one variable per column.  Every
 * function returns a NetCDF status. */
#ifndef SPATE_NCTABLE_H
#define SPATE_NCTABLE_H

#include "field.h"

/* Define table t in file id (in define mode). */
int spate_nct_define(int id, const struct spate_table *t);

/* Write the row numbers and the columns of t (out of define mode). */
int spate_nct_put(int id, const struct spate_table *t);

#endif
