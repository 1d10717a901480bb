/* bsq_ckpt.c: a Boussinesq checkpoint (bsq_ckpt.h).  Module "bsq", layout
 * version 1:
 *   numbers  real_bytes nx ny nz t dt_prev step next_out next_ckpt index
 *            out_every ckpt_every cycles (pressure cycles or sweeps so far)
 *   text     the scenario's resolved keys (bsq_config_text)
 *   arrays   u v w T p F_u F_v F_w F_T Fold_u Fold_v Fold_w Fold_T p_prev,
 *            each [nz + 2][ny + 2][nx + 2] as the state holds them (ghosts
 *            too); p_prev (the pressure before p, [solver] warm_start =
 *            linear only) was added later: a checkpoint without it (and
 *            without warm_start in its text) continues from p alone
 * Everything the next step reads, so a run stopped and continued takes the
 * steps of a run never stopped, to the bit. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "bsq_ckpt.h"
#include "ckpt_file.h"

#define LAYOUT 1
#define TYPE (sizeof(bsq_real) == 8 ? SPATE_CKPT_F64 : SPATE_CKPT_F32)
enum { NARR = 14, NNUM = 13, PREV = 13 };
static const char *const arr_names[NARR] = { "u", "v", "w", "T", "p", "F_u", "F_v", "F_w",
	"F_T", "Fold_u", "Fold_v", "Fold_w", "Fold_T", "p_prev" };
static const char *const num_names[NNUM] = { "real_bytes", "nx", "ny", "nz", "t", "dt_prev",
	"step", "next_out", "next_ckpt", "index", "out_every", "ckpt_every", "cycles" };

static bsq_real **arrays(struct bsq_state *s, bsq_real **a)
{
	bsq_real *x[NARR] = { s->u, s->v, s->w, s->T, s->p, s->F[0], s->F[1], s->F[2], s->F[3],
		s->Fold[0], s->Fold[1], s->Fold[2], s->Fold[3], s->lev[0].v[BSQ_PREV] };
	memcpy(a, x, sizeof x);
	return a;
}

int bsq_ckpt_write(const struct bsq_config *c, const struct bsq_state *s,
	const struct spate_clock *clk, long cycles, char *path, size_t n)
{
	struct spate_ckpt k;
	bsq_real *a[NARR];
	size_t dims[3] = { (size_t)s->g.nz + 2, (size_t)s->g.ny + 2, (size_t)s->g.nx + 2 };
	double v[NNUM] = { (double)sizeof(bsq_real), s->g.nx, s->g.ny, s->g.nz, s->t, s->dt_prev,
		(double)s->step, clk->next_out, clk->next_ckpt, clk->index, clk->out_every,
		clk->ckpt_every, (double)cycles };
	int rc = 0;
	memset(&k, 0, sizeof k);
	snprintf(k.module, sizeof k.module, "bsq");
	k.version = LAYOUT;
	arrays((struct bsq_state *)s, a);
	for (int i = 0; i < NNUM && !rc; i++)
		rc = spate_ckpt_set(&k, num_names[i], v[i]);
	if (!rc && !(k.text = bsq_config_text(c, NULL)))
		rc = -SPATE_ENOMEM;
	for (int i = 0; i < NARR && !rc; i++) {
		void *d;
		if (!a[i])
			continue;   /* p_prev with warm_start = previous */
		if (!(d = spate_ckpt_add(&k, arr_names[i], TYPE, 3, dims)))
			rc = -SPATE_ENOMEM;
		else
			memcpy(d, a[i], s->n * sizeof(bsq_real));
	}
	if (!rc && !(rc = spate_mkdir_p(c->out_dir)))
		rc = spate_ckpt_write(&k, c->out_dir, path, n);
	spate_ckpt_free(&k);
	return rc;
}

/* The scenario part of a config text: everything before [run]. */
static size_t scenario_len(const char *text)
{
	const char *r = strstr(text, "[run]");
	return r ? (size_t)(r - text) : strlen(text);
}

/* Keys that came after checkpoints of LAYOUT 1 did: a text without one was
 * written before it existed.  warm_start changes only the solve's first
 * guess (to the same tol): such a checkpoint continues with its value now. */
static const char *const added[] = { "\nwarm_start = " };

/* The line of each key of added[] that text lacks, cut out of now. */
static void cut_added(char *now, const char *text)
{
	for (size_t i = 0; i < sizeof added / sizeof *added; i++) {
		char *a = strstr(now, added[i]), *e;
		if (!a || strstr(text, added[i]))
			continue;
		if ((e = strchr(a + 1, '\n')))
			memmove(a, e, strlen(e) + 1);
		else
			*a = '\0';
	}
}

/* Whether checkpoint k fits state s and config c; a message when not. */
static int fits(const struct spate_ckpt *k, const char *path, const struct bsq_config *c,
	const struct bsq_state *s, const double *v)
{
	char *now = bsq_config_text(c, NULL);
	int same;
	if (now && k->text)
		cut_added(now, k->text);
	same = now && k->text && scenario_len(now) == scenario_len(k->text) &&
		!strncmp(now, k->text, scenario_len(now));
	free(now);
	if (v[0] != (double)sizeof(bsq_real)) {
		spate_log_error("checkpoint", "%s: written by a %s-precision spate: restart with "
			"the build that wrote it", path, v[0] == 8 ? "double" : "single");
		return 0;
	}
	if (v[1] != s->g.nx || v[2] != s->g.ny || v[3] != s->g.nz || !same) {
		spate_log_error("checkpoint", "%s: made with another grid or scenario: a restart "
			"continues the same scenario (only [run] and [output] keys may change)", path);
		return 0;
	}
	return 1;
}

int bsq_ckpt_read(const char *path, const struct bsq_config *c, struct bsq_state *s,
	struct spate_clock *clk, long *cycles)
{
	struct spate_ckpt k;
	struct spate_clock saved;
	bsq_real *a[NARR];
	double v[NNUM];
	int rc = spate_ckpt_read(path, "bsq", &k);
	if (rc)
		return rc;
	rc = k.version == LAYOUT ? 0 : -SPATE_EFORMAT;
	for (int i = 0; i < NNUM && !rc; i++)
		rc = spate_ckpt_get(&k, num_names[i], &v[i]);
	if (rc)
		spate_log_error("checkpoint", "%s: a damaged checkpoint, or one of another version",
			path);
	else if (!fits(&k, path, c, s, v))
		rc = -SPATE_EINVAL;
	arrays(s, a);
	for (int i = 0; i < NARR && !rc; i++) {
		const struct spate_ckpt_array *x = spate_ckpt_find(&k, arr_names[i]);
		if (!a[i]) {
			continue;   /* warm_start = previous: no p_prev to fill */
		} else if (!x && i == PREV && !strstr(k.text, added[0])) {
			/* written before p_prev was kept: p_prev starts invalid, as
			 * p itself, so that the first step extrapolates from p to p
			 * (the last step's pressure, as warm_start = previous) */
			memcpy(a[i], a[4], s->n * sizeof(bsq_real));
		} else if (!x || x->type != TYPE || spate_ckpt_count(x) != s->n) {
			spate_log_error("checkpoint", "%s: %s missing or of another size", path,
				arr_names[i]);
			rc = -SPATE_EFORMAT;
		} else {
			memcpy(a[i], x->data, s->n * sizeof(bsq_real));
		}
	}
	if (!rc) {
		s->t = v[4];
		s->dt_prev = v[5];
		s->step = (long)v[6];
		saved.next_out = v[7];
		saved.next_ckpt = v[8];
		saved.index = (int)v[9];
		saved.out_every = v[10];
		saved.ckpt_every = v[11];
		*cycles = (long)v[12];
		spate_clock_resume(clk, s->t, &saved);
	}
	spate_ckpt_free(&k);
	return rc;
}
