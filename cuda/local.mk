# cuda/local.mk: CUDA kernels, compiled by nvcc into src/libspate.a.
#
# To add a kernel file: put cuda/NAME.cu in CUDA_SRCS; its object
# cuda/NAME.o is built by the .cu.o rule below.  Automake does not track
# header dependencies for nvcc: list the headers a .cu includes in
# CUDA_HEADER_DEPS.

CUDA_SRCS = cuda/cuda_check.cu cuda/swe_cuda.cu cuda/swe_cuda_guard.cu cuda/swe_cuda_kern.cu cuda/swe_cuda_tile.cu cuda/swe_cuda_dt.cu cuda/swe_cuda_cells.cu \
	cuda/swe_cuda_state.cu cuda/swe_cuda_rain.cu cuda/swe_cuda_sub.cu cuda/swe_cuda_sub_time.cu \
	cuda/swe_cuda_sub_mem.cu cuda/swe_cuda_sub_tiles.cu cuda/swe_cuda_sub_rows.cu \
	cuda/swe_cuda_sub_activity.cu cuda/swe_cuda_sub_dev.cu \
	cuda/swe_cuda_sub_halo.cu cuda/swe_cuda_gauges.cu cuda/swe_cuda_sub_gauges.cu \
	cuda/swe_cuda_sub_src.cu cuda/swe_cuda_sub_guard.cu cuda/swe_cuda_floor.cu \
	$(BSQ_CUDA_SRCS)
# The Boussinesq module's backend (bsq_cuda.h).
BSQ_CUDA_SRCS = cuda/bsq_cuda.cu cuda/bsq_cuda_kern.cu cuda/bsq_cuda_mg.cu cuda/bsq_cuda_gs.cu \
	cuda/bsq_cuda_gs_two.cu cuda/bsq_cuda_walk.cu cuda/bsq_cuda_tail.cu
CUDA_HEADER_DEPS = \
	$(top_srcdir)/src/hostdevice.h \
	$(top_srcdir)/src/spate.h \
	$(top_srcdir)/src/swe.h \
	$(top_srcdir)/src/swe_cuda.h \
	$(top_srcdir)/src/swe_cuda_dev.h \
	$(top_srcdir)/src/swe_cuda_walk.h \
	$(top_srcdir)/src/swe_cuda_one.h \
	$(top_srcdir)/src/swe_kern.h \
	$(top_srcdir)/src/swe_cell.h \
	$(top_srcdir)/src/swe_step.h \
	$(top_srcdir)/src/swe_floor.h \
	$(top_srcdir)/src/swe_guard.h \
	$(top_srcdir)/src/swe_multi.h \
	$(top_srcdir)/src/swe_cuda_sub.h \
	$(top_srcdir)/src/products_kern.h \
	$(top_srcdir)/src/hazard_kern.h \
	$(top_srcdir)/src/cftime.h \
	$(top_srcdir)/src/gauge_kern.h \
	$(top_srcdir)/src/bsq.h \
	$(top_srcdir)/src/bsq_kern.h \
	$(top_srcdir)/src/bsq_impl.h \
	$(top_srcdir)/src/bsq_cuda.h \
	$(top_srcdir)/src/bsq_cuda_dev.h \
	$(top_srcdir)/src/cuda_check.h \
	$(top_srcdir)/src/cuda_pdl.h \
	$(top_srcdir)/src/cuda_udiv.h \
	$(top_srcdir)/src/bsq_cuda_launch.h \
	$(top_srcdir)/src/bsq_cuda_gs.h \
	$(top_srcdir)/src/bsq_transfer.h \
	$(top_srcdir)/src/bsq_waves.h \
	$(top_srcdir)/src/bsq_slab.h \
	$(top_srcdir)/src/decomp.h
# Always distributed, so `make dist` works on a machine without nvcc.
EXTRA_DIST += $(CUDA_SRCS)

# -fmad=false: no fused multiply-add contraction, so every value rounds as in
# the CPU loops: CPU and CUDA agree to the last bit where the order of
# operations is the same (t_bsq_cuda), and the flood kernels' exact
# differences of levels hold, so a lake at rest on a real DEM stays at rest
# on the GPU too (t_lake_dem on an H100: 1.0e-4 m/s with contraction, 0
# without; the 8192^2 dam break 1.10e10 -> 1.08e10 cell-steps/s for it).
# NVCCFLAGS=-fmad=true at configure time turns contraction back on.
AM_NVCCFLAGS = -std=c++17 -O3 -arch=$(NVCC_ARCH) -fmad=false \
	-I$(top_srcdir)/src -I$(top_builddir) -DHAVE_CONFIG_H \
	$(SPATE_PRECISION_CPPFLAGS)
NVCC_COMPILE = $(NVCC) $(AM_NVCCFLAGS) $(NVCCFLAGS)

AM_V_NVCC = $(am__v_NVCC_@AM_V@)
am__v_NVCC_ = $(am__v_NVCC_@AM_DEFAULT_V@)
am__v_NVCC_0 = @echo "  NVCC    " $@;
am__v_NVCC_1 =

SUFFIXES += .cu
.cu.o:
	@$(MKDIR_P) $(@D)
	$(AM_V_NVCC)$(NVCC_COMPILE) -c -o $@ $<

if HAVE_CUDA
CUDA_OBJS = $(CUDA_SRCS:.cu=.o)
src_libspate_a_LIBADD += $(CUDA_OBJS)
$(CUDA_OBJS): $(CUDA_HEADER_DEPS) config.h
MOSTLYCLEANFILES += $(CUDA_OBJS)
endif
