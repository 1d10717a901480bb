/* t_mapdraw.c: spate map's printed maps (Cairo), read back.
 *
 * A run on the small valley DEM of demtest.h (a reservoir floods part of
 * it; gauges G1, G2) writes results.nc; then:
 *   - PNG at --dpi=100: an A4 landscape page of 1169 x 827 pixels (the grid
 *     is wider than tall); inside the map frame (from the log line) the
 *     share of flood-coloured pixels equals the share of cells with a
 *     max_depth within 0.04; the deepest colour of the scale is in the
 *     legend, outside the frame; --page=a3 --dpi=72 gives 1191 x 842;
 *   - PDF: starts with %PDF- and has the A4 landscape MediaBox;
 *   - classes: a variable with CF flag_values / flag_meanings (added to the
 *     file here: no_hazard, low, medium, high from max_depth) is drawn in
 *     the class colours: each class's share of the frame within 0.03 of
 *     its share of cells, a legend swatch of each drawn class, none of the
 *     "no_hazard" class;
 *   - bad options (--dpi=5, --page=b5, --extent=-1, .jpg) exit with 1.
 * Built without Cairo: a PDF map fails saying it needs Cairo, a GeoTIFF
 * works.  Skips (77) without NetCDF, or with Cairo but without GDAL. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#if defined(HAVE_CAIRO) && defined(HAVE_GDAL) && defined(HAVE_NETCDF)
#include <cairo.h>
#include <netcdf.h>

#include "mapdraw.h"
#include "demtest.h"

struct frame { double x, y, w, h; };

/* spate map -o dir/OUT ARGS with its log in dir/log; the frame from the
 * log line. */
static int map(const char *out, const char *args, struct frame *fr)
{
	char cmd[1024], path[512], line[1024];
	FILE *f;
	int rc;
	snprintf(cmd, sizeof cmd, "map '%s/out/results.nc' -o '%s/%s' %s 2>'%s/log'", dir, dir,
		out, args, dir);
	rc = run_spate(cmd);
	snprintf(path, sizeof path, "%s/log", dir);
	if (fr && (f = fopen(path, "r"))) {
		memset(fr, 0, sizeof *fr);
		while (fgets(line, sizeof line, f)) {
			const char *p = strstr(line, "map frame ");
			if (p && sscanf(p, "map frame %lf x %lf pixels at (%lf, %lf)", &fr->w, &fr->h,
				&fr->x, &fr->y) != 4)
				memset(fr, 0, sizeof *fr);
		}
		fclose(f);
	}
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* max_depth of the results file (NAN: no value), NX * NY. */
static void read_depth(float *d)
{
	char path[512];
	int id, v;
	snprintf(path, sizeof path, "%s/out/results.nc", dir);
	if (nc_open(path, NC_NOWRITE, &id) || nc_inq_varid(id, "max_depth", &v) ||
		nc_get_var_float(id, v, d))
		die("cannot read max_depth");
	nc_close(id);
	for (int k = 0; k < NX * NY; k++)
		if (d[k] == -9999.f)
			d[k] = NAN;
}

static cairo_surface_t *png(const char *name, int *w, int *h)
{
	char path[512];
	cairo_surface_t *s;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	s = cairo_image_surface_create_from_png(path);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		die("cannot read a PNG back");
	*w = cairo_image_surface_get_width(s);
	*h = cairo_image_surface_get_height(s);
	return s;
}

static void rgb_at(cairo_surface_t *s, int x, int y, int *c)
{
	uint32_t p = ((uint32_t *)(cairo_image_surface_get_data(s) +
		(size_t)y * cairo_image_surface_get_stride(s)))[x];
	c[0] = (int)(p >> 16 & 255);
	c[1] = (int)(p >> 8 & 255);
	c[2] = (int)(p & 255);
}

static int inside(const struct frame *f, int x, int y)
{
	return x >= f->x + 2 && x < f->x + f->w - 2 && y >= f->y + 2 && y < f->y + f->h - 2;
}

static int near(const int *c, const unsigned char *want, int tol)
{
	return abs(c[0] - want[0]) <= tol && abs(c[1] - want[1]) <= tol &&
		abs(c[2] - want[2]) <= tol;
}

/* Pixels of colour want (tol) in the frame (where = 1) or outside (0). */
static long count(cairo_surface_t *s, const struct frame *f, const unsigned char *want,
	int tol, int where, long *total)
{
	int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s), c[3];
	long n = 0, all = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (inside(f, x, y) == where) {
				rgb_at(s, x, y, c);
				n += near(c, want, tol);
				all++;
			}
	if (total)
		*total = all;
	return n;
}

static void depth_map(const float *d)
{
	struct frame f;
	cairo_surface_t *s;
	unsigned char deep[3];
	long flood = 0, all = 0, wet = 0;
	int w, h, c[3];
	check(map("md.png", "--dpi=100 -q", NULL) == 0 && map("md.png", "--dpi=100", &f) == 0,
		"spate map -o md.png --dpi=100");
	s = png("md.png", &w, &h);
	check(w == 1169 && h == 827, "md.png: %d x %d pixels, A4 landscape at 100 dpi is 1169 x 827",
		w, h);
	check(f.w > 500 && f.h > 300 && f.x + f.w < w && f.y + f.h < h && fabs(f.w / f.h - 4.0 / 3)
		< 0.01, "the map frame %.0f x %.0f at (%.0f, %.0f): on the page, the grid's shape",
		f.w, f.h, f.x, f.y);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (inside(&f, x, y)) {
				rgb_at(s, x, y, c);
				/* coloured, not grey (land, labels), and blue */
				flood += c[2] > c[0] + 20 && c[2] >= c[1];
				all++;
			}
	for (int k = 0; k < NX * NY; k++)
		wet += !isnan(d[k]);
	check(wet > NX * NY / 20 && wet < NX * NY * 19 / 20, "the run floods part of the valley "
		"(%ld of %d cells)", wet, NX * NY);
	check(fabs((double)flood / all - (double)wet / (NX * NY)) < 0.04, "flood-coloured "
		"pixels: %.3f of the frame, cells with a depth: %.3f", (double)flood / all,
		(double)wet / (NX * NY));
	spate_map_ramp("max_depth", 0, 1, 1, deep);
	check(count(s, &f, deep, 12, 0, NULL) > 20, "the legend (outside the frame) has the "
		"scale's deepest colour (%ld pixels)", count(s, &f, deep, 12, 0, NULL));
	cairo_surface_destroy(s);
	check(map("a3.png", "--page=a3 --dpi=72 -q", NULL) == 0, "spate map --page=a3 --dpi=72");
	s = png("a3.png", &w, &h);
	check(w == 1191 && h == 842, "a3.png: %d x %d, A3 landscape at 72 dpi is 1191 x 842", w, h);
	cairo_surface_destroy(s);
}

static void pdf(void)
{
	char path[512], buf[1 << 16];
	size_t n;
	FILE *f;
	check(map("md.pdf", "--var max_speed -q", NULL) == 0, "spate map -o md.pdf --var max_speed");
	snprintf(path, sizeof path, "%s/md.pdf", dir);
	if (!(f = fopen(path, "rb")))
		die("no md.pdf");
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	for (size_t k = 0; k < n; k++)
		buf[k] = buf[k] ? buf[k] : ' ';
	check(n > 1000 && !strncmp(buf, "%PDF-", 5), "md.pdf starts with %%PDF- (%zu bytes)", n);
	check(strstr(buf, "/MediaBox [ 0 0 841.889764 595.275591 ]") != NULL,
		"md.pdf: one A4 landscape page (MediaBox 841.89 x 595.28 pt)");
}

/* The class variable: 0 no_hazard below 0.05 m, 1 low below 0.3, 2 medium
 * below 0.6, 3 high; -1 (fill) without a depth.  Its cells per class in n. */
static void add_classes(const float *d, long *n)
{
	static const signed char values[4] = { 0, 1, 2, 3 }, fill = -1;
	static const char meanings[] = "no_hazard low medium high";
	signed char c[NX * NY];
	char path[512];
	int id, dims[2], v;
	snprintf(path, sizeof path, "%s/out/results.nc", dir);
	for (int k = 0; k < NX * NY; k++) {
		c[k] = isnan(d[k]) ? -1 : d[k] < 0.05f ? 0 : d[k] < 0.3f ? 1 : d[k] < 0.6f ? 2 : 3;
		if (c[k] >= 0)
			n[c[k]]++;
	}
	if (nc_open(path, NC_WRITE, &id) || nc_redef(id) || nc_inq_dimid(id, "y", &dims[0]) ||
		nc_inq_dimid(id, "x", &dims[1]) || nc_def_var(id, "test_class", NC_BYTE, 2, dims, &v) ||
		nc_def_var_fill(id, v, 0, &fill) ||
		nc_put_att_schar(id, v, "flag_values", NC_BYTE, 4, values) ||
		nc_put_att_text(id, v, "flag_meanings", strlen(meanings), meanings) ||
		nc_put_att_text(id, v, "long_name", 10, "test class") || nc_enddef(id) ||
		nc_put_var_schar(id, v, c) || nc_close(id))
		die("cannot add a class variable to results.nc");
}

static void classes(const float *d)
{
	long n[4] = { 0, 0, 0, 0 }, total;
	struct frame f;
	cairo_surface_t *s;
	int w, h;
	add_classes(d, n);
	check(map("cl.png", "--var test_class --dpi=100 --extent=0", &f) == 0,
		"spate map --var test_class -o cl.png");
	s = png("cl.png", &w, &h);
	for (int k = 1; k < 4; k++) {
		unsigned char col[3];
		long in;
		spate_map_class_colour(k - 1, 3, col);
		in = count(s, &f, col, 2, 1, &total);
		check(fabs((double)in / total - (double)n[k] / (NX * NY)) < 0.03, "class %d: %.3f of "
			"the frame in its colour, %.3f of the cells", k, (double)in / total,
			(double)n[k] / (NX * NY));
		check(count(s, &f, col, 2, 0, NULL) > 100, "class %d: a legend swatch (%ld pixels)", k,
			count(s, &f, col, 2, 0, NULL));
	}
	check(n[1] > 0 && n[3] > 0, "the test classes are not empty (%ld low, %ld high)", n[1],
		n[3]);
	cairo_surface_destroy(s);
}

int main(void)
{
	float d[NX * NY];
	write_inputs("netcdf");
	{
		char cmd[1024];
		snprintf(cmd, sizeof cmd, "run '%s/run.conf' -q", dir);
		if (run_spate(cmd) != 0)
			die("spate run failed");
	}
	read_depth(d);
	depth_map(d);
	pdf();
	classes(d);
	check(map("x.png", "--dpi=5", NULL) == 1, "--dpi=5: status 1");
	check(map("x.png", "--page=b5", NULL) == 1, "--page=b5: status 1");
	check(map("x.png", "--extent=-1", NULL) == 1, "--extent=-1: status 1");
	check(map("x.jpg", "", NULL) == 1, "x.jpg: status 1");
	cleanup();
	printf("t_mapdraw: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
#elif defined(HAVE_NETCDF) && !defined(HAVE_CAIRO)
#include "demtest.h"

/* Without Cairo: a PNG or PDF map fails with a message that says Cairo is
 * needed; the GeoTIFF (with GDAL) still works. */
int main(void)
{
	char cmd[1024], path[512], log[2048] = "";
	FILE *f;
	size_t n;
	write_inputs("netcdf");
	snprintf(cmd, sizeof cmd, "run '%s/run.conf' -q", dir);
	if (run_spate(cmd) != 0)
		die("spate run failed");
	snprintf(cmd, sizeof cmd, "map '%s/out/results.nc' -o '%s/x.pdf' 2>'%s/log'", dir, dir, dir);
	check(run_spate(cmd) != 0, "without Cairo, spate map -o x.pdf fails");
	snprintf(path, sizeof path, "%s/log", dir);
	if ((f = fopen(path, "r"))) {
		n = fread(log, 1, sizeof log - 1, f);
		log[n] = 0;
		fclose(f);
	}
	check(strstr(log, "needs Cairo") != NULL, "and says it needs Cairo: %s", log);
#ifdef HAVE_GDAL
	snprintf(cmd, sizeof cmd, "map '%s/out/results.nc' -o '%s/x.tif' -q", dir, dir);
	check(run_spate(cmd) == 0, "without Cairo, spate map -o x.tif works");
#endif
	cleanup();
	printf("t_mapdraw: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
#else
int main(void)
{
	printf("SKIP: spate was built without NetCDF (or GDAL)\n");
	return 77;
}
#endif
