/* summary.c: the JSON run summary (summary.h). */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spate.h"
#include "summary.h"
#include "balance.h"

/* JSON string with the characters that need escaping escaped. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The key of the next line, after the separator of the last one. */
static void key(struct spate_summary *s, const char *k)
{
	fprintf(s->f, "%s  \"%s\": ", s->keys++ ? ",\n" : "{\n", k);
}

void spate_summary_str(struct spate_summary *s, const char *k, const char *value)
{
	key(s, k);
	json_str(s->f, value);
}

void spate_summary_int(struct spate_summary *s, const char *k, long value)
{
	key(s, k);
	fprintf(s->f, "%ld", value);
}

void spate_summary_num(struct spate_summary *s, const char *k, double value)
{
	spate_summary_fmt(s, k, "%.17g", value);
}

/* value in fmt; JSON has no infinity or NaN: null for them. */
static void number(FILE *f, const char *fmt, double value)
{
	if (isfinite(value))
		fprintf(f, fmt, value);
	else
		fputs("null", f);
}

void spate_summary_fmt(struct spate_summary *s, const char *k, const char *fmt, double value)
{
	key(s, k);
	number(s->f, fmt, value);
}

void spate_summary_nums(struct spate_summary *s, const char *k, const double *v, int n,
	const char *fmt)
{
	key(s, k);
	fputc('[', s->f);
	for (int i = 0; i < n; i++) {
		if (i)
			fputs(", ", s->f);
		number(s->f, fmt, v[i]);
	}
	fputc(']', s->f);
}

/* The folder of path (its part before the last slash; "." without one). */
static void summary_dir(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');
	snprintf(dir, n, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (!dir[0])
		snprintf(dir, n, "/");
}

/* A summary's folder may be one the run will make (the output folder, say):
 * its nearest folder that exists must be a folder and writable. */
int spate_summary_check(const char *path)
{
	char dir[4096];
	struct stat st;
	int e;
	if (!strcmp(path, "-"))
		return 0;
	if (!stat(path, &st)) {
		e = S_ISDIR(st.st_mode) ? EISDIR : access(path, W_OK) ? errno : 0;
		if (e)
			spate_log_error("summary", "--summary %s: cannot write it: %s", path, strerror(e));
		return e ? -SPATE_EINVAL : 0;
	}
	e = errno;
	summary_dir(path, dir, sizeof dir);
	while (e == ENOENT || e == ENOTDIR) {
		if (!stat(dir, &st)) {
			e = !S_ISDIR(st.st_mode) ? ENOTDIR : access(dir, W_OK | X_OK) ? errno : 0;
			break;
		}
		if ((errno != ENOENT && errno != ENOTDIR) || !strcmp(dir, ".") || !strcmp(dir, "/")) {
			e = errno;
			break;
		}
		char *slash = strrchr(dir, '/');   /* one folder up, in place */
		if (!slash)
			snprintf(dir, sizeof dir, ".");
		else
			slash[slash == dir] = 0;
	}
	if (e)
		spate_log_error("summary", "--summary %s: cannot create it in %s: %s (give a file in "
			"a folder that can be written)", path, dir, strerror(e));
	return e ? -SPATE_EINVAL : 0;
}

int spate_summary_open(struct spate_summary *s, const char *path, const char *module,
	const char *setup, const char *backend, const char *device, const char *precision)
{
	s->keys = 0;
	if (strcmp(path, "-") && spate_mkdir_for(path))
		return -SPATE_EIO;
	s->f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!s->f) {
		spate_log_error("summary", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	spate_summary_str(s, "program", "spate " PACKAGE_VERSION);
	spate_summary_str(s, "module", module);
	spate_summary_str(s, "setup", setup);
	spate_summary_str(s, "backend", backend);
	key(s, "devices");
	fputc('[', s->f);
	json_str(s->f, device);
	fputc(']', s->f);
	spate_summary_str(s, "precision", precision);
	return 0;
}

int spate_summary_close(struct spate_summary *s, const char *path)
{
	balance_json(s->f);    /* the phase table of a decomposed run */
	fprintf(s->f, "\n}\n");
	if (s->f != stdout && fclose(s->f)) {
		spate_log_error("summary", "error writing %s", path);
		return -SPATE_EIO;
	}
	return 0;
}
