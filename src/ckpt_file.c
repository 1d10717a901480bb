/* ckpt_file.c: checkpoints on disk: the format, the safe write, the read of
 * either format (ckpt_bin.c, ckpt_nc.c; NetCDF after its sum, ckpt_sum.c),
 * the module check. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "ckpt_file.h"
#include "ckpt_bin.h"
#include "ckpt_nc.h"
#include "ckpt_sum.h"

/* 1 when checkpoints are NetCDF files. */
static int netcdf_format(void)
{
#ifdef HAVE_NETCDF
	const char *e = getenv("SPATE_CHECKPOINT");
	return !(e && !strcmp(e, "bin"));
#else
	return 0;
#endif
}

void spate_ckpt_path(const char *dir, char *path, size_t n)
{
	snprintf(path, n, "%s/checkpoint.%s", dir, netcdf_format() ? "nc" : "bin");
}

/* rename(2) from to to, or -SPATE_EIO after a message. */
static int move(const char *from, const char *to)
{
	if (!rename(from, to))
		return 0;
	spate_log_error("checkpoint", "cannot rename %s to %s: %s", from, to, strerror(errno));
	return -SPATE_EIO;
}

/* A NetCDF checkpoint comes with its sum file (ckpt_sum.h), written from
 * the bytes on disk, then both renamed into place: the file first, so that
 * an old sum never vouches for a new file's bytes (a stop between the two
 * renames leaves a pair that is refused, not a crash). */
int spate_ckpt_write(const struct spate_ckpt *c, const char *dir, char *path, size_t n)
{
	char tmp[4200], sum[4200], sumtmp[4300];
	int rc, nc = netcdf_format();
	spate_ckpt_path(dir, path, n);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	spate_ckpt_sum_path(path, sum, sizeof sum);
	snprintf(sumtmp, sizeof sumtmp, "%s.tmp", sum);
	rc = nc ? spate_ckpt_nc_write(tmp, c) : spate_ckpt_bin_write(tmp, c);
	if (!rc && nc)
		rc = spate_ckpt_sum_write(tmp, sumtmp);
	if (!rc)
		rc = move(tmp, path);
	if (!rc && nc)
		rc = move(sumtmp, sum);
	if (rc) {
		remove(tmp);
		remove(sumtmp);
	}
	return rc;
}

/* The format of the file at path by its first bytes: 'b' binary, 'n' NetCDF,
 * 0 neither; -1 when it cannot be opened (after a message). */
static int sniff(const char *path)
{
	FILE *f = fopen(path, "rb");
	char magic[8] = "";
	size_t got;
	if (!f) {
		spate_log_error("checkpoint", "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	got = fread(magic, 1, 8, f);
	fclose(f);
	if (got == 8 && !memcmp(magic, SPATE_CKPT_MAGIC, 8))
		return 'b';
	if (got >= 4 && (!memcmp(magic, "\x89HDF", 4) || !memcmp(magic, "CDF", 3)))
		return 'n';
	if (got == 8 && !memcmp(magic, "SPATECKP", 8))
		return 'o';
	return 0;
}

int spate_ckpt_read(const char *path, const char *module, struct spate_ckpt *c)
{
	int fmt = sniff(path), rc;
	memset(c, 0, sizeof *c);
	if (fmt < 0)
		return -SPATE_EIO;
	if (fmt == 'o') {
		spate_log_error("checkpoint", "%s: a checkpoint of an older spate (format 1): "
			"restart with the version that wrote it, or run from the start", path);
		return -SPATE_EFORMAT;
	}
	if (!fmt) {
		spate_log_error("checkpoint", "%s: not a spate checkpoint (checkpoint.nc or "
			"checkpoint.bin, written with --checkpoint-every or on SIGINT/SIGTERM)", path);
		return -SPATE_EFORMAT;
	}
	/* NetCDF: the bytes checked before libnetcdf (and libhdf5) open them */
	if (fmt == 'n' && (rc = spate_ckpt_sum_check(path)))
		return rc;
	if ((rc = fmt == 'b' ? spate_ckpt_bin_read(path, c) : spate_ckpt_nc_read(path, c)))
		return rc;
	if (strcmp(c->module, module)) {
		spate_log_error("checkpoint", "%s: a checkpoint of the %s module; this run is %s: "
			"restart with the scenario that wrote it", path, c->module, module);
		spate_ckpt_free(c);
		return -SPATE_EINVAL;
	}
	return 0;
}
