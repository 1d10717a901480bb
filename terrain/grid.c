/* grid.c: a raster's lifetime: what every reader of terrain/ builds on
 * (asc.c, gdal.c) and every user of a grid frees it with. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>

#include "terrain.h"

void terrain_free(struct terrain_grid *g)
{
	free(g->v);
	g->v = NULL;
}
