/* summary.h: the JSON run summary (--summary FILE), for every physics
 * module: an object of one key a line, opened with what every run reports
 * (program, module, set-up, backend, device, precision), then the module's
 * own keys, the decomposition's phase table, closed. */
#ifndef SPATE_SUMMARY_H
#define SPATE_SUMMARY_H

#include <stdio.h>

struct spate_summary {
	FILE *f;
	int keys;           /* keys written so far */
};

/* Open path ("-": standard output) and write the keys every run has:
 * program, module ("swe", "bsq"), setup, backend, devices, precision.
 * Returns 0 or -SPATE_EIO after a message. */
int spate_summary_open(struct spate_summary *s, const char *path, const char *module,
	const char *setup, const char *backend, const char *device, const char *precision);

/* Whether path ("-": standard output) can be written, before a run that
 * ends with it: a file that can be written, or a new one in a folder that
 * can.  Creates nothing.  Returns 0 or -SPATE_EINVAL after a message. */
int spate_summary_check(const char *path);

void spate_summary_str(struct spate_summary *s, const char *key, const char *value);
void spate_summary_int(struct spate_summary *s, const char *key, long value);
/* A number with every digit of a double (%.17g); null where it is not
 * finite (JSON has no infinity or NaN), in the two below too. */
void spate_summary_num(struct spate_summary *s, const char *key, double value);
/* A number in printf format fmt (one double conversion, e.g. "%.6e"). */
void spate_summary_fmt(struct spate_summary *s, const char *key, const char *fmt, double value);

/* A list of numbers [v0, v1, ...] in printf format fmt. */
void spate_summary_nums(struct spate_summary *s, const char *key, const double *v, int n,
	const char *fmt);

/* The decomposition's phase table (balance.h), then close the object and
 * the file.  Returns 0 or -SPATE_EIO. */
int spate_summary_close(struct spate_summary *s, const char *path);

#endif
