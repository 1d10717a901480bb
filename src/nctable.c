/* nctable.c: a table of a results file (nctable.h): dimension dim of n
 * rows, an integer coordinate dim(dim) from 1 to n, and each column a
 * double variable (dim) with its units and long name. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>

#include "nctable.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>
#include "ncutil.h"

int spate_nct_define(int id, const struct spate_table *t)
{
	int d, v, e;
	if ((e = nc_def_dim(id, t->dim, (size_t)t->n, &d)) ||
		(e = spate_nc_def_var(id, t->dim, NC_INT, 1, &d, NULL, t->long_name, NULL, NULL, 0,
			&v)))
		return e;
	for (int c = 0; c < t->ncol && !e; c++)
		if (!(e = spate_nc_def_var(id, t->cols[c].name, NC_DOUBLE, 1, &d, t->cols[c].units,
			t->cols[c].long_name, NULL, NULL, 0, &v)) && t->col_attrs)
			e = spate_nc_put_attrs(id, v, &t->col_attrs[c], 1);
	return e;
}

int spate_nct_put(int id, const struct spate_table *t)
{
	double *col = malloc(((size_t)t->n + 1) * sizeof *col);
	int *row = malloc(((size_t)t->n + 1) * sizeof *row), v, e = 0;
	if (!col || !row)
		e = NC_ENOMEM;
	for (int r = 0; !e && r < t->n; r++)
		row[r] = r + 1;
	if (!e && !(e = nc_inq_varid(id, t->dim, &v)))
		e = nc_put_var_int(id, v, row);
	for (int c = 0; c < t->ncol && !e; c++) {
		for (int r = 0; r < t->n; r++)
			col[r] = t->v[(size_t)t->ncol * r + c];
		if (!(e = nc_inq_varid(id, t->cols[c].name, &v)))
			e = nc_put_var_double(id, v, col);
	}
	free(col);
	free(row);
	return e;
}

#else /* !HAVE_NETCDF: ncout.c reports that there is no NetCDF */

int spate_nct_define(int id, const struct spate_table *t)
{
	(void)id; (void)t;
	return -1;
}

int spate_nct_put(int id, const struct spate_table *t)
{
	(void)id; (void)t;
	return -1;
}
#endif
