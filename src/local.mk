# src/local.mk: the host library and the spate program.
#
# To add a C file: append it to src_libspate_a_SOURCES (or, for a file that
# needs an optional library, inside `if HAVE_GDAL` / HAVE_NETCDF / HAVE_MPI /
# HAVE_CUDA / HAVE_NCCL below).  Headers go in noinst_HEADERS.

noinst_LIBRARIES += src/libspate.a
src_libspate_a_SOURCES = \
	src/util.c src/forcing.c \
	src/params.c src/params_check.c src/params_file.c \
	src/setup.c \
	src/diag.c \
	src/swe_cpu.c \
	src/swe_cpu_rhs.c \
	src/swe_cpu_sub.c \
	src/swe_bc.c \
	src/decomp.c \
	src/halo.c \
	src/halo_nccl.c \
	src/balance.c \
	src/swe_multi.c src/swe_multi_halo.c src/swe_multi_io.c src/swe_multi_dev.c \
	src/swe_balance.c src/swe_balance_move.c src/swe_balance_rest.c src/swe_balance_run.h \
	src/swe_probe.c \
	src/backend.c \
	src/swe.c \
	src/output.c \
	src/bench.c \
	src/gauge.c \
	src/ncout.c \
	src/ncckpt.c \
	src/ncread.c \
	src/checkpoint.c \
	src/writer.c \
	src/swe_out.c \
	src/swe_gauges.c \
	src/mapdraw.c \
	src/map.c \
	src/bsq_params.c src/bsq_setup.c src/bsq_state.c src/bsq_bc.c \
	src/bsq_rows.c src/bsq_rhs.c src/bsq_step.c src/bsq_diag.c \
	src/bsq_mg.c src/bsq_mg_level.c src/bsq_mg_gsrb.c src/bsq_mg_residual.c \
	src/bsq_mg_restrict.c src/bsq_mg_interp_pl.c src/bsq_mg_interp_pc.c \
	src/bsq_jacobi.c
noinst_HEADERS += \
	src/hostdevice.h \
	src/spate.h \
	src/swe.h \
	src/swe_kern.h \
	src/swe_step.h \
	src/swe_cuda.h \
	src/swe_cuda_dev.h \
	src/swe_cuda_one.h \
	src/swe_cuda_sub.h \
	src/swe_run.h \
	src/swe_multi.h src/swe_multi_run.h \
	src/swe_cpu.h \
	src/swe_balance.h \
	src/decomp.h \
	src/balance.h \
	src/output.h \
	src/gauge.h \
	src/ncout.h \
	src/checkpoint.h \
	src/writer.h \
	src/swe_out.h \
	src/swe_gauges.h \
	src/mapdraw.h \
	src/products_kern.h \
	src/gauge_kern.h \
	src/ncutil.h \
	src/bsq.h src/bsq_kern.h src/bsq_impl.h
# CUDA objects (cuda/local.mk) join the library through LIBADD.
src_libspate_a_LIBADD =

bin_PROGRAMS += src/spate
src_spate_SOURCES = src/main.c
src_spate_LDADD = $(LDADD)
