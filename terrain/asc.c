/* asc.c: the built-in ESRI ASCII grid reader (plain or gzip-compressed), so
 * that spate reads terrain where GDAL is absent. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "spate.h"
#include "terrain.h"

/* A token reader over a (possibly compressed) file that counts lines. */
struct reader {
#ifdef HAVE_ZLIB
	gzFile gz;
#else
	FILE *f;
#endif
	const char *path;
	char buf[1 << 16];
	int len, pos, eof, err;
	long line;
};

static int fill(struct reader *r)
{
	int n;
	if (r->eof)
		return 0;
#ifdef HAVE_ZLIB
	n = gzread(r->gz, r->buf, sizeof r->buf);
#else
	n = (int)fread(r->buf, 1, sizeof r->buf, r->f);
#endif
	if (n <= 0) {
		r->eof = 1;
		if (n < 0)
			r->err = 1;
#ifdef HAVE_ZLIB
		else {
			int e;
			gzerror(r->gz, &e);     /* a cut stream ends with Z_BUF_ERROR, n = 0 */
			r->err = e != Z_OK;
		}
#endif
		return 0;
	}
	r->len = n;
	r->pos = 0;
	return 1;
}

static int peekc(struct reader *r)
{
	if (r->pos >= r->len && !fill(r))
		return EOF;
	return (unsigned char)r->buf[r->pos];
}

/* Next whitespace-separated token into tok (at most n-1 chars; a longer one
 * ends in "..."); 0 at end. */
static int token(struct reader *r, char *tok, size_t n)
{
	size_t k = 0;
	int c;
	while ((c = peekc(r)) != EOF && isspace(c)) {
		if (c == '\n')
			r->line++;
		r->pos++;
	}
	if (c == EOF)
		return 0;
	while ((c = peekc(r)) != EOF && !isspace(c)) {
		if (k + 1 < n)
			tok[k++] = (char)c;
		else if (n > 4)     /* too long: "...", never read as a number */
			memcpy(tok + n - 4, "...", 3);
		r->pos++;
	}
	tok[k] = 0;
	return 1;
}

static int open_reader(struct reader *r, const char *path)
{
	memset(r, 0, sizeof *r);
	r->path = path;
	r->line = 1;
#ifdef HAVE_ZLIB
	r->gz = gzopen(path, "rb");
	if (!r->gz) {
#else
	r->f = fopen(path, "rb");
	if (!r->f) {
#endif
		spate_log_error("terrain", "%s: cannot open: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
#ifndef HAVE_ZLIB
	{
		unsigned char magic[2];
		if (fread(magic, 1, 2, r->f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
			spate_log_error("terrain", "%s: gzip-compressed, but this spate was built "
				"without zlib: gunzip it first", path);
			fclose(r->f);
			return -SPATE_EUNSUPPORTED;
		}
		rewind(r->f);
	}
#endif
	return 0;
}

static void close_reader(struct reader *r)
{
#ifdef HAVE_ZLIB
	gzclose(r->gz);
#else
	fclose(r->f);
#endif
}

static int parse_num(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end || errno == ERANGE;
}

/* The CRS of an ESRI ASCII grid: the .prj file beside it (x.asc, x.asc.gz,
 * x: x.prj), if there is one, into g->crs_wkt; a .prj too long is ignored. */
static void read_prj(const char *path, struct terrain_grid *g)
{
	char prj[4096];
	size_t n = strlen(path), len;
	size_t k;
	FILE *f;
	if (n > 3 && strcmp(path + n - 3, ".gz") == 0)
		n -= 3;
	for (k = n; k > 0 && path[k - 1] != '/' && path[k - 1] != '.'; k--)
		;
	if (k > 1 && path[k - 1] == '.' && path[k - 2] != '/')
		n = k - 1;  /* drop the extension, not a leading dot of a name */
	if (n + 5 > sizeof prj)
		return;
	memcpy(prj, path, n);
	memcpy(prj + n, ".prj", 5);
	f = fopen(prj, "r");
	if (!f)
		return;
	len = fread(g->crs_wkt, 1, sizeof g->crs_wkt, f);
	if (len == sizeof g->crs_wkt || ferror(f)) {
		spate_log_info("spate: %s: unreadable or longer than %zu bytes: no CRS\n", prj,
			sizeof g->crs_wkt - 1);
		len = 0;
	}
	fclose(f);
	while (len > 0 && isspace((unsigned char)g->crs_wkt[len - 1]))
		len--;
	g->crs_wkt[len] = 0;
}

/* ---- the units of a CRS in WKT, read without GDAL (terrain_wkt_units) */

static void wkt_space(const char **s)
{
	while (isspace((unsigned char)**s))
		(*s)++;
}

/* The keyword at *s (letters, digits, '_'), in capitals into k; *s past it. */
static void wkt_word(const char **s, char *k, size_t n)
{
	size_t i = 0;
	while (isalnum((unsigned char)**s) || **s == '_') {
		if (i + 1 < n)
			k[i++] = (char)toupper((unsigned char)**s);
		(*s)++;
	}
	k[i] = 0;
}

/* The quoted text at *s ("..." with "" for a quote) into t (cut to n - 1
 * bytes); *s past it.  0, or -1 when it is not one. */
static int wkt_quoted(const char **s, char *t, size_t n)
{
	size_t i = 0;
	if (**s != '"')
		return -1;
	for ((*s)++; **s; (*s)++) {
		if (**s == '"' && (*s)[1] != '"') {
			(*s)++;
			t[i] = 0;
			return 0;
		}
		if (**s == '"')
			(*s)++;
		if (i + 1 < n)
			t[i++] = **s;
	}
	return -1;
}

/* UNIT["name", factor, ...] from its bracket at s: the name and factor. */
static int wkt_unit(const char *s, char *unit, size_t ulen, double *factor)
{
	char *end;
	s++;
	wkt_space(&s);
	if (wkt_quoted(&s, unit, ulen))
		return -1;
	wkt_space(&s);
	if (*s++ != ',')
		return -1;
	*factor = strtod(s, &end);
	return end == s || !(*factor > 0) || !isfinite(*factor) ? -1 : 0;
}

int terrain_wkt_units(const char *wkt, int *geographic, double *metres, char *unit, size_t ulen,
	char *name, size_t nlen)
{
	char k[32], u1[64] = "", u2[64] = "", skip[2];
	double f1 = 0, f2 = 0;
	const char *s = wkt, *q;
	int depth = 0;
	*geographic = 0;
	*metres = 1;
	unit[0] = name[0] = 0;
	wkt_space(&s);
	wkt_word(&s, k, sizeof k);
	wkt_space(&s);
	if (*s != '[' && *s != '(')
		return -1;
	if (!strcmp(k, "GEOGCS") || !strcmp(k, "GEOGCRS") || !strcmp(k, "GEOGRAPHICCRS"))
		*geographic = 1;
	else if (strcmp(k, "PROJCS") && strcmp(k, "PROJCRS") && strcmp(k, "PROJECTEDCRS"))
		return -1; /* compound, geocentric, vertical, engineering ...: not said */
	q = s + 1;
	wkt_space(&q);
	if (wkt_quoted(&q, name, nlen))
		name[0] = 0;
	/* the linear unit: the last UNIT or LENGTHUNIT of the CRS itself (depth
	 * 1), else the first LENGTHUNIT of an axis (depth 2); the base CRS's
	 * angular unit and the ellipsoid's length lie deeper or are not
	 * LENGTHUNITs */
	while (*s) {
		if (*s == '"') {
			if (wkt_quoted(&s, skip, sizeof skip))
				return -1;
		} else if (*s == '[' || *s == '(') {
			depth++;
			s++;
		} else if (*s == ']' || *s == ')') {
			s++;
			if (--depth == 0)
				break;
		} else if (isalpha((unsigned char)*s)) {
			wkt_word(&s, k, sizeof k);
			wkt_space(&s);
			if (*s != '[' && *s != '(')
				continue;
			if (depth == 1 && (!strcmp(k, "UNIT") || !strcmp(k, "LENGTHUNIT")) &&
				wkt_unit(s, u1, sizeof u1, &f1))
				return -1;
			if (depth == 2 && !u2[0] && !strcmp(k, "LENGTHUNIT") &&
				wkt_unit(s, u2, sizeof u2, &f2))
				return -1;
		} else {
			s++;
		}
	}
	if (depth != 0)
		return -1; /* brackets not closed */
	if (!*geographic && (u1[0] || u2[0])) {
		snprintf(unit, ulen, "%s", u1[0] ? u1 : u2);
		*metres = u1[0] ? f1 : f2;
	}
	return 0;
}

#define FAIL(...) do { \
		fprintf(stderr, "spate: terrain: %s:%ld: %s", path, r.line, r.err ? \
			"read error (corrupt or truncated compressed data?), then: " : ""); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		rc = -SPATE_EFORMAT; \
		goto out; \
	} while (0)

int terrain_read_asc(const char *path, struct terrain_grid *g)
{
	static struct reader r;   /* 64 KiB buffer: not on the stack */
	char tok[256], key[64];
	double ncols = -1, nrows = -1, xll = NAN, yll = NAN, cs = NAN, dx = NAN, dy = NAN, v;
	static const char *const known[] = { "ncols", "nrows", "xllcorner", "yllcorner", "xllcenter",
		"yllcenter", "cellsize", "dx", "dy", "nodata_value" };
	enum { XC = 1 << 2, YC = 1 << 3, XM = 1 << 4, YM = 1 << 5, CS = 1 << 6, DX = 1 << 7,
		DY = 1 << 8 };  /* bits of seen: known[2] ... known[8] */
	int centre = 0, first = 0, rc, seen = 0;
	long n, k, cap;

	memset(g, 0, sizeof *g);
	if ((rc = open_reader(&r, path)))
		return rc;
	/* header: keyword value pairs until the first number */
	for (;;) {
		int c = peekc(&r);
		while (c != EOF && isspace(c)) {
			if (c == '\n')
				r.line++;
			r.pos++;
			c = peekc(&r);
		}
		if (c == EOF)
			FAIL("no data after the header");
		if (!isalpha(c))
			break;
		if (!token(&r, key, sizeof key))
			FAIL("header keyword without a value");
		if (!parse_num(key, &v)) {
			/* "nan" or "inf": the first value, not a keyword */
			snprintf(tok, sizeof tok, "%s", key);
			first = 1;
			break;
		}
		if (!token(&r, tok, sizeof tok))
			FAIL("header keyword without a value");
		if (parse_num(tok, &v) || (!isfinite(v) && !(isnan(v) &&
			!strcasecmp(key, "nodata_value"))))
			FAIL("%s = '%s': not a number", key, tok);
		for (int q = 0; q < (int)(sizeof known / sizeof *known); q++)
			if (!strcasecmp(key, known[q])) {
				if (seen & 1 << q)
					FAIL("header keyword '%s' given twice: which one holds?", key);
				seen |= 1 << q;
			}
		if (!strcasecmp(key, "ncols")) ncols = v;
		else if (!strcasecmp(key, "nrows")) nrows = v;
		else if (!strcasecmp(key, "xllcorner")) xll = v;
		else if (!strcasecmp(key, "yllcorner")) yll = v;
		else if (!strcasecmp(key, "xllcenter")) { xll = v; centre |= 1; }
		else if (!strcasecmp(key, "yllcenter")) { yll = v; centre |= 2; }
		else if (!strcasecmp(key, "cellsize")) cs = v;
		else if (!strcasecmp(key, "dx")) dx = v;
		else if (!strcasecmp(key, "dy")) dy = v;
		else if (!strcasecmp(key, "nodata_value")) { g->nodata = v; g->has_nodata = 1; }
		else
			FAIL("unknown header keyword '%s' (an ESRI ASCII grid has ncols, nrows, "
				"xllcorner, yllcorner, cellsize, NODATA_value)", key);
	}
	if ((seen & XC && seen & XM) || (seen & YC && seen & YM))
		FAIL("both a corner (xllcorner, yllcorner) and a centre (xllcenter, yllcenter) "
			"for one axis: give one");
	if (seen & CS && seen & (DX | DY))
		FAIL("both cellsize and dx or dy: give cellsize, or dx and dy");
	if (ncols != floor(ncols) || nrows != floor(nrows) || ncols < 1 || nrows < 1 ||
		ncols > INT_MAX || nrows > INT_MAX)
		FAIL("ncols = %g, nrows = %g: both must be whole numbers in [1, %d]", ncols, nrows,
			INT_MAX);
	if (ncols * nrows > (double)TERRAIN_MAX_CELLS)
		FAIL("ncols x nrows = %.3g cells: more than spate accepts", ncols * nrows);
	if (isnan(xll) || isnan(yll))
		FAIL("the header needs xllcorner (or xllcenter) and yllcorner (or yllcenter)");
	if (!isnan(cs))
		dx = dy = cs;
	if (isnan(dx) || isnan(dy) || !(dx > 0) || !(dy > 0))
		FAIL("cellsize (or dx and dy) must be given and > 0");
	g->nx = (int)ncols;
	g->ny = (int)nrows;
	g->dx = dx;
	g->dy = dy;
	g->x0 = (centre & 1) ? xll - 0.5 * dx : xll;
	g->y0 = (centre & 2) ? yll - 0.5 * dy : yll;
	n = (long)g->nx * g->ny;
	/* the values read so far, in file order, in an array that grows with
	 * them: a header that announces more than the file holds costs no more
	 * memory than the file (rows flipped north to south at the end) */
	cap = n < 1L << 16 ? n : 1L << 16;
	g->v = malloc((size_t)cap * sizeof *g->v);
	if (!g->v) {
		spate_log_error("terrain", "%s: %d x %d grid: out of memory", path, g->nx, g->ny);
		rc = -SPATE_ENOMEM;
		goto out;
	}
	/* values, north row first */
	for (k = 0; k < n; k++) {
		long i = k % g->nx;
		if (k == cap) {
			long grown = cap > n / 2 ? n : 2 * cap;
			double *nv = realloc(g->v, (size_t)grown * sizeof *g->v);
			if (!nv) {
				spate_log_error("terrain", "%s: %d x %d grid: out of memory", path, g->nx,
					g->ny);
				rc = -SPATE_ENOMEM;
				goto out;
			}
			g->v = nv;
			cap = grown;
		}
		if (first)
			first = 0;
		else if (!token(&r, tok, sizeof tok))
			FAIL("file ends after %ld of the %ld values the header announces "
				"(%d x %d): truncated file, or a header that lies", k, n, g->nx, g->ny);
		if (parse_num(tok, &v))
			FAIL("value %ld (row %ld, column %ld): '%s' is not a number", k + 1,
				k / g->nx + 1, i + 1, tok);
		/* NODATA: the declared value; NaN only where NODATA_value is nan */
		if (isnan(v) && g->has_nodata && isnan(g->nodata))
			g->nan_count++;
		else if (!isfinite(v))
			FAIL("row %ld, column %ld: '%s': not a finite value; mark missing cells with "
				"the NODATA_value (NaN cells: declare NODATA_value nan)", k / g->nx + 1, i + 1,
				tok);
		if (g->has_nodata && v == g->nodata)
			v = NAN;
		g->v[k] = v;
	}
	if (token(&r, tok, sizeof tok))
		FAIL("more values than the header's %d x %d: a header that lies about the size",
			g->nx, g->ny);
	/* file order (north row first) to v[j * nx + i] (south row first) */
	for (long a = 0, b = g->ny - 1; a < b; a++, b--)
		for (long i = 0; i < g->nx; i++) {
			double t = g->v[a * g->nx + i];
			g->v[a * g->nx + i] = g->v[b * g->nx + i];
			g->v[b * g->nx + i] = t;
		}
	if (r.err)
		FAIL("after the last value");
	read_prj(path, g);
	rc = 0;
out:
	close_reader(&r);
	if (rc)
		terrain_free(g);
	return rc;
}
#undef FAIL
