# tests/fuzz/local.mk: libFuzzer targets (clang), built by `make fuzz`, not
# by make check: fuzz_scenario (the scenario reader and the checks across
# keys) and fuzz_asc (the built-in ESRI ASCII grid reader), each from its
# sources compiled with -fsanitize=fuzzer,address,undefined.
#   make fuzz                      # tests/fuzz/fuzz_scenario, fuzz_asc
#   make fuzz-run FUZZ_SECONDS=120 # each on a copy of its seeds, in tests/fuzz/run/
# Seeds: tests/fuzz/scenario/, tests/fuzz/asc/.

FUZZ_CC = clang
FUZZ_SECONDS = 120
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer
FUZZ_FLAGS = -DHAVE_CONFIG_H $(AM_CPPFLAGS) -I$(top_srcdir)/tests/fuzz $(FUZZ_CFLAGS)
FUZZ_SCENARIO_SRC = $(srcdir)/tests/fuzz/fuzz_scenario.c $(srcdir)/src/params.c \
	$(srcdir)/src/params_check.c $(srcdir)/src/params_setup.c $(srcdir)/src/params_file.c \
	$(srcdir)/src/scenario.c $(srcdir)/src/util.c
FUZZ_ASC_SRC = $(srcdir)/tests/fuzz/fuzz_asc.c $(srcdir)/terrain/asc.c \
	$(srcdir)/terrain/grid.c $(srcdir)/src/util.c

tests/fuzz/fuzz_scenario: $(FUZZ_SCENARIO_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(INIH_CFLAGS) \
		$(FUZZ_SCENARIO_SRC) $(INIH_LIBS) -lm -o $@
tests/fuzz/fuzz_asc: $(FUZZ_ASC_SRC) $(srcdir)/tests/fuzz/fuzz_file.h config.h
	$(AM_V_CC)$(MKDIR_P) tests/fuzz && $(FUZZ_CC) $(FUZZ_FLAGS) $(ZLIB_CFLAGS) \
		$(FUZZ_ASC_SRC) $(ZLIB_LIBS) -lm -o $@

fuzz: tests/fuzz/fuzz_scenario tests/fuzz/fuzz_asc

# Each target for FUZZ_SECONDS on one core, on a copy of its seeds; a crash
# leaves its input in tests/fuzz/run/ (crash-*).
fuzz-run: fuzz
	@for t in scenario asc; do \
		rm -rf tests/fuzz/run/$$t && $(MKDIR_P) tests/fuzz/run/$$t && \
		cp $(srcdir)/tests/fuzz/$$t/* tests/fuzz/run/$$t/ && \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s" && \
		(cd tests/fuzz/run && ../fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
			-print_final_stats=1 $$t >$$t.log 2>&1); rc=$$?; \
		grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss|.*ERROR)' \
			tests/fuzz/run/$$t.log; \
		grep -E 'DONE' tests/fuzz/run/$$t.log | tail -n 1; \
		[ $$rc -eq 0 ] || exit 1; \
	done

EXTRA_DIST += tests/fuzz/fuzz_scenario.c tests/fuzz/fuzz_asc.c tests/fuzz/fuzz_file.h \
	tests/fuzz/scenario tests/fuzz/asc
CLEANFILES += tests/fuzz/fuzz_scenario tests/fuzz/fuzz_asc
clean-local: clean-fuzz-local
clean-fuzz-local:
	-rm -rf tests/fuzz/run
.PHONY: fuzz fuzz-run clean-fuzz-local
