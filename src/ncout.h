/* ncout.h: NetCDF results files: written for any physics from a grid and
 * its fields (field.h; ncout.c, the points in ncpoints.c), and a grid read
 * back for maps (ncread.c) with what a map needs besides (ncmapinfo.c).
 * Every NetCDF call of spate is in these files, ncutil.c and ckpt_nc.c
 * (checkpoints); built without NetCDF, each function says so and returns
 * -SPATE_EUNSUPPORTED (ncout_none.c for the writer). */
#ifndef SPATE_NCOUT_H
#define SPATE_NCOUT_H

#include "field.h"

struct terrain_grid;

/* An open results file. */
struct spate_nc;

/* A run writes its results file in this order: spate_nc_create, then at
 * each output time spate_nc_record (and spate_nc_points_row at each
 * point's row), at the end spate_nc_fields, spate_nc_points_final and
 * spate_nc_attr, then spate_nc_close.  Each returns 0 or -SPATE_E* after a
 * message naming the file. */

/* What the results file holds. */
struct spate_nc_spec {
	struct spate_grid grid;
	const struct spate_field *fixed;   /* written at creation (the bed) */
	int nfixed;
	const struct spate_field *records; /* along an unlimited dimension time
	                                      (values unused here) */
	int nrecords;
	const struct spate_field *finals;  /* written at the end (values unused here) */
	int nfinals;
	const struct spate_attr *attrs;    /* global attributes after Conventions */
	int nattrs;
	const struct spate_points *points; /* or NULL */
	const struct spate_table *table;   /* or NULL (not with append) */
	int append;     /* restart: continue the file at path if it fits */
	const char *time_units; /* CF units of every time in the file, "seconds since
	                           <start>" (cftime.h); NULL: from SPATE_START_DEFAULT */
	int parallel;   /* every MPI rank creates (or continues) the file together and
	                   writes its own layers of each record (spate_nc_record_layers);
	                   records only.  Needs the MPI flavour of NetCDF (HAVE_NETCDF_PAR):
	                   without it -SPATE_EUNSUPPORTED */
};

/* Create the results file at path (NetCDF-4, CF-1.8): dimensions y, x (z
 * with 3D fields), cell-centre coordinates x(x) = x0 + (i + 1/2) dx, y(y),
 * z(z), the grid mapping variable "crs" when the grid has a CRS, and the
 * variables of spec; the fixed fields written.  With spec->append an
 * existing file of the same grid and variables is opened instead, its
 * fixed fields kept.  Returns 0 or -SPATE_E* after a message. */
int spate_nc_create(struct spate_nc **f, const char *path, const struct spate_nc_spec *spec);

/* Write record rec (0, 1, ...) at time t (s): t and the n fields, each one
 * of spec->records by name (the others of the record: written by another
 * call, or left fill); then sync the file. */
int spate_nc_record(struct spate_nc *f, long rec, double t, const struct spate_field *fl,
	int n);

/* The same for a file written in parallel: every rank calls it at once,
 * with 3D fields of layers [k0, k0 + nk) (their layer 0 the file's k0; the
 * ranks' layers side by side cover the grid); rank 0 writes the time. */
int spate_nc_record_layers(struct spate_nc *f, long rec, double t,
	const struct spate_field *fl, int n, int k0, int nk);

/* Write the n fields, each one of spec->finals by name. */
int spate_nc_fields(struct spate_nc *f, const struct spate_field *fl, int n);

/* Add (or replace) global attribute a after creation. */
int spate_nc_attr(struct spate_nc *f, const struct spate_attr *a);

/* Points: write row rec at time t, v[nseries * p + k] series k of point p. */
int spate_nc_points_row(struct spate_nc *f, long rec, double t, const double *v);

/* Points: write the final values, v[nfinal * p + k] (NaN: fill). */
int spate_nc_points_final(struct spate_nc *f, const double *v);

/* Close the file (NULL: nothing to do). */
int spate_nc_close(struct spate_nc *f);

/* Read variable var of a results file into g (terrain_free it): its grid,
 * the CRS, values with NAN for the fill value.  A variable with a time
 * dimension gives the record nearest to t (NAN: the last); *t_out receives
 * the record's time (for a variable without time: the global attribute
 * spate_t_end, or NAN); units and long_name
 * (n bytes each) its attributes. */
int spate_nc_read_grid(const char *path, const char *var, double t, struct terrain_grid *g,
	double *t_out, char *units, char *long_name, size_t n);

/* Named points of a results file read back (spate_nc_read_points). */
struct spate_nc_pts {
	int n;
	char (*name)[64];   /* n names */
	double *x, *y;      /* n positions */
	double *v;          /* nv values a point: v[nv * p + k], NAN for fill */
};

/* Read the points <prefix> of the results file at path (prefix_name,
 * prefix_x, prefix_y) and, for each, the final values vars[0 .. nv).  No
 * points: 0 with pt->n = 0.  Returns 0 or -SPATE_E* after a message;
 * spate_nc_pts_free pt after either. */
int spate_nc_read_points(const char *path, const char *prefix, const char *const *vars, int nv,
	struct spate_nc_pts *pt);
void spate_nc_pts_free(struct spate_nc_pts *pt);

/* Text attribute att of variable var (NULL: a global attribute) of the
 * file at path into buf (n bytes); "" when the file, the variable or the
 * attribute is not there (no message). */
void spate_nc_var_text(const char *path, const char *var, const char *att, char *buf,
	size_t n);
/* What a map shows besides the grid (ncmapinfo.c): the run's set-up, DEM
 * and time reference; the variable's wet threshold and its classes (CF
 * flag_values and flag_meanings); the gauges. */
#define SPATE_NC_CLASSES_MAX 16
struct spate_nc_mapinfo {
	char setup[64], dem[256], time_units[96], crs_name[128];
	double wet_threshold;           /* the variable's, else the file's; NAN: none */
	int nclasses;                   /* 0: not a class variable */
	double class_value[SPATE_NC_CLASSES_MAX];
	char class_meaning[SPATE_NC_CLASSES_MAX][48];
	int ngauges;
	double *gauge_x, *gauge_y;      /* m */
	char (*gauge_name)[64];
};

/* Read the map information of variable var of the results file at path into
 * m (free it with spate_nc_mapinfo_free); what the file has not is left
 * empty.  Returns 0, or -SPATE_E* after a message (a file that cannot be
 * read, classes that do not match their meanings). */
int spate_nc_mapinfo(const char *path, const char *var, struct spate_nc_mapinfo *m);
void spate_nc_mapinfo_free(struct spate_nc_mapinfo *m);

/* The number of dimensions of variable var of the file at path; 0 when the
 * file or the variable is not there (no message). */
int spate_nc_var_ndims(const char *path, const char *var);

#endif
