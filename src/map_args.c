/* map_args.c: the options of spate map (map.h), each checked: the page
 * (A4, A3 or US letter), the PNG resolution, the extent outline's depth,
 * the time of a snapshot. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>

#include "spate.h"
#include "map.h"

#define SYNOPSIS "spate map RESULT.nc [--var NAME] -o FILE.tif|FILE.png|FILE.pdf " \
	"[--time T] [--dpi N] [--page a4|a3|letter] [--extent D] [--title TEXT] [-q]"

/* The value of option name at argv[*i] ("--name V" or "--name=V"), or NULL. */
static const char *value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

/* A number in [lo, hi] from option opt's text v into *x; -SPATE_EINVAL
 * after a message when it is not. */
static int number(const char *opt, const char *v, double lo, double hi, const char *what,
	double *x)
{
	char *end;
	*x = strtod(v, &end);
	if (end == v || *end || !(*x >= lo && *x <= hi)) {
		spate_log_error("map", "%s %s: expected %s", opt, v, what);
		return -SPATE_EINVAL;
	}
	return 0;
}

static int page(const char *v, struct spate_map_args *a)
{
	static const struct { const char *name; double w, h; } pages[] = {
		{ "a4", 210, 297 }, { "a3", 297, 420 }, { "letter", 215.9, 279.4 } };
	for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++)
		if (!strcasecmp(v, pages[k].name)) {
			a->page_w = pages[k].w;
			a->page_h = pages[k].h;
			return 0;
		}
	spate_log_error("map", "--page %s: expected a4, a3 or letter", v);
	return -SPATE_EINVAL;
}

/* One option at argv[*i]; returns 0, -SPATE_EINVAL, or 1 when it is none. */
static int option(int argc, char **argv, int *i, struct spate_map_args *a)
{
	static const char *const valued[] = { "--var", "--output", "-o", "--format", "--title",
		"--time", "--dpi", "--extent", "--page", NULL };
	const char *v;
	/* "-o --quiet" is a value left out, not a file "--quiet" */
	if (spate_option_left_out(argc, argv, *i, valued, "map"))
		return -SPATE_EINVAL;
	if ((v = value(argc, argv, i, "--var")))
		a->var = v;
	else if ((v = value(argc, argv, i, "--output")) || (v = value(argc, argv, i, "-o")))
		a->out = v;
	else if ((v = value(argc, argv, i, "--format")))
		a->format = v;
	else if ((v = value(argc, argv, i, "--title")))
		a->title = v;
	else if ((v = value(argc, argv, i, "--time")))
		return number("--time", v, -1e300, 1e300, "a time in seconds", &a->t);
	else if ((v = value(argc, argv, i, "--dpi")))
		return number("--dpi", v, 30, 1200, "a resolution from 30 to 1200 dots per inch",
			&a->dpi);
	else if ((v = value(argc, argv, i, "--extent")))
		return number("--extent", v, 0, 1e4, "a depth in m, >= 0 (0: no outline)",
			&a->extent);
	else if ((v = value(argc, argv, i, "--page")))
		return page(v, a);
	else if (!strcmp(argv[*i], "-q") || !strcmp(argv[*i], "--quiet"))
		spate_set_quiet(1);
	else
		return 1;
	return 0;
}

int spate_map_parse(int argc, char **argv, struct spate_map_args *a)
{
	memset(a, 0, sizeof *a);
	a->var = "max_depth";
	a->t = a->extent = NAN;
	a->dpi = 150;
	a->page_w = 210;
	a->page_h = 297;
	for (int i = 0; i < argc; i++) {
		int rc = option(argc, argv, &i, a);
		if (rc <= 0) {
			if (rc)
				return rc;
		} else if (argv[i][0] == '-') {
			spate_log_error("map", "unknown option %s, or one without its value (usage: "
				SYNOPSIS "; see spate map --help)", argv[i]);
			return -SPATE_EINVAL;
		} else if (a->in) {
			spate_log_error("map", "more than one results file (%s, %s)", a->in, argv[i]);
			return -SPATE_EINVAL;
		} else {
			a->in = argv[i];
		}
	}
	if (!a->in || !a->out) {
		spate_log_error("map", "%s (usage: " SYNOPSIS ")", a->in ? "no output file (-o FILE)" :
			"no results file");
		return -SPATE_EINVAL;
	}
	return 0;
}
