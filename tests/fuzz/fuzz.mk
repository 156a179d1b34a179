# ext2 fuzzing with libFuzzer (included by the top Makefile): mount-and-walk of corrupt
# images, tests/fuzz/ext2_fuzz.c. The portable sources and the host platform are built a
# third time, with clang, coverage instrumentation, AddressSanitizer and UBSan.
#
#   make fuzz-ext2 [FUZZ_TIME=600]   fuzz for FUZZ_TIME seconds; the corpus grows in
#                                    build/fuzz/corpus, crashes land in build/fuzz/crashes
#   make fuzz-ext2-smoke             a bounded, deterministic run from the seed corpus that
#                                    must end without a crash (part of make test)
#   build/fuzz/ext2-fuzz CRASHFILE   replays one input

FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_CC ?= clang
FUZZ_TIME ?= 300
FUZZ_SMOKE_RUNS ?= 2000
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=gnu11 -g -O1 -DCGWB_HOST -Iinclude -Itests/host/platform \
	$(FUZZ_SANITIZE) -fsanitize=fuzzer-no-link -fno-omit-frame-pointer \
	-Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter -Wno-sign-compare \
	-Wno-missing-field-initializers -Wno-gnu-variable-sized-type-not-at-end \
	-Wno-unknown-warning-option -MMD -MP
FUZZ_SRCS := $(PORTABLE_SRCS) $(wildcard tests/host/platform/*.c) tests/fuzz/ext2_fuzz.c
FUZZ_OBJS := $(patsubst %,$(FUZZ_BUILD)/%.o,$(FUZZ_SRCS))
FUZZ_BIN := $(FUZZ_BUILD)/ext2-fuzz
FUZZ_SEEDS := $(FUZZ_BUILD)/seeds
# Leak checks stay off: the kernel allocates from its own arena, and the platform's task
# stacks are meant to live as long as the process.
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
FUZZ_ARGS := -timeout=10 -max_len=1048576 -artifact_prefix=$(FUZZ_BUILD)/crashes/ -print_final_stats=1

$(FUZZ_BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BIN): $(FUZZ_OBJS)
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_SANITIZE) -fsanitize=fuzzer -o $@ $(FUZZ_OBJS)

$(FUZZ_SEEDS)/.done: tests/fuzz/make-seeds.sh
	$(Q)tests/fuzz/make-seeds.sh $(FUZZ_SEEDS)
	@touch $@

fuzz-ext2: $(FUZZ_BIN) $(FUZZ_SEEDS)/.done
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/crashes
	$(Q)$(FUZZ_ENV) $(FUZZ_BIN) $(FUZZ_BUILD)/corpus $(FUZZ_SEEDS) $(FUZZ_ARGS) \
		-max_total_time=$(FUZZ_TIME)

# A fresh copy of the seeds each time and a fixed seed: the same inputs, run after run.
fuzz-ext2-smoke: $(FUZZ_BIN) $(FUZZ_SEEDS)/.done
	@rm -rf $(FUZZ_BUILD)/smoke && mkdir -p $(FUZZ_BUILD)/smoke $(FUZZ_BUILD)/crashes
	@cp $(FUZZ_SEEDS)/*.img $(FUZZ_BUILD)/smoke/
	$(Q)$(FUZZ_ENV) $(FUZZ_BIN) $(FUZZ_BUILD)/smoke $(FUZZ_ARGS) -seed=1 -runs=$(FUZZ_SMOKE_RUNS) \
		> $(FUZZ_BUILD)/smoke.log 2>&1 || { tail -n 60 $(FUZZ_BUILD)/smoke.log; exit 1; }
	@grep -a 'Done [0-9]* runs' $(FUZZ_BUILD)/smoke.log || true
	@echo "fuzz-ext2-smoke: $(FUZZ_SMOKE_RUNS) runs, no crash"

.PHONY: fuzz-ext2 fuzz-ext2-smoke

-include $(FUZZ_OBJS:.o=.d)
