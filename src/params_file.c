/* params_file.c: INI scenario files (libinih) read into the parameters, key
 * by key through swe_params_set, with file:line in every message. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "spate.h"
#include "swe.h"
#include "params.h"

/* libinih reads through this so the handler knows the line number.  The
 * first bad key is only recorded (err, err_line, its text): libinih reports
 * a syntax error only when it returns, so the message waits until then and
 * goes out only if that key comes before the first syntax error. */
struct reader {
	FILE *f;
	const char *path;
	int line;
	int err, err_line;
	char sec[64], name[128], value[1024];
	struct swe_params *p;
	unsigned seen;      /* bit per known section */
};

static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	char *s = fgets(str, num, r->f);
	if (s)
		r->line++;
	return s;
}

static const char *const sections[] = { "domain", "initial", "physics", "boundary", "run", "output",
	"gauges", "parallel" };

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	if (r->err)
		return 1;
	for (unsigned i = 0; i < sizeof sections / sizeof sections[0]; i++)
		if (strcmp(section, sections[i]) == 0)
			r->seen |= 1u << i;
	swe_params_set_quiet(1);
	r->err = *section ? swe_params_set(r->p, section, name, value, r->path, r->line) :
		-SPATE_EINVAL;
	swe_params_set_quiet(0);
	if (r->err) {
		r->err_line = r->line;
		snprintf(r->sec, sizeof r->sec, "%s", section);
		snprintf(r->name, sizeof r->name, "%s", name);
		snprintf(r->value, sizeof r->value, "%s", value);
	}
	return 1;
}

/* The message of the reader's recorded bad key: the same check again, aloud,
 * on a scratch copy of the parameters. */
static void report_key(const struct reader *r)
{
	struct swe_params *scratch;
	if (!r->sec[0]) {
		fprintf(stderr, "spate: %s:%d: %s = %s: key outside any section; put it under "
			"[domain], [initial], [physics], [boundary], [run], [output], [gauges] or "
			"[parallel]\n", r->path, r->err_line, r->name, r->value);
		return;
	}
	scratch = malloc(sizeof *scratch);
	if (!scratch) {
		fprintf(stderr, "spate: %s:%d: [%s] %s = %s: invalid\n", r->path, r->err_line,
			r->sec, r->name, r->value);
		return;
	}
	*scratch = *r->p;
	swe_params_set(scratch, r->sec, r->name, r->value, r->path, r->err_line);
	free(scratch);
}

int swe_params_load(struct swe_params *p, const char *path)
{
	struct reader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.f = fopen(path, "r");
	r.path = path;
	r.p = p;
	if (!r.f) {
		spate_log_error("scenario", "%s: cannot open: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	rc = ini_parse_stream(read_line, &r, handler, &r);
	fclose(r.f);
	/* rc: the line of libinih's first syntax error (the handler never fails) */
	if (r.err && (rc <= 0 || r.err_line < rc)) {
		report_key(&r);
		return r.err;
	}
	if (rc != 0) {
		fprintf(stderr, "spate: %s:%d: syntax error: expected [section], key = value, "
			"or a ; comment\n", path, rc);
		return -SPATE_EFORMAT;
	}
	if (!(r.seen & 1u)) {
		fprintf(stderr, "spate: %s:%d: missing section [domain]: add it with at least "
			"setup, nx, ny and dx\n", path, r.line);
		return -SPATE_EINVAL;
	}
	if (!(r.seen & (1u << 4))) {
		fprintf(stderr, "spate: %s:%d: missing section [run]: add it with end_time = "
			"SECONDS\n", path, r.line);
		return -SPATE_EINVAL;
	}
	return 0;
}
