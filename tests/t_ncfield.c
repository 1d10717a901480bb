/* t_ncfield.c: unit tests of the physics-neutral results writer (ncout.h,
 * field.h), read back with the NetCDF C API: a grid with layers, a fixed 2D
 * field from padded rows, a 3D float record and a 2D double record from
 * strided views, a final field, named points with series and final values,
 * global attributes; NaN written as the fill value; a restart continuing the
 * file, and one of another grid writing it anew.  Skips (77) without
 * NetCDF. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "spate.h"
#include "ncout.h"

#ifdef HAVE_NETCDF
#include <netcdf.h>

enum { NX = 5, NY = 4, NZ = 3, PAD = 2 };

static char path[256];

static const struct spate_series series[2] = { { "probe_a", "m", "a at the probe", 0 },
	{ "probe_b", "s", "b at the probe", 0 } };
static const struct spate_series finals[1] = { { "probe_max", "m", "greatest a", 0 } };
static const char *const names[2] = { "P1", "P2" };
static const double px[2] = { 1.5, 3.5 }, py[2] = { 0.5, 2.5 };

/* value of (i, j, k) in record rec */
static double val(int i, int j, int k, int rec)
{
	return 1000.0 * rec + 100.0 * k + 10.0 * j + i + 0.25;
}

static struct spate_field field(const char *name, int ndims, enum spate_ftype type,
	enum spate_ftype store, const void *data, ptrdiff_t sx, ptrdiff_t sy, ptrdiff_t sz)
{
	return (struct spate_field){ .name = name, .units = "m", .long_name = name,
		.ndims = ndims, .type = type, .store = store, .fill = -9999, .data = data,
		.sx = sx, .sy = sy, .sz = sz };
}

static void spec_of(struct spate_nc_spec *spec, struct spate_field fl[4],
	struct spate_points *pt, const struct spate_attr *attrs, int nx, int append,
	const double *fixed)
{
	memset(spec, 0, sizeof *spec);
	spec->grid = (struct spate_grid){ .nx = nx, .ny = NY, .nz = NZ, .x0 = 100, .y0 = 200,
		.z0 = -3, .dx = 2, .dy = 4, .dz = 1 };
	fl[0] = field("base", 2, SPATE_F64, SPATE_F64, fixed, 1, NX + PAD, 0);
	fl[0].standard_name = "surface_altitude";
	fl[1] = field("temp", 3, SPATE_F32, SPATE_F32, NULL, 0, 0, 0);
	fl[2] = field("eta", 2, SPATE_F64, SPATE_F32, NULL, 0, 0, 0);
	fl[3] = field("peak", 2, SPATE_F64, SPATE_F64, NULL, 0, 0, 0);
	fl[3].attrs = attrs + 1;
	fl[3].nattrs = 1;
	*pt = (struct spate_points){ "probe", 2, names, px, py, series, 2, finals, 1, -1 };
	spec->fixed = fl;
	spec->nfixed = 1;
	spec->records = fl + 1;
	spec->nrecords = 2;
	spec->finals = fl + 3;
	spec->nfinals = 1;
	spec->attrs = attrs;
	spec->nattrs = 2;
	spec->points = pt;
	spec->append = append;
}

/* Record rec: temp from a (i, k, j)-ordered float array, eta transposed;
 * (0, 0) NaN in both. */
static void write_record(struct spate_nc *f, long rec)
{
	static float temp[NX * NZ * NY];
	static double eta[NX * NY];
	struct spate_field fl[2];
	double row[4] = { rec, rec + 0.5, 10 + rec, 20 + rec };
	for (int i = 0; i < NX; i++)
		for (int j = 0; j < NY; j++) {
			for (int k = 0; k < NZ; k++)
				temp[(i * NZ + k) * NY + j] = (float)val(i, j, k, (int)rec);
			eta[i * NY + j] = val(i, j, 0, (int)rec);
		}
	temp[0] = NAN;
	eta[0] = NAN;
	fl[0] = field("temp", 3, SPATE_F32, SPATE_F32, temp, NZ * NY, 1, NY);
	fl[1] = field("eta", 2, SPATE_F64, SPATE_F32, eta, NY, 1, 0);
	assert_int_equal(spate_nc_record(f, rec, 10.0 * rec, fl, 2), 0);
	assert_int_equal(spate_nc_points_row(f, rec, 10.0 * rec, row), 0);
}

static int create(int nx, int append, long nrec)
{
	static const struct spate_attr attrs[2] = { { "title", "a test", 0 },
		{ "threshold", NULL, 0.125 } };
	double fixed[NY * (NX + PAD)], peak[NX * NY], pmax[2] = { 7, NAN };
	struct spate_field fl[4], fin;
	struct spate_points pt;
	struct spate_nc_spec spec;
	struct spate_attr end = { "t_end", NULL, 42 };
	struct spate_nc *f;
	for (int k = 0; k < NY * (NX + PAD); k++)
		fixed[k] = k % (NX + PAD) < NX ? k : -1;
	fixed[1] = NAN;
	for (int k = 0; k < NX * NY; k++)
		peak[k] = 0.5 * k;
	spec_of(&spec, fl, &pt, attrs, nx, append, fixed);
	if (spate_nc_create(&f, path, &spec))
		return -1;
	for (long r = nrec - 2; nx == NX && r < nrec; r++)
		write_record(f, r);
	fin = field("peak", 2, SPATE_F64, SPATE_F64, peak, 1, NX, 0);
	if (nx == NX && (spate_nc_fields(f, &fin, 1) || spate_nc_points_final(f, pmax) ||
		spate_nc_attr(f, &end)))
		return -1;
	return spate_nc_close(f);
}

static int id;

static void nc(int e)
{
	assert_int_equal(e, NC_NOERR);
}

static int var(const char *name)
{
	int v;
	nc(nc_inq_varid(id, name, &v));
	return v;
}

static size_t dimlen(const char *name)
{
	size_t n;
	int d;
	nc(nc_inq_dimid(id, name, &d));
	nc(nc_inq_dimlen(id, d, &n));
	return n;
}

static void test_grid_and_attributes(void **st)
{
	double x[NX], y[NY], z[NZ], thr, tend;
	char text[64] = "";
	(void)st;
	assert_int_equal(create(NX, 0, 2), 0);
	nc(nc_open(path, NC_NOWRITE, &id));
	assert_int_equal(dimlen("x"), NX);
	assert_int_equal(dimlen("y"), NY);
	assert_int_equal(dimlen("z"), NZ);
	assert_int_equal(dimlen("time"), 2);
	nc(nc_get_var_double(id, var("x"), x));
	nc(nc_get_var_double(id, var("y"), y));
	nc(nc_get_var_double(id, var("z"), z));
	assert_true(x[0] == 101 && x[4] == 109 && y[0] == 202 && y[3] == 214 && z[0] == -2.5);
	nc(nc_get_att_text(id, NC_GLOBAL, "Conventions", text));
	assert_string_equal(text, "CF-1.8");
	nc(nc_get_att_double(id, NC_GLOBAL, "threshold", &thr));
	nc(nc_get_att_double(id, NC_GLOBAL, "t_end", &tend));
	nc(nc_get_att_double(id, var("peak"), "threshold", &thr));
	assert_true(thr == 0.125 && tend == 42);
	assert_int_equal(nc_inq_varid(id, "crs", &(int){ 0 }), NC_ENOTVAR);
	nc_close(id);
}

static void test_values(void **st)
{
	double base[NX * NY], eta[NX * NY], peak[NX * NY], a[2], pmax[2];
	float temp[NZ * NY * NX];
	size_t s4[4] = { 1, 0, 0, 0 }, c4[4] = { 1, NZ, NY, NX }, s3[3] = { 1, 0, 0 },
		c3[3] = { 1, NY, NX }, s2[2] = { 1, 0 }, c2[2] = { 1, 2 };
	long bad = 0;
	nc_type t;
	(void)st;
	nc(nc_open(path, NC_NOWRITE, &id));
	nc(nc_get_var_double(id, var("base"), base));
	nc(nc_get_vara_float(id, var("temp"), s4, c4, temp));
	nc(nc_get_vara_double(id, var("eta"), s3, c3, eta));
	nc(nc_get_var_double(id, var("peak"), peak));
	nc(nc_get_vara_double(id, var("probe_b"), s2, c2, a));
	nc(nc_get_var_double(id, var("probe_max"), pmax));
	for (int j = 0; j < NY; j++)
		for (int i = 0; i < NX; i++) {
			int c = j * NX + i, first = !i && !j;
			bad += base[c] != (c == 1 ? -9999 : j * (NX + PAD) + i);
			bad += eta[c] != (first ? -9999 : (double)(float)val(i, j, 0, 1));
			bad += peak[c] != 0.5 * c;
			for (int k = 0; k < NZ; k++)
				bad += temp[(k * NY + j) * NX + i] != (first && !k ? -9999.f :
					(float)val(i, j, k, 1));
		}
	assert_int_equal(bad, 0);
	assert_true(a[0] == 1.5 && a[1] == 21 && pmax[0] == 7 && pmax[1] == -1);
	nc(nc_inq_vartype(id, var("eta"), &t));
	assert_int_equal(t, NC_FLOAT);
	nc_close(id);
}

static void test_restart(void **st)
{
	(void)st;
	assert_int_equal(create(NX, 1, 3), 0);  /* records 1 and 2: the file continued */
	nc(nc_open(path, NC_NOWRITE, &id));
	assert_int_equal(dimlen("time"), 3);
	assert_int_equal(dimlen("probe_time"), 3);
	nc_close(id);
	assert_int_equal(create(NX + 1, 1, 0), 0); /* another grid: written anew */
	nc(nc_open(path, NC_NOWRITE, &id));
	assert_int_equal(dimlen("x"), NX + 1);
	assert_int_equal(dimlen("time"), 0);
	nc_close(id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_and_attributes),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_restart),
	};
	const char *tmp = getenv("TMPDIR");
	int rc;
	snprintf(path, sizeof path, "%s/spate-ncfield-%ld.nc", tmp ? tmp : "/tmp", (long)getpid());
	spate_set_quiet(1);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
#else
int main(void)
{
	puts("t_ncfield: skipped, spate was built without NetCDF");
	return 77;
}
#endif
