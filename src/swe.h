/* swe.h: the shallow-water module's data types: its parameters, the state of
 * a domain (grid, cell and corner arrays), boundary data and run statistics.
 * The bottom of the flood module: it includes the numerics header alone, and
 * every file of the module may include it.  The functions that fill and use
 * these types live in the files above (params.h, setup.h, diag.h,
 * swe_backend.h, swe_run.h). */
#ifndef SPATE_SWE_H
#define SPATE_SWE_H

#include "hostdevice.h"
#include "swe_kern.h"
#include "cftime.h"

#define SWE_NAME_MAX 256
#define SWE_PATH_MAX 1024
#define SWE_HYDRO_MAX 256
#define SWE_SUB_MAX 256    /* = DECOMP_MAX */
#define SWE_KEYS_MAX 96    /* >= the keys of params.c's table */

enum swe_side { SWE_WEST = 0, SWE_EAST = 1, SWE_SOUTH = 2, SWE_NORTH = 3 };

/* [output] format: ESRI ASCII grids, one NetCDF file (results.nc), or both. */
enum swe_out_format { SWE_FMT_ASCII = 0, SWE_FMT_NETCDF = 1, SWE_FMT_BOTH = 2 };

/* One side's boundary condition. */
struct swe_bc {
	int kind;                   /* enum swe_bc_kind */
	double level;               /* SWE_BC_LEVEL: water level, m (absolute) */
	int total;                  /* SWE_BC_INFLOW: 1 if q is total m^3/s, 0 per unit width */
	int n;                      /* hydrograph points */
	double t[SWE_HYDRO_MAX];    /* s */
	double q[SWE_HYDRO_MAX];    /* m^2/s per unit width or m^3/s total */
};

/* Every parameter of a shallow-water run, by scenario-file section.  Filled by
 * swe_params_defaults(), then the scenario file, then --section.key=value
 * overrides; checked once by swe_params_validate(). */
struct swe_params {
	/* [domain] */
	char setup[64];     /* built-in set-up: circular_dambreak, bumps_dambreak,
	                       lake_at_rest, dambreak1d, smooth_wave, thacker_bowl */
	int nx, ny;         /* cells */
	double dx, dy;      /* m */
	double x0, y0;      /* lower-left corner, m */
	/* [initial] */
	double h_in, h_out; /* dam breaks: depth inside/upstream and outside, m */
	double radius;      /* circular dam: radius, m */
	double dam_x;       /* 1D dam: position of the dam, m from x0; circular
	                       dams: x of the centre (< 0: the domain's centre) */
	double dam_y;       /* circular dams: y of the centre, m from y0 (< 0:
	                       the domain's centre) */
	double level;       /* lake at rest: water level, m */
	double amplitude;   /* smooth_wave: perturbation amplitude, m */
	/* [domain] for setup = dem */
	char dem[SWE_PATH_MAX];      /* DEM raster (relative: to data_dir, then cwd) */
	char data_dir[SWE_PATH_MAX]; /* where relative data paths are looked up */
	int nodata_mask;    /* NODATA cells: 0 = walls (high ground), 1 = masked */
	int banks;          /* 1: NODATA beside the survey's edge as banks (terrain/init.c) */
	double wall_height; /* NODATA walls: this far above the highest bed, m */
	double max_abs_elevation; /* |DEM value| beyond this is refused (an undeclared
	                             NODATA), m; also |initial depth or level| */
	double cellsize;    /* resample the DEM to this cell size, m (0: keep) */
	double crop[4];     /* xmin ymin xmax ymax */
	int has_crop;
	/* [initial] for setup = dem, applied in this order */
	double fill_level;        /* water up to this level everywhere (sea), m; NAN: none */
	double reservoir_level;   /* water up to this level upstream of reservoir_line */
	double reservoir_line[4]; /* x1 y1 x2 y2: upstream = left of p1 -> p2 */
	int has_reservoir;
	double dry_disk[3];       /* x y r: no water within r of (x, y) */
	int has_dry_disk;
	char polygon[4 * SWE_PATH_MAX]; /* "x y, x y, ...": water up to polygon_level inside */
	double polygon_level;     /* m; NAN: no polygon */
	char depth_file[SWE_PATH_MAX]; /* initial depth raster (replaces the above) */
	char level_file[SWE_PATH_MAX]; /* initial level raster (replaces the above) */
	/* [physics] */
	int model;          /* 0: shallow_water, this module (boussinesq scenarios go
	                       to the Boussinesq module, bsq_run.h) */
	double g, manning, cfl, theta, kappa, dry_tol;
	int integrator;     /* 1 = forward Euler, 2 = SSP-RK2 */
	char manning_file[SWE_PATH_MAX]; /* Manning n raster (NODATA: [physics] manning) */
	double rain;        /* uniform rain rate, mm/h (unless rain_files) */
	char rain_files[4 * SWE_PATH_MAX]; /* "T FILE, T FILE, ...": rain rasters in
	                       mm/h, each from time T (s) until the next */
	/* [boundary] */
	struct swe_bc bc[4];
	double inflow_scale; /* factor on every inflow hydrograph's discharge */
	int has_inflow_scale; /* inflow_scale was set (an error without an inflow) */
	/* [run] */
	double end_time;    /* s */
	long max_steps;     /* 0 = unlimited */
	double max_dt;      /* longest step, s (0: no bound but the CFL step) */
	long guard_every;   /* steps between instability-guard checks (0: off; swe_guard.h) */
	char device[16];    /* auto, cpu, cuda */
	int threads;        /* OpenMP threads, 0 = default */
	char start_time[SPATE_TIME_TEXT]; /* the time t = 0 of the run, canonical
	                        ISO 8601 UTC (cftime.h); the files' CF time reference */
	/* [output] */
	char out_dir[SWE_NAME_MAX];
	double out_interval; /* s, 0 = only the final state */
	int write_grids;     /* write ESRI ASCII grids of h, u, v, w */
	int products;        /* track and write the flood products */
	double threshold;    /* wet threshold of the products (arrival etc.), m */
	int hazard_scheme;   /* enum spate_hazard_scheme (hazard_kern.h): the classes
	                        written as max_hazard_class */
	int out_format;      /* enum swe_out_format */
	double checkpoint_every; /* s of simulated time between checkpoints, 0 = none */
	/* [gauges] */
	char gauge_file[SWE_PATH_MAX]; /* CSV name,x,y ("" = none) */
	int gauge_radius;    /* neighbourhood half-width for maxima, cells */
	double gauge_threshold; /* arrival depth, m */
	double gauge_interval;  /* time-series interval, s */
	/* [parallel] */
	int subdomains;      /* row subdomains (1: one per MPI rank) */
	int nworkload;       /* workload fractions given (0: equal sizes) */
	double workload[SWE_SUB_MAX]; /* relative work of each subdomain */
	int early_exit;      /* enum swe_early: skip the arithmetic of blocks that
	                        are dry with their neighbours (bitwise the same
	                        results); auto: time both, keep the faster */
	int early_exit_steps;    /* auto: timed steps of each variant per trial */
	int early_exit_interval; /* auto: steps from one trial to the next */
	int balance;         /* enum swe_balance_mode: dynamic load balancing */
	int balance_interval; /* steps between two measurements of the work */
	double balance_gain; /* move rows when the predicted saving exceeds
	                        balance_gain x the predicted cost of moving */
	int probe;           /* time a fully wet case on each subdomain first and
	                        share the rows in proportion to the speeds */
	int probe_steps;     /* timed steps of the probe */
	int ghost_expansion; /* exchange halos every k steps (k >= 1); 0 = auto */
	int overlap;         /* GPUs: halo exchange vs computation, enum swe_overlap
	                        (swe_multi.h): none, compute, streams */
	int gpus;            /* GPUs a process uses (0: all it sees) */
	int transport;       /* remote halo links of GPU subdomains, enum
	                        halo_transport (decomp.h): auto, mpi, nccl */
	/* keys set by the scenario file or the command line, by their index in
	 * params.c's table (defaults leave 0); a key that the set-up does not
	 * use is an error only when set (params_setup.c) */
	unsigned char given[SWE_KEYS_MAX];
};

/* [parallel] early_exit and balance. */
enum swe_early { SWE_EARLY_OFF = 0, SWE_EARLY_ON = 1, SWE_EARLY_AUTO = 2 };
enum swe_balance_mode { SWE_BALANCE_STATIC = 0, SWE_BALANCE_BBOX = 1, SWE_BALANCE_ROWS = 2 };

/* The state of a domain on the host: cell-centred (w, hu, hv) and corner B,
 * all with SWE_GHOST ghost layers, levels relative to bref.
 *
 * NOTE: the array named w holds the water DEPTH h (m, >= 0), not the level.
 * The level is w + Bm + bref.  (Depth is stored so that single precision
 * neither makes nor loses water on high terrain: swe_kern.h.)  Everything
 * that moves raw state arrays (halos, balancing, checkpoints: format
 * version 2) moves depths; every output converts: h, level, gauges and
 * products mean what they always meant. */
struct swe_state {
	int nx, ny;
	int pitch;          /* row length of cell arrays: nx + 2*SWE_GHOST */
	int cpitch;         /* row length of the corner array: nx + 2*SWE_GHOST + 1 */
	double dx, dy, x0, y0;
	double bref;        /* reference level (minimum bed), m */
	real *w, *hu, *hv;  /* (ny + 2G) * pitch; w: DEPTH h, see above */
	real *Bc;           /* corners, (ny + 2G + 1) * cpitch */
	real *Bm;           /* cell-centre bed, (ny + 2G) * pitch (derived) */
	unsigned char *mask; /* NULL, or nx * ny flags: 1 = outside the DEM (NODATA) */
	char *crs_wkt;      /* NULL, or the DEM's coordinate reference system (WKT) */
	/* Forcing ([physics] manning_file, rain_files; NULL / 0 when absent):
	 * n2: nx * ny Manning n^2 per cell (row-major, row 0 southern); the
	 * stages then run without friction and swe_sources applies it after
	 * each step.  rain: nrain rasters of nx * ny rates (m/s), rain[k] from
	 * time rain_t[k] (s, increasing) until the next. */
	real *n2;
	int nrain;
	double *rain_t;
	float **rain;
};

/* Index of cell (i, j), i in [-G, nx+G), j in [-G, ny+G). */
static inline long swe_idx(const struct swe_state *s, int i, int j)
{
	return (long)(j + SWE_GHOST) * s->pitch + (i + SWE_GHOST);
}

/* Index of corner (I, J) at (x0 + I dx, y0 + J dy), I in [-G, nx+G]. */
static inline long swe_cidx(const struct swe_state *s, int I, int J)
{
	return (long)(J + SWE_GHOST) * s->cpitch + (I + SWE_GHOST);
}

/* Boundary data as the kernels see it (levels relative to bref; inflow as
 * discharge per unit width). */
struct swe_bcdev {
	int kind[4];
	real value[4];      /* level (relative) for SWE_BC_LEVEL */
	int n[4];
	double scale[4];    /* hydrograph factor: 1, or 1/width for totals; times
	                       [boundary] inflow_scale */
};

/* Run statistics filled by a backend. */
struct swe_stats {
	long steps;
	double t;           /* simulated time reached, s */
	double last_dt;
	double amax;        /* largest wave speed in the last step, m/s */
};

#endif
