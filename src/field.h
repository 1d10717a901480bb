/* field.h: what a physics module hands to the results writer (ncout.h):
 * the grid its fields live on, each field as a name with CF metadata and a
 * view of values in memory, named points with series of values (gauges),
 * and attributes as name/value pairs.  A leaf header: it knows no physics
 * and includes nothing of spate. */
#ifndef SPATE_FIELD_H
#define SPATE_FIELD_H

#include <stddef.h>

/* The type of values in memory, or of a variable in the file. */
enum spate_ftype { SPATE_F32 = 0, SPATE_F64 = 1,
	SPATE_I8 = 2 /* a variable of classes in the file (NetCDF byte): store only */ };

/* A regular grid of nx x ny cells (x east, y north; row 0 the southern
 * row), with (x0, y0) its lower-left corner, and nz layers for 3D fields
 * (0: no 3D field) from z0 up in steps dz.  A geographic CRS (WKT GEOGCS,
 * GEOGCRS or GEODCRS) gives x and y in degrees, any other in metres. */
struct spate_grid {
	int nx, ny, nz;
	double x0, y0, z0;
	double dx, dy, dz;
	const char *crs_wkt;    /* coordinate reference system (WKT), or NULL */
};

/* A field on the grid: 2D (y, x) or 3D (z, y, x); in the file, a field
 * written at every output time gets the time dimension ahead of these.
 * Value (i, j, k) is data[i * sx + j * sy + k * sz] (strides in values,
 * not bytes); a NaN value is written as fill. */
struct spate_field {
	const char *name;       /* variable name */
	const char *units;      /* CF units, or NULL */
	const char *standard_name; /* CF standard name, or NULL */
	const char *long_name;  /* or NULL */
	int ndims;              /* 2 or 3 */
	enum spate_ftype type;  /* of data */
	enum spate_ftype store; /* of the variable in the file */
	double fill;            /* _FillValue */
	const void *data;       /* the values (unused where only the variable is defined) */
	ptrdiff_t sx, sy, sz;
	const struct spate_attr *attrs; /* more attributes of the variable, or NULL */
	int nattrs;
	int is_time;            /* a time in s since the run's start: units become the
	                           file's CF time units (ncout.h), calendar standard */
};

/* An attribute: text, or (text NULL) a number. */
struct spate_attr {
	const char *name;
	const char *text;
	double value;
};

/* A value of the points below: its name, units and long name. */
struct spate_series {
	const char *name, *units, *long_name;
	int is_time;    /* as in struct spate_field */
};

/* Named points (gauges, probes) at (x, y) on the grid, each with nseries
 * values per row along a time of their own, and nfinal values once at the
 * end (fill: where such a value is NaN).  In the results file: dimensions
 * <prefix>_time (unlimited) and <prefix>; variables <prefix>_time,
 * <prefix>_name, <prefix>_x, <prefix>_y, each series a float variable
 * (<prefix>_time, <prefix>), each final value a double variable (<prefix>). */
struct spate_points {
	const char *prefix;
	int n;
	const char *const *names;
	const double *x, *y;
	const struct spate_series *series;
	int nseries;
	const struct spate_series *finals;
	int nfinal;
	double fill;
};

/* A table of n rows along a dimension of its own (an ensemble's members):
 * in the results file, dimension dim with an integer coordinate dim(dim)
 * numbering the rows 1 to n, and one double variable (dim) per column. */
struct spate_table {
	const char *dim;
	const char *long_name;          /* of the row numbers */
	int n, ncol;
	const struct spate_series *cols;
	const struct spate_attr *col_attrs; /* one more attribute per column, or NULL */
	const double *v;                /* v[ncol * row + c] */
};

#endif
