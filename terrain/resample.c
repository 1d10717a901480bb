/* resample.c: cropping a raster to a box and resampling it to another cell
 * size (area mean when coarser, bilinear when finer), NODATA-aware. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdlib.h>

#include "spate.h"
#include "terrain.h"

int terrain_crop(struct terrain_grid *g, const double box[4])
{
	int i0 = (int)ceil((box[0] - g->x0) / g->dx - 1e-9), j0 = (int)ceil((box[1] - g->y0) / g->dy - 1e-9);
	int i1 = (int)floor((box[2] - g->x0) / g->dx + 1e-9), j1 = (int)floor((box[3] - g->y0) / g->dy + 1e-9);
	double *v;
	i0 = i0 < 0 ? 0 : i0;
	j0 = j0 < 0 ? 0 : j0;
	i1 = i1 > g->nx ? g->nx : i1;
	j1 = j1 > g->ny ? g->ny : j1;
	if (i1 - i0 < 4 || j1 - j0 < 4) {
		spate_log_error("terrain", "crop box %g %g %g %g keeps fewer than 4 x 4 cells of the "
			"raster (%g..%g, %g..%g)", box[0], box[1], box[2], box[3], g->x0,
			g->x0 + g->nx * g->dx, g->y0, g->y0 + g->ny * g->dy);
		return -SPATE_EINVAL;
	}
	v = malloc((size_t)(i1 - i0) * (j1 - j0) * sizeof *v);
	if (!v)
		return -SPATE_ENOMEM;
	for (int j = j0; j < j1; j++)
		for (int i = i0; i < i1; i++)
			v[(size_t)(j - j0) * (i1 - i0) + (i - i0)] = g->v[(size_t)j * g->nx + i];
	free(g->v);
	g->v = v;
	g->x0 += i0 * g->dx;
	g->y0 += j0 * g->dy;
	g->nx = i1 - i0;
	g->ny = j1 - j0;
	return 0;
}

/* Area mean of the source cells whose centres lie in [xa, xb) x [ya, yb);
 * NAN when fewer than half of them hold data. */
static double area_mean(const struct terrain_grid *g, double xa, double xb, double ya, double yb)
{
	int i0 = (int)ceil((xa - g->x0) / g->dx - 0.5), i1 = (int)ceil((xb - g->x0) / g->dx - 0.5);
	int j0 = (int)ceil((ya - g->y0) / g->dy - 0.5), j1 = (int)ceil((yb - g->y0) / g->dy - 0.5);
	double sum = 0;
	int n = 0, all = 0;
	for (int j = j0 < 0 ? 0 : j0; j < j1 && j < g->ny; j++)
		for (int i = i0 < 0 ? 0 : i0; i < i1 && i < g->nx; i++) {
			double z = g->v[(size_t)j * g->nx + i];
			all++;
			if (!isnan(z)) {
				sum += z;
				n++;
			}
		}
	return n > 0 && 2 * n >= all ? sum / n : NAN;
}

/* Bilinear interpolation between source cell centres (clamped at the edges);
 * NAN when one of the four is NODATA. */
static double bilinear(const struct terrain_grid *g, double x, double y)
{
	double fx = (x - g->x0) / g->dx - 0.5, fy = (y - g->y0) / g->dy - 0.5;
	int i = (int)floor(fx), j = (int)floor(fy);
	double a = fx - i, b = fy - j;
	int i1 = i + 1, j1 = j + 1;
	i = i < 0 ? 0 : i >= g->nx ? g->nx - 1 : i;
	j = j < 0 ? 0 : j >= g->ny ? g->ny - 1 : j;
	i1 = i1 < 0 ? 0 : i1 >= g->nx ? g->nx - 1 : i1;
	j1 = j1 < 0 ? 0 : j1 >= g->ny ? g->ny - 1 : j1;
	a = a < 0 ? 0 : a > 1 ? 1 : a;
	b = b < 0 ? 0 : b > 1 ? 1 : b;
	return (1 - b) * ((1 - a) * g->v[(size_t)j * g->nx + i] + a * g->v[(size_t)j * g->nx + i1]) +
		b * ((1 - a) * g->v[(size_t)j1 * g->nx + i] + a * g->v[(size_t)j1 * g->nx + i1]);
}

int terrain_resample(struct terrain_grid *g, double cell)
{
	int nx = (int)floor(g->nx * g->dx / cell + 1e-9), ny = (int)floor(g->ny * g->dy / cell + 1e-9);
	int coarser = cell >= g->dx && cell >= g->dy;
	double *v;
	if (!(cell > 0) || nx < 4 || ny < 4 || (double)nx * ny > (double)TERRAIN_MAX_CELLS) {
		spate_log_error("terrain", "cellsize = %g m gives a %d x %d grid: need at least 4 x 4",
			cell, nx, ny);
		return -SPATE_EINVAL;
	}
	v = malloc((size_t)nx * ny * sizeof *v);
	if (!v)
		return -SPATE_ENOMEM;
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			double xa = g->x0 + i * cell, ya = g->y0 + j * cell;
			v[(size_t)j * nx + i] = coarser ? area_mean(g, xa, xa + cell, ya, ya + cell) :
				bilinear(g, xa + 0.5 * cell, ya + 0.5 * cell);
		}
	free(g->v);
	g->v = v;
	g->nx = nx;
	g->ny = ny;
	g->dx = g->dy = cell;
	return 0;
}
