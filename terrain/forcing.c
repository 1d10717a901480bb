/* forcing.c: rasters that live on the DEM's grid besides the bed: initial
 * depth or level, Manning's n, and rain rates in time. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "terrain.h"

/* Largest rain rate accepted, mm/h (the world record hour is ~300 mm). */
#define RAIN_MAX_MM_H 1e4

int terrain_read_on_grid(const struct swe_params *p, const char *path,
	const struct terrain_grid *dem, struct terrain_grid *g)
{
	int rc;
	memset(g, 0, sizeof *g);
	if ((rc = terrain_read_path(p, path, g)))
		return rc;
	if ((p->has_crop && (rc = terrain_crop(g, p->crop))) ||
		(p->cellsize > 0 && (rc = terrain_resample(g, p->cellsize)))) {
		terrain_free(g);
		return rc;
	}
	if (g->nx != dem->nx || g->ny != dem->ny || fabs(g->x0 - dem->x0) > 1e-6 * dem->dx ||
		fabs(g->y0 - dem->y0) > 1e-6 * dem->dy || fabs(g->dx - dem->dx) > 1e-6 * dem->dx ||
		fabs(g->dy - dem->dy) > 1e-6 * dem->dy) {
		spate_log_error("terrain", "%s: its grid (%d x %d cells of %g x %g m at %g, %g) "
			"differs from the DEM's (%d x %d of %g x %g m at %g, %g): write it on the DEM's "
			"grid (gdalwarp -te XMIN YMIN XMAX YMAX -tr DX DY)", path, g->nx, g->ny, g->dx,
			g->dy, g->x0, g->y0, dem->nx, dem->ny, dem->dx, dem->dy, dem->x0, dem->y0);
		terrain_free(g);
		return -SPATE_EINVAL;
	}
	return 0;
}

/* n^2 per cell from [physics] manning_file; NODATA cells take [physics]
 * manning. */
static int read_manning(struct swe_state *s, const struct swe_params *p,
	const struct terrain_grid *dem)
{
	struct terrain_grid g;
	long n = (long)dem->nx * dem->ny;
	int rc = terrain_read_on_grid(p, p->manning_file, dem, &g);
	if (rc)
		return rc;
	s->n2 = malloc((size_t)n * sizeof *s->n2);
	if (!s->n2) {
		terrain_free(&g);
		return -SPATE_ENOMEM;
	}
	for (long k = 0; k < n; k++) {
		double v = isnan(g.v[k]) ? p->manning : g.v[k];
		if (!(v >= 0 && v <= 10)) {
			spate_log_error("terrain", "%s: Manning n = %g at cell %ld: must be in [0, 10] "
				"s/m^(1/3) (NODATA cells take [physics] manning)", p->manning_file, v, k);
			terrain_free(&g);
			return -SPATE_EINVAL;
		}
		s->n2[k] = (real)(v * v);
	}
	terrain_free(&g);
	return 0;
}

/* One rain raster: rates in mm/h into m/s (NODATA: no rain). */
static int read_rain(const struct swe_params *p, const char *path,
	const struct terrain_grid *dem, float **out)
{
	struct terrain_grid g;
	long n = (long)dem->nx * dem->ny;
	int rc = terrain_read_on_grid(p, path, dem, &g);
	if (rc)
		return rc;
	*out = malloc((size_t)n * sizeof **out);
	if (!*out) {
		terrain_free(&g);
		return -SPATE_ENOMEM;
	}
	for (long k = 0; k < n; k++) {
		double v = isnan(g.v[k]) ? 0 : g.v[k];
		if (!(v >= 0 && v <= RAIN_MAX_MM_H)) {
			spate_log_error("terrain", "%s: rain rate %g mm/h at cell %ld: must be in "
				"[0, %g]", path, v, k, RAIN_MAX_MM_H);
			terrain_free(&g);
			return -SPATE_EINVAL;
		}
		(*out)[k] = (float)(v / 3.6e6);
	}
	terrain_free(&g);
	return 0;
}

/* [physics] rain_files = "T FILE, T FILE, ...", times increasing from >= 0. */
static int read_rain_series(struct swe_state *s, const struct swe_params *p,
	const struct terrain_grid *dem)
{
	char *list = strdup(p->rain_files), *tok, *save = NULL;
	int rc = 0, cap = 0;
	if (!list)
		return -SPATE_ENOMEM;
	for (tok = strtok_r(list, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		char *end, *file;
		double t = strtod(tok, &end);
		file = end + strspn(end, " \t");
		file[strcspn(file, " \t\r\n")] = '\0';
		if (end == tok || !*file || !isfinite(t) || t < 0 ||
			(s->nrain > 0 && t <= s->rain_t[s->nrain - 1])) {
			spate_log_error("scenario", "[physics] rain_files: \"%s\": give \"TIME FILE\" "
				"pairs separated by commas, times in s, >= 0 and increasing", tok);
			rc = -SPATE_EINVAL;
			break;
		}
		if (s->nrain == cap) {
			int nc = cap ? 2 * cap : 8;
			double *nt = realloc(s->rain_t, (size_t)nc * sizeof *nt);
			float **nr = nt ? realloc(s->rain, (size_t)nc * sizeof *nr) : NULL;
			if (nt)
				s->rain_t = nt;
			if (!nr) {
				rc = -SPATE_ENOMEM;
				break;
			}
			s->rain = nr;
			cap = nc;
		}
		s->rain_t[s->nrain] = t;
		if ((rc = read_rain(p, file, dem, &s->rain[s->nrain])))
			break;
		s->nrain++;
	}
	free(list);
	return rc;
}

int terrain_forcing(struct swe_state *s, const struct swe_params *p,
	const struct terrain_grid *dem)
{
	int rc = 0;
	if (p->manning_file[0] && (rc = read_manning(s, p, dem)))
		return rc;
	if (p->rain_files[0])
		rc = read_rain_series(s, p, dem);
	return rc;
}
