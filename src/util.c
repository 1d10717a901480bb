/* util.c: error texts, logging, clocks, aligned allocation, folders. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>

#include "spate.h"

static int quiet;
/* messages held (spate_log_hold): held_len bytes in held, of held_cap */
static int holding;
static char *held;
static size_t held_len, held_cap;

/* Keeps a message while holding: 1, ap used; else 0, ap untouched (print
 * it: not holding, or no memory to keep it). */
static int hold(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	if (!holding)
		return 0;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return 0;
	if (held_len + (size_t)n + 1 > held_cap) {
		size_t cap = 2 * (held_len + (size_t)n + 1);
		char *b = realloc(held, cap);
		if (!b)
			return 0;
		held = b;
		held_cap = cap;
	}
	vsnprintf(held + held_len, (size_t)n + 1, fmt, ap);
	held_len += (size_t)n;
	return 1;
}

/* A message of printf's format on stderr, or held. */
static void vput(const char *fmt, va_list ap)
{
	if (!hold(fmt, ap))
		vfprintf(stderr, fmt, ap);
}

void spate_log_text(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vput(fmt, ap);
	va_end(ap);
}

void spate_log_hold(void)
{
	holding = 1;
}

void spate_log_release(int print)
{
	if (print && held_len)
		fputs(held, stderr);
	free(held);
	held = NULL;
	held_len = held_cap = 0;
	holding = 0;
}

const char *spate_strerror(int err)
{
	static const char *const text[] = {
		"success",
		"invalid parameter or input value",
		"input/output error",
		"out of memory",
		"malformed input file",
		"no such device",
		"device runtime error",
		"numerical failure (a value not finite, or a solver that did not converge)",
		"feature not built in",
		"interrupted by a signal",
		"the state became NaN or infinite (instability guard)",
	};
	if (err < 0)
		err = -err;
	if (err >= (int)(sizeof text / sizeof text[0]))
		return "unknown error";
	return text[err];
}

void spate_log_error(const char *part, const char *fmt, ...)
{
	va_list ap;
	spate_log_text("spate: %s: ", part);
	va_start(ap, fmt);
	vput(fmt, ap);
	va_end(ap);
	spate_log_text("\n");
}

void spate_log_info(const char *fmt, ...)
{
	va_list ap;
	if (quiet)
		return;
	va_start(ap, fmt);
	vput(fmt, ap);
	va_end(ap);
}

void spate_set_quiet(int q)
{
	quiet = q;
}

int spate_is_quiet(void)
{
	return quiet;
}

double spate_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void *spate_alloc(size_t bytes)
{
	void *p = NULL;
	if (bytes == 0)
		bytes = 64;
	if (posix_memalign(&p, 64, (bytes + 63) / 64 * 64) != 0)
		return NULL;
	return p;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double spate_median(double *v, long n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

int spate_mkdir_p(const char *dir)
{
	char buf[4096];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof buf)
		return -SPATE_EINVAL;
	memcpy(buf, dir, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		goto fail;
	return 0;
fail:
	spate_log_error("output", "cannot create directory %s: %s", buf, strerror(errno));
	return -SPATE_EIO;
}

int spate_mkdir_for(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path || (size_t)(slash - path) >= sizeof dir)
		return 0;
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	return access(dir, F_OK) ? spate_mkdir_p(dir) : 0;
}

/* The edit distance (Levenshtein) of two short names, for "did you mean"
 * (spate.h). */
int spate_edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), d[40][40];
	if (la >= 40 || lb >= 40)
		return 99;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int s = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			int x = d[i - 1][j] + 1 < d[i][j - 1] + 1 ? d[i - 1][j] + 1 : d[i][j - 1] + 1;
			d[i][j] = s < x ? s : x;
		}
	return d[la][lb];
}

/* The value of option name at argv[*i] (spate.h). */
const char *spate_option(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == 0 && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* The number of option a after its '=' (spate.h). */
int spate_option_number(const char *cmd, const char *a, double lo, double hi, int whole,
	double *v)
{
	const char *e = strchr(a, '=');
	char *end;
	*v = e ? strtod(e + 1, &end) : NAN;
	if (!e || end == e + 1 || *end || !(*v >= lo && *v <= hi) || (whole && *v != floor(*v))) {
		spate_log_error(cmd, "%s: give a %snumber in [%g, %g]", a, whole ? "whole " : "", lo,
			hi);
		return -SPATE_EINVAL;
	}
	return 0;
}

int spate_listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *s = list; s; s = strchr(s, '|') ? strchr(s, '|') + 1 : NULL)
		if (!strncasecmp(s, word, n) && (s[n] == '|' || !s[n]))
			return 1;
	return 0;
}

int spate_wants_value(const char *a, const char *const *flags)
{
	if (strncmp(a, "--", 2) || strchr(a, '='))
		return 0;
	for (int k = 0; flags[k]; k++)
		if (!strcmp(a, flags[k]))
			return 0;
	return 1;
}

/* Whether a is an option rather than a value (spate.h). */
int spate_is_option(const char *a)
{
	return !strncmp(a, "--", 2) || !strcmp(a, "-q");
}

/* Whether option argv[i]'s value was left out (spate.h). */
int spate_option_left_out(int argc, char **argv, int i, const char *const *names,
	const char *cmd)
{
	const char *next = i + 1 < argc ? argv[i + 1] : NULL;
	for (int k = 0; names[k]; k++) {
		if (strcmp(argv[i], names[k]))
			continue;
		if (next && !spate_is_option(next))
			return 0;
		spate_log_error(cmd, "%s needs a value%s%s (see spate %s --help)", argv[i],
			next ? " before " : "", next ? next : "", cmd);
		return 1;
	}
	return 0;
}

double spate_resident_mib(int peak)
{
	char line[256];
	double mib = -1;
	long kb;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, peak ? "VmHWM: %ld kB" : "VmRSS: %ld kB", &kb) == 1) {
			mib = kb / 1024.0;
			break;
		}
	fclose(f);
	return mib;
}
