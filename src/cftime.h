/* cftime.h: the run's start time (ISO 8601, UTC) and the CF time units of
 * every time in spate's files: "seconds since <start>" with the standard
 * calendar (CF-1.8 section 4.4). */
#ifndef SPATE_CFTIME_H
#define SPATE_CFTIME_H

#include <stddef.h>

/* The start time of a run whose scenario names none. */
#define SPATE_START_DEFAULT "2000-01-01T00:00:00Z"

/* Longest canonical start time and units text, with the NUL. */
#define SPATE_TIME_TEXT 64

/* Read an ISO 8601 date and time in UTC: YYYY-MM-DD, optionally followed by
 * T (or a space) and hh:mm or hh:mm:ss, optionally ended by Z or +00:00.
 * Years 0001-9999; month, day (leap years of the Gregorian calendar), hour
 * 0-23, minute and second 0-59 checked.  Writes the canonical form
 * YYYY-MM-DDThh:mm:ssZ into canon (SPATE_TIME_TEXT bytes).  Returns 0, or
 * -SPATE_EINVAL with why (a static text) in *why. */
int spate_time_parse(const char *text, char *canon, const char **why);

/* The CF units of times counted from canonical start time canon:
 * "seconds since YYYY-MM-DD hh:mm:ss" (UTC, the CF default zone) into
 * units (SPATE_TIME_TEXT bytes).  NULL or "": from SPATE_START_DEFAULT. */
void spate_time_units(const char *canon, char *units);

/* The time t seconds after canonical start time canon (rounded to the
 * second) as YYYY-MM-DDThh:mm:ssZ into out (SPATE_TIME_TEXT bytes);
 * returns 0, or -SPATE_EINVAL ("" in out) when canon is not canonical, t
 * is not finite or the result leaves the years 0001-9999. */
int spate_time_iso(const char *canon, double t, char *out);

/* The canonical start time of CF units "seconds since YYYY-MM-DD hh:mm:ss"
 * (as spate_time_units writes them) into canon; -SPATE_EINVAL otherwise. */
int spate_time_of_units(const char *units, char *canon);

#endif
