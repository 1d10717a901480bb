/* fuzz_ckpt_nc.c: libFuzzer target for the NetCDF checkpoint path
 * (swe_ckpt_read on checkpoint.nc and its sum file, ckpt_sum.h): libhdf5
 * may crash on a damaged file, so the sum must refuse every file whose
 * bytes are not those it records before libnetcdf opens it.
 *   - an input that begins as a sum file ("spate-checkpoint-sum") is the
 *     sum file of the reference checkpoint (tests/fuzz/ckpt_nc/valid.nc):
 *     the sum file's parser;
 *   - any other input that sniffs as NetCDF is checkpoint.nc, next to the
 *     reference's recorded sum: the mutated file against that sum.  Such a
 *     file other than the reference accepted is a failure (abort), as is
 *     an accepted checkpoint without a grid.
 * Built by `make fuzz`; seeds in tests/fuzz/ckpt_nc/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "checkpoint.h"
#include "ckpt_sum.h"
#include "fuzz_file.h"

#ifndef FUZZ_CKPT_NC_REF
#define FUZZ_CKPT_NC_REF "tests/fuzz/ckpt_nc/valid.nc"
#endif
#define SUM_MAGIC "spate-checkpoint-sum"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *ref;      /* the reference checkpoint's bytes */
static size_t nref;
static char refsum[256];  /* its sum file, as spate writes it */

/* Write n bytes to path; 0 or -1. */
static int put(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	if (n && fwrite(b, 1, n, f) != n) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/* The reference and its sum, once; 0 or -1. */
static int load_ref(const char *path)
{
	char sum[700];
	FILE *f = fopen(FUZZ_CKPT_NC_REF, "rb");
	size_t got;
	if (!f)
		return -1;
	ref = malloc(1 << 20);
	nref = ref ? fread(ref, 1, 1 << 20, f) : 0;
	fclose(f);
	if (!nref || put(path, ref, nref))
		return -1;
	snprintf(sum, sizeof sum, "%s.ref.sum", path);
	if (spate_ckpt_sum_write(path, sum) || !(f = fopen(sum, "r")))
		return -1;
	got = fread(refsum, 1, sizeof refsum - 1, f);
	fclose(f);
	refsum[got] = 0;
	return got ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct swe_ckpt c;
	const char *path;
	char sum[700];
	int is_sum = size >= strlen(SUM_MAGIC) && !memcmp(data, SUM_MAGIC, strlen(SUM_MAGIC));
	int other;
	if (!is_sum && !(size >= 3 && (!memcmp(data, "\x89HD", 3) || !memcmp(data, "CDF", 3))))
		return 0;
	path = fuzz_file((const uint8_t *)"", 0, "checkpoint.nc");
	if (!path || (!ref && load_ref(path)))
		abort();   /* the set-up, not spate: the reference must be readable */
	snprintf(sum, sizeof sum, "%s.sum", path);
	if (is_sum ? put(path, ref, nref) || put(sum, data, size) :
		put(path, data, size) || put(sum, refsum, strlen(refsum)))
		return 0;
	other = !is_sum && (size != nref || memcmp(data, ref, size));
	if (swe_ckpt_read(path, &c) != 0)
		return 0;
	if (other)
		abort();   /* bytes other than the recorded ones were opened */
	if (c.real_bytes == (int)sizeof(real) && (c.nx < 1 || c.ny < 1 || !c.w || !c.hu || !c.hv))
		abort();
	swe_ckpt_free(&c);
	return 0;
}
