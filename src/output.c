/* output.c: ESRI ASCII grids (always available) and the JSON run summary. */
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
#include "balance.h"

int spate_mkdir_p(const char *dir)
{
	char buf[4096];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof buf)
		return -SPATE_EINVAL;
	memcpy(buf, dir, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		goto fail;
	return 0;
fail:
	spate_log_error("output", "cannot create directory %s: %s", buf, strerror(errno));
	return -SPATE_EIO;
}

int spate_write_asc(const char *path, int nx, int ny, double x0, double y0, double dx,
	double dy, const double *data, double nodata)
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
	return 0;
}

const char *const swe_snap_names[4] = { "h", "w", "u", "v" };

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
		rc = spate_write_asc(path, s->nx, s->ny, s->x0, s->y0, s->dx, s->dy, g, -9999);
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
		rc = spate_write_asc(path, s->nx, s->ny, s->x0, s->y0, s->dx, s->dy, g, -9999);
	}
	free(g);
	return rc;
}

/* JSON string with the characters that need escaping escaped. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

int swe_write_summary(const char *path, const struct swe_result *r, const struct swe_params *p)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	double rel = r->volume_initial > 0 ?
		(r->volume_final - r->volume_initial) / r->volume_initial : 0;
	if (!f) {
		spate_log_error("summary", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	fprintf(f, "{\n  \"program\": \"spate %s\",\n  \"setup\": ", PACKAGE_VERSION);
	json_str(f, p->setup);
	fprintf(f, ",\n  \"backend\": ");
	json_str(f, r->backend);
	fprintf(f, ",\n  \"devices\": [");
	json_str(f, r->device);
	fprintf(f, "],\n  \"precision\": \"%s\",\n", SPATE_PRECISION);
	fprintf(f, "  \"integrator\": \"%s\",\n", p->integrator == 1 ? "euler" : "rk2");
	fprintf(f, "  \"nx\": %d,\n  \"ny\": %d,\n  \"dx\": %.17g,\n  \"dy\": %.17g,\n", r->nx, r->ny,
		r->dx > 0 ? r->dx : p->dx, r->dy > 0 ? r->dy : p->dy);
	fprintf(f, "  \"steps\": %ld,\n  \"sim_time\": %.17g,\n  \"wall_s\": %.6f,\n", r->steps,
		r->sim_time, r->wall_s);
	fprintf(f, "  \"cell_updates_per_s\": %.6g,\n", r->cell_updates_per_s);
	fprintf(f, "  \"volume_initial\": %.17g,\n  \"volume_final\": %.17g,\n", r->volume_initial,
		r->volume_final);
	fprintf(f, "  \"volume_rel_change\": %.6e,\n", rel);
	fprintf(f, "  \"max_depth\": %.9g,\n  \"max_speed\": %.9g,\n  \"outputs\": %d",
		r->max_depth, r->max_speed, r->outputs);
	balance_json(f);    /* the phase table of a decomposed run */
	fprintf(f, "\n}\n");
	if (f != stdout && fclose(f)) {
		spate_log_error("summary", "error writing %s", path);
		return -SPATE_EIO;
	}
	return 0;
}
