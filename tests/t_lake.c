/* t_lake.c: lake at rest (well-balancing).  A level surface over three
 * Gaussian bumps must stay level and still for 1000 steps:
 *   - islands (scenarios/lake_at_rest.conf: level 0.5 m, bumps up to 1.2 m,
 *     so wet/dry contacts), on a 100 x 100 grid of 20 m cells (the same
 *     2 km square);
 *   - fully wet (level 1.5 m, above every bump).
 * Checks: max |velocity| < 1e-5 m/s in single precision (1e-10 in double),
 * the surface in every initially wet cell within 1e-5 m of the initial level
 * (1e-10 m in double), and the volume kept. */
#include "simtest.h"

int main(void)
{
	sim_lake("lake with islands", 0.5, "cpu");
	sim_lake("fully wet lake", 1.5, "cpu");
	return sim_done("t_lake");
}
