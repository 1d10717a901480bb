/* checkpoint.c: the flood module's checkpoint (struct swe_ckpt) packed into
 * the run services' named arrays and numbers (ckpt.h) and back, written and
 * read through ckpt_file.h; the checks that a restart continues the same
 * scenario.  Module "swe", layout version SWE_CKPT_VERSION:
 *   numbers  real_bytes nx ny pitch ghost index gauge_rows steps t last_dt
 *            next_out next_gauge next_ckpt out_interval gauge_interval
 *            checkpoint_every max_depth_run volume_initial bed_hash_hi bed_hash_lo
 *   text     the resolved parameters (INI)
 *   arrays   h, hu, hv: real [ny + 2 ghost][pitch], as the state holds them
 *            (h the depth; layout 2 held levels as "w" and is refused);
 *            prod: float [ny][nx][SWE_PROD_FLOATS] (struct swe_prod), with products;
 *            gauge: double [ngauge][5], with gauges */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "params.h"
#include "checkpoint.h"
#include "ckpt_file.h"
#include "products_kern.h"

_Static_assert(sizeof(struct swe_prod) == SWE_PROD_FLOATS * sizeof(float),
	"a checkpoint stores struct swe_prod as SWE_PROD_FLOATS floats");

unsigned long long swe_bed_hash(const struct swe_state *s)
{
	uint64_t h = SPATE_FNV_START;
	double geo[5] = { s->dx, s->dy, s->x0, s->y0, s->bref };
	h = spate_fnv1a(h, &s->nx, sizeof s->nx);
	h = spate_fnv1a(h, &s->ny, sizeof s->ny);
	size_t n = (size_t)s->nx * s->ny;
	h = spate_fnv1a(h, geo, sizeof geo);
	h = spate_fnv1a(h, s->Bc,
		(size_t)(s->ny + 2 * SWE_GHOST + 1) * s->cpitch * sizeof(real));
	if (s->n2)
		h = spate_fnv1a(h, s->n2, n * sizeof *s->n2);
	for (int k = 0; k < s->nrain; k++) {
		h = spate_fnv1a(h, &s->rain_t[k], sizeof *s->rain_t);
		h = spate_fnv1a(h, s->rain[k], n * sizeof *s->rain[k]);
	}
	return h;
}

void swe_ckpt_free(struct swe_ckpt *c)
{
	free(c->params);
	free(c->w);
	free(c->hu);
	free(c->hv);
	free(c->prod);
	free(c->gauge);
	memset(c, 0, sizeof *c);
}

#define REAL_TYPE (sizeof(real) == 8 ? SPATE_CKPT_F64 : SPATE_CKPT_F32)

/* The header's numbers: their names and places in struct swe_ckpt. */
enum { NNUM = 18 };
static const char *const num_names[NNUM] = { "real_bytes", "nx", "ny", "pitch", "ghost",
	"index", "gauge_rows", "steps", "t", "last_dt", "next_out", "next_gauge", "next_ckpt",
	"out_interval", "gauge_interval", "checkpoint_every", "max_depth_run", "volume_initial" };

static void nums_of(const struct swe_ckpt *c, double *v)
{
	double x[NNUM] = { c->real_bytes, c->nx, c->ny, c->pitch, c->ghost, c->index,
		(double)c->gauge_rows, (double)c->steps, c->t, c->last_dt, c->next_out,
		c->next_gauge, c->next_ckpt, c->out_interval, c->gauge_interval,
		c->checkpoint_every, c->max_depth_run, c->volume_initial };
	memcpy(v, x, sizeof x);
}

static void nums_to(struct swe_ckpt *c, const double *v)
{
	c->real_bytes = (int)v[0];
	c->nx = (int)v[1];
	c->ny = (int)v[2];
	c->pitch = (int)v[3];
	c->ghost = (int)v[4];
	c->index = (int)v[5];
	c->gauge_rows = (long)v[6];
	c->steps = (long)v[7];
	c->t = v[8];
	c->last_dt = v[9];
	c->next_out = v[10];
	c->next_gauge = v[11];
	c->next_ckpt = v[12];
	c->out_interval = v[13];
	c->gauge_interval = v[14];
	c->checkpoint_every = v[15];
	c->max_depth_run = v[16];
	c->volume_initial = v[17];
}

/* *data as array name of type, dims[nd] of k (taken over: *data is NULL
 * after). */
static int adopt(struct spate_ckpt *k, const char *name, int type, int nd, const size_t *dims,
	void **data)
{
	int rc = spate_ckpt_adopt(k, name, type, nd, dims, *data);
	if (!rc)
		*data = NULL;
	return rc;
}

/* c as a module checkpoint k; c's arrays move into k. */
static int pack(struct swe_ckpt *c, struct spate_ckpt *k)
{
	double v[NNUM];
	size_t cells[2] = { (size_t)(c->ny + 2 * c->ghost), (size_t)c->pitch };
	size_t pd[3] = { (size_t)c->ny, (size_t)c->nx, SWE_PROD_FLOATS }, gd[2] = { (size_t)c->ngauge, 5 };
	int rc = 0;
	snprintf(k->module, sizeof k->module, "swe");
	k->version = SWE_CKPT_VERSION;
	nums_of(c, v);
	for (int i = 0; i < NNUM && !rc; i++)
		rc = spate_ckpt_set(k, num_names[i], v[i]);
	if (rc || (rc = spate_ckpt_set(k, "bed_hash_hi", (double)(c->bed_hash >> 32))) ||
		(rc = spate_ckpt_set(k, "bed_hash_lo", (double)(c->bed_hash & 0xffffffffULL))))
		return rc;
	snprintf(k->time_units, sizeof k->time_units, "%s", c->time_units);
	if (c->params && !(k->text = strdup(c->params)))
		return -SPATE_ENOMEM;
	if ((rc = adopt(k, "h", REAL_TYPE, 2, cells, (void **)&c->w)) ||
		(rc = adopt(k, "hu", REAL_TYPE, 2, cells, (void **)&c->hu)) ||
		(rc = adopt(k, "hv", REAL_TYPE, 2, cells, (void **)&c->hv)))
		return rc;
	if (c->prod && (rc = adopt(k, "prod", SPATE_CKPT_F32, 3, pd, (void **)&c->prod)))
		return rc;
	if (c->ngauge && (rc = adopt(k, "gauge", SPATE_CKPT_F64, 2, gd, (void **)&c->gauge)))
		return rc;
	return 0;
}

int swe_ckpt_write(struct swe_ckpt *c, const char *dir, char *path, size_t n)
{
	struct spate_ckpt k;
	int rc;
	memset(&k, 0, sizeof k);
	if (!(rc = pack(c, &k)))
		rc = spate_ckpt_write(&k, dir, path, n);
	spate_ckpt_free(&k);
	return rc;
}

void swe_ckpt_path(const char *dir, char *path, size_t n)
{
	spate_ckpt_path(dir, path, n);
}

/* Take array name of k into *to when it has type and dims[nd] (ownership
 * moves to the caller); 1 when it does. */
static int take(struct spate_ckpt *k, const char *name, int type, int nd, const size_t *dims,
	void **to)
{
	struct spate_ckpt_array *a = (struct spate_ckpt_array *)spate_ckpt_find(k, name);
	if (!a || a->type != type || a->ndims != nd)
		return 0;
	for (int d = 0; d < nd; d++)
		if (a->dims[d] != dims[d])
			return 0;
	*to = a->data;
	a->data = NULL;
	return 1;
}

/* c from module checkpoint k; 0 or -SPATE_EFORMAT. */
static int unpack(struct spate_ckpt *k, struct swe_ckpt *c)
{
	double v[NNUM], hi, lo;
	size_t cells[2], pd[3], gd[2] = { 0, 5 };
	const struct spate_ckpt_array *g = spate_ckpt_find(k, "gauge");
	for (int i = 0; i < NNUM; i++)
		if (spate_ckpt_get(k, num_names[i], &v[i]) || !isfinite(v[i]))
			return -SPATE_EFORMAT;
	if (k->version != SWE_CKPT_VERSION || spate_ckpt_get(k, "bed_hash_hi", &hi) ||
		spate_ckpt_get(k, "bed_hash_lo", &lo))
		return -SPATE_EFORMAT;
	nums_to(c, v);
	c->bed_hash = ((unsigned long long)hi << 32) | (unsigned long long)lo;
	c->params = k->text;
	k->text = NULL;
	if (c->nx < 1 || c->ny < 1 || c->pitch < c->nx || c->ghost < 0 || c->ghost > 64 ||
		(c->real_bytes != 4 && c->real_bytes != 8))
		return -SPATE_EFORMAT;
	if (c->real_bytes != (int)sizeof(real))
		return 0;   /* swe_ckpt_check says why */
	cells[0] = (size_t)(c->ny + 2 * c->ghost);
	cells[1] = (size_t)c->pitch;
	pd[0] = (size_t)c->ny;
	pd[1] = (size_t)c->nx;
	pd[2] = SWE_PROD_FLOATS;
	c->ngauge = g && g->ndims == 2 ? (int)g->dims[0] : 0;
	gd[0] = (size_t)c->ngauge;
	if (!take(k, "h", REAL_TYPE, 2, cells, (void **)&c->w) ||
		!take(k, "hu", REAL_TYPE, 2, cells, (void **)&c->hu) ||
		!take(k, "hv", REAL_TYPE, 2, cells, (void **)&c->hv) ||
		(spate_ckpt_find(k, "prod") && !take(k, "prod", SPATE_CKPT_F32, 3, pd,
			(void **)&c->prod)) ||
		(g && !take(k, "gauge", SPATE_CKPT_F64, 2, gd, (void **)&c->gauge)))
		return -SPATE_EFORMAT;
	return 0;
}

int swe_ckpt_read(const char *path, struct swe_ckpt *c)
{
	struct spate_ckpt k;
	int rc;
	memset(c, 0, sizeof *c);
	if ((rc = spate_ckpt_read(path, "swe", &k)))
		return rc;
	if (k.version < SWE_CKPT_VERSION) {
		spate_log_error("checkpoint", "%s: an older spate's checkpoint (layout %d, which "
			"%s; this spate reads layout %d): it cannot continue it; run from the start, or "
			"finish that run with the spate that wrote it", path, k.version, k.version < 3 ?
			"stored water levels" : "kept no hazard classes", SWE_CKPT_VERSION);
		rc = -SPATE_EFORMAT;
	} else if ((rc = unpack(&k, c))) {
		spate_log_error("checkpoint", "%s: a damaged checkpoint, or one of another version "
			"(this spate reads version %d): restart from an intact one, or run from the "
			"start", path, SWE_CKPT_VERSION);
		swe_ckpt_free(c);
	}
	spate_ckpt_free(&k);
	return rc;
}

/* The next line of text at *s that counts for a restart: [run], [output]
 * and [parallel] keys and [domain] data_dir left out.  Returns its length
 * (0 at the end) and sets *line; sec (64 bytes) tracks the section. */
static size_t next_line(const char **s, char *sec, const char **line)
{
	while (**s) {
		const char *l = *s;
		size_t len = strcspn(l, "\n");
		*s = l[len] ? l + len + 1 : l + len;
		if (l[0] == '[') {
			snprintf(sec, 64, "%.*s", (int)(len < 63 ? len : 63), l);
			continue;
		}
		if (len == 0 || (!strcmp(sec, "[run]") && strncmp(l, "start_time =", 12)) || !strcmp(sec, "[output]") ||
			!strcmp(sec, "[parallel]") || (!strcmp(sec, "[domain]") &&
			!strncmp(l, "data_dir =", 10)))
			continue;
		*line = l;
		return len;
	}
	return 0;
}

int swe_ckpt_check(const struct swe_ckpt *c, const char *path, const struct swe_params *p,
	const struct swe_state *s)
{
	char *now = swe_params_text(p), sa[64] = "", sb[64] = "";
	const char *a = c->params ? c->params : "", *b = now, *la = "", *lb = "";
	size_t na, nb;
	if (c->real_bytes != (int)sizeof(real)) {
		spate_log_error("checkpoint", "%s: written by a %s-precision spate; this one is %s: "
			"restart with the build that wrote it", path, c->real_bytes == 8 ? "double" :
			"single", SPATE_PRECISION);
		free(now);
		return -SPATE_EINVAL;
	}
	if (c->nx != s->nx || c->ny != s->ny || c->pitch != s->pitch || c->ghost != SWE_GHOST) {
		spate_log_error("checkpoint", "%s: a %d x %d grid; this scenario makes %d x %d: "
			"restart with the scenario that wrote it", path, c->nx, c->ny, s->nx, s->ny);
		free(now);
		return -SPATE_EINVAL;
	}
	if (!now)
		return -SPATE_ENOMEM;
	do {
		na = next_line(&a, sa, &la);
		nb = next_line(&b, sb, &lb);
		if (na != nb || strcmp(sa, sb) || strncmp(la, lb, na)) {
			spate_log_error("checkpoint", "%s: made with %s %.*s, this run has %s %.*s: a "
				"restart continues the same scenario (only [run] keys but start_time, [output] "
				"and [parallel] keys may change)", path, sa, (int)na, na ? la : "(nothing)", sb, (int)nb,
				nb ? lb : "(nothing)");
			free(now);
			return -SPATE_EINVAL;
		}
	} while (na);
	free(now);
	if (c->bed_hash != swe_bed_hash(s)) {
		spate_log_error("checkpoint", "%s: the terrain (bed, Manning or rain rasters) differs "
			"from the one it was made on (another file under the same name?): restart with "
			"the same data", path);
		return -SPATE_EINVAL;
	}
	return 0;
}
