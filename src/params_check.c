/* params_check.c: shallow-water parameters: the defaults, and the checks
 * across keys that no single key's range says (params.c sets each key
 * within its own range). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "swe.h"
#include "params.h"
#include "decomp.h"
#include "hazard_kern.h"

void swe_params_defaults(struct swe_params *p)
{
	int k;
	memset(p, 0, sizeof *p);
	snprintf(p->setup, sizeof p->setup, "circular_dambreak");
	p->nx = p->ny = 200;
	p->dx = p->dy = 10;
	p->h_in = 1;
	p->guard_every = 50;
	p->h_out = 0.1;
	p->radius = 200;
	p->dam_x = -1;      /* centre of the domain */
	p->dam_y = -1;
	p->level = 0.5;
	p->amplitude = 0.05;
	p->wall_height = 100;
	p->max_abs_elevation = 1e5;
	p->fill_level = NAN;
	p->reservoir_level = NAN;
	p->polygon_level = NAN;
	{
		const char *d = getenv("SPATE_DATA");
		snprintf(p->data_dir, sizeof p->data_dir, "%s", d && *d ? d : "../shared/data");
	}
	p->g = 9.81;
	p->manning = 0;
	p->cfl = 0.45;
	p->theta = 1.3;
	p->kappa = 0;       /* auto: swe_kappa_of */
	p->dry_tol = 0;     /* auto: swe_dry_of */
	p->integrator = 2;
	for (k = 0; k < 4; k++)
		p->bc[k].kind = SWE_BC_WALL;
	p->inflow_scale = 1;
	p->end_time = 10;
	snprintf(p->device, sizeof p->device, "auto");
	snprintf(p->start_time, sizeof p->start_time, "%s", SPATE_START_DEFAULT);
	p->hazard_scheme = SPATE_HAZARD_ARR2019;
	snprintf(p->out_dir, sizeof p->out_dir, "spate-out");
	p->write_grids = 1;
	p->products = 1;
	p->early_exit = 1;
	p->threshold = 0.05;
#ifdef HAVE_NETCDF
	p->out_format = SWE_FMT_NETCDF;
#else
	p->out_format = SWE_FMT_ASCII;
#endif
	p->gauge_radius = 1;
	p->gauge_threshold = 0.05;
	p->gauge_interval = 10;
	p->subdomains = 1;
	p->early_exit_steps = 4;
	p->early_exit_interval = 500;
	p->balance_interval = 50;
	p->balance_gain = 1; /* a move pays within one interval (measured best on two H200s) */
	p->probe_steps = 4;
	p->ghost_expansion = 1;
	p->overlap = 2;     /* streams */
}

int swe_params_check_used(const struct swe_params *p)
{
	const char *sec, *key;
	for (int i = 0; swe_params_key(i, &sec, &key) == 0; i++)
		if (p->given[i] && !swe_key_used(p, sec, key))
			return swe_key_unused(p, sec, key);
	if (p->has_crop && !swe_key_used(p, "domain", "crop"))
		return swe_key_unused(p, "domain", "crop");
	if (p->has_reservoir && !swe_key_used(p, "initial", "reservoir_line"))
		return swe_key_unused(p, "initial", "reservoir_line");
	if (p->has_dry_disk && !swe_key_used(p, "initial", "dry_disk"))
		return swe_key_unused(p, "initial", "dry_disk");
	return 0;
}

int swe_params_validate(const struct swe_params *p)
{
	for (int s = 0; s < 4; s++) {
		if (p->bc[s].kind == SWE_BC_INFLOW && p->bc[s].n == 0) {
			spate_log_error("scenario", "[boundary] %s = inflow needs %s_hydrograph = "
				"\"time discharge, ...\"", swe_side_names[s], swe_side_names[s]);
			return -SPATE_EINVAL;
		}
	}
	if (p->has_inflow_scale && p->bc[SWE_WEST].kind != SWE_BC_INFLOW &&
		p->bc[SWE_EAST].kind != SWE_BC_INFLOW && p->bc[SWE_SOUTH].kind != SWE_BC_INFLOW &&
		p->bc[SWE_NORTH].kind != SWE_BC_INFLOW) {
		spate_log_error("scenario", "[boundary] inflow_scale is set but no side is an "
			"inflow: remove it, or make a side inflow with a hydrograph");
		return -SPATE_EINVAL;
	}
	if (swe_params_check_used(p))
		return -SPATE_EINVAL;
	if (strcmp(p->setup, "dem") == 0 && !p->dem[0]) {
		spate_log_error("scenario", "[domain] setup = dem needs dem = FILE (a DEM raster)");
		return -SPATE_EINVAL;
	}
	if (p->depth_file[0] && p->level_file[0]) {
		spate_log_error("scenario", "[initial] depth_file and level_file: give one of them");
		return -SPATE_EINVAL;
	}
	if (!p->polygon[0] != !!isnan(p->polygon_level)) {
		spate_log_error("scenario", "[initial] polygon and polygon_level go together: "
			"give both (vertices \"x y, x y, ...\" and the water level, m)");
		return -SPATE_EINVAL;
	}
	if (p->has_reservoir && isnan(p->reservoir_level)) {
		spate_log_error("scenario", "[initial] reservoir_line needs reservoir_level");
		return -SPATE_EINVAL;
	}
	if ((double)p->nx * p->ny > 4.0e9) {
		spate_log_error("scenario", "[domain] nx * ny = %.3g cells: too many", (double)p->nx * p->ny);
		return -SPATE_EINVAL;
	}
	if (p->nworkload > 0 && p->subdomains > 1 && p->subdomains != p->nworkload) {
		spate_log_error("scenario", "[parallel] subdomains = %d but workload gives %d "
			"fractions: give one of them, or make them agree", p->subdomains, p->nworkload);
		return -SPATE_EINVAL;
	}
#ifndef HAVE_NETCDF
	if (p->out_format != SWE_FMT_ASCII) {
		spate_log_error("scenario", "[output] format = %s: this spate was built without "
			"NetCDF; use format = ascii, or rebuild with NetCDF (libnetcdf-dev)",
			p->out_format == SWE_FMT_NETCDF ? "netcdf" : "both");
		return -SPATE_EINVAL;
	}
#endif
	if (p->probe && p->nworkload > 0) {
		spate_log_error("scenario", "[parallel] probe = on measures the workloads: leave "
			"workload out, or set probe = off");
		return -SPATE_EINVAL;
	}
#ifndef HAVE_NCCL
	if (p->transport == HALO_TRANSPORT_NCCL) {
		spate_log_error("scenario", "[parallel] transport = nccl: this spate was built "
			"without NCCL (reconfigure with --with-nccl, or set transport = auto or mpi)");
		return -SPATE_EUNSUPPORTED;
	}
#endif
	if (p->integrator == 1 && p->cfl > 0.5) {
		spate_log_error("scenario", "[physics] cfl = %g: forward Euler keeps depths "
			"positive only for cfl <= 0.5", p->cfl);
		return -SPATE_EINVAL;
	}
	return 0;
}

char *swe_params_text(const struct swe_params *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	swe_params_print(p, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
