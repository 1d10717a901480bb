/* swe_out.h: the files of a run: snapshots (ESRI ASCII grids and/or the
 * NetCDF results file), gauge series, flood products and checkpoints.  The
 * driver hands over copies; a writer thread (writer.h) writes them while
 * the solver goes on, in the order given, so the files are the same as if
 * written at once. */
#ifndef SPATE_SWE_OUT_H
#define SPATE_SWE_OUT_H

#include "swe.h"

struct gauge_set;
struct swe_ckpt;
struct swe_prod;

struct swe_out;

/* Open the outputs of p in p->out_dir for the state s (whose bed, mask and
 * grid must stay as they are until swe_out_close): results.nc for [output]
 * format = netcdf or both, gauges.csv when gs has gauges.  ck: a restart's
 * checkpoint (or NULL): results.nc and gauges.csv are continued from it.
 * Returns 0 or -SPATE_E* after a message. */
int swe_out_open(struct swe_out **o, const struct swe_params *p, const struct swe_state *s,
	struct gauge_set *gs, const struct swe_ckpt *ck);

/* A copy of s with w, hu, hv of its own for a snapshot to be downloaded
 * into (waits while the writer is two jobs behind).  Returns 0 or -SPATE_E*. */
int swe_out_buffer(struct swe_out *o, struct swe_state *snap);

/* Queue snapshot number index at time t (s): snap from swe_out_buffer,
 * taken over.  Returns the first error of the writer so far. */
int swe_out_snapshot(struct swe_out *o, struct swe_state *snap, int index, double t);

/* Queue a gauge row at time t from the values gs sampled last. */
int swe_out_gauges(struct swe_out *o, const struct gauge_set *gs, double t);

/* Gauge rows queued so far. */
long swe_out_gauge_rows(const struct swe_out *o);

/* Queue checkpoint c (taken over: freed once written). */
int swe_out_checkpoint(struct swe_out *o, struct swe_ckpt *c);

/* At the end of the run (time t): wait for the writer, then write the
 * products pr (or NULL) and the gauge summary. */
int swe_out_final(struct swe_out *o, const struct swe_prod *pr, const struct gauge_set *gs,
	double t);

/* Wait for the writer and close the files; returns its first error. */
int swe_out_close(struct swe_out *o);

#endif
