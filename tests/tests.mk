# Host tests (included by the top Makefile). The portable sources are built a second time,
# for the host platform in tests/host/platform, under AddressSanitizer and UBSan, and linked
# with the unit tests into one Criterion binary.
#
#   make test-host                      build and run every host unit test
#   make test-host T='sched/*'          only the tests matching a Criterion filter
#   CGWB_TEST_VERBOSE=1 make test-host  kernel log on stderr as the tests run

HOST_BUILD := $(BUILD)/host
HOST_CFLAGS := -std=gnu11 -g -O1 -DCGWB_HOST -Iinclude -Itests/host/platform -Itests/host/unit -I. \
	-fsanitize=address,undefined -fno-omit-frame-pointer \
	-Wall -Wextra -Werror -Wno-unused-parameter -Wstrict-prototypes -Wmissing-prototypes -MMD -MP
HOST_LDFLAGS := -fsanitize=address,undefined
HOST_LDLIBS := -lcriterion

HOST_PLATFORM_SRCS := $(wildcard tests/host/platform/*.c)
# unit tests, and the simulations (the real mm/ fs/ cg/ code under virtual time)
HOST_UNIT_SRCS := $(wildcard tests/host/unit/test_*.c) $(wildcard tests/host/sim/*.c)
HOST_UNIT_OBJS := $(patsubst %,$(HOST_BUILD)/%.o,$(PORTABLE_SRCS) $(HOST_PLATFORM_SRCS) $(HOST_UNIT_SRCS))
HOST_UNIT_BIN := $(HOST_BUILD)/unit-tests

# Sanitizer reports must fail the test they happen in (UBSan would only print and go on).
HOST_TEST_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/host/lsan.supp \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The machine is shared: at most two tests at a time. A test hung for five minutes of real
# time fails instead of stalling the run (the longest simulation, 128 tenants, takes about
# 20 s alone and over 100 s on a machine busy with other builds).
HOST_TEST_ARGS := --jobs 2 --timeout 300 $(if $(T),--filter '$(T)')

$(HOST_BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -c $< -o $@

# Relink when the set of objects changes too (a test file added or removed).
$(HOST_BUILD)/unit-tests.objs: host-objs-check
	@mkdir -p $(dir $@)
	@echo '$(HOST_UNIT_OBJS)' | cmp -s - $@ || echo '$(HOST_UNIT_OBJS)' > $@

$(HOST_UNIT_BIN): $(HOST_UNIT_OBJS) $(HOST_BUILD)/unit-tests.objs
	@echo "  HOSTLD  $@"
	$(Q)$(HOSTCC) $(HOST_LDFLAGS) -o $@ $(HOST_UNIT_OBJS) $(HOST_LDLIBS)

test-host: $(HOST_UNIT_BIN)
	$(Q)$(HOST_TEST_ENV) $(HOST_UNIT_BIN) $(HOST_TEST_ARGS)

.PHONY: test-host host-objs-check

-include $(HOST_UNIT_OBJS:.o=.d)

# The host binaries of `make bench`: the portable code on the host platform, optimised and
# without sanitizers, so that the figures are the code's own cost. scripts/bench/trace
# compares the write path as is with the same code with the trace call sites compiled out
# (CGWB_NO_TRACE); scripts/bench/throttle-cost times balance_dirty_pages_ratelimited() with
# 1, 64 and 1024 wbs.
BENCH_HOST_CFLAGS := -std=gnu11 -O2 -g -DCGWB_HOST -Iinclude -Itests/host/platform -Itests/host/sim \
	-Wall -Wextra -Werror -Wno-unused-parameter -Wstrict-prototypes -Wmissing-prototypes -MMD -MP
BENCH_HOST_SRCS := $(PORTABLE_SRCS) $(HOST_PLATFORM_SRCS) tests/host/sim/sim-host.c
TRACE_COST_OBJS := $(patsubst %,$(BUILD)/bench/host/%.o,$(BENCH_HOST_SRCS) tests/host/bench/trace_cost.c)
TRACE_COST_NT_OBJS := $(patsubst %,$(BUILD)/bench/host-notrace/%.o,$(BENCH_HOST_SRCS) \
	tests/host/bench/trace_cost.c)
THROTTLE_BENCH_OBJS := $(patsubst %,$(BUILD)/bench/host/%.o,$(BENCH_HOST_SRCS) \
	tests/host/bench/bench_throttle.c)

$(BUILD)/bench/host/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $< (bench)"
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -c $< -o $@

$(BUILD)/bench/host-notrace/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $< (bench, no trace)"
	$(Q)$(HOSTCC) $(BENCH_HOST_CFLAGS) -DCGWB_NO_TRACE -c $< -o $@

$(BUILD)/bench/trace-cost: $(TRACE_COST_OBJS)
	$(Q)$(HOSTCC) -o $@ $^

$(BUILD)/bench/trace-cost-notrace: $(TRACE_COST_NT_OBJS)
	$(Q)$(HOSTCC) -o $@ $^

$(BUILD)/bench/bench-throttle: $(THROTTLE_BENCH_OBJS)
	@echo "  HOSTLD  $@"
	$(Q)$(HOSTCC) -o $@ $^

bench-tools: $(BUILD)/bench/trace-cost $(BUILD)/bench/trace-cost-notrace $(BUILD)/bench/bench-throttle

.PHONY: bench-tools

-include $(TRACE_COST_OBJS:.o=.d) $(TRACE_COST_NT_OBJS:.o=.d) $(THROTTLE_BENCH_OBJS:.o=.d)
