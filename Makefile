# mgsim - top-level GNU Makefile (no generator).
#
#   make              build bin/mgsim and bin/mgprobe
#   make run          the main job (see README.md); installs deps if missing
#   make test         unit (CUnit) + golden + bad-input tests; installs deps if missing
#   make check        the same tests under AddressSanitizer + UBSan
#   make bench        benchmarks that print figures (never asserted)
#   make validate-h100  the committed H100 and PoCL validation reports (mk/validate.sh)
#   make validate-mali-t860  the Mali-T860 cross-check against AutoTVM (mk/validate_mali.sh)
#   make memcheck     unit suites and a set of commands under valgrind (mk/rtcheck.sh)
#   make tsan         the same under ThreadSanitizer (build/tsan), threaded ones at -j2..4
#   make install PREFIX=/usr/local [DESTDIR=...]   (mk/install.sh)
#   make uninstall PREFIX=... [DESTDIR=...]
#   make readme-accuracy  the README's accuracy table from configs/measured/
#   make deps         install the Debian packages (apt-get; root or sudo)
#   make MPI=1        also bin/mgsim-mpi: sweeps across MPI ranks (Open MPI;
#                     installs openmpi-bin and libopenmpi-dev if missing)
#   make clean
#
# Objects go under $(BUILD)/ (out of tree), with dependency files for
# incremental builds.  `make check` uses BUILD=build/asan, so the sanitizer
# build never mixes with the normal one.

CC      ?= cc
BUILD   ?= build
BINDIR  ?= bin
PREFIX  ?= /usr/local
SAN     ?=

WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wvla
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT     ?= -O2 -g
ifeq ($(SAN),1)
OPT      = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDSAN    = -fsanitize=address,undefined
endif
ifeq ($(SAN),thread)
OPT      = -O1 -g -fno-omit-frame-pointer -fsanitize=thread
LDSAN    = -fsanitize=thread
endif
INCLUDES = -I.
CFLAGS  += $(CSTD) $(WARN) $(OPT) $(INCLUDES) -MMD -MP
LDFLAGS += $(LDSAN)

# The simulator library: everything under base/, sim/ and traces/ except
# mgsim's main().  It must never include OpenCL headers (checked by
# `make test`).
LIB_SRCS    := $(sort $(shell find base sim traces -name '*.c' ! -path sim/mgsim.c \
                 ! -path 'sim/mpi/*' 2>/dev/null))
MGSIM_SRCS  := sim/mgsim.c
PROBE_SRCS  := $(sort $(shell find probe -name '*.c'))
TEST_SRCS   := $(sort $(wildcard tests/unit/*.c))
BENCH_SRCS  := $(sort $(wildcard bench/*.c))

LIB_OBJS    := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MGSIM_OBJS  := $(MGSIM_SRCS:%.c=$(BUILD)/%.o)
PROBE_OBJS  := $(PROBE_SRCS:%.c=$(BUILD)/%.o)
TEST_OBJS   := $(TEST_SRCS:%.c=$(BUILD)/%.o)
BENCH_BINS  := $(BENCH_SRCS:%.c=$(BUILD)/%)
LIB         := $(BUILD)/libmgsim.a
VERSION     := $(shell sed -n 's/^\#define MG_VERSION "\(.*\)"/\1/p' sim/version.h)
SOMAJOR     := $(firstword $(subst ., ,$(VERSION)))
LIBSO       := $(BUILD)/libmgsim.so.$(VERSION)
LIBDIR      ?= $(PREFIX)/lib

MGSIM       := $(BINDIR)/mgsim
MGPROBE     := $(BINDIR)/mgprobe
UNIT        := $(BUILD)/tests/unit_tests

LIBS        := -lcjson -lm
LIBS        += -lpthread   # mgsim sweep/whatif run candidates on POSIX threads
PROBE_LIBS  := -lOpenCL -lcjson -lm -lpthread

.SECONDARY:

.PHONY: all deps deps-ensure test test-run check run bench install uninstall clean golden-update memcheck findings \
        memcheck-all tsan

all: $(MGSIM) $(MGPROBE) $(LIBSO)

# Fast presence check; installs only when something is missing.
deps-ensure:
	@sh mk/deps.sh ensure

deps:
	@sh mk/deps.sh install

$(BUILD)/probe/%.o: CFLAGS += -DCL_TARGET_OPENCL_VERSION=120
# The installed configs, last on the config search path (sim/config/find.h).
$(BUILD)/sim/config/find.o: CFLAGS += -DMGSIM_DATADIR='"$(PREFIX)/share/mgsim"'

$(BUILD)/%.o: %.c | deps-ensure
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The library's objects serve both the static and the shared library:
# position independent, and exporting only the public API (include/mgsim.h).
# A build directory made before they were gets them (the stamp is newer).
$(LIB_OBJS): CFLAGS += -fPIC -fvisibility=hidden
$(LIB_OBJS): $(BUILD)/.lib-pic
$(BUILD)/.lib-pic:
	@mkdir -p $(dir $@) && touch $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBSO): $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,libmgsim.so.$(SOMAJOR) -Wl,--no-undefined $(LDFLAGS) -o $@ \
	    $(LIB_OBJS) $(LIBS)

$(MGSIM): $(MGSIM_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(MGSIM_OBJS) $(LIB) $(LIBS)

$(MGPROBE): $(PROBE_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(PROBE_OBJS) $(LIB) $(PROBE_LIBS)

$(UNIT): $(TEST_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(TEST_OBJS) $(LIB) -lcunit $(LIBS)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(LIBS)

# ---- MPI (optional) ------------------------------------------------------
# make MPI=1 builds bin/mgsim-mpi too: mgsim whose sweep, under mpirun,
# splits over the ranks (sim/mpi/, the only code that includes mpi.h,
# compiled by mpicc).  Without MPI=1 nothing needs MPI.
MPICC       ?= mpicc
MPI_SRCS    := $(sort $(wildcard sim/mpi/*.c))
MPI_OBJS    := $(MPI_SRCS:%.c=$(BUILD)/%.o)
MGSIM_MPI   := $(BINDIR)/mgsim-mpi
ifeq ($(MPI),1)
all: $(MGSIM_MPI)
endif

.PHONY: mpi-ensure
mpi-ensure:
	@command -v $(MPICC) >/dev/null 2>&1 || sh mk/deps.sh install-mpi

$(BUILD)/sim/mpi/%.o: sim/mpi/%.c | deps-ensure mpi-ensure
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS) -c $< -o $@

$(MGSIM_MPI): $(MPI_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(MPICC) $(LDFLAGS) -o $@ $(MPI_OBJS) $(LIB) $(LIBS)

# ---- tests ---------------------------------------------------------------
# test-run runs every suite against the binaries of this BUILD/BINDIR and
# fails if any fails (each runner prints its own summary line).
test: deps-ensure
	@$(MAKE) --no-print-directory test-run

test-run: $(MGSIM) $(MGPROBE) $(UNIT) $(LIBSO) $(if $(filter 1,$(MPI)),$(MGSIM_MPI))
	@sh tests/run_all.sh "$(UNIT)" "$(MGSIM)" "$(MGPROBE)"

check: deps-ensure
	@$(MAKE) --no-print-directory SAN=1 BUILD=build/asan BINDIR=build/asan/bin test-run

# Runtime checks (mk/rtcheck.sh; minutes, not part of `make test`): every
# unit suite but vprobe (RT_SKIP=) and a representative set of commands,
# under valgrind (memcheck) or built with -fsanitize=thread (tsan); each
# writes its summary to doc/runs/ for `make reliability`.
RUNS_DIR ?= doc/runs
memcheck: $(MGSIM) $(MGPROBE) $(UNIT)
	@sh mk/rtcheck.sh memcheck "$(UNIT)" "$(MGSIM)" "$(MGPROBE)" $(RUNS_DIR)/memcheck.tsv

tsan: deps-ensure
	@$(MAKE) --no-print-directory SAN=thread BUILD=build/tsan BINDIR=build/tsan/bin \
	    build/tsan/bin/mgsim build/tsan/bin/mgprobe build/tsan/tests/unit_tests
	@sh mk/rtcheck.sh tsan build/tsan/tests/unit_tests build/tsan/bin/mgsim \
	    build/tsan/bin/mgprobe $(RUNS_DIR)/tsan.tsv

# Every golden and bad-input case, and the unit tests, under valgrind: any
# error or leak changes an exit status and fails the case (hours).
VALGRIND = valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
           --error-exitcode=99
memcheck-all: $(MGSIM) $(MGPROBE) $(UNIT)
	@$(VALGRIND) $(UNIT) >/dev/null && echo "memcheck: unit tests clean"
	@MG_WRAP="$(VALGRIND)" sh tests/golden/run.sh "$(MGSIM)" "$(MGPROBE)"
	@MG_WRAP="$(VALGRIND)" sh tests/bad/run.sh "$(MGSIM)"
	@MG_WRAP="$(VALGRIND)" sh tests/bad/run_traces.sh "$(MGSIM)"
	@MG_WRAP="$(VALGRIND)" sh tests/bad/run_cmds.sh "$(MGSIM)" "$(MGPROBE)"
	@MG_WRAP="$(VALGRIND)" sh tests/plots/run.sh "$(MGSIM)"

golden-update: $(MGSIM) $(MGPROBE)
	@sh tests/golden/run.sh --update "$(MGSIM)" "$(MGPROBE)"

# ParallelFusion's findings on the adreno650 model, every network whole
# (tests/networks/findings.sh --full; minutes: `make test` runs a subset).
findings: $(MGSIM)
	@sh tests/networks/findings.sh "$(MGSIM)" --full

# ---- the main job ----------------------------------------------------------
run: deps-ensure
	@$(MAKE) --no-print-directory all
	@sh mk/run.sh "$(MGSIM)" "$(MGPROBE)"

bench: deps-ensure
	@$(MAKE) --no-print-directory all $(BENCH_BINS)
	@sh mk/bench.sh "$(BUILD)/bench"

# The validation reports under configs/measured/: calibrate, then
# mgsim validate on the recorded timings (text, JSON, plot).
.PHONY: compare-archprobe
compare-archprobe: deps-ensure
	@$(MAKE) --no-print-directory $(MGSIM)
	@sh mk/compare_archprobe.sh "$(MGSIM)" configs/measured/pixel4

# The Mali-T860 cross-check against AutoTVM's tophub log (sampled
# simulation; minutes): configs/measured/mali-t860/.
.PHONY: validate-mali-t860
validate-mali-t860: deps-ensure
	@$(MAKE) --no-print-directory $(MGSIM)
	@sh mk/validate_mali.sh "$(MGSIM)" configs/measured/mali-t860

.PHONY: validate-h100
validate-h100: deps-ensure
	@$(MAKE) --no-print-directory $(MGSIM)
	@sh mk/validate.sh "$(MGSIM)"

install: all
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" LIBDIR="$(LIBDIR)" BINDIR="$(BINDIR)" \
	    BUILD="$(BUILD)" sh mk/install.sh install

.PHONY: readme-accuracy
readme-accuracy:
	@sh mk/readme_accuracy.sh README.md

uninstall:
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" LIBDIR="$(LIBDIR)" BINDIR="$(BINDIR)" \
	    BUILD="$(BUILD)" sh mk/install.sh uninstall

clean:
	rm -rf build $(BINDIR)

-include $(LIB_OBJS:.o=.d) $(MGSIM_OBJS:.o=.d) $(MPI_OBJS:.o=.d) $(PROBE_OBJS:.o=.d) $(TEST_OBJS:.o=.d) \
         $(BENCH_SRCS:%.c=$(BUILD)/%.d)

# ---- fuzzing: every parser ------------------------------------------------
# tests/fuzz/fuzz_NAME.c is a libFuzzer target (README.md, "Reliability"),
# built with clang (-fsanitize=fuzzer,address,undefined) against the
# library compiled again under build/fuzz/obj/ (plus probe/vmatrix.c, the
# OpenCL-free verify matrix parser) and tests/fuzz/harness.c.  mk/fuzz.sh
# runs them:
#   make fuzz         each for FUZZ_SECONDS (default 10)
#   make fuzz-smoke   each for FUZZ_SMOKE_SECONDS (default 4): CI
#   make fuzz-long    each for FUZZ_RUNS executions (default 10^7): by hand;
#                     FUZZ_JOBS processes at once, FUZZ_SPLIT per target;
#                     summary in FUZZ_LONG_TSV (mk/fuzz.sh): the first free
#                     of doc/runs/fuzz-long.tsv, fuzz-long-2.tsv, ...
#   make fuzz-plan    toward FUZZ_RUNS per target on FUZZ_CORES cores within
#                     FUZZ_BUDGET s of wall time, processes spread by the
#                     rates in tests/fuzz/rates.tsv (mk/fuzz_plan.sh), less
#                     the executions of the runs in FUZZ_DONE (default every
#                     doc/runs/fuzz-long*.tsv; empty: none); summary in
#                     FUZZ_LONG_TSV.  `make reliability` sums the runs.
#   make fuzz-rates   measure those rates (FUZZ_RATES_SECONDS each, CPU
#                     time) into tests/fuzz/rates.tsv (mk/fuzz_rates.sh)
#   make fuzz-bundle  the targets packed with a runner into build/fuzz-bundle/,
#                     for a machine without clang (mk/fuzz_bundle.sh), with
#                     the FUZZ_DONE summaries (its run.sh --plan runs only
#                     what they lack) and FUZZ_RATES (default
#                     tests/fuzz/rates.tsv) as its rates
#   make fuzz-corpus  minimize build/fuzz/corpus/ into tests/fuzz/corpus/
# A crash leaves build/fuzz/NAME-crash-* (replay: build/fuzz/fuzz_NAME FILE).
# (-Wno-format-nonliteral: clang, unlike gcc, flags the vprintf in base/diag.c.)
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 10
FUZZ_SMOKE_SECONDS ?= 4
FUZZ_RUNS    ?= 10000000
FUZZ_JOBS    ?= 1
FUZZ_SPLIT   ?= 1
FUZZ_CORES   ?= 2
FUZZ_BUDGET  ?= 600
FUZZ_RATES_SECONDS ?= 20
FUZZ_RATES   ?= tests/fuzz/rates.tsv
FUZZ_DONE    ?= $(wildcard $(RUNS_DIR)/fuzz-long.tsv $(RUNS_DIR)/fuzz-long-*.tsv)
FUZZ_LONG_TSV ?= $(shell f=$(RUNS_DIR)/fuzz-long.tsv n=1; \
                   while [ -e $$f ]; do n=$$((n + 1)); f=$(RUNS_DIR)/fuzz-long-$$n.tsv; done; echo $$f)
FUZZ_DIR     := build/fuzz
FUZZ_FLAGS    = $(CSTD) $(WARN) -Wno-format-nonliteral -O1 -g -fno-omit-frame-pointer \
                -fsanitize=address,undefined -fno-sanitize-recover=all $(INCLUDES) -MMD -MP
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_LOBJS   := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(LIB_SRCS) probe/vmatrix.c)
FUZZ_LIB     := $(FUZZ_DIR)/libmgsim.a

.PHONY: fuzz fuzz-smoke fuzz-long fuzz-plan fuzz-rates fuzz-corpus fuzz-build fuzz-clang \
        fuzz-bundle reliability
fuzz-clang:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || sh mk/deps.sh install-fuzz

$(FUZZ_DIR)/obj/%.o: %.c | fuzz-clang
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_LIB): $(FUZZ_LOBJS)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_DIR)/obj/tests/fuzz/harness.o \
                    $(FUZZ_LIB)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ -lcjson -lm -lpthread

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@sh mk/fuzz.sh $(FUZZ_DIR) time $(FUZZ_SECONDS) $(FUZZ_NAMES)

fuzz-smoke: fuzz-build
	@sh mk/fuzz.sh $(FUZZ_DIR) time $(FUZZ_SMOKE_SECONDS) $(FUZZ_NAMES)

fuzz-long: fuzz-build
	@FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_SPLIT=$(FUZZ_SPLIT) FUZZ_SUMMARY=$(FUZZ_LONG_TSV) \
	    sh mk/fuzz.sh $(FUZZ_DIR) runs $(FUZZ_RUNS) $(FUZZ_NAMES)

fuzz-plan: fuzz-build
	@FUZZ_SUMMARY=$(FUZZ_LONG_TSV) FUZZ_DONE="$(FUZZ_DONE)" sh mk/fuzz_plan.sh $(FUZZ_DIR) $(FUZZ_CORES) \
	    $(FUZZ_BUDGET) $(FUZZ_RUNS) tests/fuzz/rates.tsv $(FUZZ_NAMES)

fuzz-rates: fuzz-build
	@sh mk/fuzz_rates.sh $(FUZZ_DIR) $(FUZZ_RATES_SECONDS) tests/fuzz/rates.tsv $(FUZZ_NAMES)

fuzz-bundle: fuzz-build
	@FUZZ_DONE="$(FUZZ_DONE)" FUZZ_RATES=$(FUZZ_RATES) sh mk/fuzz_bundle.sh $(FUZZ_DIR) build/fuzz-bundle $(FUZZ_NAMES)

# The reliability report (doc/RELIABILITY.md): the hostile-input corpus
# (with build/asan/bin too when `make check` built it), the summaries in
# doc/runs/ (tsan, memcheck, fuzz-long*: summed) and a `make fuzz`
# run; a few minutes, not part of `make test`.
reliability: $(MGSIM) $(MGPROBE)
	@RUNS_DIR=$(RUNS_DIR) sh mk/reliability.sh "$(MGSIM)" "$(MGPROBE)" doc/RELIABILITY.md

fuzz-corpus: fuzz-build
	@sh mk/fuzz.sh $(FUZZ_DIR) merge 0 $(FUZZ_NAMES)

-include $(FUZZ_LOBJS:.o=.d) $(FUZZ_NAMES:%=$(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.d) \
         $(FUZZ_DIR)/obj/tests/fuzz/harness.d
