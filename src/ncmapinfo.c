/* ncmapinfo.c: what a map of a results file shows besides the grid
 * (ncout.h): the set-up, the DEM and the time reference of the run; the
 * wet threshold of the variable; its classes, from the CF attributes
 * flag_values (numbers) and flag_meanings (words separated by blanks, one
 * per value); the gauges' names and positions. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "ncout.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

#define NC(what, call) SPATE_NC("map", what, call)

/* The classes of variable v: flag_values and as many flag_meanings. */
static int classes(int id, int v, const char *path, const char *var,
	struct spate_nc_mapinfo *m)
{
	char text[SPATE_NC_CLASSES_MAX * 48], *save = NULL, *w;
	size_t n = 0;
	int k = 0;
	if (nc_inq_attlen(id, v, "flag_values", &n) || n == 0)
		return 0;
	spate_nc_get_text(id, v, "flag_meanings", text, sizeof text);
	if (n > SPATE_NC_CLASSES_MAX || nc_get_att_double(id, v, "flag_values", m->class_value)) {
		spate_log_error("map", "%s: %s: flag_values: not %d numbers or fewer", path, var,
			SPATE_NC_CLASSES_MAX);
		return -SPATE_EINVAL;
	}
	for (w = strtok_r(text, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save), k++)
		if (k < (int)n)
			snprintf(m->class_meaning[k], sizeof m->class_meaning[k], "%s", w);
	if (k != (int)n) {
		spate_log_error("map", "%s: %s: %zu flag_values but %d flag_meanings: they must "
			"pair one to one", path, var, n, k);
		return -SPATE_EINVAL;
	}
	m->nclasses = (int)n;
	return 0;
}

/* The gauges: gauge_name, gauge_x, gauge_y along dimension gauge. */
static int gauges(int id, const char *path, struct spate_nc_mapinfo *m)
{
	int d, vn, vx, vy, rc = 0;
	size_t n = 0;
	char **names = NULL;
	if (nc_inq_dimid(id, "gauge", &d) || nc_inq_dimlen(id, d, &n) || n == 0 ||
		nc_inq_varid(id, "gauge_name", &vn) || nc_inq_varid(id, "gauge_x", &vx) ||
		nc_inq_varid(id, "gauge_y", &vy))
		return 0;
	m->gauge_x = malloc(n * sizeof *m->gauge_x);
	m->gauge_y = malloc(n * sizeof *m->gauge_y);
	m->gauge_name = calloc(n, sizeof *m->gauge_name);
	names = calloc(n, sizeof *names);
	if (!m->gauge_x || !m->gauge_y || !m->gauge_name || !names) {
		rc = -SPATE_ENOMEM;
		goto out;
	}
	NC("reading the gauges", nc_get_var_double(id, vx, m->gauge_x));
	NC("reading the gauges", nc_get_var_double(id, vy, m->gauge_y));
	NC("reading the gauge names", nc_get_var_string(id, vn, names));
	for (size_t k = 0; k < n; k++)
		snprintf(m->gauge_name[k], sizeof m->gauge_name[k], "%s", names[k] ? names[k] : "");
	nc_free_string(n, names);
	m->ngauges = (int)n;
out:
	free(names);
	return rc;
}

/* The name of the CRS of variable v (its grid mapping, else spate's "crs"):
 * the first quoted words of the WKT. */
static void crs_name(int id, int v, struct spate_nc_mapinfo *m)
{
	char gm[NC_MAX_NAME + 1], wkt[4096], *a, *b;
	int vc;
	spate_nc_get_text(id, v, "grid_mapping", gm, sizeof gm);
	if (!gm[0])
		snprintf(gm, sizeof gm, "crs");     /* spate's grid mapping */
	if (nc_inq_varid(id, gm, &vc))
		return;
	spate_nc_get_text(id, vc, "crs_wkt", wkt, sizeof wkt);
	if ((a = strchr(wkt, '"')) && (b = strchr(a + 1, '"'))) {
		*b = 0;
		snprintf(m->crs_name, sizeof m->crs_name, "%s", a + 1);
	}
}

int spate_nc_mapinfo(const char *path, const char *var, struct spate_nc_mapinfo *m)
{
	int id, v, vt, rc = 0;
	memset(m, 0, sizeof *m);
	m->wet_threshold = NAN;
	NC("opening it", nc_open(path, NC_NOWRITE, &id));
	spate_nc_get_text(id, NC_GLOBAL, "spate_setup", m->setup, sizeof m->setup);
	spate_nc_get_text(id, NC_GLOBAL, "spate_dem", m->dem, sizeof m->dem);
	if (!nc_inq_varid(id, "time", &vt))
		spate_nc_get_text(id, vt, "units", m->time_units, sizeof m->time_units);
	if (nc_get_att_double(id, NC_GLOBAL, "spate_wet_threshold", &m->wet_threshold))
		m->wet_threshold = NAN;
	if (!nc_inq_varid(id, var, &v)) {
		double th;
		if (!nc_get_att_double(id, v, "wet_threshold", &th))
			m->wet_threshold = th;
		crs_name(id, v, m);
		rc = classes(id, v, path, var, m);
	}
	if (!rc)
		rc = gauges(id, path, m);
	nc_close(id);
	if (rc)
		spate_nc_mapinfo_free(m);
	return rc;
out:
	return rc;
}

#else /* !HAVE_NETCDF */

int spate_nc_mapinfo(const char *path, const char *var, struct spate_nc_mapinfo *m)
{
	(void)var;
	memset(m, 0, sizeof *m);
	spate_log_error("map", "%s: this spate was built without NetCDF: it cannot read results "
		"files (rebuild with libnetcdf-dev)", path);
	return -SPATE_EUNSUPPORTED;
}
#endif

void spate_nc_mapinfo_free(struct spate_nc_mapinfo *m)
{
	free(m->gauge_x);
	free(m->gauge_y);
	free(m->gauge_name);
	m->gauge_x = m->gauge_y = NULL;
	m->gauge_name = NULL;
	m->ngauges = 0;
}
