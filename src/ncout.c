/* ncout.c: the results file of a run (ncout.h), for any physics: the grid
 * and its fields (field.h) in NetCDF-4 following CF-1.8.  Coordinates x(x),
 * y(y) at the cell centres (y increasing: row 0 is the southern row), z(z)
 * for 3D fields, a grid mapping variable "crs" with the grid's WKT; fixed
 * fields written at creation, fields along an unlimited time dimension,
 * fields written at the end, named points with their own series
 * (<prefix>_time, ncpoints.c); global attributes as given.  Built against
 * the MPI flavour of NetCDF (HAVE_NETCDF_PAR), a file of records only may
 * be opened by every rank together, each writing its own layers.  Built
 * without NetCDF: ncout_none.c. */
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
#include "ncpoints.h"
#include "nctable.h"
#include "cftime.h"
#include "decomp.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"
#ifdef HAVE_NETCDF_PAR
#include <mpi.h>
#include <netcdf_par.h>
MPI_Comm decomp_world_comm(void);
#define PARALLEL 1
#else
#define PARALLEL 0
#endif

struct spate_nc {
	int id;
	char *path;
	int nx, ny, nz;
	int v_time;         /* time of the records, or -1 */
	char time_units[SPATE_TIME_TEXT]; /* CF "seconds since <start>" */
	struct spate_ncp *pts; /* the named points, or NULL */
	double *buf;        /* one layer, or one value per point (par: a rank's layers) */
	size_t nbuf;        /* values buf holds */
	int par;            /* opened by every rank together (NetCDF-4 over MPI-IO) */
	int rank;           /* this rank, with par */
	int reopened;       /* a restart's file, written on (not made anew) */
	int shifted;        /* rec_shift known (after the first record) */
	long rec_shift;     /* a record index less this is its place in the file */
};

#define NC(what, call) SPATE_NC("netcdf", what, call)

static nc_type nctype(enum spate_ftype t)
{
	return t == SPATE_F32 ? NC_FLOAT : t == SPATE_I8 ? NC_BYTE : NC_DOUBLE;
}

/* A geographic CRS (degrees) rather than a projected one (metres)? */
static int geographic(const char *wkt)
{
	return wkt && (!strncmp(wkt, "GEOGCS", 6) || !strncmp(wkt, "GEOGCRS", 7) ||
		!strncmp(wkt, "GEODCRS", 7));
}

/* The grid mapping variable "crs": the WKT and GDAL's georeferencing
 * (top-left corner, north-up). */
static int def_crs(int id, const struct spate_grid *g)
{
	char gt[256];
	int vc, e;
	snprintf(gt, sizeof gt, "%.17g %.17g 0 %.17g 0 %.17g", g->x0, g->dx, g->y0 + g->ny * g->dy,
		-g->dy);
	if ((e = nc_def_var(id, "crs", NC_INT, 0, NULL, &vc)) ||
		(e = spate_nc_att_text(id, vc, "crs_wkt", g->crs_wkt)) ||
		(e = spate_nc_att_text(id, vc, "spatial_ref", g->crs_wkt)) ||
		(e = spate_nc_att_text(id, vc, "GeoTransform", gt)))
		return e;
	if (!geographic(g->crs_wkt))
		return spate_nc_cf_mapping(id, vc, g->crs_wkt);
	return spate_nc_att_text(id, vc, "grid_mapping_name", "latitude_longitude");
}

/* Coordinate variable name(name) of the cell centres along axis (X, Y, Z). */
static int def_coord(int id, const char *name, int dim, const char *units, const char *std,
	const char *axis)
{
	char text[64];
	int v, e;
	snprintf(text, sizeof text, "%s of the %s centre", name, *axis == 'Z' ? "layer" : "cell");
	if ((e = spate_nc_def_var(id, name, NC_DOUBLE, 1, &dim, units, text, std, NULL, 0, &v)) ||
		(e = spate_nc_att_text(id, v, "axis", axis)) || *axis != 'Z')
		return e;
	return spate_nc_att_text(id, v, "positive", "up");
}

/* Dimensions y, x and (with layers) z: dims[0] z (or -1), dims[1] y,
 * dims[2] x; their coordinate variables and the grid mapping. */
static int def_grid(int id, const struct spate_grid *g, int dims[3])
{
	int geo = geographic(g->crs_wkt), e;
	dims[0] = -1;
	if ((e = nc_def_dim(id, "y", (size_t)g->ny, &dims[1])) ||
		(e = nc_def_dim(id, "x", (size_t)g->nx, &dims[2])) ||
		(g->nz > 0 && (e = nc_def_dim(id, "z", (size_t)g->nz, &dims[0]))) ||
		(e = def_coord(id, "x", dims[2], geo ? "degrees_east" : "m",
			geo ? "longitude" : "projection_x_coordinate", "X")) ||
		(e = def_coord(id, "y", dims[1], geo ? "degrees_north" : "m",
			geo ? "latitude" : "projection_y_coordinate", "Y")) ||
		(g->nz > 0 && (e = def_coord(id, "z", dims[0], "m", "height", "Z"))))
		return e;
	return g->crs_wkt ? def_crs(id, g) : 0;
}

/* Field fl's variable, after time when td >= 0; the records chunked one
 * layer of at most 1024 x 1024 cells at a time. */
static int def_field(struct spate_nc *f, const struct spate_field *fl, const int dims[3],
	int td, int crs)
{
	int d[4], nd = 0, v, e;
	size_t chunk[4];
	if (fl->ndims != 2 && (fl->ndims != 3 || dims[0] < 0))
		return NC_EINVAL;
	if (td >= 0) {
		d[nd] = td;
		chunk[nd++] = 1;
	}
	if (fl->ndims == 3) {
		d[nd] = dims[0];
		chunk[nd++] = 1;
	}
	d[nd] = dims[1];
	chunk[nd++] = (size_t)(f->ny < 1024 ? f->ny : 1024);
	d[nd] = dims[2];
	chunk[nd++] = (size_t)(f->nx < 1024 ? f->nx : 1024);
	if ((e = spate_nc_def_var(f->id, fl->name, nctype(fl->store), nd, d, fl->is_time ?
		f->time_units : fl->units, fl->long_name, fl->standard_name, &fl->fill, crs, &v)) ||
		(fl->is_time && (e = spate_nc_att_text(f->id, v, "calendar", "standard"))) ||
		(td >= 0 && (e = nc_def_var_chunking(f->id, v, NC_CHUNKED, chunk))))
		return e;
	return spate_nc_put_attrs(f->id, v, fl->attrs, fl->nattrs);
}

/* The fixed fields, the time and the records, the final fields. */
static int def_fields(struct spate_nc *f, const struct spate_nc_spec *spec, const int dims[3])
{
	int crs = spec->grid.crs_wkt != NULL, td = -1, e = 0;
	for (int k = 0; k < spec->nfixed && !e; k++)
		e = def_field(f, &spec->fixed[k], dims, -1, crs);
	if (!e && spec->nrecords && ((e = nc_def_dim(f->id, "time", NC_UNLIMITED, &td)) ||
		(e = spate_nc_def_time(f->id, "time", td, f->time_units, "time of the record",
			&f->v_time))))
		return e;
	for (int k = 0; k < spec->nrecords && !e; k++)
		e = def_field(f, &spec->records[k], dims, td, crs);
	for (int k = 0; k < spec->nfinals && !e; k++)
		e = def_field(f, &spec->finals[k], dims, -1, crs);
	return e;
}

/* Coordinate variable name: n values c0 + (i + 1/2) d; in parallel by
 * rank 0 alone (independent access, the default). */
static int put_coord(struct spate_nc *f, const char *name, int n, double c0, double d)
{
	int v, e;
	if (f->par && f->rank != 0)
		return 0;
	for (int i = 0; i < n; i++)
		f->buf[i] = c0 + (i + 0.5) * d;
	if ((e = nc_inq_varid(f->id, name, &v)))
		return e;
	return nc_put_var_double(f->id, v, f->buf);
}

/* Layer k of field fl into buf (one layer): NaN as the fill value. */
static void pack(const struct spate_nc *f, const struct spate_field *fl, int k, double *buf)
{
	for (int j = 0; j < f->ny; j++) {
		ptrdiff_t at = j * fl->sy + k * fl->sz;
		double *b = buf + (size_t)j * f->nx;
		if (fl->type == SPATE_F32)
			for (int i = 0; i < f->nx; i++)
				b[i] = ((const float *)fl->data)[at + i * fl->sx];
		else
			for (int i = 0; i < f->nx; i++)
				b[i] = ((const double *)fl->data)[at + i * fl->sx];
		for (int i = 0; i < f->nx; i++)
			b[i] = isnan(b[i]) ? fl->fill : b[i];
	}
}

/* f->buf for n values at least. */
static int grow(struct spate_nc *f, size_t n)
{
	double *b;
	if (n <= f->nbuf)
		return 0;
	if (!(b = realloc(f->buf, n * sizeof *b)))
		return NC_ENOMEM;
	f->buf = b;
	f->nbuf = n;
	return 0;
}

/* Field fl into its variable (record rec, or -1 for one without time):
 * of a 3D field layers [k0, k0 + nk), its layer 0 the file's layer k0;
 * NetCDF converts to the variable's type.  One layer a call; in parallel
 * (collective) all nk layers in one call.  Returns a NetCDF status. */
static int put_field(struct spate_nc *f, const struct spate_field *fl, long rec, int k0, int nk)
{
	size_t start[4] = { 0 }, count[4] = { 1, 1, 1, 1 }, n = (size_t)f->nx * f->ny;
	int v, nd, t = rec >= 0, e = nc_inq_varid(f->id, fl->name, &v);
	if (!e)
		e = nc_inq_varndims(f->id, v, &nd);
	if (e || nd != fl->ndims + t)
		return e ? e : NC_EINVALCOORDS;
	if (fl->ndims != 3) {
		k0 = 0;
		nk = 1;
	}
	if (f->par && (e = grow(f, (nk > 0 ? (size_t)nk : 1) * n)))
		return e;
	start[0] = t ? (size_t)rec : 0;
	count[nd - 2] = (size_t)f->ny;
	count[nd - 1] = (size_t)f->nx;
	for (int k = 0; k < nk && !e; k++) {
		pack(f, fl, k, f->buf + (f->par ? (size_t)k * n : 0));
		start[t] = fl->ndims == 3 ? (size_t)(k0 + k) : start[t];
		if (!f->par)
			e = nc_put_vara_double(f->id, v, start, count, f->buf);
	}
	if (e || !f->par)
		return e;
	if (fl->ndims == 3) {
		start[t] = (size_t)k0;
		count[t] = (size_t)(nk > 0 ? nk : 0);
	}
	return nc_put_vara_double(f->id, v, start, count, f->buf);
}

/* The file at path, new (clobbering) or (old) an existing one to write:
 * by this process, or with f->par by every rank together. */
static int open_file(struct spate_nc *f, int old)
{
#ifdef HAVE_NETCDF_PAR
	if (f->par)
		return old ? nc_open_par(f->path, NC_WRITE, decomp_world_comm(), MPI_INFO_NULL,
			&f->id) : nc_create_par(f->path, NC_NETCDF4 | NC_CLOBBER, decomp_world_comm(),
			MPI_INFO_NULL, &f->id);
#endif
	return old ? nc_open(f->path, NC_WRITE, &f->id) :
		nc_create(f->path, NC_NETCDF4 | NC_CLOBBER, &f->id);
}

/* In parallel, the time and the records are written by every rank at once:
 * HDF5 extends the unlimited dimension collectively, and a deflated
 * variable takes collective writes only. */
static int collective(struct spate_nc *f, const struct spate_nc_spec *spec)
{
	int e = 0;
#ifdef HAVE_NETCDF_PAR
	int v;
	if (f->par && f->v_time >= 0)
		e = nc_var_par_access(f->id, f->v_time, NC_COLLECTIVE);
	for (int k = 0; f->par && k < spec->nrecords && !e; k++)
		if (!(e = nc_inq_varid(f->id, spec->records[k].name, &v)))
			e = nc_var_par_access(f->id, v, NC_COLLECTIVE);
#else
	(void)f;
	(void)spec;
#endif
	return e;
}

/* Restart: variable v has units text units. */
static int has_units(int id, int v, const char *units)
{
	char u[SPATE_TIME_TEXT];
	size_t n;
	if (nc_inq_attlen(id, v, "units", &n) || n >= sizeof u || nc_get_att_text(id, v, "units",
		u))
		return 0;
	u[n] = 0;
	return !strcmp(u, units);
}

/* Restart: the file holds the grid and every variable of spec, its times
 * counted from the same start. */
static int fits(struct spate_nc *f, const struct spate_nc_spec *spec)
{
	int id = f->id, v, ok = spate_nc_has_dim(id, "x", (size_t)f->nx) &&
		spate_nc_has_dim(id, "y", (size_t)f->ny) &&
		(!f->nz || spate_nc_has_dim(id, "z", (size_t)f->nz)) &&
		(!spec->nrecords || (spate_nc_has_var(id, "time", 1, &f->v_time) &&
		has_units(id, f->v_time, f->time_units)));
	for (int k = 0; k < spec->nrecords && ok; k++)
		ok = spate_nc_has_var(id, spec->records[k].name, spec->records[k].ndims + 1, &v);
	for (int k = 0; k < spec->nfinals && ok; k++)
		ok = spate_nc_has_var(id, spec->finals[k].name, spec->finals[k].ndims, &v);
	if (ok && spec->points)
		ok = !spate_ncp_reopen(&f->pts, id, spec->points);
	return ok;
}

/* Restart: the existing file at path, if it fits spec. */
static int reopen(struct spate_nc *f, const char *path, const struct spate_nc_spec *spec)
{
	int d, nv = 0, e = open_file(f, 1);
	if (e)
		return e;
	e = !fits(f, spec);
	/* read every variable's metadata now: NetCDF reads it lazily, and the
	 * writer thread's HDF5 error stack would print the misses of its probes */
	if (!e)
		e = nc_inq_nvars(f->id, &nv);
	for (int v = 0; !e && v < nv; v++)
		e = nc_inq_varndims(f->id, v, &d);
	if (!e)
		e = collective(f, spec);
	if (e) {
		nc_close(f->id);
		spate_ncp_free(f->pts);
		f->pts = NULL;
		spate_log_info("spate: %s does not fit this run: writing it anew\n", path);
	}
	return e;
}

/* Define everything of spec, then write the coordinates, the points and
 * the fixed fields. */
static int create(struct spate_nc *f, const struct spate_nc_spec *spec)
{
	const struct spate_grid *g = &spec->grid;
	const char *path = f->path;
	int dims[3], rc = 0;
	f->id = -1;
	NC("creating it", open_file(f, 0));
	NC("defining the grid", def_grid(f->id, g, dims));
	NC("defining the fields", def_fields(f, spec, dims));
	if (spec->points)
		NC("defining the points", spate_ncp_define(&f->pts, f->id, spec->points,
			f->time_units));
	if (spec->table)
		NC("defining the table", spate_nct_define(f->id, spec->table));
	NC("writing global attributes", spate_nc_att_text(f->id, NC_GLOBAL, "Conventions",
		"CF-1.8"));
	NC("writing global attributes", spate_nc_put_attrs(f->id, NC_GLOBAL, spec->attrs,
		spec->nattrs));
	NC("ending definitions", nc_enddef(f->id));
	NC("asking for collective writes", collective(f, spec));
	NC("writing x", put_coord(f, "x", g->nx, g->x0, g->dx));
	NC("writing y", put_coord(f, "y", g->ny, g->y0, g->dy));
	if (g->nz > 0)
		NC("writing z", put_coord(f, "z", g->nz, g->z0, g->dz));
	if (spec->points)
		NC("writing the points", spate_ncp_places(f->pts, spec->points));
	if (spec->table)
		NC("writing the table", spate_nct_put(f->id, spec->table));
	for (int k = 0; k < spec->nfixed; k++)
		NC(spec->fixed[k].name, put_field(f, &spec->fixed[k], -1, 0, f->nz));
	NC("syncing", nc_sync(f->id));
	return 0;
out:
	if (f->id >= 0)
		nc_close(f->id);
	return rc;
}

static void nc_free(struct spate_nc *f)
{
	free(f->buf);
	spate_ncp_free(f->pts);
	free(f->path);
	free(f);
}

int spate_nc_create(struct spate_nc **out, const char *path, const struct spate_nc_spec *spec)
{
	const struct spate_grid *g = &spec->grid;
	struct spate_nc *f = calloc(1, sizeof *f);
	size_t n = (size_t)g->nx * g->ny, m = (size_t)g->nx + g->ny + g->nz;
	int rc;
	*out = NULL;
	if (spec->parallel && (spec->nfixed || spec->nfinals || spec->points || spec->table ||
		!PARALLEL)) {
		spate_log_error("netcdf", "%s: %s", path, PARALLEL ? "written in parallel: records "
			"only" : "this spate's NetCDF is the serial flavour: no parallel writes");
		free(f);
		return PARALLEL ? -SPATE_EINVAL : -SPATE_EUNSUPPORTED;
	}
	if (!f || !(f->buf = malloc((f->nbuf = n > m ? n : m) * sizeof *f->buf)) ||
		!(f->path = strdup(path))) {
		if (f)
			nc_free(f);
		return -SPATE_ENOMEM;
	}
	f->nx = g->nx;
	f->ny = g->ny;
	f->nz = g->nz;
	f->v_time = -1;
	f->par = spec->parallel;
	f->rank = decomp_world_rank();
	snprintf(f->time_units, sizeof f->time_units, "%s", spec->time_units ? spec->time_units :
		"");
	if (!f->time_units[0])
		spate_time_units(NULL, f->time_units);
	f->reopened = spec->append && reopen(f, path, spec) == 0;
	if (!f->reopened && (rc = create(f, spec))) {
		nc_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

int spate_nc_record(struct spate_nc *f, long rec, double t, const struct spate_field *fl,
	int n)
{
	return spate_nc_record_layers(f, rec, t, fl, n, 0, f->nz);
}

int spate_nc_record_layers(struct spate_nc *f, long rec, double t,
	const struct spate_field *fl, int n, int k0, int nk)
{
	const char *path = f->path;
	size_t at, one = f->par && f->rank != 0 ? 0 : 1;
	int rc = 0;
	if (!f->shifted)
		NC("placing the records", spate_nc_rec_shift(f->id, f->v_time, f->reopened, rec,
			&f->rec_shift));
	f->shifted = 1;
	if (rec < f->rec_shift)
		NC("writing time", NC_EINVALCOORDS);   /* records come in order */
	rec -= f->rec_shift;
	at = (size_t)rec;
	NC("writing time", nc_put_vara_double(f->id, f->v_time, &at, &one, &t));
	for (int k = 0; k < n; k++)
		NC(fl[k].name, put_field(f, &fl[k], rec, k0, nk));
	NC("syncing", nc_sync(f->id));
out:
	return rc;
}

int spate_nc_fields(struct spate_nc *f, const struct spate_field *fl, int n)
{
	const char *path = f->path;
	int rc = 0;
	for (int k = 0; k < n; k++)
		NC(fl[k].name, put_field(f, &fl[k], -1, 0, f->nz));
out:
	return rc;
}

int spate_nc_attr(struct spate_nc *f, const struct spate_attr *a)
{
	const char *path = f->path;
	int rc = 0;
	NC(a->name, nc_redef(f->id));
	NC(a->name, spate_nc_put_attrs(f->id, NC_GLOBAL, a, 1));
	NC(a->name, nc_enddef(f->id));
out:
	return rc;
}

int spate_nc_points_row(struct spate_nc *f, long rec, double t, const double *v)
{
	const char *path = f->path;
	int rc = 0;
	NC("writing a row of the points", f->pts ? spate_ncp_row(f->pts, f->reopened, rec, t, v) :
		NC_EINVAL);
out:
	return rc;
}

int spate_nc_points_final(struct spate_nc *f, const double *v)
{
	const char *path = f->path;
	int rc = 0;
	NC("writing the points' final values", f->pts ? spate_ncp_final(f->pts, v) : NC_EINVAL);
out:
	return rc;
}

int spate_nc_close(struct spate_nc *f)
{
	const char *path;
	int rc = 0;
	if (!f)
		return 0;
	path = f->path;
	NC("closing", nc_close(f->id));
out:
	nc_free(f);
	return rc;
}
#endif
