/* t_gauge.c: the gauges' running maxima (gauge_kern.h through gauge.c):
 * what the GPUs keep is the same function, so its rules are checked here
 * on a hand-made sequence of samples.
 *   - a cell shallower than the threshold counts for nothing;
 *   - arrival: the first sample deeper than the threshold;
 *   - max_level and its time: the highest level at the centre, the first
 *     time it was reached (an equal level later keeps the time);
 *   - max_level_neighbourhood: the highest over all the cells, the centre's
 *     included; max_depth: the centre's;
 *   - a restart's values are the start: lower samples keep them, a
 *     neighbourhood maximum the checkpoint held stays. */
#include "simtest.h"
#include "swe_state.h"
#include "setup.h"
#include "gauge.h"

/* One sample of every cell of gauge 0: the centre's level, the others'
 * (the samples hold depths: the bed is at 1 m). */
static void feed(struct gauge_set *gs, const struct swe_state *s, double t, real wc, real wn)
{
	for (int m = 0; m < gs->per; m++)
		gs->w[m] = (m == 0 ? wc : wn) - 1;
	gauge_update(gs, s, t, 0);
}

static int same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

int main(void)
{
	char dir[] = "/tmp/t_gauge.XXXXXX", path[64];
	struct swe_state s;
	struct gauge_set gs;
	const struct gauge *g;
	FILE *f;
	if (!mkdtemp(dir) || swe_state_alloc(&s, 10, 10, 1, 1))
		return 99;
	for (int j = 0; j < 10; j++)
		for (int i = 0; i < 10; i++)
			s.Bm[swe_idx(&s, i, j)] = 1; /* bed at 1 m, bref 0 */
	snprintf(path, sizeof path, "%s/g.csv", dir);
	if (!(f = fopen(path, "w")))
		return 99;
	fprintf(f, "name,x,y\nA,5.5,5.5\n");
	fclose(f);
	if (gauge_load(&gs, path, &s, 1, 0.05))
		return 99;
	g = &gs.g[0];
	sim_check(gs.n == 1 && gs.per == 9, "one gauge of 3 x 3 cells (%d, %d)", gs.n, gs.per);

	feed(&gs, &s, 1, 1.04f, 1.04f); /* 4 cm: below the threshold */
	sim_check(isnan(g->arrival) && isnan(g->max_level) && isnan(g->max_level_nb) &&
		g->max_depth == 0, "below the threshold: never wet (arrival %g, max %g, depth %g)",
		g->arrival, g->max_level, g->max_depth);
	feed(&gs, &s, 2, 1.5f, 1.2f);
	feed(&gs, &s, 3, 2.0f, 2.5f);
	feed(&gs, &s, 4, 1.8f, 1.1f);
	feed(&gs, &s, 5, 2.0f, 1.0f); /* the same highest level again */
	sim_check(g->arrival == 2 && g->max_level == (double)2.0f && g->t_max == 3 &&
		g->max_depth == (double)2.0f - 1 && g->max_level_nb == (double)2.5f,
		"arrival %g (2), max level %g at %g s (2 at 3 s, not 5), depth %g (1), "
		"neighbourhood %g (2.5)", g->arrival, g->max_level, g->t_max, g->max_depth,
		g->max_level_nb);

	/* a restart: the checkpoint's values, then lower samples */
	gauge_restore(&gs, 0, 3.0, 3.5, 2.0, 0.5, 1.5);
	feed(&gs, &s, 6, 2.9f, 3.4f);
	sim_check(g->max_level == 3.0 && g->t_max == 1.5 && g->arrival == 0.5 &&
		g->max_depth == 2.0 && g->max_level_nb == 3.5, "restarted: the checkpoint's "
		"values kept (max %g at %g s, arrival %g, depth %g, neighbourhood %g)", g->max_level,
		g->t_max, g->arrival, g->max_depth, g->max_level_nb);
	feed(&gs, &s, 7, 3.25f, 3.75f);
	sim_check(g->max_level == (double)3.25f && g->t_max == 7 && g->arrival == 0.5 &&
		same(g->max_level_nb, (double)3.75f), "restarted, then higher: max %g at %g s, "
		"neighbourhood %g", g->max_level, g->t_max, g->max_level_nb);
	/* a restart of a gauge never wet */
	gauge_restore(&gs, 0, NAN, NAN, 0, NAN, NAN);
	feed(&gs, &s, 8, 1.0f, 1.0f);
	sim_check(isnan(g->max_level) && isnan(g->max_level_nb) && isnan(g->arrival),
		"restarted dry, still dry: no level, no arrival");
	gauge_free(&gs);
	swe_state_free(&s);
	remove(path);
	rmdir(dir);
	return sim_done("t_gauge");
}
