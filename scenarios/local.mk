# scenarios/local.mk: scenario files, installed in $(pkgdatadir)/scenarios
# (scenariosdir, set in Makefile.am).  Add a new scenario to this list.

dist_scenarios_DATA = \
	scenarios/circular_dambreak.conf \
	scenarios/bumps_dambreak.conf \
	scenarios/lake_at_rest.conf \
	scenarios/dambreak1d_wet.conf \
	scenarios/dambreak1d_dry.conf \
	scenarios/smooth_wave.conf \
	scenarios/river.conf \
	scenarios/malpasset.conf \
	scenarios/bsq_cavity.conf \
	scenarios/bsq_cube.conf \
	scenarios/bsq_heated_cavity.conf \
	scenarios/bsq_rayleigh_benard.conf \
	scenarios/bsq_taylor_green.conf
