/* swe_cuda_sub_src.cu: the sources split from the step (rain, the Manning
 * raster: swe_sources, after each step) on a GPU subdomain
 * (swe_cuda_sub.cu), as on one GPU (swe_cuda_cells.cu, k_sources) and on
 * CPU subdomains (swe_cpu.c, cpu_sources).
 *
 * Every subdomain keeps the rasters of the whole grid, indexed by global
 * row: rows that move between subdomains (balancing) take nothing of them
 * along, and a new rain raster is one copy per subdomain.  With the tile
 * map the tiles on which rain falls are computed (k_tiles; their flags:
 * swe_cuda_sub_rain_tiles), and the sources pass over the dry tiles the
 * step skipped where no rain falls, as on one GPU. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
extern "C" {
#include "spate.h"
#include "swe.h"
#include "swe_backend.h"
#include "swe_cuda_sub.h"
}

#include <cuda_runtime.h>

#define G SWE_GHOST

int swe_cuda_sub_sources_init(struct swe_backend_ctx *x, const struct swe_state *g)
{
	size_t n = (size_t)g->nx * g->ny * sizeof *x->n2;
	if (!g->n2)
		return 0;
	CUDA_ALLOC((void **)&x->n2, n);
	CUDA_CHECK(cudaMemcpy(x->n2, g->n2, n, cudaMemcpyHostToDevice));
	return 0;
}

void swe_cuda_sub_sources_free(struct swe_backend_ctx *x)
{
	cudaFree(x->n2);
	cudaFree(x->rain);
	x->n2 = NULL;
	x->rain = NULL;
}


/* After a step, on stream s: the sources on the rows of U^{n+1} (a->w1)
 * that the step computed, the owned ones and beyond an internal edge the
 * valid ghost rows (x->mu: ghost cell expansion; they are the neighbour's
 * rows and must be what it has: a neighbour's copy into them waits for
 * these, swe_cuda_sub_halo.cu), then the ghosts of the global edges of
 * those rows again. */
void swe_cuda_sub_sources(struct swe_backend_ctx *x, const struct swe_cuda_step *a0,
	cudaStream_t s)
{
	struct swe_cuda_params k = x->kp;
	struct swe_cuda_step a = *a0;
	int south = (k.sides >> SWE_SOUTH) & 1u, north = (k.sides >> SWE_NORTH) & 1u;
	int j0 = south ? 0 : -x->mu[0], j1 = x->rows + (north ? 0 : x->mu[1]);
	size_t r = (size_t)(x->row0 + j0) * (size_t)k.nx;
	if (!k.src || j1 <= j0)
		return;
	swe_cuda_sub_shift(&a, &k, j0);
	a.n2 = x->n2 ? x->n2 + r : NULL;
	a.rain = x->have_rain ? x->rain + r : NULL;
	k.ny = j1 - j0;
	k.ncell = (long)(k.ny + 2 * G) * k.pitch;
	swe_cuda_enqueue_sources(&k, &a, j0, x->rows, s);
}
