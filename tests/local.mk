# tests/local.mk: `make check`.
#
# Unit tests (cmocka) are built only when configure found cmocka.  Plain C
# tests and shell tests always run.  A test that needs a GPU or mpiexec that
# is not there exits 77 (SKIP).  Every test program links src/libspate.a
# through the global LDADD.
#
# Environment of every test: SPATE (the built program), top_srcdir,
# top_builddir (absolute), SPATE_SCENARIOS (the source scenarios/ folder),
# and OMP_WAIT_POLICY=passive unless set: tests run side by side (make -j)
# on small grids, where OpenMP threads that spin at every barrier wait for
# each other's cores (t_lake: 64 s instead of 8 s on a busy 2-core machine).

check_PROGRAMS += \
	tests/t_stoker \
	tests/t_converge \
	tests/t_lake \
	tests/t_lake_dem \
	tests/t_thacker \
	tests/t_mass \
	tests/t_cuda
# simtest.h: helpers shared by the simulation tests.
tests_t_stoker_SOURCES = tests/t_stoker.c tests/simtest.h
tests_t_converge_SOURCES = tests/t_converge.c tests/simtest.h
tests_t_lake_SOURCES = tests/t_lake.c tests/simtest.h
# t_lake_dem: lake at rest on the Malpasset bed (skips without the data).
tests_t_lake_dem_SOURCES = tests/t_lake_dem.c tests/simtest.h
# t_thacker: a receding shoreline against Thacker's exact solution.
tests_t_thacker_SOURCES = tests/t_thacker.c tests/simtest.h
tests_t_mass_SOURCES = tests/t_mass.c tests/simtest.h
tests_t_cuda_SOURCES = tests/t_cuda.c tests/simtest.h

if HAVE_CMOCKA
check_PROGRAMS += tests/t_kern tests/t_params tests/t_round
# t_round: the unbiased rounding of the depth updates (swe_cell.h).
tests_t_round_SOURCES = tests/t_round.c
tests_t_round_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_round_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_kern_SOURCES = tests/t_kern.c
tests_t_kern_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_kern_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_params_SOURCES = tests/t_params.c
tests_t_params_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_params_LDADD = $(LDADD) $(CMOCKA_LIBS)
endif

# t_terrain_asan: the DEM readers under AddressSanitizer.  It compiles
# terrain/grid.c, asc.c, gdal.c, read.c and src/util.c itself (objects of its own,
# not those of the library) so the sanitizer covers them, and links only
# what they need.
check_PROGRAMS += tests/t_terrain_asan
tests_t_terrain_asan_SOURCES = tests/t_terrain_asan.c terrain/grid.c terrain/asc.c terrain/gdal.c \
	terrain/read.c src/util.c
tests_t_terrain_asan_CFLAGS = $(AM_CFLAGS) -fsanitize=address -fno-omit-frame-pointer
tests_t_terrain_asan_LDFLAGS = $(AM_LDFLAGS) -fsanitize=address
tests_t_terrain_asan_LDADD = $(ZLIB_LIBS) $(GDAL_LIBS)

dist_check_SCRIPTS += tests/badinput.sh tests/badinput2.sh tests/cli.sh tests/terrain_bad.sh tests/dem_same.sh \
	tests/bc.sh tests/malpasset40.sh tests/forcing.sh tests/bench_cases.sh tests/dem_banks.sh
TESTS += $(check_PROGRAMS) tests/badinput.sh tests/badinput2.sh tests/cli.sh tests/terrain_bad.sh \
	tests/dem_same.sh tests/bc.sh tests/malpasset40.sh tests/forcing.sh tests/bench_cases.sh tests/dem_banks.sh
EXTRA_DIST += tests/malpasset40.ref tests/lsan.supp

# The decomposition layer: 1 vs N subdomains in one process (t_decomp), 1 vs
# N MPI ranks (mpi_decomp.sh: skips without MPI or mpiexec).
check_PROGRAMS += tests/t_decomp
tests_t_decomp_SOURCES = tests/t_decomp.c tests/simtest.h

# [parallel] early_exit on vs off: bitwise the same (t_early).
check_PROGRAMS += tests/t_early
tests_t_early_SOURCES = tests/t_early.c tests/simtest.h
# [parallel] probe, early_exit auto, balance, ghost_expansion: bitwise the
# same as one static domain (t_balance).
check_PROGRAMS += tests/t_balance
tests_t_balance_SOURCES = tests/t_balance.c tests/simtest.h
dist_check_SCRIPTS += tests/mpi_decomp.sh tests/mpi_balance.sh tests/mpi_gauges.sh tests/mpi_threads.sh \
	tests/mpi_signal.sh
EXTRA_DIST += tests/mpi_common.sh tests/badinput_common.sh
TESTS += tests/mpi_decomp.sh tests/mpi_balance.sh tests/mpi_gauges.sh tests/mpi_threads.sh \
	tests/mpi_signal.sh
# tools/balance-bound: the most a re-decomposition could gain, from the
# plans a traced run logs (balance_bound.sh).
dist_check_SCRIPTS += tests/balance_bound.sh
TESTS += tests/balance_bound.sh

# The decomposition on GPUs: 1 GPU vs N subdomains on 1 and 2 GPUs, every
# overlap strategy (t_cuda_multi), 1 vs 2 MPI ranks (mpi_cuda.sh); both skip
# without a GPU.
check_PROGRAMS += tests/t_cuda_multi
tests_t_cuda_multi_SOURCES = tests/t_cuda_multi.c tests/simtest.h tests/cudamulti.h
# No-op steps past a stop time (the copy of U only in the first of a row):
# the same bits on one GPU and on GPU subdomains (t_cuda_noop; skips
# without a GPU).
check_PROGRAMS += tests/t_cuda_noop
tests_t_cuda_noop_SOURCES = tests/t_cuda_noop.c tests/simtest.h
dist_check_SCRIPTS += tests/mpi_cuda.sh
TESTS += tests/mpi_cuda.sh
# Gauges kept on the GPU = gauges sampled after every step, also restarted
# and on two GPU subdomains (gauges_gpu.sh; skips without a GPU).
dist_check_SCRIPTS += tests/gauges_gpu.sh
TESTS += tests/gauges_gpu.sh
# The arithmetic floor (`spate bench --case=floor`): the same bits on the
# GPU as on the CPU (floor_gpu.sh; skips without a GPU).
dist_check_SCRIPTS += tests/floor_gpu.sh
TESTS += tests/floor_gpu.sh

# tools/get-malpasset rebuilds the shared Malpasset grids and observations
# from the TELEMAC mesh, equal cell by cell (get_malpasset.sh; skips without
# shared/data/malpasset/raw).
dist_check_SCRIPTS += tests/get_malpasset.sh
TESTS += tests/get_malpasset.sh

# examples/: the batch scripts parse and use only spate's options
# (examples.sh); open_results.py reads a small run's results.nc and a
# GeoPackage (open_results.sh; skips without xarray or NetCDF).
dist_check_SCRIPTS += tests/examples.sh tests/open_results.sh
TESTS += tests/examples.sh tests/open_results.sh
EXTRA_DIST += examples/slurm-1node-4gpu.sh examples/slurm-2nodes.sh examples/mpiexec.sh \
	examples/open_results.py

# The man pages document every scenario key, every command and every option
# of --help (man_keys.sh); every command answers --help (help.sh); the
# EXAMPLES of spate(1) run as printed, scaled down (man_examples.sh).
dist_check_SCRIPTS += tests/man_keys.sh tests/help.sh tests/man_examples.sh
TESTS += tests/man_keys.sh tests/help.sh tests/man_examples.sh

# The Boussinesq slabs over 1, 2 and 3 MPI ranks (bsq_mpi.sh, running
# t_bsq_slabs under mpiexec; results.nc from N ranks, in parallel with the
# MPI flavour of NetCDF, equal to one process's).
dist_check_SCRIPTS += tests/bsq_mpi.sh
TESTS += tests/bsq_mpi.sh
# The Boussinesq module through the run layer (bsq_run.sh).
dist_check_SCRIPTS += tests/bsq_run.sh
TESTS += tests/bsq_run.sh
# The cubic lid-driven cavity (scenarios/bsq_cube.conf) on 16^3 cells for
# 40 steps: divergence, profiles.csv's lines and mirror symmetry, and
# bsq_compare.py cube on it and on made-up files (bsq_cube.sh).
dist_check_SCRIPTS += tests/bsq_cube.sh
TESTS += tests/bsq_cube.sh
# Ghia's cavity at Re 1000 on 96^2 cells on the CPU (bsq_ghia1000.sh,
# through bsq_gpu_valid.sh's case cavity96).
dist_check_SCRIPTS += tests/bsq_ghia1000.sh
TESTS += tests/bsq_ghia1000.sh
# Ghia's cavity at Re 1000 (96^2, 128^2, 256^2), Albensoeder & Kuhlmann's cube
# (128^3) and de Vahl Davis's heated cavity at Ra 1e5 by `spate run
# --device=cuda` (bsq_gpu_valid.sh, the comparisons in bsq_compare.py;
# skips without a GPU; make check runs the 96^2 cavity and the heated
# cavity there).
dist_check_SCRIPTS += tests/bsq_gpu_valid.sh
EXTRA_DIST += tests/bsq_compare.py
TESTS += tests/bsq_gpu_valid.sh

# No circle among the object files: calls run one way (layers.sh,
# tools/link-cycles).
dist_check_SCRIPTS += tests/layers.sh
TESTS += tests/layers.sh

if HAVE_MPI
HAVE_MPI_FLAG = yes
else
HAVE_MPI_FLAG = no
endif
if HAVE_NCCL
HAVE_NCCL_FLAG = yes
else
HAVE_NCCL_FLAG = no
endif
if HAVE_NETCDF_PAR
HAVE_NETCDF_PAR_FLAG = yes
else
HAVE_NETCDF_PAR_FLAG = no
endif

# Shell tests run through bash, so they work even without the exec bit.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(BASH_SHELL)

AM_TESTS_ENVIRONMENT = \
	SPATE='$(abs_top_builddir)/src/spate$(EXEEXT)'; export SPATE; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	SPATE_SCENARIOS='$(abs_top_srcdir)/scenarios'; export SPATE_SCENARIOS; \
	OMP_WAIT_POLICY=$${OMP_WAIT_POLICY:-passive}; export OMP_WAIT_POLICY; \
	MPIEXEC='$(MPIEXEC)'; export MPIEXEC; \
	SPATE_HAVE_MPI='$(HAVE_MPI_FLAG)'; export SPATE_HAVE_MPI; \
	SPATE_HAVE_NCCL='$(HAVE_NCCL_FLAG)'; export SPATE_HAVE_NCCL; \
	SPATE_HAVE_NETCDF_PAR='$(HAVE_NETCDF_PAR_FLAG)'; export SPATE_HAVE_NETCDF_PAR;
# Under --enable-sanitizers: stop at the first report, with exit statuses of
# their own (never the 1 or 2 that bad-input tests expect); leaks that are
# not spate's are in tests/lsan.supp (Open MPI keeps its plug-ins loaded and
# malloc stacks are unwound in full, so that library frames have names).
if SANITIZERS
AM_TESTS_ENVIRONMENT += \
	ASAN_OPTIONS="halt_on_error=1:exitcode=86:detect_leaks=1:fast_unwind_on_malloc=0$${ASAN_OPTIONS:+:$$ASAN_OPTIONS}"; \
	export ASAN_OPTIONS; \
	UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87$${UBSAN_OPTIONS:+:$$UBSAN_OPTIONS}"; \
	export UBSAN_OPTIONS; \
	LSAN_OPTIONS="exitcode=88:suppressions=$(abs_top_srcdir)/tests/lsan.supp$${LSAN_OPTIONS:+:$$LSAN_OPTIONS}"; \
	export LSAN_OPTIONS; \
	OMPI_MCA_mca_base_component_disable_dlclose=1; \
	PMIX_MCA_mca_base_component_disable_dlclose=1; \
	export OMPI_MCA_mca_base_component_disable_dlclose PMIX_MCA_mca_base_component_disable_dlclose;
endif

# Scratch output that tests may leave in the build tree.
CLEANFILES += tests/*.out tests/*.tmp
clean-local: clean-tests-local
clean-tests-local:
	-rm -rf tests/out
.PHONY: clean-tests-local

# Outputs (issue 3): the flood products against a step-by-step watch of the
# state (t_products), the NetCDF results file against the DEM and the ESRI
# ASCII grids (t_ncout: skips without NetCDF).
# t_gauge: the gauges' running maxima, also after a restart (gauge_kern.h).
# t_map: spate map's GeoTIFF read back with GDAL (skips without GDAL or
# NetCDF); t_mapdraw: its printed maps (PNG, PDF) read back with Cairo, the
# pixels of the flood and of the classes counted (skips without Cairo too).
check_PROGRAMS += tests/t_products tests/t_ncout tests/t_map tests/t_mapdraw tests/t_gauge
tests_t_gauge_SOURCES = tests/t_gauge.c tests/simtest.h
tests_t_products_SOURCES = tests/t_products.c tests/simtest.h
tests_t_ncout_SOURCES = tests/t_ncout.c tests/demtest.h
tests_t_map_SOURCES = tests/t_map.c tests/demtest.h
tests_t_mapdraw_SOURCES = tests/t_mapdraw.c tests/demtest.h
# t_ncfield: the physics-neutral results writer (ncout.h) on its own: 2D and
# 3D fields from strided views, points, attributes, a restart (cmocka).
if HAVE_CMOCKA
check_PROGRAMS += tests/t_ncfield
tests_t_ncfield_SOURCES = tests/t_ncfield.c
tests_t_ncfield_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_ncfield_LDADD = $(LDADD) $(CMOCKA_LIBS)
endif
# t_hazard: the hazard classes of both schemes at every threshold +-1e-6,
# the greatest class of any step, the CF start time (cmocka).
if HAVE_CMOCKA
check_PROGRAMS += tests/t_hazard
tests_t_hazard_SOURCES = tests/t_hazard.c
tests_t_hazard_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_hazard_LDADD = $(LDADD) $(CMOCKA_LIBS)
endif
# t_progress: the progress line in a log, the last one not twice (cmocka).
if HAVE_CMOCKA
check_PROGRAMS += tests/t_progress
tests_t_progress_SOURCES = tests/t_progress.c
tests_t_progress_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_progress_LDADD = $(LDADD) $(CMOCKA_LIBS)
endif
# t_wkt: the units of a DEM's CRS read from its WKT without GDAL (cmocka).
if HAVE_CMOCKA
check_PROGRAMS += tests/t_wkt
tests_t_wkt_SOURCES = tests/t_wkt.c
tests_t_wkt_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_wkt_LDADD = $(LDADD) $(CMOCKA_LIBS)
endif
# flood_maps.sh: results.nc decoded by xarray (CF time), hazard classes,
# spate export's GeoPackage and COGs checked with GDAL/OGR by
# export_check.py (issue 25); malpasset40.sh runs the same check on its
# 4000 s run.
dist_check_SCRIPTS += tests/flood_maps.sh
TESTS += tests/flood_maps.sh
EXTRA_DIST += tests/export_check.py
# t_cog: a field written as a Cloud Optimized GeoTIFF (terrain/cog.h), read
# back with GDAL (cmocka; skips without GDAL).
if HAVE_CMOCKA
check_PROGRAMS += tests/t_cog
tests_t_cog_SOURCES = tests/t_cog.c
tests_t_cog_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_cog_LDADD = $(LDADD) $(CMOCKA_LIBS)
endif

# Checkpoint and restart: a run stopped and continued ends with the same bits
# as one never stopped (restart.sh, also on SIGTERM).  The writer thread
# writes the same files as writing in line (writer.sh).
dist_check_SCRIPTS += tests/restart.sh tests/writer.sh
TESTS += tests/restart.sh tests/writer.sh
# The instability guard with a planted NaN: the report names the cell, the
# checkpoint of the last good state restarts (guard.sh; guard_gpu.sh on one
# GPU, skips without).
dist_check_SCRIPTS += tests/guard.sh tests/guard_gpu.sh
TESTS += tests/guard.sh tests/guard_gpu.sh
# The same in decomposed runs: 1, 2, 3 subdomains (guard_multi.sh), 2 MPI
# ranks (guard_mpi.sh; skips without MPI), GPU subdomains
# (guard_gpu_multi.sh; skips without a GPU): the same cell reported, a
# checkpoint that restarts.
dist_check_SCRIPTS += tests/guard_multi.sh tests/guard_mpi.sh tests/guard_gpu_multi.sh
TESTS += tests/guard_multi.sh tests/guard_mpi.sh tests/guard_gpu_multi.sh
# Out of GPU memory (a test hook): a message with the bytes and what to do
# (gpu_oom.sh; skips without a GPU).
dist_check_SCRIPTS += tests/gpu_oom.sh
TESTS += tests/gpu_oom.sh

# The Boussinesq module (issue 21), CPU, cmocka: the formulas of
# bsq_kern.h (t_bsq_kern), Taylor-Green order
# (t_bsq_tg), the pressure solvers (t_bsq_mg), max |div u| <= tol after
# every projection and 1 vs 2 threads bitwise (t_bsq_div), bad parameters
# (t_bsq_bad), free-slip Rayleigh-Benard growth rates (t_bsq_rb), the
# critical Rayleigh number by growth rates on three grids (t_bsq_onset), Ghia's
# cavity and de Vahl Davis's heated cavity (t_bsq_cavity, t_bsq_dhc: skip
# without shared/data/reference; SPATE_LONG_TESTS=1 runs them on 128^2).
# Each program is built from tests/t_bsq_NAME.c (automake's default source)
# and bsqtest.h, the helpers they share.
if HAVE_CMOCKA
BSQ_TESTS = tests/t_bsq_kern tests/t_bsq_tg tests/t_bsq_mg tests/t_bsq_div tests/t_bsq_bad tests/t_bsq_rb \
	tests/t_bsq_onset tests/t_bsq_cavity tests/t_bsq_dhc tests/t_bsq_cuda tests/t_bsq_slabs \
	tests/t_bsq_slabs_cuda
check_PROGRAMS += $(BSQ_TESTS)
noinst_HEADERS += tests/bsqtest.h
tests_t_bsq_kern_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_kern_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_bsq_tg_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_tg_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_bsq_mg_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_mg_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_bsq_div_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_div_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_bsq_bad_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_bad_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_bsq_rb_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_rb_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_bsq_onset_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_onset_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_bsq_cavity_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_cavity_LDADD = $(LDADD) $(CMOCKA_LIBS)
tests_t_bsq_dhc_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_dhc_LDADD = $(LDADD) $(CMOCKA_LIBS)
# 1 vs N slabs, each overlap strategy, bitwise (t_bsq_slabs; under mpiexec
# from tests/bsq_mpi.sh: 1 vs N ranks).
tests_t_bsq_slabs_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_slabs_LDADD = $(LDADD) $(CMOCKA_LIBS)
# 1 vs N slabs on one GPU, each overlap strategy, bitwise (skips without a
# GPU).
tests_t_bsq_slabs_cuda_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_slabs_cuda_LDADD = $(LDADD) $(CMOCKA_LIBS)
# CPU vs CUDA (t_bsq_cuda: skips without a GPU).
tests_t_bsq_cuda_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_t_bsq_cuda_LDADD = $(LDADD) $(CMOCKA_LIBS)
endif

# make check-bsq: the Boussinesq module's tests alone, building only their
# programs (the cmocka ones above, none without cmocka) and spate: .ci/run's
# second build, configured with --enable-bsq-single (t_bsq_mg, t_bsq_rb and
# t_bsq_onset skip there: they measure below fp32's round-off).
BSQ_RUN_TESTS = tests/bsq_run.sh tests/bsq_cube.sh tests/bsq_mpi.sh
check-bsq:
	$(MAKE) $(AM_MAKEFLAGS) check check_PROGRAMS="$(BSQ_TESTS)" \
		TESTS="$(BSQ_TESTS) $(BSQ_RUN_TESTS)"
.PHONY: check-bsq

# spate ensemble: the parts on known inputs (t_ens); the command end to end,
# 1 member = a plain run bit for bit, 8 members' probabilities and ordered
# percentiles, bad --vary (ensemble.sh, which checks the fields with
# t_ens's arguments).
check_PROGRAMS += tests/t_ens
tests_t_ens_SOURCES = tests/t_ens.c tests/simtest.h
dist_check_SCRIPTS += tests/ensemble.sh
TESTS += tests/ensemble.sh
