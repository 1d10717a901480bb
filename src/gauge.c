/* gauge.c: gauges at points, sampled after every step. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spate.h"
#include "gauge.h"

/* Parse one "name,x,y,..." line; returns 1 on success. */
static int parse_line(char *line, struct gauge *g)
{
	char *name = strtok(line, ","), *xs = strtok(NULL, ","), *ys = strtok(NULL, ",\r\n"), *e;
	if (!name || !xs || !ys)
		return 0;
	g->x = strtod(xs, &e);
	if (e == xs || !isfinite(g->x))
		return 0;
	g->y = strtod(ys, &e);
	if (e == ys || !isfinite(g->y))
		return 0;
	snprintf(g->name, sizeof g->name, "%s", name);
	return 1;
}

int gauge_load(struct gauge_set *gs, const char *path, const struct swe_state *s, int radius,
	double threshold)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int lineno = 0, cap = 0, side = 2 * radius + 1;
	memset(gs, 0, sizeof *gs);
	gs->radius = radius;
	gs->threshold = threshold;
	if (!f) {
		spate_log_error("gauges", "%s: cannot open: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	while (fgets(line, sizeof line, f)) {
		struct gauge g;
		double fi, fj;
		lineno++;
		if (line[strspn(line, " \t\r\n")] == 0 || line[0] == '#')
			continue;
		memset(&g, 0, sizeof g);
		if (!parse_line(line, &g)) {
			if (lineno == 1)
				continue; /* header */
			spate_log_error("gauges", "%s:%d: expected name,x,y", path, lineno);
			goto fail;
		}
		/* the cell, compared as a double: a point far outside would
		 * overflow an int (fuzz_gauge) */
		fi = floor((g.x - s->x0) / s->dx);
		fj = floor((g.y - s->y0) / s->dy);
		if (!(fi >= 0 && fj >= 0 && fi < s->nx && fj < s->ny)) {
			spate_log_error("gauges", "%s:%d: %s at (%g, %g) is outside the grid (%g..%g, "
				"%g..%g)", path, lineno, g.name, g.x, g.y, s->x0, s->x0 + s->nx * s->dx,
				s->y0, s->y0 + s->ny * s->dy);
			goto fail;
		}
		g.i = (int)fi;
		g.j = (int)fj;
		g.max_level = g.max_level_nb = g.arrival = g.t_max = g.nb_restart = NAN;
		if (gs->n == cap) {
			struct gauge *ng;
			cap = cap ? 2 * cap : 32;
			ng = realloc(gs->g, (size_t)cap * sizeof *ng);
			if (!ng)
				goto nomem;
			gs->g = ng;
		}
		gs->g[gs->n++] = g;
	}
	fclose(f);
	f = NULL;
	gs->per = side * side;
	gs->idx = malloc((size_t)gs->n * gs->per * sizeof *gs->idx);
	gs->w = malloc((size_t)gs->n * gs->per * sizeof(real));
	gs->hu = malloc((size_t)gs->n * gs->per * sizeof(real));
	gs->hv = malloc((size_t)gs->n * gs->per * sizeof(real));
	gs->tr = malloc((size_t)gs->n * gs->per * sizeof *gs->tr);
	if (gs->n && (!gs->idx || !gs->w || !gs->hu || !gs->hv || !gs->tr))
		goto nomem;
	for (size_t q = 0; q < (size_t)gs->n * gs->per; q++)
		gauge_track_reset(&gs->tr[q]);
	for (int k = 0; k < gs->n; k++)
		for (int m = 0; m < gs->per; m++) {
			int i = gs->g[k].i + m % side - radius, j = gs->g[k].j + m / side - radius;
			i = i < 0 ? 0 : i >= s->nx ? s->nx - 1 : i;
			j = j < 0 ? 0 : j >= s->ny ? s->ny - 1 : j;
			/* the centre cell first */
			if (m == 0) {
				i = gs->g[k].i;
				j = gs->g[k].j;
			}
			gs->idx[(size_t)k * gs->per + m] = swe_idx(s, i, j);
		}
	return 0;
nomem:
	spate_log_error("gauges", "%s: out of memory", path);
fail:
	if (f)
		fclose(f);
	gauge_free(gs);
	return -SPATE_EINVAL;
}

void gauge_update(struct gauge_set *gs, const struct swe_state *s, double t, double kappa)
{
	(void)kappa;
	for (size_t q = 0; q < (size_t)gs->n * gs->per; q++)
		gauge_track_update(&gs->tr[q], gs->w[q], s->Bm[gs->idx[q]], s->bref, gs->threshold, t,
			q % (size_t)gs->per == 0);
	gauge_collect(gs);
}

void gauge_collect(struct gauge_set *gs)
{
	for (int k = 0; k < gs->n; k++) {
		struct gauge *g = &gs->g[k];
		const struct gauge_track *c = &gs->tr[(size_t)k * gs->per];
		double nb = g->nb_restart;
		g->max_level = c->level;
		g->arrival = c->arrival;
		g->t_max = c->t_max;
		g->max_depth = c->depth;
		for (int m = 0; m < gs->per; m++)
			if (!(c[m].level <= nb)) /* NAN: none yet */
				nb = isnan(c[m].level) ? nb : c[m].level;
		g->max_level_nb = nb;
	}
}

void gauge_restore(struct gauge_set *gs, int k, double max_level, double max_level_nb,
	double max_depth, double arrival, double t_max)
{
	struct gauge_track *c = &gs->tr[(size_t)k * gs->per];
	for (int m = 0; m < gs->per; m++)
		gauge_track_reset(&c[m]);
	c->level = max_level;
	c->depth = max_depth;
	c->arrival = arrival;
	c->t_max = t_max;
	gs->g[k].nb_restart = max_level_nb;
	gauge_collect(gs);
}

void gauge_values(const struct gauge_set *gs, const struct swe_state *s, double kappa,
	double *v)
{
	real k4 = (real)(kappa * kappa * kappa * kappa);
	for (int k = 0; k < gs->n; k++) {
		size_t q = (size_t)k * gs->per;
		real h = gs->w[q];
		v[4 * k] = h;
		v[4 * k + 1] = (double)h + (double)s->Bm[gs->idx[q]] + s->bref;
		v[4 * k + 2] = kp07_velocity(h, gs->hu[q], k4);
		v[4 * k + 3] = kp07_velocity(h, gs->hv[q], k4);
	}
}

int gauge_csv_open(struct gauge_set *gs, const char *dir, long keep_rows)
{
	char path[4200], line[4096];
	long lines = 0, want = 1 + keep_rows * gs->n, at = 0;
	snprintf(path, sizeof path, "%s/gauges.csv", dir);
	if (keep_rows > 0 && (gs->series = fopen(path, "r+"))) {
		/* restart: keep the header and the rows written before the checkpoint */
		while (lines < want && fgets(line, sizeof line, gs->series))
			lines += strchr(line, '\n') != NULL;
		at = ftell(gs->series);
		if (lines == want && at >= 0 && fflush(gs->series) == 0 &&
			ftruncate(fileno(gs->series), at) == 0 && fseek(gs->series, at, SEEK_SET) == 0)
			return 0;
		fclose(gs->series);
		spate_log_info("spate: %s: not the series of this run: writing it anew\n", path);
	}
	gs->series = fopen(path, "w");
	if (!gs->series) {
		spate_log_error("gauges", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	fprintf(gs->series, "time_s,name,depth_m,level_m,u_m_s,v_m_s\n");
	return 0;
}

int gauge_csv_rows(struct gauge_set *gs, double t, const double *v)
{
	for (int k = 0; k < gs->n; k++)
		fprintf(gs->series, "%.6f,%s,%.6f,%.6f,%.6f,%.6f\n", t, gs->g[k].name, v[4 * k],
			v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
	return fflush(gs->series) ? -SPATE_EIO : 0;
}

static void put(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, ",");
	else
		fprintf(f, ",%.4f", v);
}

int gauge_write_summary(const struct gauge_set *gs, const char *dir)
{
	char path[4200];
	FILE *f;
	snprintf(path, sizeof path, "%s/gauges_summary.csv", dir);
	f = fopen(path, "w");
	if (!f) {
		spate_log_error("gauges", "cannot write %s: %s", path, strerror(errno));
		return -SPATE_EIO;
	}
	fprintf(f, "name,x,y,max_level_m,max_level_neighbourhood_m,max_depth_m,arrival_s,"
		"time_of_max_s\n");
	for (int k = 0; k < gs->n; k++) {
		const struct gauge *g = &gs->g[k];
		fprintf(f, "%s,%.3f,%.3f", g->name, g->x, g->y);
		put(f, g->max_level);
		put(f, g->max_level_nb);
		put(f, g->max_depth);
		put(f, g->arrival);
		put(f, g->t_max);
		fputc('\n', f);
	}
	return fclose(f) ? -SPATE_EIO : 0;
}

void gauge_free(struct gauge_set *gs)
{
	if (gs->series)
		fclose(gs->series);
	free(gs->g);
	free(gs->idx);
	free(gs->w);
	free(gs->hu);
	free(gs->hv);
	free(gs->tr);
	memset(gs, 0, sizeof *gs);
}
