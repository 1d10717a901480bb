/* ncutil.h: what the NetCDF files (ncout.c, ncpoints.c, ncread.c,
 * ckpt_nc.c) share: a failed NetCDF call reported with the file, what was
 * being done and NetCDF's reason (on standard error, under `who`), as
 * -SPATE_ENOMEM or -SPATE_EIO; and defining a CF variable with its
 * attributes.  Included after <netcdf.h>, where spate has NetCDF; defined
 * in ncutil.c. */
#ifndef SPATE_NCUTIL_H
#define SPATE_NCUTIL_H

struct spate_attr;

int spate_nc_fail(const char *who, const char *path, const char *what, int e);

/* A NetCDF call in a function with `int rc`, `const char *path` and an
 * `out:` label: on failure, report it, set rc and go to out. */
#define SPATE_NC(who, what, call) do { \
		int e_ = (call); \
		if (e_ != NC_NOERR) { \
			rc = spate_nc_fail(who, path, what, e_); \
			goto out; \
		} \
	} while (0)

/* Text attribute name of variable v (NC_GLOBAL: of the file). */
int spate_nc_att_text(int id, int v, const char *name, const char *text);

/* Text attribute name of variable v into buf (n bytes); "" when absent or
 * longer than n - 1 bytes. */
void spate_nc_get_text(int id, int v, const char *name, char *buf, size_t n);

/* Attributes a[0 .. n) of variable v: text, or a double; on a byte
 * variable, text flag_values ("0 1 2") as bytes. */
int spate_nc_put_attrs(int id, int v, const struct spate_attr *a, int n);

/* Define variable name with its units, long_name, standard_name (each or
 * NULL), fill value *fill (or NULL), grid mapping "crs" when crs; those of
 * 2 or more dimensions compressed (shuffle, deflate 1).  The variable's id
 * in *v; returns a NetCDF status. */
int spate_nc_def_var(int id, const char *name, nc_type type, int nd, const int *dims,
	const char *units, const char *long_name, const char *std, const double *fill, int crs,
	int *v);

/* Define the time coordinate name(dim) in seconds: units (CF "seconds since
 * <start>", cftime.h), calendar standard, standard_name time, axis T. */
int spate_nc_def_time(int id, const char *name, int dim, const char *units,
	const char *long_name, int *v);

/* CF grid mapping attributes (CF-1.8 section 5.6, appendix F) of the
 * grid mapping variable v from the WKT of a projected CRS, for Transverse
 * Mercator (UTM and national grids): grid_mapping_name and its five
 * parameters.  Other projections get none (their crs_wkt stays, which GDAL
 * and QGIS read).  Returns a NetCDF status. */
int spate_nc_cf_mapping(int id, int v, const char *wkt);

/* A restart's checks: file id has variable name with nd dimensions (its id
 * in *v); dimension name of length n. */
int spate_nc_has_var(int id, const char *name, int nd, int *v);
int spate_nc_has_dim(int id, const char *name, size_t n);

/* Where a run's records go in a file (its first record has index rec):
 * *shift is what to take from each record index.  A file made by this run
 * starts at its first record (a restart into a new folder left the records
 * before the checkpoint empty, their times the fill value), and says so in
 * the attribute spate_first_record of v_time when that is not 0; a file
 * reopened (a restart's) keeps the shift its attribute says (0 without
 * one).  0 or a NetCDF error. */
int spate_nc_rec_shift(int id, int v_time, int reopened, long rec, long *shift);

#endif
