/* checkpoint.c: writing checkpoints safely, reading either format, and the
 * checks that a restart continues the same scenario.
 *
 * The binary format (checkpoint.bin, for builds without NetCDF), all fields
 * in the byte order of the machine that wrote it:
 *   char[8]  "SPATECKP"
 *   int32    version (2), real_bytes, nx, ny, pitch, ghost, index, has_prod,
 *            ngauge, 0
 *   int64    steps, gauge_rows, params_len
 *   uint64   bed_hash
 *   double   t, last_dt, next_out, next_gauge, next_ckpt, out_interval,
 *            gauge_interval, checkpoint_every, max_depth_run, volume_initial
 *   char     params[params_len]                   (INI text, no NUL)
 *   real     h, hu, hv: (ny + 2 ghost) * pitch each (h: depth; version 1
 *            held the level here and is refused)
 *   float    products: nx * ny * 6 (struct swe_prod), if has_prod
 *   double   gauges: ngauge * 5, if ngauge */
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
#include "swe.h"
#include "checkpoint.h"
#include "ncout.h"
#include "products_kern.h"

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *b = data;
	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * 0x100000001b3ULL;
	return h;
}

unsigned long long swe_bed_hash(const struct swe_state *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	double geo[5] = { s->dx, s->dy, s->x0, s->y0, s->bref };
	h = fnv(h, &s->nx, sizeof s->nx);
	h = fnv(h, &s->ny, sizeof s->ny);
	size_t n = (size_t)s->nx * s->ny;
	h = fnv(h, geo, sizeof geo);
	h = fnv(h, s->Bc, (size_t)(s->ny + 2 * SWE_GHOST + 1) * s->cpitch * sizeof(real));
	if (s->n2)
		h = fnv(h, s->n2, n * sizeof *s->n2);
	for (int k = 0; k < s->nrain; k++) {
		h = fnv(h, &s->rain_t[k], sizeof *s->rain_t);
		h = fnv(h, s->rain[k], n * sizeof *s->rain[k]);
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

/* The header: ten int32, three int64 and ten doubles, in file order. */
#define NINT 10
#define NDBL 10
static void head_pack(const struct swe_ckpt *c, int32_t *iv, int64_t *lv, double *d)
{
	int32_t i[NINT] = { SWE_CKPT_VERSION, c->real_bytes, c->nx, c->ny, c->pitch, c->ghost,
		c->index, c->prod != NULL, c->ngauge, 0 };
	double v[NDBL] = { c->t, c->last_dt, c->next_out, c->next_gauge, c->next_ckpt,
		c->out_interval, c->gauge_interval, c->checkpoint_every, c->max_depth_run,
		c->volume_initial };
	memcpy(iv, i, sizeof i);
	memcpy(d, v, sizeof v);
	lv[0] = c->steps;
	lv[1] = c->gauge_rows;
	lv[2] = c->params ? (int64_t)strlen(c->params) : 0;
}

static void head_unpack(struct swe_ckpt *c, const int32_t *iv, const int64_t *lv,
	const double *d)
{
	c->real_bytes = iv[1];
	c->nx = iv[2];
	c->ny = iv[3];
	c->pitch = iv[4];
	c->ghost = iv[5];
	c->index = iv[6];
	c->ngauge = iv[8];
	c->steps = (long)lv[0];
	c->gauge_rows = (long)lv[1];
	c->t = d[0];
	c->last_dt = d[1];
	c->next_out = d[2];
	c->next_gauge = d[3];
	c->next_ckpt = d[4];
	c->out_interval = d[5];
	c->gauge_interval = d[6];
	c->checkpoint_every = d[7];
	c->max_depth_run = d[8];
	c->volume_initial = d[9];
}

static int bin_write(const char *path, const struct swe_ckpt *c)
{
	int32_t iv[NINT];
	int64_t lv[3];
	uint64_t hash = c->bed_hash;
	double dv[NDBL];
	size_t n = (size_t)(c->ny + 2 * c->ghost) * c->pitch, np = (size_t)c->nx * c->ny;
	FILE *f = fopen(path, "wb");
	int ok;
	if (!f) {
		spate_log_error("checkpoint", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	head_pack(c, iv, lv, dv);
	ok = fwrite(SWE_CKPT_MAGIC, 1, 8, f) == 8 && fwrite(iv, sizeof iv, 1, f) == 1 &&
		fwrite(lv, sizeof lv, 1, f) == 1 && fwrite(&hash, sizeof hash, 1, f) == 1 &&
		fwrite(dv, sizeof dv, 1, f) == 1 &&
		(lv[2] == 0 || fwrite(c->params, (size_t)lv[2], 1, f) == 1) &&
		fwrite(c->w, sizeof(real), n, f) == n && fwrite(c->hu, sizeof(real), n, f) == n &&
		fwrite(c->hv, sizeof(real), n, f) == n &&
		(!c->prod || fwrite(c->prod, sizeof *c->prod, np, f) == np) &&
		(!c->ngauge || fwrite(c->gauge, sizeof(double) * SWE_CKPT_GAUGE_VALUES,
			(size_t)c->ngauge, f) == (size_t)c->ngauge);
	ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
	if (fclose(f) || !ok) {
		spate_log_error("checkpoint", "error writing %s: %s (disk full?)", path,
			strerror(errno));
		return -SPATE_EIO;
	}
	return 0;
}

/* Read n items of size each, or fail. */
static int get(FILE *f, void *p, size_t size, size_t n)
{
	return n == 0 || fread(p, size, n, f) == n;
}

static int bin_read(const char *path, FILE *f, struct swe_ckpt *c)
{
	int32_t iv[NINT];
	int64_t lv[3];
	uint64_t hash;
	double dv[NDBL];
	size_t n, np;
	long end, at;
	int ok;
	ok = get(f, iv, sizeof iv, 1) && get(f, lv, sizeof lv, 1) &&
		get(f, &hash, sizeof hash, 1) && get(f, dv, sizeof dv, 1);
	head_unpack(c, iv, lv, dv);
	c->bed_hash = hash;
	if (ok && iv[0] == 1) {
		spate_log_error("checkpoint", "%s: %s", path, SWE_CKPT_OLD_MSG);
		return -SPATE_EFORMAT;
	}
	if (!ok || iv[0] != SWE_CKPT_VERSION || c->nx < 1 || c->ny < 1 || c->pitch < c->nx ||
		c->ghost < 0 || c->ghost > 64 || c->ngauge < 0 || lv[2] < 0 || lv[2] > (1 << 24) ||
		(c->real_bytes != 4 && c->real_bytes != 8) || (double)c->pitch * c->ny > 8e9)
		goto bad;
	n = (size_t)(c->ny + 2 * c->ghost) * c->pitch;
	np = (size_t)c->nx * c->ny;
	at = ftell(f);
	if (fseek(f, 0, SEEK_END) || (end = ftell(f)) < 0 || fseek(f, at, SEEK_SET) ||
		(double)end != (double)at + (double)lv[2] + 3.0 * n * c->real_bytes +
		(iv[7] ? (double)np * sizeof *c->prod : 0) +
		(double)c->ngauge * SWE_CKPT_GAUGE_VALUES * sizeof(double))
		goto bad;
	if (c->real_bytes != (int)sizeof(real))
		return 0;   /* swe_ckpt_check says why */
	c->params = calloc((size_t)lv[2] + 1, 1);
	c->w = malloc(n * sizeof(real));
	c->hu = malloc(n * sizeof(real));
	c->hv = malloc(n * sizeof(real));
	c->prod = iv[7] ? malloc(np * sizeof *c->prod) : NULL;
	c->gauge = c->ngauge ? malloc((size_t)c->ngauge * SWE_CKPT_GAUGE_VALUES * sizeof(double)) :
		NULL;
	if (!c->params || !c->w || !c->hu || !c->hv || (iv[7] && !c->prod) ||
		(c->ngauge && !c->gauge))
		return -SPATE_ENOMEM;
	if (get(f, c->params, 1, (size_t)lv[2]) && get(f, c->w, sizeof(real), n) &&
		get(f, c->hu, sizeof(real), n) && get(f, c->hv, sizeof(real), n) &&
		(!c->prod || get(f, c->prod, sizeof *c->prod, np)) &&
		get(f, c->gauge, sizeof(double) * SWE_CKPT_GAUGE_VALUES, (size_t)c->ngauge))
		return 0;
bad:
	spate_log_error("checkpoint", "%s: a damaged or truncated checkpoint, or one of another "
		"version or machine: restart from an intact one, or run from the start", path);
	return -SPATE_EFORMAT;
}

int swe_ckpt_read(const char *path, struct swe_ckpt *c)
{
	FILE *f = fopen(path, "rb");
	char magic[8];
	int rc;
	memset(c, 0, sizeof *c);
	if (!f) {
		spate_log_error("checkpoint", "cannot open %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	if (fread(magic, 1, 8, f) == 8 && memcmp(magic, SWE_CKPT_MAGIC, 8) == 0) {
		rc = bin_read(path, f, c);
		fclose(f);
	} else if (memcmp(magic, "\x89HDF", 4) == 0 || memcmp(magic, "CDF", 3) == 0) {
		fclose(f);
		rc = spate_nc_ckpt_read(path, c);
	} else {
		fclose(f);
		spate_log_error("checkpoint", "%s: not a spate checkpoint (checkpoint.nc or "
			"checkpoint.bin, written with --checkpoint-every or on SIGINT/SIGTERM)", path);
		rc = -SPATE_EFORMAT;
	}
	if (rc)
		swe_ckpt_free(c);
	return rc;
}

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

void swe_ckpt_path(const char *dir, char *path, size_t n)
{
	snprintf(path, n, "%s/checkpoint.%s", dir, netcdf_format() ? "nc" : "bin");
}

int swe_ckpt_write(const struct swe_ckpt *c, const char *dir, char *path, size_t n)
{
	char tmp[SWE_PATH_MAX + 64];
	int rc, nc = netcdf_format();
	swe_ckpt_path(dir, path, n);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	rc = nc ? spate_nc_ckpt_write(tmp, c) : bin_write(tmp, c);
	if (!rc && rename(tmp, path)) {
		spate_log_error("checkpoint", "cannot rename %s to %s: %s", tmp, path,
			strerror(errno));
		rc = -SPATE_EIO;
	}
	if (rc)
		remove(tmp);
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
		if (len == 0 || !strcmp(sec, "[run]") || !strcmp(sec, "[output]") ||
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
				"restart continues the same scenario (only [run], [output] and [parallel] "
				"keys may change)", path, sa, (int)na, na ? la : "(nothing)", sb, (int)nb,
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
