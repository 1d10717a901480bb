/* spate.h: error codes, messages and small helpers shared by every module. */
#ifndef SPATE_H
#define SPATE_H

#include <stddef.h>

/* Every function below main returns 0 or one of these (negated). */
enum {
	SPATE_OK = 0,
	SPATE_EINVAL = 1,   /* bad parameter or input value */
	SPATE_EIO = 2,      /* file could not be read or written */
	SPATE_ENOMEM = 3,   /* allocation failed */
	SPATE_EFORMAT = 4,  /* malformed input file */
	SPATE_ENODEV = 5,   /* requested device not available */
	SPATE_EDEVICE = 6,  /* device (CUDA) runtime error */
	SPATE_ENUMERIC = 7, /* NaN or negative depth detected */
	SPATE_EUNSUPPORTED = 8, /* feature not built in */
	SPATE_EINTR = 9,    /* interrupted by a signal */
	SPATE_EUNSTABLE = 10 /* the instability guard stopped the run */
};

/* Returns a static English text for an error code (positive or negative). */
const char *spate_strerror(int err);

/* Prints "spate: <part>: <message>" on stderr (printf-style). */
void spate_log_error(const char *part, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints an informational line on stderr unless quiet mode is set. */
void spate_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void spate_set_quiet(int quiet);
int spate_is_quiet(void);
/* Hold the messages of both kinds (they are kept, not printed) until
 * spate_log_release, which prints them (print != 0) or drops them: under
 * mpirun every rank reads the same scenario, and its faults are told once
 * (decomp_world_agree). */
void spate_log_hold(void);
/* Part of an error message as it is (printf-style), on stderr or held: the
 * scenario readers' messages, written in pieces. */
void spate_log_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void spate_log_release(int print);

/* Wall clock in seconds (monotonic). */
double spate_now(void);
/* This process's resident memory now (peak 0) or its highest so far (peak
 * 1), MiB (Linux /proc/self/status: VmRSS, VmHWM), or -1 where it cannot
 * be read. */
double spate_resident_mib(int peak);

/* The median of v[0..n) (sorted in place); NAN when n <= 0. */
double spate_median(double *v, long n);

/* malloc that returns NULL-safe aligned memory (64-byte); free with free(). */
void *spate_alloc(size_t bytes);

/* The edit distance (Levenshtein: insertions, deletions, substitutions) of
 * two short names, for "did you mean"; 99 for names of 40 characters or
 * more. */
int spate_edit_distance(const char *a, const char *b);
/* The value of option name at argv[*i] of a command line: "--name=V", or
 * "--name V" (then *i moves on to V); NULL when argv[*i] is another option
 * or V is missing. */
const char *spate_option(int argc, char **argv, int *i, const char *name);
/* The number after the '=' of option a ("--steps=20"), the whole rest of
 * it, in [lo, hi] and, if whole is set, an integer, into *v; 0, or
 * -SPATE_EINVAL after a message of command cmd naming the option and the
 * range (atof would take "abc" as 0, atol "2.5" as 2). */
int spate_option_number(const char *cmd, const char *a, double lo, double hi, int whole,
	double *v);
/* Whether word is one of the '|'-separated names of list ("cavity|lid"),
 * in any case: 1 or 0 (the set-ups that read a key). */
int spate_listed(const char *list, const char *word);
/* Whether a is an option written without "=" that is none of flags (its
 * options without a value, NULL-terminated): "--device" of "--device cpu",
 * where "cpu" would read as a second scenario. */
int spate_wants_value(const char *a, const char *const *flags);
/* Whether a command-line word is an option ("--..." or -q), not a value:
 * a value left out before it ("--summary --quiet") is not taken from it. */
int spate_is_option(const char *a);
/* Whether argv[i] is one of names (NULL-terminated), written without "=",
 * with its value left out: nothing follows it, or another option does
 * ("--..." or -q, as in "-o --quiet").  Returns 1 after a message of command
 * cmd ("map"), else 0. */
int spate_option_left_out(int argc, char **argv, int i, const char *const *names,
	const char *cmd);

/* Make a directory and its parents; returns 0 or -SPATE_EIO. */
int spate_mkdir_p(const char *dir);
/* Make the missing folders of file path ("out/a/s.json": out/a), as spate
 * run makes its output folder; returns 0 or -SPATE_EIO. */
int spate_mkdir_for(const char *path);

#endif
