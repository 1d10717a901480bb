/* bsq_out.c: the files of a Boussinesq run (bsq_out.h), through the run
 * services: the results file of fields (ncout.h), CSV series and profiles. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spate.h"
#include "bsq_out.h"
#include "field.h"
#include "ncout.h"
#include "bsq_out.h"

#define FTYPE (sizeof(bsq_real) == 8 ? SPATE_F64 : SPATE_F32)

/* Index of cell (i, j, k), interior 1..n (bsq.h "Storage"). */
static size_t at(const struct bsq_grid *g, int i, int j, int k)
{
	return ((size_t)k * (g->ny + 2) + j) * (g->nx + 2) + i;
}

double bsq_nusselt(const struct bsq_state *s, const struct bsq_params *p)
{
	double dT;
	switch (bsq_diag_nusselt_kind(p, &dT)) {
	case 1: return bsq_diag_nusselt_wall(s, p, dT);
	case 2: return bsq_diag_nusselt_volume(s, p, dT);
	default: return NAN;
	}
}

static const char *const names[5] = { "u", "v", "w", "p", "T" };
static const char *const long_names[5] = { "velocity in x at the cell centre",
	"velocity in y at the cell centre", "velocity in z at the cell centre",
	"pressure over the reference density", "temperature" };

/* The five fields of a snapshot; velocities from o->buf (filled per call). */
static void describe(struct spate_field *f, const struct bsq_grid *g)
{
	memset(f, 0, 5 * sizeof *f);
	for (int k = 0; k < 5; k++) {
		f[k].name = names[k];
		f[k].units = "1";
		f[k].long_name = long_names[k];
		f[k].ndims = 3;
		f[k].type = k < 3 ? SPATE_F64 : FTYPE;
		f[k].store = FTYPE;
		f[k].fill = -9999;
		f[k].sx = 1;
		f[k].sy = k < 3 ? g->nx : g->nx + 2;
		f[k].sz = k < 3 ? (ptrdiff_t)g->nx * g->ny : (ptrdiff_t)(g->nx + 2) * (g->ny + 2);
	}
}

#define SERIES_HEADER "t,dt,step,energy,div_max,div_l2,cycles,residual,nusselt\n"

/* A restart's series.csv: its header and the rows of steps up to `step`
 * (the checkpoint's) kept, the rows after them (of a run that went on past
 * that checkpoint) cut, open for appending; NULL where path is not a
 * series.csv with its header (then it is written anew). */
static FILE *series_keep(const char *path, long step)
{
	char line[512];
	long at = -1, k;
	FILE *f = fopen(path, "r+");
	if (!f)
		return NULL;
	if (fgets(line, sizeof line, f) && !strcmp(line, SERIES_HEADER))
		do
			at = ftell(f);
		while (fgets(line, sizeof line, f) && strchr(line, '\n') &&
			sscanf(line, "%*[^,],%*[^,],%ld", &k) == 1 && k <= step);
	if (at >= 0 && fflush(f) == 0 && ftruncate(fileno(f), at) == 0 &&
		fseek(f, at, SEEK_SET) == 0)
		return f;
	fclose(f);
	return NULL;
}

/* series.csv, its header unless continued (append: a restart at step
 * s->step).  Rows fall at the first step at or past 0, interval, 2
 * interval, ... (the sums a run from t = 0 makes), so a continued run writes
 * the rows of a run never stopped. */
static int open_series(struct bsq_out *o, const struct bsq_state *s, int append)
{
	char path[BSQ_PATH_MAX + 32];
	double every = o->c->series_interval;
	snprintf(path, sizeof path, "%s/series.csv", o->c->out_dir);
	o->series = append ? series_keep(path, s->step) : NULL;
	if (!o->series && !(o->series = fopen(path, "w"))) {
		spate_log_error("output", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	if (ftell(o->series) == 0)
		fputs(SERIES_HEADER, o->series);
	o->next_series = append && every > 0 ? 0 : s->t;
	while (append && every > 0 && o->next_series <= s->t)
		o->next_series += every;
	return 0;
}

int bsq_out_open(struct bsq_out *o, const struct bsq_config *c, const struct bsq_params *p,
	const struct bsq_state *s, int append, const struct bsq_out_part *part)
{
	const struct bsq_grid *g = &s->g;
	char path[BSQ_PATH_MAX + 32];
	int rc, nk = part ? part->nk : g->nz, files = !part || part->files;
	memset(o, 0, sizeof *o);
	o->c = c;
	o->p = p;
	o->par = part != NULL;
	o->k0 = part ? part->k0 : 0;
	/* every rank of a parallel write makes the folder (mkdir -p races well) */
	if ((rc = spate_mkdir_p(c->out_dir)) || (files && (rc = open_series(o, s, append))))
		return rc;
	if (!c->netcdf)
		return 0;
#ifdef HAVE_NETCDF
	{
		struct spate_field f[5];
		struct spate_nc_spec spec;
		char *text = bsq_config_text(c, NULL);
		struct spate_attr a[2] = { { "spate_module", "boussinesq", 0 },
			{ "spate_parameters", text ? text : "", 0 } };
		describe(f, g);
		memset(&spec, 0, sizeof spec);
		spec.grid.nx = g->nx;
		spec.grid.ny = g->ny;
		spec.grid.nz = g->nz;
		spec.grid.dx = g->dx;
		spec.grid.dy = g->dy;
		spec.grid.dz = g->dz;
		spec.records = f;
		spec.nrecords = 5;
		spec.attrs = a;
		spec.nattrs = 2;
		spec.append = append;
		spec.parallel = o->par;
		snprintf(path, sizeof path, "%s/results.nc", c->out_dir);
		rc = spate_nc_create(&o->nc, path, &spec);
		free(text);
		if (!rc && !(o->buf = malloc((size_t)g->nx * g->ny * (nk > 0 ? nk : 1) *
			sizeof *o->buf)))
			rc = -SPATE_ENOMEM;
		return rc;
	}
#else
	(void)nk;
	spate_log_info("spate: no results.nc: this spate was built without NetCDF\n");
	return 0;
#endif
}

/* Centre average of face velocity field v (0 u, 1 v, 2 w) into out. */
static void centre(const struct bsq_state *s, int v, double *out)
{
	const struct bsq_grid *g = &s->g;
	const bsq_real *a = v == 0 ? s->u : v == 1 ? s->v : s->w;
	size_t step = v == 0 ? 1 : v == 1 ? (size_t)(g->nx + 2) : (size_t)(g->nx + 2) * (g->ny + 2);
	for (int k = 1; k <= g->nz; k++)
		for (int j = 1; j <= g->ny; j++)
			for (int i = 1; i <= g->nx; i++) {
				size_t q = at(g, i, j, k);
				out[((size_t)(k - 1) * g->ny + (j - 1)) * g->nx + (i - 1)] =
					0.5 * ((double)a[q] + (double)a[q + step]);
			}
}

int bsq_out_snapshot(struct bsq_out *o, const struct bsq_state *s, int rec)
{
	struct spate_field f[5];
	int rc = 0;
	if (!o->nc)
		return 0;
	describe(f, &s->g);
	f[3].data = s->p + at(&s->g, 1, 1, 1);
	f[4].data = s->T + at(&s->g, 1, 1, 1);
	for (int v = 0; v < 3 && !rc; v++) {
		centre(s, v, o->buf);
		f[v].data = o->buf;
		rc = spate_nc_record_layers(o->nc, rec, s->t, &f[v], 1, o->k0, s->g.nz);
	}
	return rc ? rc : spate_nc_record_layers(o->nc, rec, s->t, &f[3], 2, o->k0, s->g.nz);
}

int bsq_out_series_due(const struct bsq_out *o, double t)
{
	return o->series && t >= o->next_series;
}

int bsq_out_series_row(struct bsq_out *o, double t, long step, const struct bsq_stats *st,
	double energy, double nusselt)
{
	if (!bsq_out_series_due(o, t))
		return 0;
	if (o->c->series_interval > 0)
		while (o->next_series <= t)
			o->next_series += o->c->series_interval;
	fprintf(o->series, "%.17g,%.9g,%ld,%.17g,%.6e,%.6e,%d,%.6e,%.17g\n", t, st->dt, step,
		energy, st->div_max, st->div_l2, st->cycles, st->residual, nusselt);
	return ferror(o->series) ? -SPATE_EIO : 0;
}

int bsq_out_series(struct bsq_out *o, const struct bsq_state *s, const struct bsq_stats *st)
{
	if (!bsq_out_series_due(o, s->t))
		return 0;
	return bsq_out_series_row(o, s->t, s->step, st, bsq_diag_energy(s), bsq_nusselt(s, o->p));
}

/* One profile: field along axis through (x, y, z), at the cell centres. */
static void profile(FILE *f, const struct bsq_state *s, const char *line, int field, int axis,
	double x, double y, double z)
{
	const struct bsq_grid *g = &s->g;
	int n = axis == 0 ? g->nx : axis == 1 ? g->ny : g->nz;
	double h = axis == 0 ? g->dx : axis == 1 ? g->dy : g->dz;
	double *c = calloc(2 * (size_t)n, sizeof *c);
	if (!c)
		return;
	for (int q = 0; q < n; q++)
		c[q] = (q + 0.5) * h;
	bsq_diag_line(s, field, axis, x, y, z, n, c, c + n);
	for (int q = 0; q < n; q++)
		fprintf(f, "%s,%.17g,%.17g\n", line, c[q], c[n + q]);
	free(c);
}

int bsq_out_profiles(const struct bsq_out *o, const struct bsq_state *s)
{
	const struct bsq_params *p = o->p;
	char path[BSQ_PATH_MAX + 32];
	FILE *f;
	int bad;
	if (!o->c->profiles)
		return 0;
	snprintf(path, sizeof path, "%s/profiles.csv", o->c->out_dir);
	if (!(f = fopen(path, "w"))) {
		spate_log_error("output", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	fprintf(f, "line,coordinate,value\n");
	profile(f, s, "u_along_z", 0, 2, p->lx / 2, p->ly / 2, 0);
	profile(f, s, "w_along_x", 2, 0, 0, p->ly / 2, p->lz / 2);
	profile(f, s, "T_along_x", 3, 0, 0, p->ly / 2, p->lz / 2);
	if (s->g.ny > 1) { /* across the span, through the box's centre */
		profile(f, s, "u_along_y", 0, 1, p->lx / 2, 0, p->lz / 2);
		profile(f, s, "v_along_y", 1, 1, p->lx / 2, 0, p->lz / 2);
		profile(f, s, "w_along_y", 2, 1, p->lx / 2, 0, p->lz / 2);
	}
	bad = ferror(f);
	if (fclose(f) || bad) {
		spate_log_error("output", "error writing %s", path);
		return -SPATE_EIO;
	}
	return 0;
}

int bsq_out_close(struct bsq_out *o)
{
	int rc = spate_nc_close(o->nc);
	if (o->series && fclose(o->series) && !rc)
		rc = -SPATE_EIO;
	free(o->buf);
	memset(o, 0, sizeof *o);
	return rc;
}
