/* export_cli.h: the export command (export.c). */
#ifndef SPATE_EXPORT_CLI_H
#define SPATE_EXPORT_CLI_H

/* spate export RESULTS.nc [OPTIONS] (argv without "spate export"): the
 * GeoPackage and the COGs of a results file.  Returns 0 (also after
 * --help), -SPATE_EINVAL for bad usage or input, or another -SPATE_E*. */
int spate_export(int argc, char **argv);

#endif
