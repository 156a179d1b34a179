# Host tests (included by the top Makefile). The portable sources are built a second time,
# for the host platform in tests/host/platform, under AddressSanitizer and UBSan, and linked
# with the unit tests into one Criterion binary.
#
#   make test-host                      build and run every host unit test
#   make test-host T='sched/*'          only the tests matching a Criterion filter
#   CGWB_TEST_VERBOSE=1 make test-host  kernel log on stderr as the tests run

HOST_BUILD := $(BUILD)/host
HOST_CFLAGS := -std=gnu11 -g -O1 -DCGWB_HOST -Iinclude -Itests/host/platform -Itests/host/unit \
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
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The machine is shared: at most two tests at a time. A test hung for two minutes of real
# time fails instead of stalling the run.
HOST_TEST_ARGS := --jobs 2 --timeout 120 $(if $(T),--filter '$(T)')

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

# The throttle-path microbenchmark of `make bench` (scripts/bench/throttle-cost): the portable
# sources and the host platform once more, optimised and without sanitizers, so that the
# figures are the code's own cost.
HOSTBENCH_BUILD := $(BUILD)/hostbench
HOSTBENCH_CFLAGS := $(filter-out -fsanitize=% -O1,$(HOST_CFLAGS)) -O2 -Itests/host/sim
HOSTBENCH_OBJS := $(patsubst %,$(HOSTBENCH_BUILD)/%.o,$(PORTABLE_SRCS) $(HOST_PLATFORM_SRCS) \
	tests/host/sim/sim-echo.c tests/host/bench/bench_throttle.c)
HOSTBENCH_BIN := $(HOSTBENCH_BUILD)/bench-throttle

$(HOSTBENCH_BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $< (bench)"
	$(Q)$(HOSTCC) $(HOSTBENCH_CFLAGS) -c $< -o $@

$(HOSTBENCH_BIN): $(HOSTBENCH_OBJS)
	@echo "  HOSTLD  $@"
	$(Q)$(HOSTCC) -o $@ $(HOSTBENCH_OBJS)

bench-host: $(HOSTBENCH_BIN)

.PHONY: bench-host

-include $(HOSTBENCH_OBJS:.o=.d)
