# src/local.mk: the host library and the spate program.
#
# To add a C file: append it to src_libspate_a_SOURCES (or, for a file that
# needs an optional library, inside `if HAVE_GDAL` / HAVE_NETCDF / HAVE_CAIRO / HAVE_MPI /
# HAVE_CUDA / HAVE_NCCL below).  Headers go in noinst_HEADERS.

noinst_LIBRARIES += src/libspate.a
src_libspate_a_SOURCES = \
	src/util.c src/cftime.c src/forcing.c \
	src/params.c src/params_check.c src/params_setup.c src/params_file.c src/params_print.c \
	src/scenario.c \
	src/setup.c src/swe_state.c \
	src/diag.c \
	src/swe_cpu.c src/swe_cpu_mem.c src/swe_cpu_guard.c \
	src/swe_cpu_rhs.c \
	src/swe_cpu_sub.c src/swe_cpu_gauges.c \
	src/swe_bc.c \
	src/decomp.c \
	src/halo.c \
	src/halo_nccl.c \
	src/balance.c \
	src/swe_multi.c src/swe_multi_halo.c src/swe_multi_io.c src/swe_multi_gauges.c \
	src/swe_multi_dev.c src/swe_multi_guard.c \
	src/swe_balance.c src/swe_balance_trial.c src/swe_balance_measure.c \
	src/swe_balance_plan.c src/swe_balance_move.c src/swe_balance_run.h \
	src/swe_probe.c \
	src/backend.c \
	src/swe_run.c src/swe_watch.c \
	src/output.c src/summary.c src/progress.c src/run_clock.c src/run_signal.c \
	src/bench.c src/bench_case.c src/bench_floor.c src/swe_floor.c \
	src/gauge.c \
	src/ncout.c src/ncpoints.c src/ncutil.c src/ncmapinfo.c \
	src/ckpt.c src/ckpt_bin.c src/ckpt_nc.c src/ckpt_file.c src/ckpt_sum.c \
	src/ncread.c \
	src/checkpoint.c \
	src/writer.c \
	src/swe_out.c src/swe_results.c \
	src/swe_gauges.c \
	src/map.c src/map_args.c src/export.c \
	src/ens_cli.c src/ens_run.c src/ens_sample.c src/ens_stats.c src/ens_out.c \
	src/nctable.c \
	src/bsq_params.c src/bsq_setup.c src/bsq_state.c src/bsq_bc.c \
	src/bsq_rows.c src/bsq_rhs.c src/bsq_step.c src/bsq_diag.c \
	src/bsq_mg.c src/bsq_mg_level.c src/bsq_mg_gsrb.c src/bsq_mg_residual.c \
	src/bsq_mg_restrict.c src/bsq_mg_interp_pl.c src/bsq_mg_interp_pc.c \
	src/bsq_jacobi.c \
	src/bsq_scenario.c src/bsq_scenario_check.c src/bsq_out.c src/bsq_ckpt.c src/bsq_run.c \
	src/bsq_cli.c \
	src/bsq_bench.c src/bsq_device.c src/bsq_cpu.c \
	src/bsq_slab.c src/bsq_slab_ops.c src/bsq_slab_halo.c src/bsq_slab_out.c
noinst_HEADERS += \
	src/hostdevice.h src/cftime.h src/hazard_kern.h src/export_cli.h \
	src/spate.h \
	src/swe_guard.h src/swe_watch.h src/swe.h src/swe_backend.h src/backend.h src/params.h src/params_keys.h src/setup.h src/forcing.h src/diag.h src/swe_state.h src/swe_bc.h \
	src/swe_kern.h src/swe_cell.h \
	src/swe_step.h src/swe_floor.h \
	src/swe_cuda.h \
	src/swe_cuda_dev.h \
	src/swe_cuda_walk.h \
	src/swe_cuda_one.h \
	src/swe_cuda_sub.h \
	src/swe_run.h \
	src/swe_multi.h src/swe_multi_run.h src/swe_sub.h \
	src/swe_cpu.h \
	src/swe_cpu_ctx.h \
	src/swe_cpu_mem.h \
	src/swe_cpu_sub.h \
	src/swe_cpu_gauges.h \
	src/swe_cpu_rhs.h \
	src/swe_balance.h src/swe_balance_types.h \
	src/decomp.h \
	src/balance.h \
	src/output.h src/scenario.h src/summary.h src/progress.h src/run_clock.h src/run_signal.h \
	src/gauge.h \
	src/ncout.h src/field.h src/ncpoints.h src/nctable.h src/ens.h \
	src/checkpoint.h src/ckpt.h src/ckpt_bin.h src/ckpt_nc.h src/ckpt_file.h src/ckpt_sum.h \
	src/writer.h \
	src/swe_out.h src/swe_results.h \
	src/swe_gauges.h \
	src/map.h src/usage.h src/mapdraw.h src/mapdraw_impl.h \
	src/products_kern.h \
	src/gauge_kern.h \
	src/ncutil.h \
	src/bsq.h src/bsq_kern.h src/bsq_impl.h src/bsq_transfer.h src/bsq_waves.h src/bsq_cuda.h src/bsq_cuda_dev.h src/cuda_check.h \
	src/bsq_scenario.h src/bsq_out.h src/bsq_ckpt.h src/bsq_run.h src/bsq_bench.h src/bench.h \
	src/bsq_slab.h src/bsq_slabset.h
# Printed maps (spate map -o FILE.png|FILE.pdf), drawn with Cairo.
if !HAVE_NETCDF
src_libspate_a_SOURCES += src/ncout_none.c
endif
if HAVE_CAIRO
src_libspate_a_SOURCES += src/mapdraw.c src/mapdeco.c src/mapline.c src/mapcolour.c
endif
# CUDA objects (cuda/local.mk) join the library through LIBADD.
src_libspate_a_LIBADD =

bin_PROGRAMS += src/spate
src_spate_SOURCES = src/main.c src/usage.c
src_spate_LDADD = $(LDADD)
