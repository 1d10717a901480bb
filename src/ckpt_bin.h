/* ckpt_bin.h: checkpoints in spate's binary format (ckpt_bin.c), for builds
 * without NetCDF. */
#ifndef SPATE_CKPT_BIN_H
#define SPATE_CKPT_BIN_H

#include "ckpt.h"

/* The first 8 bytes of a binary checkpoint. */
#define SPATE_CKPT_MAGIC "SPATECK2"

/* Write c to path; 0 or -SPATE_EIO after a message. */
int spate_ckpt_bin_write(const char *path, const struct spate_ckpt *c);
/* Read the checkpoint at path into c (spate_ckpt_free it); 0, or -SPATE_E*
 * after a message naming the file. */
int spate_ckpt_bin_read(const char *path, struct spate_ckpt *c);

#endif
