/* map.h: the map command (map.c), its options (map_args.c). */
#ifndef SPATE_MAP_H
#define SPATE_MAP_H

struct spate_map_args {
	const char *in, *var, *out, *format, *title;
	double t;               /* NAN: the last record */
	double dpi;             /* PNG resolution */
	double page_w, page_h;  /* page, mm, portrait */
	double extent;          /* outline depth, m; NAN: the file's wet threshold */
};

/* Options of spate map into a.  Returns 0 or -SPATE_EINVAL after a message. */
int spate_map_parse(int argc, char **argv, struct spate_map_args *a);

/* The map command; argv after "map".  Returns 0, -SPATE_EINVAL for bad
 * usage, or another -SPATE_E* after a message. */
int spate_map(int argc, char **argv);

#endif
