/* run_clock.c: the time loop's clock (run_clock.h).
 *
 * The steps a run takes depend only on the state and on the stop times it
 * is given (dt is capped to reach a stop time exactly): the output times
 * and the end, and the module's own (the rain's changes).  Chunks of steps
 * may end anywhere between steps: checkpoints are taken at chunk ends a
 * step or so after each checkpoint time, never at a stop time of their
 * own, so a run stopped and continued takes exactly the steps of a run
 * never stopped. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>

#include "run_clock.h"

double spate_next_multiple(double t, double dt)
{
	double n = dt * (floor(t / dt) + 1);
	while (n <= t)
		n += dt;
	return n;
}

void spate_clock_start(struct spate_clock *c, double end, double out_every, double ckpt_every)
{
	c->end = end;
	c->out_every = out_every;
	c->ckpt_every = ckpt_every;
	c->next_out = out_every > 0 ? out_every : end;
	c->next_ckpt = ckpt_every;
	c->index = 0;
}

void spate_clock_resume(struct spate_clock *c, double t, const struct spate_clock *saved)
{
	c->index = saved->index;
	c->next_out = saved->next_out;
	c->next_ckpt = saved->next_ckpt;
	if (c->out_every != saved->out_every)
		c->next_out = c->out_every > 0 ? spate_next_multiple(t, c->out_every) : c->end;
	if (c->ckpt_every != saved->ckpt_every && c->ckpt_every > 0)
		c->next_ckpt = spate_next_multiple(t, c->ckpt_every);
}

double spate_clock_stop(const struct spate_clock *c, double also)
{
	double t = c->next_out < c->end ? c->next_out : c->end;
	return also < t ? also : t;
}

long spate_clock_ckpt_limit(const struct spate_clock *c, double t, double t_stop,
	double last_dt, long limit)
{
	double k;
	if (c->ckpt_every <= 0 || last_dt <= 0 || c->next_ckpt >= t_stop)
		return limit;
	k = ceil((c->next_ckpt - t) / last_dt);
	if (k < (double)limit)
		return k < 1 ? 1 : (long)k;
	return limit;
}

int spate_clock_output_due(struct spate_clock *c, double t)
{
	if (t < c->next_out || c->next_out >= c->end)
		return 0;
	c->next_out += c->out_every;
	return 1;
}

int spate_clock_ckpt_due(struct spate_clock *c, double t)
{
	if (c->ckpt_every <= 0 || t < c->next_ckpt || t >= c->end)
		return 0;
	while (c->next_ckpt <= t)
		c->next_ckpt += c->ckpt_every;
	return 1;
}

long spate_chunk_steps(double per_step, long last)
{
	long chunk = per_step > 0 ? (long)(0.25 / per_step) : last * 2;
	return chunk < 1 ? 1 : chunk > 100000 ? 100000 : chunk;
}
