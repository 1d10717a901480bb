/* scenario.c: INI scenario files read into a module's parameters
 * (scenario.h). */
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
#include "scenario.h"

/* libinih reads through this so the handler knows the line number.  The
 * first bad key is only recorded (err, err_line, its text): libinih reports
 * a syntax error only when it returns, so the message waits until then and
 * goes out only if that key comes before the first syntax error. */
struct reader {
	FILE *f;
	const char *path;
	int line;
	int err, err_line;
	int read_errno;         /* errno of a read that failed (a folder: EISDIR) */
	char sec[64], name[128], value[1024];
	const struct spate_scenario_module *m;
	void *params;
	unsigned long seen;     /* bit per section of m->sections with a key */
	unsigned long headed;   /* bit per section of m->sections with a [header] */
	int head_line[64];      /* the line of each section's first [header] */
};

/* A "[section]" header on line s: its section's bit in r->headed. */
static void note_header(struct reader *r, const char *s)
{
	const char *end;
	s += strspn(s, " \t");
	if (*s++ != '[' || !(end = strchr(s, ']')))
		return;
	for (int i = 0; i < 64 && r->m->sections[i]; i++)
		if (!strncmp(s, r->m->sections[i], (size_t)(end - s)) &&
			!r->m->sections[i][end - s] && !(r->headed & (1ul << i))) {
			r->headed |= 1ul << i;
			r->head_line[i] = r->line;
		}
}

static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	char *s = fgets(str, num, r->f);
	if (s) {
		r->line++;
		note_header(r, s);
	} else if (ferror(r->f))
		r->read_errno = errno;
	return s;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	if (r->err)
		return 1;
	for (int i = 0; r->m->sections[i]; i++)
		if (strcmp(section, r->m->sections[i]) == 0)
			r->seen |= 1ul << i;
	r->m->quiet(1);
	r->err = *section ? r->m->set(r->params, section, name, value, r->path, r->line) :
		-SPATE_EINVAL;
	r->m->quiet(0);
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
	void *scratch;
	if (!r->sec[0]) {
		spate_log_text("spate: %s:%d: %s = %s: key outside any section; put it under one "
			"of", r->path, r->err_line, r->name, r->value);
		for (int i = 0; r->m->sections[i]; i++)
			spate_log_text("%s[%s]", i ? ", " : " ", r->m->sections[i]);
		spate_log_text("\n");
		return;
	}
	scratch = malloc(r->m->params_size);
	if (!scratch) {
		spate_log_text("spate: %s:%d: [%s] %s = %s: invalid\n", r->path, r->err_line,
			r->sec, r->name, r->value);
		return;
	}
	memcpy(scratch, r->params, r->m->params_size);
	r->m->set(scratch, r->sec, r->name, r->value, r->path, r->err_line);
	free(scratch);
}

/* Whether every required section was seen; a message for the first not. */
static int needs_met(const struct reader *r)
{
	for (const struct spate_section_need *n = r->m->needs; n->section; n++) {
		int i = 0;
		while (r->m->sections[i] && strcmp(r->m->sections[i], n->section))
			i++;
		if (r->seen & (1ul << i))
			continue;
		if (r->headed & (1ul << i))
			spate_log_text("spate: %s:%d: section [%s] has no keys: give it at least %s\n",
				r->path, r->head_line[i], n->section, n->keys);
		else
			spate_log_text("spate: %s:%d: missing section [%s]: add it with at least %s\n",
				r->path, r->line, n->section, n->keys);
		return 0;
	}
	return 1;
}

int spate_scenario_load(const struct spate_scenario_module *m, void *params, const char *path)
{
	struct reader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.f = fopen(path, "r");
	r.path = path;
	r.m = m;
	r.params = params;
	if (!r.f) {
		spate_log_error("scenario", "%s: cannot open: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	rc = ini_parse_stream(read_line, &r, handler, &r);
	fclose(r.f);
	if (r.read_errno) {
		spate_log_error("scenario", "%s: cannot read it: %s (give a scenario file)", path,
			strerror(r.read_errno));
		return -SPATE_EIO;
	}
	/* rc: the line of libinih's first syntax error (the handler never fails) */
	if (r.err && (rc <= 0 || r.err_line < rc)) {
		report_key(&r);
		return r.err;
	}
	if (rc != 0) {
		spate_log_text("spate: %s:%d: syntax error: expected [section], key = value, "
			"or a ; comment\n", path, rc);
		return -SPATE_EFORMAT;
	}
	return needs_met(&r) ? 0 : -SPATE_EINVAL;
}

struct peek {
	char *model;
	size_t n;
};

static int peek_model(void *user, const char *section, const char *name, const char *value)
{
	struct peek *k = user;
	if (!strcmp(section, "physics") && !strcmp(name, "model"))
		snprintf(k->model, k->n, "%s", value);
	return 1;
}

int spate_scenario_model(const char *path, char *model, size_t n)
{
	struct peek k = { model, n };
	FILE *f = fopen(path, "r");
	model[0] = 0;
	if (!f) {
		spate_log_error("scenario", "%s: cannot open: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	ini_parse_file(f, peek_model, &k);  /* syntax errors: reported by the module's load */
	fclose(f);
	return 0;
}
