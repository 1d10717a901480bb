/* ckpt_file.h: a module's checkpoint (ckpt.h) on disk, for every physics:
 * <dir>/checkpoint.nc (NetCDF, when built with it) or <dir>/checkpoint.bin
 * (spate's binary format; also with NetCDF when the environment has
 * SPATE_CHECKPOINT=bin), written through a temporary name and rename(2) so
 * that a crash leaves the previous checkpoint whole; read in either format. */
#ifndef SPATE_CKPT_FILE_H
#define SPATE_CKPT_FILE_H

#include "ckpt.h"

/* The name spate_ckpt_write gives the checkpoint of dir (n bytes). */
void spate_ckpt_path(const char *dir, char *path, size_t n);

/* Write c into dir; path (n bytes) receives the file name.  0 or -SPATE_E*. */
int spate_ckpt_write(const struct spate_ckpt *c, const char *dir, char *path, size_t n);

/* Read a checkpoint of either format into c (spate_ckpt_free it).  module:
 * the physics that must have written it.  Returns 0 or -SPATE_E* after a
 * message naming the file and what is wrong. */
int spate_ckpt_read(const char *path, const char *module, struct spate_ckpt *c);

#endif
