/* ckpt_bin.c: a checkpoint (ckpt.h) in spate's binary format, every field
 * in the byte order of the machine that wrote it:
 *   char[8]   "SPATECK2"
 *   int32     module version, nnum, narr, 0
 *   char[32]  module
 *   int64     text length
 *   nnum x    { char[32] name; double value }
 *   char      text[text length]                (no NUL)
 *   narr x    { char[32] name; int32 type, ndims; int64 dims[4];
 *               the elements, dims[0] x ... x dims[ndims - 1] }
 * A reader checks every size against the bytes left in the file before it
 * allocates, so a damaged file is refused, never trusted. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spate.h"
#include "ckpt_bin.h"

static int put(FILE *f, const void *p, size_t size, size_t n)
{
	return n == 0 || fwrite(p, size, n, f) == n;
}

static int put_array(FILE *f, const struct spate_ckpt_array *a)
{
	int32_t iv[2] = { a->type, a->ndims };
	int64_t dv[SPATE_CKPT_DIMS] = { 0 };
	for (int d = 0; d < a->ndims; d++)
		dv[d] = (int64_t)a->dims[d];
	return put(f, a->name, SPATE_CKPT_NAME, 1) && put(f, iv, sizeof iv, 1) &&
		put(f, dv, sizeof dv, 1) &&
		put(f, a->data, spate_ckpt_type_size(a->type), spate_ckpt_count(a));
}

int spate_ckpt_bin_write(const char *path, const struct spate_ckpt *c)
{
	int32_t iv[4] = { c->version, c->nnum, c->narr, 0 };
	int64_t len = c->text ? (int64_t)strlen(c->text) : 0;
	char module[SPATE_CKPT_NAME] = "";
	FILE *f = fopen(path, "wb");
	int ok;
	if (!f) {
		spate_log_error("checkpoint", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	snprintf(module, sizeof module, "%s", c->module);
	ok = put(f, SPATE_CKPT_MAGIC, 1, 8) && put(f, iv, sizeof iv, 1) &&
		put(f, module, sizeof module, 1) && put(f, &len, sizeof len, 1);
	for (int k = 0; ok && k < c->nnum; k++)
		ok = put(f, c->num_name[k], SPATE_CKPT_NAME, 1) && put(f, &c->num[k], sizeof(double), 1);
	ok = ok && put(f, c->text, 1, (size_t)len);
	for (int k = 0; ok && k < c->narr; k++)
		ok = put_array(f, &c->arr[k]);
	ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
	if (fclose(f) || !ok) {
		spate_log_error("checkpoint", "error writing %s: %s (disk full?)", path,
			strerror(errno));
		return -SPATE_EIO;
	}
	return 0;
}

/* A reader: the file and the bytes left in it. */
struct in {
	FILE *f;
	double left;
};

static int get(struct in *r, void *p, size_t size, size_t n)
{
	if ((double)size * (double)n > r->left)
		return 0;
	r->left -= (double)size * (double)n;
	return n == 0 || fread(p, size, n, r->f) == n;
}

static int get_array(struct in *r, struct spate_ckpt *c)
{
	char name[SPATE_CKPT_NAME];
	int32_t iv[2];
	int64_t dv[SPATE_CKPT_DIMS];
	size_t dims[SPATE_CKPT_DIMS];
	double bytes;
	void *data;
	if (!get(r, name, sizeof name, 1) || !get(r, iv, sizeof iv, 1) || !get(r, dv, sizeof dv, 1))
		return 0;
	name[sizeof name - 1] = 0;
	if (iv[1] < 1 || iv[1] > SPATE_CKPT_DIMS || !spate_ckpt_type_size(iv[0]))
		return 0;
	bytes = (double)spate_ckpt_type_size(iv[0]);
	for (int d = 0; d < iv[1]; d++) {
		if (dv[d] < 0)
			return 0;
		dims[d] = (size_t)dv[d];
		bytes *= (double)dv[d];
	}
	if (bytes > r->left || !(data = spate_ckpt_add(c, name, iv[0], iv[1], dims)))
		return 0;
	return get(r, data, 1, (size_t)bytes);
}

/* The body after the magic; 1 when whole and consistent. */
static int get_all(struct in *r, struct spate_ckpt *c)
{
	int32_t iv[4];
	int64_t len;
	if (!get(r, iv, sizeof iv, 1) || !get(r, c->module, sizeof c->module, 1) ||
		!get(r, &len, sizeof len, 1))
		return 0;
	c->module[sizeof c->module - 1] = 0;
	c->version = iv[0];
	if (iv[1] < 0 || iv[1] > SPATE_CKPT_NUMS || iv[2] < 0 || iv[2] > SPATE_CKPT_ARRAYS ||
		len < 0 || (double)len > r->left)
		return 0;
	for (int k = 0; k < iv[1]; k++) {
		char name[SPATE_CKPT_NAME];
		double v;
		if (!get(r, name, sizeof name, 1) || !get(r, &v, sizeof v, 1))
			return 0;
		name[sizeof name - 1] = 0;
		if (spate_ckpt_set(c, name, v))
			return 0;
	}
	if (!(c->text = calloc((size_t)len + 1, 1)) || !get(r, c->text, 1, (size_t)len))
		return 0;
	for (int k = 0; k < iv[2]; k++)
		if (!get_array(r, c))
			return 0;
	return r->left == 0;
}

int spate_ckpt_bin_read(const char *path, struct spate_ckpt *c)
{
	struct in r;
	char magic[8];
	long end;
	int ok;
	memset(c, 0, sizeof *c);
	if (!(r.f = fopen(path, "rb"))) {
		spate_log_error("checkpoint", "cannot open %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	ok = fseek(r.f, 0, SEEK_END) == 0 && (end = ftell(r.f)) >= 8 &&
		fseek(r.f, 0, SEEK_SET) == 0 && fread(magic, 1, 8, r.f) == 8 &&
		memcmp(magic, SPATE_CKPT_MAGIC, 8) == 0;
	if (ok) {
		r.left = (double)end - 8;
		ok = get_all(&r, c);
	}
	fclose(r.f);
	if (ok)
		return 0;
	spate_ckpt_free(c);
	spate_log_error("checkpoint", "%s: a damaged or truncated checkpoint, or one of another "
		"version or machine: restart from an intact one, or run from the start", path);
	return -SPATE_EFORMAT;
}
