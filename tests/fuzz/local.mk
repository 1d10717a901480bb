# tests/fuzz/local.mk: libFuzzer targets (clang), built by `make fuzz`, not
# by make check: fuzz_scenario (the scenario reader and the checks across
# keys) and fuzz_asc (the built-in ESRI ASCII grid reader), each from its
# sources compiled with -fsanitize=fuzzer,address,undefined; fuzz_gauge (the
# gauge CSV reader), fuzz_hydrograph (a [boundary] <side>_hydrograph table:
# spate has no hydrograph file), fuzz_ckpt (the flood checkpoint reader,
# binary) and fuzz_ckpt_nc (a checkpoint.nc against the sum recorded for
# the reference one, and the sum file's parser: ckpt_sum.h), fuzz_bsq_scenario
# (the Boussinesq scenario reader and its checks across keys).
#   make fuzz                      # tests/fuzz/fuzz_scenario, fuzz_asc, ...
#   make fuzz-run FUZZ_SECONDS=120 # each on a copy of its seeds, in tests/fuzz/run/
# Seeds: tests/fuzz/<name>/ for each target fuzz_<name>.

FUZZ_CC = clang
FUZZ_SECONDS = 120
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer
FUZZ_FLAGS = -DHAVE_CONFIG_H $(AM_CPPFLAGS) -I$(top_srcdir)/tests/fuzz $(FUZZ_CFLAGS)
# The parameter table and its checks, which every target that reads
# parameters links.
FUZZ_PARAMS_SRC = $(srcdir)/src/params.c $(srcdir)/src/params_check.c \
	$(srcdir)/src/params_setup.c $(srcdir)/src/params_print.c $(srcdir)/src/cftime.c \
	$(srcdir)/src/util.c
FUZZ_SCENARIO_SRC = $(srcdir)/tests/fuzz/fuzz_scenario.c $(FUZZ_PARAMS_SRC) \
	$(srcdir)/src/params_file.c $(srcdir)/src/scenario.c
FUZZ_ASC_SRC = $(srcdir)/tests/fuzz/fuzz_asc.c $(srcdir)/terrain/asc.c \
	$(srcdir)/terrain/grid.c $(srcdir)/src/util.c

tests/fuzz/fuzz_scenario: $(FUZZ_SCENARIO_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(INIH_CFLAGS) \
		$(FUZZ_SCENARIO_SRC) $(INIH_LIBS) -lm -o $@
tests/fuzz/fuzz_asc: $(FUZZ_ASC_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(ZLIB_CFLAGS) \
		$(FUZZ_ASC_SRC) $(ZLIB_LIBS) -lm -o $@

FUZZ_GAUGE_SRC = $(srcdir)/tests/fuzz/fuzz_gauge.c $(srcdir)/src/gauge.c $(srcdir)/src/util.c
FUZZ_HYDROGRAPH_SRC = $(srcdir)/tests/fuzz/fuzz_hydrograph.c $(FUZZ_PARAMS_SRC)
FUZZ_CKPT_SRC = $(srcdir)/tests/fuzz/fuzz_ckpt.c $(FUZZ_CKPT_LIB)
FUZZ_CKPT_LIB = $(srcdir)/src/checkpoint.c \
	$(srcdir)/src/ckpt_file.c $(srcdir)/src/ckpt_bin.c $(srcdir)/src/ckpt_nc.c \
	$(srcdir)/src/ckpt_sum.c \
	$(srcdir)/src/ckpt.c $(srcdir)/src/ncutil.c $(FUZZ_PARAMS_SRC)

tests/fuzz/fuzz_gauge: $(FUZZ_GAUGE_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_GAUGE_SRC) -lm -o $@
tests/fuzz/fuzz_hydrograph: $(FUZZ_HYDROGRAPH_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_HYDROGRAPH_SRC) -lm -o $@
tests/fuzz/fuzz_ckpt: $(FUZZ_CKPT_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(NETCDF_CFLAGS) \
		$(FUZZ_CKPT_SRC) $(NETCDF_LIBS) -lm -o $@

FUZZ_CKPT_NC_SRC = $(srcdir)/tests/fuzz/fuzz_ckpt_nc.c $(FUZZ_CKPT_LIB)
tests/fuzz/fuzz_ckpt_nc: $(FUZZ_CKPT_NC_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(NETCDF_CFLAGS) \
		-DFUZZ_CKPT_NC_REF='"$(abs_top_srcdir)/tests/fuzz/ckpt_nc/valid.nc"' \
		$(FUZZ_CKPT_NC_SRC) $(NETCDF_LIBS) -lm -o $@

# The Boussinesq scenario reader: keys, set-up, the checks across keys.
FUZZ_BSQ_SCENARIO_SRC = $(srcdir)/tests/fuzz/fuzz_bsq_scenario.c $(srcdir)/src/bsq_scenario.c \
	$(srcdir)/src/bsq_scenario_check.c $(srcdir)/src/bsq_diag.c $(srcdir)/src/scenario.c \
	$(srcdir)/src/bsq_params.c $(srcdir)/src/bsq_setup.c \
	$(srcdir)/src/bsq_mg_level.c $(srcdir)/src/bsq_bc.c $(srcdir)/src/bsq_rows.c \
	$(srcdir)/src/util.c
tests/fuzz/fuzz_bsq_scenario: $(FUZZ_BSQ_SCENARIO_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(INIH_CFLAGS) \
		$(FUZZ_BSQ_SCENARIO_SRC) $(INIH_LIBS) -lm -o $@

FUZZ_TARGETS = scenario asc gauge hydrograph ckpt ckpt_nc bsq_scenario
fuzz: $(FUZZ_TARGETS:%=tests/fuzz/fuzz_%)

# Each target for FUZZ_SECONDS on one core, on a copy of its seeds; a crash
# leaves its input in tests/fuzz/run/ (crash-*).
fuzz-run: fuzz
	@for t in $(FUZZ_TARGETS); do \
		rm -rf tests/fuzz/run/$$t && $(MKDIR_P) tests/fuzz/run/$$t && \
		cp $(srcdir)/tests/fuzz/$$t/* tests/fuzz/run/$$t/ && \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s" && \
		(cd tests/fuzz/run && ../fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$$(case $$t in ckpt) echo 32768;; ckpt_nc) echo 40000;; *) echo 4096;; esac) \
			-print_final_stats=1 $$t >$$t.log 2>&1); rc=$$?; \
		grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss|.*ERROR)' \
			tests/fuzz/run/$$t.log; \
		grep -E 'DONE' tests/fuzz/run/$$t.log | tail -n 1; \
		[ $$rc -eq 0 ] || exit 1; \
	done

EXTRA_DIST += $(FUZZ_TARGETS:%=tests/fuzz/fuzz_%.c) tests/fuzz/fuzz_file.h \
	$(FUZZ_TARGETS:%=tests/fuzz/%)
CLEANFILES += $(FUZZ_TARGETS:%=tests/fuzz/fuzz_%)
clean-local: clean-fuzz-local
clean-fuzz-local:
	-rm -rf tests/fuzz/run
.PHONY: fuzz fuzz-run clean-fuzz-local
