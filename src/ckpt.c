/* ckpt.c: the checkpoint container: named numbers and named arrays. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "ckpt.h"

uint64_t spate_fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *b = data;
	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * 0x100000001b3ULL;
	return h;
}

size_t spate_ckpt_type_size(int type)
{
	return type == SPATE_CKPT_F32 ? 4 : type == SPATE_CKPT_F64 ? 8 : 0;
}

size_t spate_ckpt_count(const struct spate_ckpt_array *a)
{
	size_t n = 1;
	for (int d = 0; d < a->ndims; d++)
		n *= a->dims[d];
	return n;
}

int spate_ckpt_set(struct spate_ckpt *c, const char *name, double v)
{
	for (int k = 0; k < c->nnum; k++)
		if (!strcmp(c->num_name[k], name)) {
			c->num[k] = v;
			return 0;
		}
	if (c->nnum == SPATE_CKPT_NUMS || strlen(name) >= SPATE_CKPT_NAME)
		return -SPATE_EINVAL;
	snprintf(c->num_name[c->nnum], SPATE_CKPT_NAME, "%s", name);
	c->num[c->nnum++] = v;
	return 0;
}

int spate_ckpt_get(const struct spate_ckpt *c, const char *name, double *v)
{
	for (int k = 0; k < c->nnum; k++)
		if (!strcmp(c->num_name[k], name)) {
			*v = c->num[k];
			return 0;
		}
	return -SPATE_EFORMAT;
}

/* The next free array slot, described (not yet counted), or NULL. */
static struct spate_ckpt_array *slot(struct spate_ckpt *c, const char *name, int type,
	int ndims, const size_t *dims)
{
	struct spate_ckpt_array *a;
	if (c->narr == SPATE_CKPT_ARRAYS || ndims < 1 || ndims > SPATE_CKPT_DIMS ||
		!spate_ckpt_type_size(type) || strlen(name) >= SPATE_CKPT_NAME ||
		spate_ckpt_find(c, name))
		return NULL;
	a = &c->arr[c->narr];
	memset(a, 0, sizeof *a);
	snprintf(a->name, sizeof a->name, "%s", name);
	a->type = type;
	a->ndims = ndims;
	memcpy(a->dims, dims, (size_t)ndims * sizeof *dims);
	return a;
}

void *spate_ckpt_add(struct spate_ckpt *c, const char *name, int type, int ndims,
	const size_t *dims)
{
	struct spate_ckpt_array *a = slot(c, name, type, ndims, dims);
	size_t n;
	if (!a)
		return NULL;
	n = spate_ckpt_count(a);
	if (!(a->data = calloc(n ? n : 1, spate_ckpt_type_size(type))))
		return NULL;
	c->narr++;
	return a->data;
}

int spate_ckpt_adopt(struct spate_ckpt *c, const char *name, int type, int ndims,
	const size_t *dims, void *data)
{
	struct spate_ckpt_array *a = slot(c, name, type, ndims, dims);
	if (!a || !data)
		return -SPATE_EINVAL;
	a->data = data;
	c->narr++;
	return 0;
}

const struct spate_ckpt_array *spate_ckpt_find(const struct spate_ckpt *c, const char *name)
{
	for (int k = 0; k < c->narr; k++)
		if (!strcmp(c->arr[k].name, name))
			return &c->arr[k];
	return NULL;
}

void spate_ckpt_free(struct spate_ckpt *c)
{
	for (int k = 0; k < c->narr; k++)
		free(c->arr[k].data);
	free(c->text);
	memset(c, 0, sizeof *c);
}
