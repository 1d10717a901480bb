/* ckpt_sum.h: the integrity of a NetCDF checkpoint, checked before the
 * file is opened: libhdf5 may crash on a damaged file, so spate refuses one
 * whose bytes differ from those it wrote.  Next to <path> (checkpoint.nc)
 * lies <path>.sum, one line:
 *     spate-checkpoint-sum 1 fnv1a64 <16 hex digits> <bytes>
 * the 64-bit FNV-1a of the file's bytes and their count.  Binary
 * checkpoints (checkpoint.bin) need none: spate's own reader checks them.
 * A checkpoint.nc without its .sum (written by a spate before the sums, or
 * copied without it) is refused unless the environment has
 * SPATE_CHECKPOINT_UNCHECKED=1, which opens it unchecked (spate(1)). */
#ifndef SPATE_CKPT_SUM_H
#define SPATE_CKPT_SUM_H

#include <stddef.h>

/* The name of path's sum file into out (n bytes). */
void spate_ckpt_sum_path(const char *path, char *out, size_t n);

/* Write the sum of the file `path` into the file `out` (a temporary name:
 * the caller renames it).  0 or -SPATE_EIO after a message. */
int spate_ckpt_sum_write(const char *path, const char *out);

/* 0 when the file `path` has the bytes its sum file records (or it has
 * none and SPATE_CHECKPOINT_UNCHECKED=1 says to open it anyway); else
 * -SPATE_EFORMAT after a message naming the file, what is wrong and what to
 * do. */
int spate_ckpt_sum_check(const char *path);

#endif
