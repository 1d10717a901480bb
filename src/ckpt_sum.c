/* ckpt_sum.c: the sum file of a NetCDF checkpoint (ckpt_sum.h). */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "ckpt.h"
#include "ckpt_sum.h"

#define SUM_MAGIC "spate-checkpoint-sum"
#define SUM_VERSION 1

void spate_ckpt_sum_path(const char *path, char *out, size_t n)
{
	snprintf(out, n, "%s.sum", path);
}

/* The FNV-1a of the bytes of the file at path and their count; 0, or
 * -SPATE_EIO (errno set). */
static int file_sum(const char *path, uint64_t *h, uint64_t *bytes)
{
	unsigned char buf[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t got;
	if (!f)
		return -SPATE_EIO;
	*h = SPATE_FNV_START;
	*bytes = 0;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		*h = spate_fnv1a(*h, buf, got);
		*bytes += got;
	}
	if (ferror(f)) {
		fclose(f);
		errno = EIO;
		return -SPATE_EIO;
	}
	fclose(f);
	return 0;
}

int spate_ckpt_sum_write(const char *path, const char *out)
{
	uint64_t h, bytes;
	FILE *f;
	if (file_sum(path, &h, &bytes)) {
		spate_log_error("checkpoint", "cannot read %s back for its sum: %s", path,
			strerror(errno));
		return -SPATE_EIO;
	}
	f = fopen(out, "w");
	if (!f || fprintf(f, "%s %d fnv1a64 %016" PRIx64 " %" PRIu64 "\n", SUM_MAGIC,
		SUM_VERSION, h, bytes) < 0 || fclose(f)) {
		spate_log_error("checkpoint", "cannot write %s: %s", out, strerror(errno));
		return -SPATE_EIO;
	}
	return 0;
}

/* The sum file's line parsed: 0, or -SPATE_EFORMAT. */
static int parse(const char *line, uint64_t *h, uint64_t *bytes)
{
	char magic[32], algo[16], hex[17], tail[2];
	int version;
	unsigned long long b;
	char *end;
	if (sscanf(line, "%31s %d %15s %16s %llu %1s", magic, &version, algo, hex, &b,
		tail) != 5 || strcmp(magic, SUM_MAGIC) || version != SUM_VERSION ||
		strcmp(algo, "fnv1a64") || strlen(hex) != 16 || strspn(hex,
		"0123456789abcdef") != 16)
		return -SPATE_EFORMAT;
	errno = 0;
	*h = (uint64_t)strtoull(hex, &end, 16);
	*bytes = (uint64_t)b;
	return errno || *end ? -SPATE_EFORMAT : 0;
}

/* A checkpoint.nc without its sum file: refused, or opened unchecked. */
static int no_sum(const char *path, const char *sum)
{
	const char *e = getenv("SPATE_CHECKPOINT_UNCHECKED");
	if (e && !strcmp(e, "1")) {
		spate_log_info("spate: checkpoint: %s has no %s: opened unchecked "
			"(SPATE_CHECKPOINT_UNCHECKED=1)\n", path, sum);
		return 0;
	}
	spate_log_error("checkpoint", "%s has no sum file %s, so spate cannot tell it whole "
		"(a damaged NetCDF file may crash the HDF5 library): a checkpoint of a spate "
		"before sum files, or copied without its .sum; to restart from it anyway, set "
		"SPATE_CHECKPOINT_UNCHECKED=1", path, sum);
	return -SPATE_EFORMAT;
}

int spate_ckpt_sum_check(const char *path)
{
	char sum[4200], line[256];
	uint64_t want, h, bytes, have;
	FILE *f;
	int rc;
	spate_ckpt_sum_path(path, sum, sizeof sum);
	f = fopen(sum, "r");
	if (!f && errno == ENOENT)
		return no_sum(path, sum);
	if (!f) {
		spate_log_error("checkpoint", "cannot open %s: %s", sum, strerror(errno));
		return -SPATE_EFORMAT;
	}
	rc = fgets(line, sizeof line, f) ? parse(line, &want, &bytes) : -SPATE_EFORMAT;
	fclose(f);
	if (rc) {
		spate_log_error("checkpoint", "%s: not a spate checkpoint sum (expected one line "
			"\"%s %d fnv1a64 <16 hex digits> <bytes>\"): write the checkpoint again, or "
			"restart from another one", sum, SUM_MAGIC, SUM_VERSION);
		return rc;
	}
	if (file_sum(path, &h, &have)) {
		spate_log_error("checkpoint", "cannot read %s: %s", path, strerror(errno));
		return -SPATE_EFORMAT;
	}
	if (have != bytes) {
		spate_log_error("checkpoint", "%s: %" PRIu64 " bytes, its sum file %s says %"
			PRIu64 ": truncated or damaged; restart from another checkpoint, or run from "
			"the start", path, have, sum, bytes);
		return -SPATE_EFORMAT;
	}
	if (h != want) {
		spate_log_error("checkpoint", "%s: its bytes do not match its sum file %s "
			"(damaged since it was written, or the pair is of two checkpoints): restart "
			"from another checkpoint, or run from the start", path, sum);
		return -SPATE_EFORMAT;
	}
	return 0;
}
