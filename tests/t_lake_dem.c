/* t_lake_dem.c: lake at rest on a real DEM (well-balancing in single
 * precision on high terrain).  The Malpasset bed (shared/data, 20 m DEM at
 * 40 m cells) filled to a flat level of 30 m a.s.l. wherever the solver's bed
 * lies below it (swe_level_to_w: partly flooded cells at that level too, so
 * that the state is exactly a lake at rest), walls, no friction, 1000 RK2
 * steps on the CPU backend (and on the GPU where there is one), with and
 * without [domain] banks.  Checks:
 * largest speed < 1e-6 m/s, every level within 1e-5 m of 30 m, volume
 * kept to 1e-6.  Needs the Malpasset data ($SPATE_DATA, else ../shared/data
 * beside the source tree); skips (77) without it. */
#include <unistd.h>

#include "simtest.h"
#include "swe_backend.h"
#include "params.h"
#include "setup.h"
#include "diag.h"
#include "swe_state.h"

#define LEVEL 30.0
#define STEPS 1000

static void lake(const char *data, const struct spate_backend *be, const char *banks)
{
	struct swe_params p;
	struct swe_state s;
	struct swe_stats st;
	struct swe_backend_ctx *ctx = NULL;
	double v0, v1, speed, dl = 0;
	long nwet = 0;
	int rc;

	swe_params_defaults(&p);
	sim_set(&p, "domain", "setup", "dem");
	sim_set(&p, "domain", "data_dir", "%s", data);
	sim_set(&p, "domain", "dem", "malpasset/malpasset_dem_20m.asc");
	sim_set(&p, "domain", "cellsize", "40");
	sim_set(&p, "domain", "nodata", "wall");
	sim_set(&p, "domain", "wall_height", "50");
	sim_set(&p, "domain", "banks", "%s", banks);
	sim_set(&p, "initial", "fill_level", "%g", LEVEL);
	sim_set(&p, "physics", "manning", "0");
	sim_set(&p, "physics", "integrator", "rk2");
	sim_set(&p, "run", "end_time", "1e9");
	sim_set(&p, "output", "grids", "no");
	spate_set_quiet(1);
	if (swe_params_validate(&p) || swe_setup(&s, &p)) {
		fprintf(stderr, "test error: set-up failed\n");
		exit(99);
	}
	/* the fill follows the DEM's cell values; a lake at rest follows the
	 * solver's bed: level LEVEL wherever that is below it */
	for (int j = 0; j < s.ny; j++)
		for (int i = 0; i < s.nx; i++) {
			long k = swe_idx(&s, i, j);
			s.w[k] = swe_level_to_w(&s, i, j, (real)(LEVEL - s.bref));
			s.hu[k] = s.hv[k] = 0;
			nwet += s.w[k] > 0;
		}
	swe_params_resolve(&p, &s);
	v0 = swe_volume(&s);
	memset(&st, 0, sizeof st);
	if ((rc = be->init(&ctx, &s, &p, 0))) {
		fprintf(stderr, "test error: init: %s\n", spate_strerror(rc));
		exit(99);
	}
	while (st.steps < STEPS && !rc)
		rc = be->advance(ctx, 1e9, STEPS - st.steps, &st);
	if (rc || (rc = be->download(ctx, &s))) {
		fprintf(stderr, "test error: %s\n", spate_strerror(rc));
		exit(99);
	}
	be->fini(ctx);
	v1 = swe_volume(&s);
	speed = swe_max_speed(&s, p.kappa);
	for (int j = 0; j < s.ny; j++)
		for (int i = 0; i < s.nx; i++) {
			long k = swe_idx(&s, i, j);
			long c = swe_cidx(&s, i, j);
			double L = (double)s.w[k] + (double)s.Bm[k] + s.bref;
			real top = swe_max(swe_max(s.Bc[c], s.Bc[c + 1]),
				swe_max(s.Bc[c + s.cpitch], s.Bc[c + s.cpitch + 1]));
			/* fully flooded cells: level = depth + centre bed */
			if (top + s.bref < LEVEL)
				dl = fabs(L - LEVEL) > dl ? fabs(L - LEVEL) : dl;
		}
	printf("%s: Malpasset 40 m, banks = %s, lake at %g m, %d x %d cells (%ld wet), %ld steps "
		"to t = %.1f s, max depth %.2f m\n", be->name, banks, LEVEL, s.nx, s.ny, nwet, st.steps, st.t,
		swe_max_depth(&s));
	sim_check(st.steps == STEPS, "%s: steps = %ld (%d)", be->name, st.steps, STEPS);
	sim_check(speed < 1e-6, "%s: max speed = %.3e m/s (< 1e-6)", be->name, speed);
	sim_check(dl < 1e-5, "%s: max |level - %g m| in wet cells = %.3e m (< 1e-5)", be->name,
		LEVEL, dl);
	sim_check(fabs(v1 - v0) <= 1e-6 * v0, "%s: volume %.6f -> %.6f m^3, relative change "
		"%.2e (<= 1e-6)", be->name, v0, v1, (v1 - v0) / v0);
	swe_state_free(&s);
}

int main(void)
{
	const char *env = getenv("SPATE_DATA"), *top = getenv("top_srcdir");
	char data[4096], dem[4200];
	if (env && *env)
		snprintf(data, sizeof data, "%s", env);
	else
		snprintf(data, sizeof data, "%s/../shared/data", top ? top : ".");
	snprintf(dem, sizeof dem, "%s/malpasset/malpasset_dem_20m.asc", data);
	if (access(dem, R_OK)) {
		printf("SKIP: no Malpasset data in %s (set SPATE_DATA)\n", data);
		return 77;
	}
	lake(data, &spate_backend_cpu, "no");
	lake(data, &spate_backend_cpu, "yes");
#ifdef HAVE_CUDA
	if (spate_backend_cuda.count() > 0) {
		lake(data, &spate_backend_cuda, "no");
		lake(data, &spate_backend_cuda, "yes");
	}
#endif
	return sim_done("t_lake_dem");
}
