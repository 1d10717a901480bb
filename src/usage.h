/* usage.h: the options of each command as `spate COMMAND --help` and
 * `spate --help` print them (usage.c); the commands themselves are the
 * table in main.c, where a new command is one entry. */
#ifndef SPATE_USAGE_H
#define SPATE_USAGE_H

extern const char spate_opts_run[], spate_opts_bench[], spate_opts_map[],
	spate_opts_ensemble[], spate_opts_export[];

#endif
