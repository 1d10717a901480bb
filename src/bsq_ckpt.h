/* bsq_ckpt.h: a Boussinesq run's checkpoint (bsq_ckpt.c): the state packed
 * into the run services' named arrays and numbers (ckpt.h) and back. */
#ifndef SPATE_BSQ_CKPT_H
#define SPATE_BSQ_CKPT_H

#include "bsq.h"
#include "bsq_scenario.h"
#include "run_clock.h"

/* Write the checkpoint of state s, clock clk and the pressure cycles so far
 * into c->out_dir; path (n
 * bytes) receives its name.  0 or -SPATE_E*. */
int bsq_ckpt_write(const struct bsq_config *c, const struct bsq_state *s,
	const struct spate_clock *clk, long cycles, char *path, size_t n);

/* Continue from the checkpoint at path: s (from bsq_init of the same
 * scenario) takes its fields and time, clk its clock (spate_clock_resume).
 * Refuses, with a message, a checkpoint of another module, grid, precision
 * or scenario ([run] and [output] keys may change); *cycles: the pressure
 * cycles so far.  0 or -SPATE_E*. */
int bsq_ckpt_read(const char *path, const struct bsq_config *c, struct bsq_state *s,
	struct spate_clock *clk, long *cycles);

#endif
