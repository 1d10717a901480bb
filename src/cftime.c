/* cftime.c: ISO 8601 start times and CF time units (cftime.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "spate.h"
#include "cftime.h"

/* n decimal digits at *s into *v; advances *s.  Returns 0 or -1. */
static int digits(const char **s, int n, int *v)
{
	*v = 0;
	for (int k = 0; k < n; k++, (*s)++) {
		if (**s < '0' || **s > '9')
			return -1;
		*v = 10 * *v + (**s - '0');
	}
	return 0;
}

static int days_in_month(int y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return days[m - 1] + (m == 2 && leap);
}

#define WHY(text) do { *why = text; return -SPATE_EINVAL; } while (0)

int spate_time_parse(const char *text, char *canon, const char **why)
{
	const char *s = text;
	int y, mo, d, h = 0, mi = 0, se = 0;
	if (digits(&s, 4, &y) || *s++ != '-' || digits(&s, 2, &mo) || *s++ != '-' ||
		digits(&s, 2, &d))
		WHY("expected an ISO 8601 date and time in UTC, YYYY-MM-DDThh:mm:ssZ "
			"(e.g. 1959-12-02T20:13:00Z)");
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
		WHY("no such date (year 0001-9999, month 01-12, a day of that month)");
	if (*s == 'T' || *s == ' ') {
		s++;
		if (digits(&s, 2, &h) || *s++ != ':' || digits(&s, 2, &mi))
			WHY("expected the time of day as hh:mm or hh:mm:ss after the date");
		if (*s == ':' && (s++, digits(&s, 2, &se)))
			WHY("expected the seconds as two digits: hh:mm:ss");
		if (h > 23 || mi > 59 || se > 59)
			WHY("no such time of day (hour 00-23, minute and second 00-59)");
	}
	if (*s == 'Z' || !strcmp(s, "+00:00"))
		s += *s == 'Z' ? 1 : 6;
	else if (*s == '+' || *s == '-')
		WHY("give the time in UTC (ending Z): convert a local time to UTC first");
	if (*s)
		WHY("unexpected text after the date and time; expected YYYY-MM-DDThh:mm:ssZ");
	snprintf(canon, SPATE_TIME_TEXT, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, se);
	return 0;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar:
 * whole 400-year eras of 146097 days, years counted from March so that the
 * leap day ends the year. */
static long days_from_civil(long y, int m, int d)
{
	long era, yoe, doy;
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* The inverse of days_from_civil. */
static void civil_from_days(long z, long *y, int *m, int *d)
{
	long era, doe, yoe, doy, mp;
	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

int spate_time_iso(const char *canon, double t, char *out)
{
	char c[SPATE_TIME_TEXT];
	const char *why;
	int y, mo, d, h, mi, se;
	long days, yy;
	double s;
	out[0] = 0;
	if (!canon || spate_time_parse(canon, c, &why) || !isfinite(t) || fabs(t) > 1e14 ||
		sscanf(c, "%4d-%2d-%2dT%2d:%2d:%2dZ", &y, &mo, &d, &h, &mi, &se) != 6)
		return -SPATE_EINVAL;
	s = floor(t + 0.5) + h * 3600.0 + mi * 60.0 + se;
	days = days_from_civil(y, mo, d) + (long)floor(s / 86400);
	s -= 86400 * floor(s / 86400);
	civil_from_days(days, &yy, &mo, &d);
	if (yy < 1 || yy > 9999)
		return -SPATE_EINVAL;
	snprintf(out, SPATE_TIME_TEXT, "%04ld-%02d-%02dT%02d:%02d:%02dZ", yy, mo, d,
		(int)(s / 3600), (int)fmod(s / 60, 60), (int)fmod(s, 60));
	return 0;
}

int spate_time_of_units(const char *units, char *canon)
{
	char iso[SPATE_TIME_TEXT];
	const char *why;
	if (!units || strncmp(units, "seconds since ", 14) || strlen(units) != 33)
		return -SPATE_EINVAL;
	snprintf(iso, sizeof iso, "%.10sT%.8sZ", units + 14, units + 25);
	return spate_time_parse(iso, canon, &why);
}

void spate_time_units(const char *canon, char *units)
{
	const char *c = canon && canon[0] ? canon : SPATE_START_DEFAULT;
	/* canonical: YYYY-MM-DDThh:mm:ssZ */
	snprintf(units, SPATE_TIME_TEXT, "seconds since %.10s %.8s", c, c + 11);
}
