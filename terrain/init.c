/* init.c: a shallow-water state from a DEM and the scenario's initial water:
 * bed at the cell corners from cell-centred DEM values, NODATA as walls or a
 * mask, water from a fill level (sea), a reservoir behind a dam line, a dry
 * disk, a level inside a polygon, or a depth or level raster; then the
 * forcing rasters (forcing.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spate.h"
#include "swe.h"
#include "swe_state.h"
#include "terrain.h"

/* TELEMAC's upstream test for Malpasset: signed distance to the line
 * p1 -> p2, positive on its left, beyond 1 mm. */
static int upstream(const double *l, double x, double y)
{
	double a = l[1] - l[3], b = l[2] - l[0], c = l[0] * l[3] - l[2] * l[1];
	return (a * x + b * y + c) / sqrt(a * a + b * b) > 0.001;
}

/* A polygon of [initial] polygon: n vertices (x[k], y[k]). */
struct polygon {
	int n;
	double *x, *y;
};

/* Parse "x y, x y, ..." (at least three vertices); 0 or -SPATE_E*. */
static int polygon_parse(const char *text, struct polygon *pg)
{
	const char *s = text;
	int cap = 0;
	memset(pg, 0, sizeof *pg);
	while (*s) {
		char *end;
		double x = strtod(s, &end), y;
		if (end == s)
			break;
		s = end;
		y = strtod(s, &end);
		if (end == s || !isfinite(x) || !isfinite(y))
			break;
		s = end + strspn(end, " \t");
		if (pg->n == cap) {
			int nc = cap ? 2 * cap : 16;
			double *nx = realloc(pg->x, (size_t)nc * sizeof *nx);
			double *ny = nx ? realloc(pg->y, (size_t)nc * sizeof *ny) : NULL;
			if (nx)
				pg->x = nx;
			if (!ny)
				return -SPATE_ENOMEM;
			pg->y = ny;
			cap = nc;
		}
		pg->x[pg->n] = x;
		pg->y[pg->n] = y;
		pg->n++;
		if (*s == ',')
			s++;
		else if (*s)
			break;
	}
	if (*s || pg->n < 3) {
		spate_log_error("scenario", "[initial] polygon = \"%s\": give three or more vertices "
			"\"x y, x y, x y, ...\" in the DEM's coordinates, m", text);
		return -SPATE_EINVAL;
	}
	return 0;
}

/* Whether (x, y) lies inside the polygon (even-odd rule: a ray to +x crosses
 * its edges an odd number of times). */
static int polygon_inside(const struct polygon *pg, double x, double y)
{
	int in = 0;
	for (int i = 0, j = pg->n - 1; i < pg->n; j = i++)
		if ((pg->y[i] > y) != (pg->y[j] > y) &&
			x < pg->x[j] + (y - pg->y[j]) * (pg->x[i] - pg->x[j]) / (pg->y[i] - pg->y[j]))
			in = !in;
	return in;
}

/* Initial absolute water level of a cell with DEM value z at (x, y); NAN: dry. */
static double initial_level(const struct swe_params *p, const struct polygon *pg, double x,
	double y, double z)
{
	double L = NAN;
	if (!isnan(p->fill_level) && z < p->fill_level)
		L = p->fill_level;
	if (p->has_reservoir && upstream(p->reservoir_line, x, y) && z < p->reservoir_level)
		L = isnan(L) || p->reservoir_level > L ? p->reservoir_level : L;
	if (pg->n && z < p->polygon_level && polygon_inside(pg, x, y))
		L = isnan(L) || p->polygon_level > L ? p->polygon_level : L;
	if (p->has_dry_disk && hypot(x - p->dry_disk[0], y - p->dry_disk[1]) <= p->dry_disk[2])
		L = NAN;
	return L;
}

/* Median of the finite values among a sample of at most 65536; NAN if none. */
static double sampled_median(const double *v, long n)
{
	enum { SAMPLES = 65536 };
	double *s = malloc(SAMPLES * sizeof *s), med = NAN;
	long m = 0, step = n / SAMPLES + 1;
	if (!s)
		return NAN;
	for (long k = 0; k < n && m < SAMPLES; k += step)
		if (!isnan(v[k]))
			s[m++] = v[k];
	med = spate_median(s, m);
	free(s);
	return med;
}

/* The first elevation of the DEM as read beyond +-zmax ([domain]
 * max_abs_elevation, 1e5 m by default: beyond it a value is an undeclared
 * NODATA, often -3.4e38, and single precision would lose the bed), named by
 * the file's row (from the north) and column: 0, or -SPATE_EINVAL after a
 * message. */
static int beyond_earth(const struct terrain_grid *g, const char *path, double zmax)
{
	for (int r = 0; r < g->ny; r++)
		for (int i = 0; i < g->nx; i++) {
			double z = g->v[(size_t)(g->ny - 1 - r) * g->nx + i];
			if (fabs(z) > zmax) {
				spate_log_error("terrain", "%s: row %d, column %d: elevation %g m, beyond "
					"+-%g m ([domain] max_abs_elevation): a NODATA value the file does not "
					"declare? (set NODATA_value, or gdal_translate -a_nodata; a real "
					"elevation: raise max_abs_elevation)", path, r + 1, i + 1, z, zmax);
				return -SPATE_EINVAL;
			}
		}
	return 0;
}

/* Whether cell (i, j) has one of the eight neighbours of kind `of`. */
static int next_to(const unsigned char *kind, int nx, int ny, int i, int j, int of)
{
	for (int dj = -1; dj <= 1; dj++)
		for (int di = -1; di <= 1; di++)
			if ((di || dj) && i + di >= 0 && i + di < nx && j + dj >= 0 && j + dj < ny &&
				kind[(long)(j + dj) * nx + i + di] == of)
				return 1;
	return 0;
}

/* The bed of a bank cell (kind 3): the mean of its neighbours with a value. */
static double bank_value(const struct terrain_grid *g, const unsigned char *kind, int i, int j)
{
	double sum = 0;
	int cnt = 0;
	for (int dj = -1; dj <= 1; dj++)
		for (int di = -1; di <= 1; di++) {
			long q = (long)(j + dj) * g->nx + i + di;
			if (i + di >= 0 && i + di < g->nx && j + dj >= 0 && j + dj < g->ny && !kind[q]) {
				sum += g->v[q];
				cnt++;
			}
		}
	return sum / cnt;
}

/* What each DEM cell becomes ([domain] banks = yes; else 0 or 2).
 * kind[k] = 0: a value.  NODATA joined to the raster's edge through NODATA
 * cells (four neighbours) lies outside the survey, where the domain's outer
 * wall stands: 1, the wall, except 3, a bank: beside a cell with a value,
 * with wall (1) behind it (eight neighbours both).  A bank takes the mean of
 * its neighbours with a value as its bed and starts dry; the corners where
 * cells with a value meet banks only are the mean of those cells: the cells
 * at the survey's edge keep their own bed, where the wall's height in their
 * corners raised them by up to 84 m on the Malpasset grids and took 1.5-4%
 * of the reservoir away (KP07's bed is at the corners).  4: outer NODATA
 * beside values without wall behind it (a wall one or two cells thick, some
 * diagonal steps, the raster's edge) and 2: NODATA inside the survey (a
 * building, a hole) stay walls however thin they are, raising the corners
 * they share.  0 or -SPATE_ENOMEM. */
static int nodata_kinds(const double *v, int nx, int ny, int banks, unsigned char *kind)
{
	long n = (long)nx * ny, top = 0, cap = 4096, *stack;
	for (long k = 0; k < n; k++)
		kind[k] = isnan(v[k]) ? 2 : 0;
	if (!banks)
		return 0;
	if (!(stack = malloc(cap * sizeof *stack)))
		return -SPATE_ENOMEM;
	for (long e = 0; e < 2L * nx + 2L * ny; e++) {
		/* the edge cells as seeds, then each seed's NODATA region */
		long k = e < nx ? e : e < 2L * nx ? n - 2L * nx + e :
			e < 2L * nx + ny ? (e - 2L * nx) * nx : (e - 2L * nx - ny) * nx + nx - 1;
		if (kind[k] != 2)
			continue;
		kind[k] = 1;
		stack[top++] = k;
		while (top) {
			long c = stack[--top], nb[4];
			int i = (int)(c % nx), m = 0;
			if (i > 0)
				nb[m++] = c - 1;
			if (i < nx - 1)
				nb[m++] = c + 1;
			if (c >= nx)
				nb[m++] = c - nx;
			if (c < n - nx)
				nb[m++] = c + nx;
			for (int q = 0; q < m; q++) {
				if (kind[nb[q]] != 2)
					continue;
				if (top == cap) {
					long *grown = realloc(stack, 2 * cap * sizeof *stack);
					if (!grown) {
						free(stack);
						return -SPATE_ENOMEM;
					}
					stack = grown;
					cap *= 2;
				}
				kind[nb[q]] = 1;
				stack[top++] = nb[q];
			}
		}
	}
	free(stack);
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++)
			if (kind[(long)j * nx + i] == 1 && next_to(kind, nx, ny, i, j, 0))
				kind[(long)j * nx + i] = 4;
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++)
			if (kind[(long)j * nx + i] == 4 && next_to(kind, nx, ny, i, j, 1))
				kind[(long)j * nx + i] = 3;
	return 0;
}

/* Without banks: how far the walls lift the bed of the cells beside them
 * (the solver's centre bed above the DEM value), said in one line when some
 * cell is lifted by more than 0.1 m. */
static void wall_raise_note(const struct swe_state *s, const struct terrain_grid *dem,
	const unsigned char *kind, const char *path)
{
	double top = 0;
	long count = 0;
	for (int j = 0; j < dem->ny; j++)
		for (int i = 0; i < dem->nx; i++) {
			long k = (long)j * dem->nx + i;
			double up;
			/* without banks every NODATA cell is of kind 2 */
			if (kind[k] || !next_to(kind, dem->nx, dem->ny, i, j, 2))
				continue;
			up = (double)s->Bm[swe_idx(s, i, j)] + s->bref - dem->v[k];
			if (!(up > 0.1))
				continue;
			count++;
			top = up > top ? up : top;
		}
	if (count)
		spate_log_info("spate: %s: NODATA walls lift the bed of %ld cells beside them by up to "
			"%.3g m (the bed is kept at cell corners): [domain] banks = yes keeps their own "
			"bed where the NODATA lies outside the survey\n", path, count, top);
}

int terrain_setup(struct swe_state *s, const struct swe_params *p)
{
	struct terrain_grid dem, dep;
	struct polygon pg;
	double zmax = -INFINITY, zmin = INFINITY, wall, *level = NULL;
	unsigned char *kind = NULL;
	int rc, nx, ny;
	long n;

	memset(&dep, 0, sizeof dep);
	memset(&pg, 0, sizeof pg);
	memset(s, 0, sizeof *s);    /* the error paths free it */
	if (p->polygon[0] && (rc = polygon_parse(p->polygon, &pg))) {
		free(pg.x);
		free(pg.y);
		return rc;
	}
	if ((rc = terrain_read_path(p, p->dem, &dem))) {
		free(pg.x);
		free(pg.y);
		return rc;
	}
	if ((rc = terrain_crs_metres(&dem, p->dem)) ||
		(rc = beyond_earth(&dem, p->dem, p->max_abs_elevation)) ||
		(p->has_crop && (rc = terrain_crop(&dem, p->crop))) ||
		(p->cellsize > 0 && (rc = terrain_resample(&dem, p->cellsize))))
		goto out;
	nx = dem.nx;
	ny = dem.ny;
	n = (long)nx * ny;
	if (nx < 4 || ny < 4) {
		spate_log_error("terrain", "%s: %d x %d cells: the solver needs at least 4 x 4",
			p->dem, nx, ny);
		rc = -SPATE_EINVAL;
		goto out;
	}
	for (long k = 0; k < n; k++)
		if (!isnan(dem.v[k])) {
			zmax = dem.v[k] > zmax ? dem.v[k] : zmax;
			zmin = dem.v[k] < zmin ? dem.v[k] : zmin;
		}
	if (zmax < zmin) {
		spate_log_error("terrain", "%s: every cell is NODATA", p->dem);
		rc = -SPATE_EINVAL;
		goto out;
	}
	if (dem.nan_count)
		spate_log_info("spate: %s: %d NaN values treated as NODATA\n", p->dem, dem.nan_count);
	wall = zmax + p->wall_height;
	/* an initial depth or level raster (the level file's values are levels:
	 * depth = level - z where the level is above the DEM) */
	if (p->depth_file[0] || p->level_file[0]) {
		const char *f = p->depth_file[0] ? p->depth_file : p->level_file;
		if ((rc = terrain_read_on_grid(p, f, &dem, &dep)))
			goto out;
		for (long k = 0; k < n; k++) {
			if (p->level_file[0] && !isnan(dep.v[k]) && !isnan(dem.v[k]))
				dep.v[k] -= dem.v[k];
			if (fabs(dep.v[k]) > p->max_abs_elevation) {
				spate_log_error("terrain", "%s: |value| %g m: more than %g m ([domain] "
					"max_abs_elevation): an undeclared NODATA value?", f, dep.v[k],
					p->max_abs_elevation);
				rc = -SPATE_EINVAL;
				goto out;
			}
		}
	}
	level = malloc((size_t)n * sizeof *level);
	kind = malloc((size_t)n);
	if (!level || !kind || nodata_kinds(dem.v, nx, ny, p->banks, kind) ||
		(rc = swe_state_alloc(s, nx, ny, dem.dx, dem.dy))) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	s->x0 = dem.x0;
	s->y0 = dem.y0;
	if (dem.crs_wkt[0] && !(s->crs_wkt = strdup(dem.crs_wkt))) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	if (p->nodata_mask) {
		s->mask = calloc((size_t)n, 1);
		if (!s->mask) {
			rc = -SPATE_ENOMEM;
			goto out;
		}
	}
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			long k = (long)j * nx + i;
			double z = dem.v[k];
			if (isnan(z)) {
				if (s->mask)
					s->mask[k] = 1;
				dem.v[k] = kind[k] == 3 ? bank_value(&dem, kind, i, j) : wall;
				level[k] = NAN;
			} else if (dep.v) {
				level[k] = !isnan(dep.v[k]) && dep.v[k] > 0 ? z + dep.v[k] : NAN;
			} else {
				level[k] = initial_level(p, &pg, dem.x0 + (i + 0.5) * dem.dx,
					dem.y0 + (j + 0.5) * dem.dy, z);
			}
		}
	s->bref = sampled_median(level, n);
	if (isnan(s->bref))
		s->bref = zmin;
	/* corners: mean of the (up to four) surrounding cell values (KP07.md);
	 * where cells with a value meet banks only, the mean of those cells,
	 * which keep their own bed; the bank rises from it to the wall */
	for (int J = 0; J <= ny; J++)
		for (int I = 0; I <= nx; I++) {
			double sum = 0, vsum = 0;
			int cnt = 0, vcnt = 0, wall_next = 0;
			for (int dj = -1; dj <= 0; dj++)
				for (int di = -1; di <= 0; di++) {
					int i = I + di, j = J + dj;
					long k = (long)j * nx + i;
					if (i >= 0 && i < nx && j >= 0 && j < ny) {
						sum += dem.v[k];
						cnt++;
						wall_next |= kind[k] && kind[k] != 3;
						if (!kind[k]) {
							vsum += dem.v[k];
							vcnt++;
						}
					}
				}
			s->Bc[swe_cidx(s, I, J)] = (real)((vcnt && !wall_next ? vsum / vcnt : sum / cnt) -
				s->bref);
		}
	swe_state_finish_bed(s);
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			long k = swe_idx(s, i, j);
			double L = level[(long)j * nx + i];
			s->w[k] = isnan(L) ? 0 : swe_level_to_w(s, i, j, (real)(L - s->bref));
		}
	if (!p->banks)
		wall_raise_note(s, &dem, kind, p->dem);
	rc = terrain_forcing(s, p, &dem);
out:
	free(level);
	free(kind);
	free(pg.x);
	free(pg.y);
	terrain_free(&dem);
	terrain_free(&dep);
	if (rc)
		swe_state_free(s);
	return rc;
}
