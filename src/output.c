/* output.c: ESRI ASCII grids (always available) and the flood run's keys
 * of the JSON summary (summary.h). */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spate.h"
#include "output.h"
#include "products_kern.h"
#include "summary.h"

/* The CRS crs_wkt of the ESRI ASCII grid at path (x.asc) as the .prj
 * beside it (x.prj), as GDAL and QGIS look for it; nothing when crs_wkt is
 * NULL or empty.  Returns 0 or -SPATE_EIO. */
static int write_prj(const char *path, const char *crs_wkt)
{
	char prj[4200];
	size_t n = strlen(path);
	FILE *f;
	if (!crs_wkt || !crs_wkt[0])
		return 0;
	if (n > 4 && !strcmp(path + n - 4, ".asc"))
		n -= 4;
	if (n + 5 > sizeof prj)
		return -SPATE_EINVAL;
	memcpy(prj, path, n);
	memcpy(prj + n, ".prj", 5);
	if (!(f = fopen(prj, "w")) || fprintf(f, "%s\n", crs_wkt) < 0 || fclose(f)) {
		spate_log_error("output", "cannot write %s: %s", prj, strerror(errno));
		return -SPATE_EIO;
	}
	return 0;
}

int spate_write_asc(const char *path, int nx, int ny, double x0, double y0, double dx,
	double dy, const double *data, double nodata, const char *crs_wkt)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		spate_log_error("output", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	fprintf(f, "ncols %d\nnrows %d\nxllcorner %.10g\nyllcorner %.10g\n", nx, ny, x0, y0);
	if (dx == dy)
		fprintf(f, "cellsize %.10g\n", dx);
	else
		fprintf(f, "dx %.10g\ndy %.10g\n", dx, dy);
	fprintf(f, "NODATA_value %.10g\n", nodata);
	for (int j = ny - 1; j >= 0; j--) {
		for (int i = 0; i < nx; i++)
			fprintf(f, i ? " %.7g" : "%.7g", data[(size_t)j * nx + i]);
		fputc('\n', f);
	}
	if (fclose(f)) {
		spate_log_error("output", "error writing %s", path);
		return -SPATE_EIO;
	}
	return write_prj(path, crs_wkt);
}

const char *const swe_snap_names[4] = { "h", "w", "u", "v" };
const char *const swe_snap_units[4] = { "m", "m", "m s-1", "m s-1" };
const char *const swe_snap_long_names[4] = { "water depth", "water level (absolute)",
	"eastward depth-averaged velocity", "northward depth-averaged velocity" };

double swe_snap_value(const struct swe_state *s, int var, int i, int j, real k4)
{
	long k = swe_idx(s, i, j);
	real h = s->w[k];
	if (s->mask && s->mask[(size_t)j * s->nx + i])
		return NAN;
	switch (var) {
	case 0: return h;
	case 1: return (double)h + (double)s->Bm[k] + s->bref;
	case 2: return kp07_velocity(h, s->hu[k], k4);
	default: return kp07_velocity(h, s->hv[k], k4);
	}
}

void swe_snap_fields(struct swe_state *s, real *h, real k4)
{
	for (int j = 0; j < s->ny; j++)
		for (int i = 0; i < s->nx; i++) {
			long k = swe_idx(s, i, j);
			double v[4];
			for (int var = 0; var < 4; var++)
				v[var] = swe_snap_value(s, var, i, j, k4);
			h[(size_t)j * s->nx + i] = (real)v[0];
			s->w[k] = (real)v[1];
			s->hu[k] = (real)v[2];
			s->hv[k] = (real)v[3];
		}
}

int swe_write_grids(const struct swe_state *s, const struct swe_params *p, const char *dir,
	int index)
{
	size_t n = (size_t)s->nx * s->ny;
	double *g = malloc(n * sizeof *g);
	real k4 = (real)(p->kappa * p->kappa * p->kappa * p->kappa);
	int rc = 0;
	if (!g)
		return -SPATE_ENOMEM;
	for (int var = 0; var < 4 && !rc; var++) {
		char path[4200];
		for (int j = 0; j < s->ny; j++)
			for (int i = 0; i < s->nx; i++) {
				double v = swe_snap_value(s, var, i, j, k4);
				g[(size_t)j * s->nx + i] = isnan(v) ? -9999 : v;
			}
		snprintf(path, sizeof path, "%s/%s_%04d.asc", dir, swe_snap_names[var], index);
		rc = spate_write_asc(path, s->nx, s->ny, s->x0, s->y0, s->dx, s->dy, g, -9999,
			s->crs_wkt);
	}
	free(g);
	return rc;
}

const char *const swe_prod_names[SWE_NPROD] = { "max_depth", "max_speed", "max_hazard",
	"arrival_time", "time_of_max_depth", "duration_wet" };
const char *const swe_prod_units[SWE_NPROD] = { "m", "m s-1", "m2 s-1", "s", "s", "s" };
const char *const swe_prod_long_names[SWE_NPROD] = {
	"greatest water depth", "greatest speed while wet", "greatest depth times speed",
	"first time the depth exceeded the wet threshold", "time of the greatest depth",
	"total time deeper than the wet threshold" };

double swe_prod_value(const struct swe_prod *p, int k)
{
	if (!(p->max_depth > 0))
		return NAN;     /* never held water */
	switch (k) {
	case 0: return p->max_depth;
	case 1: return p->max_speed;
	case 2: return p->max_hazard;
	case 3: return p->arrival < 0 ? NAN : p->arrival;
	case 4: return p->t_max_depth;
	default: return p->wet_duration;
	}
}

double swe_prod_class(const struct swe_prod *p, int scheme)
{
	return scheme == SPATE_HAZARD_FD2320 ? p->class_fd2320 :
		scheme == SPATE_HAZARD_ARR2019 ? p->class_arr2019 : 0;
}

int swe_write_products(const struct swe_state *s, const struct swe_prod *pr, const char *dir)
{
	size_t n = (size_t)s->nx * s->ny;
	double *g = malloc(n * sizeof *g);
	int rc = 0;
	if (!g)
		return -SPATE_ENOMEM;
	for (int var = 0; var < SWE_NPROD && !rc; var++) {
		char path[4200];
		for (size_t k = 0; k < n; k++) {
			double v = swe_prod_value(&pr[k], var);
			g[k] = isnan(v) || (s->mask && s->mask[k]) ? -9999 : v;
		}
		snprintf(path, sizeof path, "%s/%s.asc", dir, swe_prod_names[var]);
		rc = spate_write_asc(path, s->nx, s->ny, s->x0, s->y0, s->dx, s->dy, g, -9999,
			s->crs_wkt);
	}
	free(g);
	return rc;
}

int swe_write_summary(const char *path, const struct swe_result *r, const struct swe_params *p)
{
	struct spate_summary s;
	double rel = r->volume_initial > 0 ?
		(r->volume_final - r->volume_initial) / r->volume_initial : 0;
	int rc = spate_summary_open(&s, path, "swe", p->setup, r->backend, r->device,
		SPATE_PRECISION);
	if (rc)
		return rc;
	spate_summary_str(&s, "integrator", p->integrator == 1 ? "euler" : "rk2");
	spate_summary_int(&s, "nx", r->nx);
	spate_summary_int(&s, "ny", r->ny);
	spate_summary_num(&s, "dx", r->dx > 0 ? r->dx : p->dx);
	spate_summary_num(&s, "dy", r->dy > 0 ? r->dy : p->dy);
	spate_summary_int(&s, "steps", r->steps);
	spate_summary_num(&s, "sim_time", r->sim_time);
	spate_summary_fmt(&s, "wall_s", "%.6f", r->wall_s);
	spate_summary_fmt(&s, "cell_updates_per_s", "%.6g", r->cell_updates_per_s);
	spate_summary_num(&s, "volume_initial", r->volume_initial);
	spate_summary_num(&s, "volume_final", r->volume_final);
	spate_summary_fmt(&s, "volume_rel_change", "%.6e", rel);
	spate_summary_fmt(&s, "max_depth", "%.9g", r->max_depth);
	spate_summary_fmt(&s, "max_speed", "%.9g", r->max_speed);
	spate_summary_int(&s, "outputs", r->outputs);
	return spate_summary_close(&s, path);
}
