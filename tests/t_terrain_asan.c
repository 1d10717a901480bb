/* t_terrain_asan.c: the DEM readers on good and bad files, under
 * AddressSanitizer.
 *
 * terrain/asc.c, terrain/gdal.c and src/util.c are compiled into this
 * program with -fsanitize=address (tests/local.mk), so any out-of-bounds
 * access, use after free or leak in them aborts the test.  Each case writes
 * a file into a temporary folder and reads it with terrain_read_asc and
 * (built with GDAL) terrain_read_gdal, then checks:
 *   - good files: the return code 0, the grid (size, corner, cell size,
 *     NODATA and NaN as NAN, nan_count) and, for the GDAL reader, the same
 *     values bit for bit as the built-in reader;
 *   - bad files: the return code (-SPATE_EFORMAT, -SPATE_EIO ...), v == NULL
 *     afterwards, and a message on stderr that names the file.
 * GDAL-only cases: VRTs with rotated, south-up or missing geotransforms must
 * be refused; a north-up VRT must read like the .asc it wraps.
 *
 * Exit status 0: all passed; 1: a check failed; 77: not built with ASan. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "spate.h"
#include "terrain.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

#ifdef ASAN
#include <sanitizer/common_interface_defs.h>

/* A header that announces 3.6e9 cells must fail with ENOMEM or a clean
 * error, not an ASan abort on the allocation. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1:detect_leaks=1";
}

/* GDAL and the libraries under it keep caches that live until exit. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libgdal\nleak:libproj\nleak:libsqlite3\nleak:libcurl\nleak:libxml2\n"
		"leak:libgeos\nleak:libnetcdf\nleak:libhdf5\nleak:libgnutls\nleak:libp11-kit\n";
}
#endif

static char dir[256];
static int failures, checks;
static char err_text[4096];
static int err_fd = -1;

static void __attribute__((format(printf, 2, 3))) check(int ok, const char *fmt, ...)
{
	va_list ap;
	checks++;
	if (ok)
		return;
	failures++;
	printf("FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static const char *path_of(const char *name)
{
	static char p[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static void put_bytes(const char *name, const char *data, size_t n)
{
	FILE *f = fopen(path_of(name), "wb");
	if (!f || fwrite(data, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "test error: cannot write %s\n", path_of(name));
		exit(99);
	}
}

static void put(const char *name, const char *text)
{
	put_bytes(name, text, strlen(text));
}

/* The plane z = 0.25 i + 0.125 j on nx x ny cells of 10 m at (100, 200), as
 * ESRI ASCII text with a 6-line header; hole: text of the cells at columns
 * 3-4 of rows 2-3 from the north (NULL: none).  Returns a malloc'ed string. */
static char *plane(int nx, int ny, const char *hole)
{
	size_t cap = 256 + (size_t)nx * ny * 16, len;
	char *s = malloc(cap);
	if (!s)
		exit(99);
	len = (size_t)snprintf(s, cap, "ncols %d\nnrows %d\nxllcorner 100\nyllcorner 200\n"
		"cellsize 10\nNODATA_value -9999\n", nx, ny);
	for (int r = 0; r < ny; r++)
		for (int i = 0; i < nx; i++) {
			int j = ny - 1 - r, in_hole = hole && (r == 2 || r == 3) && (i == 3 || i == 4);
			char v[32];
			snprintf(v, sizeof v, "%g", 0.25 * i + 0.125 * j);
			len += (size_t)snprintf(s + len, cap - len, "%s%s", in_hole ? hole : v,
				i == nx - 1 ? "\n" : " ");
		}
	return s;
}

/* plane()'s text with NODATA_value nan (in place, the same length). */
static char *nan_nodata(char *t)
{
	memcpy(strstr(t, "NODATA_value -9999"), "NODATA_value   nan", 18);
	return t;
}

/* Start capturing stderr (messages) into a file; stop_capture() reads it
 * into err_text. */
static void start_capture(void)
{
	FILE *f;
	fflush(stderr);
	err_fd = dup(2);
	f = fopen(path_of("stderr.txt"), "w");
	if (err_fd < 0 || !f || dup2(fileno(f), 2) < 0) {
		fprintf(stderr, "test error: cannot redirect stderr\n");
		exit(99);
	}
	fclose(f);
}

static void stop_capture(void)
{
	FILE *f;
	size_t n = 0;
	fflush(stderr);
	dup2(err_fd, 2);
	close(err_fd);
	f = fopen(path_of("stderr.txt"), "r");
	if (f) {
		n = fread(err_text, 1, sizeof err_text - 1, f);
		fclose(f);
	}
	err_text[n] = 0;
	fputs(err_text, stderr);    /* still in the log */
}

typedef int (*reader_fn)(const char *, struct terrain_grid *);

/* Read `name` with `rd`; the return code must be one of want1, want2
 * (0 = success); a failure must leave v NULL and name the file in its
 * message.  On success the grid stays in *g for the caller (free it). */
static int read_case(const char *what, reader_fn rd, const char *path, const char *name,
	int want1, int want2, struct terrain_grid *g)
{
	int rc;
	memset(g, 0xa5, sizeof *g);     /* the reader must not depend on it */
	start_capture();
	rc = rd(path, g);
	stop_capture();
	check(rc == want1 || rc == want2, "%s %s: return %d (%s), expected %d or %d", what, name,
		rc, spate_strerror(rc), want1, want2);
	if (rc) {
		check(g->v == NULL, "%s %s: failed but left v set", what, name);
		check(strstr(err_text, name) != NULL, "%s %s: message does not name the file: %s",
			what, name, err_text);
		check(strlen(err_text) > strlen(path) + 12, "%s %s: message says nothing: %s",
			what, name, err_text);
		g->v = NULL;
	}
	return rc;
}

static int bits_equal(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

/* A good grid read from `name`: the plane of plane() with NAN where NODATA
 * or NaN was, nan_count as given; x0 given (corner or centre origin). */
static void check_plane(const char *what, const char *name, const struct terrain_grid *g,
	int nx, int ny, double x0, int nan_count, const char *hole)
{
	int bad = 0;
	check(g->nx == nx && g->ny == ny, "%s %s: %d x %d, expected %d x %d", what, name, g->nx,
		g->ny, nx, ny);
	check(g->x0 == x0 && g->y0 == 200 && g->dx == 10 && g->dy == 10, "%s %s: corner (%g, %g) "
		"cell %g x %g, expected (%g, 200), 10 x 10", what, name, g->x0, g->y0, g->dx, g->dy,
		x0);
	check(g->nan_count == nan_count, "%s %s: nan_count %d, expected %d", what, name,
		g->nan_count, nan_count);
	if (g->nx != nx || g->ny != ny)
		return;
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			int r = ny - 1 - j, in_hole = hole && (r == 2 || r == 3) && (i == 3 || i == 4);
			double v = g->v[(size_t)j * nx + i], want = in_hole ? NAN : 0.25 * i + 0.125 * j;
			if (!bits_equal(v, want) && bad++ < 3)
				check(0, "%s %s: cell (%d, %d) = %g, expected %g", what, name, i, j, v, want);
		}
}

/* Both readers on a good file: the built-in one must give the plane; GDAL
 * (when built) the same grid bit for bit. */
static void good(const char *name, int nx, int ny, double x0, int nan_count, const char *hole)
{
	struct terrain_grid a, b;
	const char *path = path_of(name);
	if (read_case("asc", terrain_read_asc, path, name, 0, 0, &a) == 0)
		check_plane("asc", name, &a, nx, ny, x0, nan_count, hole);
#ifdef HAVE_GDAL
	{
		char vsi[600];
		size_t n = strlen(path);
		if (n > 3 && strcmp(path + n - 3, ".gz") == 0) {
			snprintf(vsi, sizeof vsi, "/vsigzip/%s", path);
			path = vsi;
		}
		if (read_case("gdal", terrain_read_gdal, path, name, 0, 0, &b) == 0) {
			check_plane("gdal", name, &b, nx, ny, x0, nan_count, hole);
			terrain_free(&b);
		}
	}
#else
	(void)b;
#endif
	terrain_free(&a);
}

/* Both readers on a bad file: the built-in one must return want (or want2),
 * GDAL (when built) any error. */
static void bad(const char *name, int want, int want2)
{
	struct terrain_grid g;
	const char *path = path_of(name);
	if (read_case("asc", terrain_read_asc, path, name, want, want2, &g) == 0)
		terrain_free(&g);
#ifdef HAVE_GDAL
	{
		int rc;
		char vsi[600];
		size_t n = strlen(path);
		if (n > 3 && strcmp(path + n - 3, ".gz") == 0) {
			snprintf(vsi, sizeof vsi, "/vsigzip/%s", path);
			path = vsi;
		}
		memset(&g, 0, sizeof g);
		start_capture();
		rc = terrain_read_gdal(path, &g);
		stop_capture();
		check(rc < 0, "gdal %s: return %d, expected an error", name, rc);
		if (rc < 0) {
			check(g.v == NULL, "gdal %s: failed but left v set", name);
			check(strstr(err_text, name) != NULL, "gdal %s: message does not name the "
				"file: %s", name, err_text);
		}
		terrain_free(&g);
	}
#endif
}

/* A text file: the plane's text with line `line` (1-based) replaced by
 * `with` (NULL: deleted). */
static void edited(const char *name, const char *text, int line, const char *with)
{
	size_t n = strlen(text) + (with ? strlen(with) : 0) + 2, k = 0;
	char *out = malloc(n);
	int l = 1;
	const char *s = text;
	if (!out)
		exit(99);
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s + 1) : strlen(s);
		if (l == line) {
			if (with)
				k += (size_t)sprintf(out + k, "%s\n", with);
		} else {
			memcpy(out + k, s, len);
			k += len;
		}
		s += len;
		l++;
	}
	put_bytes(name, out, k);
	free(out);
}

static void good_files(void)
{
	char *p = plane(8, 6, NULL), *t;
	size_t n;

	put("plane.asc", p);
	good("plane.asc", 8, 6, 100, 0, NULL);
	t = plane(8, 6, "-9999");
	put("holes.asc", t);
	good("holes.asc", 8, 6, 100, 0, "");
	free(t);
	/* NaN is NODATA where NODATA_value is nan, else refused (asc_nonfinite) */
	t = nan_nodata(plane(8, 6, "nan"));
	put("nan.asc", t);
	{
		struct terrain_grid g;
		if (read_case("asc", terrain_read_asc, path_of("nan.asc"), "nan.asc", 0, 0, &g) == 0)
			check_plane("asc", "nan.asc", &g, 8, 6, 100, 4, "");
		terrain_free(&g);
	}
	free(t);
	/* NaN as the very first value: starts with a letter like a keyword */
	t = nan_nodata(plane(4, 4, NULL));
	edited("nanfirst.asc", t, 7, "nan 0.25 0.5 0.75");
	free(t);
	{
		struct terrain_grid g;
		if (read_case("asc", terrain_read_asc, path_of("nanfirst.asc"), "nanfirst.asc", 0, 0,
			&g) == 0) {
			check(g.nan_count == 1 && isnan(g.v[12]) && g.v[13] == 0.25, "asc nanfirst.asc: "
				"nan_count %d, v[12] %g, v[13] %g", g.nan_count, g.v[12], g.v[13]);
			terrain_free(&g);
		}
	}
	/* centre origin, CRLF line ends, tabs, no final newline */
	edited("centre.asc", p, 3, "xllcenter 105");
	good("centre.asc", 8, 6, 100, 0, NULL);
	n = strlen(p);
	t = malloc(2 * n + 1);
	{
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			if (p[i] == '\n')
				t[k++] = '\r';
			t[k++] = p[i] == ' ' && i % 3 == 0 ? '\t' : p[i];
		}
		put_bytes("crlf.asc", t, k - 2);
	}
	free(t);
	good("crlf.asc", 8, 6, 100, 0, NULL);
#ifdef HAVE_ZLIB
	{
		gzFile z = gzopen(path_of("plane.asc.gz"), "wb");
		if (!z || gzwrite(z, p, (unsigned)n) != (int)n || gzclose(z) != Z_OK)
			exit(99);
		good("plane.asc.gz", 8, 6, 100, 0, NULL);
	}
#endif
	free(p);
}

static void bad_files(void)
{
	char *p = plane(8, 6, NULL), *t, *junk;
	const int F = -SPATE_EFORMAT;

	edited("truncated.asc", p, 12, NULL);
	bad("truncated.asc", F, F);
	t = plane(8, 6, "inf");
	put("inf.asc", t);
	bad("inf.asc", F, F);
	free(t);
	t = plane(8, 6, "-inf");
	put("minf.asc", t);
	bad("minf.asc", F, F);
	free(t);
	t = plane(8, 6, "nan");     /* NaN without NODATA_value nan (GDAL: NODATA) */
	put("nanvalue.asc", t);
	if (read_case("asc", terrain_read_asc, path_of("nanvalue.asc"), "nanvalue.asc", F, F,
		&(struct terrain_grid){ 0 }) == 0)
		check(0, "asc nanvalue.asc: read");
	check(strstr(err_text, "row 3, column 4") != NULL, "asc nanvalue.asc: no row and "
		"column: %s", err_text);
	free(t);
	put_bytes("cut.asc", p, 150);
	bad("cut.asc", F, F);
	edited("ncols0.asc", p, 1, "ncols 0");
	bad("ncols0.asc", F, F);
	edited("nrows0.asc", p, 2, "nrows 0");
	bad("nrows0.asc", F, F);
	edited("negative.asc", p, 1, "ncols -8");
	bad("negative.asc", F, F);
	edited("fraction.asc", p, 1, "ncols 7.5");
	bad("fraction.asc", F, F);
	edited("more.asc", p, 2, "nrows 5");
	bad("more.asc", F, F);
	edited("fewer.asc", p, 2, "nrows 7");
	bad("fewer.asc", F, F);
	edited("ovf.asc", p, 1, "ncols 3000000000");
	edited("ovf2.asc", p, 2, "nrows 3000000000");
	{
		/* 1e10 cells: refused before any allocation; 3e9 x 1: more than an int */
		char *h = malloc(strlen(p) + 32);
		sprintf(h, "ncols 100000\nnrows 100000\n%s", strchr(strchr(p, '\n') + 1, '\n') + 1);
		put("huge.asc", h);
		free(h);
	}
	bad("huge.asc", F, F);
	bad("ovf.asc", F, F);
	bad("ovf2.asc", F, F);
	/* 3.6e9 cells announced, 48 given: out of memory or a truncated file */
	{
		char *h = malloc(strlen(p) + 32);
		sprintf(h, "ncols 60000\nnrows 60000\n%s", strchr(strchr(p, '\n') + 1, '\n') + 1);
		put("big.asc", h);
		free(h);
		bad("big.asc", F, -SPATE_ENOMEM);
	}
	edited("alpha.asc", p, 8, "0 abc 0.5 0.75 1 1.25 1.5 1.75");
	bad("alpha.asc", F, F);
	edited("dots.asc", p, 8, "0 1.2.3 0.5 0.75 1 1.25 1.5 1.75");
	bad("dots.asc", F, F);
	edited("suffix.asc", p, 8, "0 12abc 0.5 0.75 1 1.25 1.5 1.75");
	bad("suffix.asc", F, F);
	edited("cell0.asc", p, 5, "cellsize 0");
	bad("cell0.asc", F, F);
	edited("cellneg.asc", p, 5, "cellsize -10");
	bad("cellneg.asc", F, F);
	edited("cellnan.asc", p, 5, "cellsize nan");
	bad("cellnan.asc", F, F);
	edited("nocell.asc", p, 5, NULL);
	bad("nocell.asc", F, F);
	edited("noxll.asc", p, 3, NULL);
	bad("noxll.asc", F, F);
	edited("keyword.asc", p, 6, "frobnicate 3");
	bad("keyword.asc", F, F);
	put("headeronly.asc", "ncols 8\nnrows 6\nxllcorner 100\nyllcorner 200\ncellsize 10\n");
	bad("headeronly.asc", F, F);
	put("novalue.asc", "ncols");
	bad("novalue.asc", F, F);
	put("empty.asc", "");
	bad("empty.asc", F, F);
	junk = malloc(200001);
	memset(junk, 0xff, 2000);
	put_bytes("binary.asc", junk, 2000);
	bad("binary.asc", F, F);
	memset(junk, 0, 2000);
	put_bytes("zeros.asc", junk, 2000);
	bad("zeros.asc", F, F);
	/* one 200 000-character token, in the header and among the values */
	memset(junk, 'x', 200000);
	junk[200000] = 0;
	put("longkey.asc", junk);
	bad("longkey.asc", F, F);
	t = malloc(strlen(p) + 200002);
	sprintf(t, "%.*s0 %s\n", (int)(strchr(strchr(p, 'N'), '\n') + 1 - p), p, junk);
	put("longvalue.asc", t);
	bad("longvalue.asc", F, F);
	/* a 200 000-digit number: too long to be read whole, so not a number */
	junk[0] = '1';
	memset(junk + 1, '0', 199999);
	sprintf(t, "ncols 4\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3 %s\n", junk);
	put("longnumber.asc", t);
	bad("longnumber.asc", F, F);
	free(t);
	free(junk);
	bad("no-such-file.asc", -SPATE_EIO, -SPATE_EIO);
#ifdef HAVE_ZLIB
	{
		gzFile z = gzopen(path_of("full.asc.gz"), "wb");
		size_t n = strlen(p);
		FILE *f;
		char buf[4096];
		size_t len;
		if (!z || gzwrite(z, p, (unsigned)n) != (int)n || gzclose(z) != Z_OK)
			exit(99);
		f = fopen(path_of("full.asc.gz"), "rb");
		len = fread(buf, 1, sizeof buf, f);
		fclose(f);
		put_bytes("cut.asc.gz", buf, len / 2);
		bad("cut.asc.gz", F, F);
		for (size_t i = 12; i < len - 8; i++)   /* deflate data destroyed */
			buf[i] = (char)(buf[i] ^ 0x5a);
		put_bytes("corrupt.asc.gz", buf, len);
		bad("corrupt.asc.gz", F, -SPATE_EIO);
	}
#endif
	free(p);
}

#ifdef HAVE_GDAL
/* A VRT over plane.asc with geotransform gt ("" = none). */
static void vrt(const char *name, const char *gt, int nx, int ny, const char *source)
{
	char text[1024];
	snprintf(text, sizeof text, "<VRTDataset rasterXSize=\"%d\" rasterYSize=\"%d\">\n"
		"%s%s%s"
		"  <VRTRasterBand dataType=\"Float64\" band=\"1\"><SimpleSource>\n"
		"    <SourceFilename relativeToVRT=\"1\">%s</SourceFilename>\n"
		"    <SourceBand>1</SourceBand></SimpleSource></VRTRasterBand>\n"
		"</VRTDataset>\n", nx, ny, *gt ? "  <GeoTransform>" : "", gt,
		*gt ? "</GeoTransform>\n" : "", source);
	put(name, text);
}

static void gdal_files(void)
{
	struct terrain_grid g;
	vrt("northup.vrt", "100, 10, 0, 260, 0, -10", 8, 6, "plane.asc");
	if (read_case("gdal", terrain_read_gdal, path_of("northup.vrt"), "northup.vrt", 0, 0,
		&g) == 0) {
		check_plane("gdal", "northup.vrt", &g, 8, 6, 100, 0, NULL);
		terrain_free(&g);
	}
	vrt("rotated.vrt", "100, 10, 0.5, 260, 0.5, -10", 8, 6, "plane.asc");
	vrt("southup.vrt", "100, 10, 0, 200, 0, 10", 8, 6, "plane.asc");
	vrt("nogeo.vrt", "", 8, 6, "plane.asc");
	vrt("zerocell.vrt", "100, 0, 0, 260, 0, -10", 8, 6, "plane.asc");
	vrt("nosource.vrt", "100, 10, 0, 260, 0, -10", 8, 6, "no-such-source.asc");
	vrt("badsource.vrt", "100, 10, 0, 260, 0, -10", 8, 6, "truncated.asc");
	vrt("empty.vrt", "100, 10, 0, 260, 0, -10", 0, 6, "plane.asc");
	vrt("huge.vrt", "100, 10, 0, 260, 0, -10", 100000, 100000, "plane.asc");
	{
		/* each with a word its message must hold */
		static const char *const cases[][2] = { { "rotated.vrt", "rotated" },
			{ "southup.vrt", "flipped" }, { "nogeo.vrt", "no geotransform" },
			{ "zerocell.vrt", "north-up" }, { "nosource.vrt", "" },
			{ "badsource.vrt", "" }, { "empty.vrt", "" }, { "huge.vrt", "" } };
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			int rc = read_case("gdal", terrain_read_gdal, path_of(cases[i][0]), cases[i][0],
				-SPATE_EFORMAT, -SPATE_EIO, &g);
			if (rc == 0)
				terrain_free(&g);
			else
				check(strstr(err_text, cases[i][1]) != NULL, "gdal %s: message lacks "
					"'%s': %s", cases[i][0], cases[i][1], err_text);
		}
	}
}
#endif

static void cleanup(void)
{
	char cmd[300];
	if (!dir[0] || getenv("T_TERRAIN_KEEP"))
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "t_terrain_asan: could not remove %s\n", dir);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
#ifndef ASAN
	printf("t_terrain_asan: not built with -fsanitize=address: skipped\n");
	return 77;
#endif
	snprintf(dir, sizeof dir, "%s/spate-t_terrain.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "test error: mkdtemp %s: %s\n", dir, strerror(errno));
		return 99;
	}
	atexit(cleanup);
	setvbuf(stdout, NULL, _IOLBF, 0);
#ifdef ASAN
	/* reports go to the real stderr even while a case captures it */
	__sanitizer_set_report_fd((void *)(long)dup(2));
#endif
	good_files();
	bad_files();
#ifdef HAVE_GDAL
	gdal_files();
#endif
	printf("t_terrain_asan: %d checks, %d failed (zlib: %s, GDAL: %s)\n", checks, failures,
#ifdef HAVE_ZLIB
		"yes",
#else
		"no",
#endif
#ifdef HAVE_GDAL
		"yes"
#else
		"no"
#endif
	);
	return failures ? 1 : 0;
}
