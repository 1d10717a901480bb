/* checkpoint.h: checkpoints: everything a run needs to go on later exactly
 * as if it had never stopped (the state with its ghost rows, the clock, the
 * flood products, the gauges' maxima and the driver's output clock), and the
 * checks that a restart continues the same scenario. */
#ifndef SPATE_CHECKPOINT_H
#define SPATE_CHECKPOINT_H

#include "swe.h"

struct swe_prod;

/* Values of each gauge kept in a checkpoint (struct gauge). */
#define SWE_CKPT_GAUGE_VALUES 5

struct swe_ckpt {
	int nx, ny;         /* interior cells */
	int pitch, ghost;   /* row length of the stored arrays; ghost rows per side */
	int real_bytes;     /* 4 (single precision) or 8 */
	double t;           /* simulated time reached, s */
	double last_dt;     /* the last step's dt, s */
	long steps;
	/* the driver's clock: the next output, gauge row and checkpoint times
	 * (s), the next snapshot number and the gauge rows written so far */
	double next_out, next_gauge, next_ckpt;
	int index;
	long gauge_rows;
	double out_interval, gauge_interval, checkpoint_every; /* as the run had them */
	double max_depth_run, volume_initial; /* the run summary so far */
	unsigned long long bed_hash;  /* swe_bed_hash of the state */
	char *params;       /* resolved parameters (INI text, swe_params_print) */
	char time_units[SPATE_TIME_TEXT]; /* CF units of t (cftime.h); "" when read */
	real *w, *hu, *hv;  /* (ny + 2 ghost) * pitch cells each, as the state holds them */
	struct swe_prod *prod; /* nx * ny, or NULL */
	int ngauge;
	double *gauge;      /* per gauge: max_level, max_level_nb, max_depth, arrival, t_max */
};

/* A 64-bit FNV-1a hash of a state's grid, corner bed, bref, Manning raster
 * and rain rasters: a restart must find the same terrain and forcing. */
unsigned long long swe_bed_hash(const struct swe_state *s);

/* Write c as <dir>/checkpoint.nc or checkpoint.bin (ckpt_file.h: the
 * format, written safely).  c's arrays move into the file's container
 * without a copy (w, hu, hv, prod, gauge are NULL after; swe_ckpt_free c as
 * before).  path (n bytes) receives the file name.  Returns 0 or -SPATE_E*. */
int swe_ckpt_write(struct swe_ckpt *c, const char *dir, char *path, size_t n);

/* The name swe_ckpt_write gives the checkpoint of dir. */
void swe_ckpt_path(const char *dir, char *path, size_t n);

/* Read a checkpoint of either format into c (swe_ckpt_free it).  Returns 0
 * or -SPATE_E* after a message naming the file and what is wrong. */
int swe_ckpt_read(const char *path, struct swe_ckpt *c);

/* Whether c continues the run of p on the state s (set up from p): same grid,
 * precision, terrain and parameters, [run] (start_time kept), [output],
 * [parallel] and [domain] data_dir aside.  Returns 0 or -SPATE_EINVAL after a message. */
int swe_ckpt_check(const struct swe_ckpt *c, const char *path, const struct swe_params *p,
	const struct swe_state *s);

void swe_ckpt_free(struct swe_ckpt *c);

/* The layout of the flood module's checkpoint (checkpoint.c): 4, the state's
 * depth h and eight products a cell (3 kept six, no hazard classes; 2 and
 * the binary format 1 stored levels; all are refused). */
#define SWE_CKPT_VERSION 4

#endif
