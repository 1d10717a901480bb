/* ckpt_nc.h: checkpoints as NetCDF-4 files (ckpt_nc.c); built without
 * NetCDF, both functions say so and return -SPATE_EUNSUPPORTED. */
#ifndef SPATE_CKPT_NC_H
#define SPATE_CKPT_NC_H

#include "ckpt.h"

/* Write c to path; 0 or -SPATE_E* after a message. */
int spate_ckpt_nc_write(const char *path, const struct spate_ckpt *c);
/* Read the checkpoint at path into c (spate_ckpt_free it); 0, or -SPATE_E*
 * after a message naming the file. */
int spate_ckpt_nc_read(const char *path, struct spate_ckpt *c);

#endif
