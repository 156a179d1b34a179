# Fuzzing with libFuzzer (included by the top Makefile); docs/fuzzing.md says more. The
# portable sources and the host platform are built a third time, with clang, coverage
# instrumentation, AddressSanitizer and UBSan, and linked once per target:
#
#   ext2       tests/fuzz/ext2_fuzz.c       mount, walk and change corrupt ext2 images
#   ext4       tests/fuzz/ext4_fuzz.c       mount and walk corrupt ext4 images
#   shell      tests/fuzz/shell_fuzz.c      the shell's lexer, parser, expansion, arithmetic
#   pseudo     tests/fuzz/pseudo_fuzz.c     writes to every writable cgroup, /proc and /sys file
#   virtqueue  tests/fuzz/virtqueue_fuzz.c  a misbehaving device filling the used ring
#   cgroup     tests/fuzz/cgroup_fuzz.c     mkdir/rmdir of any name, subtree_control, cgroup.procs
#   limits     tests/fuzz/limits_fuzz.c     io.max, memory.max, memory.high against a model
#   tracefs    tests/fuzz/tracefs_fuzz.c    writes to tracefs between trace events
#   elf        tests/fuzz/elf_fuzz.c        the ELF loader's plan of any file
#
#   make fuzz [FUZZ_SECONDS=N]   every target in turn, N seconds each, one process at a time
#   make fuzz-TARGET             one target; its corpus grows in build/fuzz/corpus/TARGET
#                                from the seeds in tests/fuzz/corpus/TARGET; crashes land in
#                                build/fuzz/crashes/
#   make fuzz-smoke              every target's smoke (part of make test)
#   make fuzz-TARGET-smoke       bounded, deterministic: the seeds, then FUZZ_SMOKE_RUNS
#                                mutations with a fixed seed; must end without a crash
#   make fuzz-long               every target in turn to FUZZ_LONG_RUNS (10^6) executions,
#                                then a table of executions, coverage, seconds and crashes
#                                (not part of make test: about an hour and a half here)
#   make fuzz-merge              minimise the finds of build/fuzz/corpus into the committed
#                                seeds (all targets but ext2 and ext4, whose seeds are
#                                generated)
#   build/fuzz/TARGET-fuzz FILE  replays one input

FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 300
FUZZ_LONG_RUNS ?= 1000000
FUZZ_SMOKE_RUNS ?= 2000
# the quick targets run more in the same few seconds
FUZZ_SMOKE_RUNS_ext2 := 3000
FUZZ_SMOKE_RUNS_ext4 := 2000
FUZZ_SMOKE_RUNS_shell := 20000
FUZZ_SMOKE_RUNS_virtqueue := 20000
FUZZ_SMOKE_RUNS_pseudo := 5000
FUZZ_SMOKE_RUNS_cgroup := 3000
FUZZ_SMOKE_RUNS_limits := 20000
FUZZ_SMOKE_RUNS_tracefs := 5000
FUZZ_SMOKE_RUNS_elf := 50000
fuzz_smoke_runs = $(or $(FUZZ_SMOKE_RUNS_$(1)),$(FUZZ_SMOKE_RUNS))
FUZZ_TARGETS := ext2 ext4 shell pseudo virtqueue cgroup limits tracefs elf
FUZZ_MERGE_TARGETS := $(filter-out ext2 ext4,$(FUZZ_TARGETS))
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=gnu11 -g -O1 -DCGWB_HOST -Iinclude -Itests/host/platform \
	$(FUZZ_SANITIZE) -fsanitize=fuzzer-no-link -fno-omit-frame-pointer \
	-Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter -Wno-sign-compare \
	-Wno-missing-field-initializers -Wno-gnu-variable-sized-type-not-at-end \
	-Wno-unknown-warning-option -MMD -MP
FUZZ_LIB_SRCS := $(PORTABLE_SRCS) $(wildcard tests/host/platform/*.c)
FUZZ_LIB_OBJS := $(patsubst %,$(FUZZ_BUILD)/%.o,$(FUZZ_LIB_SRCS))
FUZZ_HARNESS_OBJS := $(patsubst %,$(FUZZ_BUILD)/tests/fuzz/%_fuzz.c.o,$(FUZZ_TARGETS))
# what the harnesses share, linked into each
FUZZ_COMMON_OBJS := $(FUZZ_BUILD)/tests/fuzz/fuzz_files.c.o $(FUZZ_BUILD)/tests/fuzz/fuzz_fs.c.o
FUZZ_SEEDS := $(FUZZ_BUILD)/seeds
# Leak checks stay off: the kernel allocates from its own arena, and the platform's task
# stacks are meant to live as long as the process.
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# An ext2 input is the start of an image of the harness's 256 KiB disk, an ext4 one of its
# 2 MiB disk; the other targets take libFuzzer's default (the longest seed, at least 4 KiB).
FUZZ_MAX_LEN_ext2 := 262144
FUZZ_MAX_LEN_ext4 := 2097152
fuzz_args = -timeout=10 $(if $(FUZZ_MAX_LEN_$(1)),-max_len=$(FUZZ_MAX_LEN_$(1))) \
	-artifact_prefix=$(FUZZ_BUILD)/crashes/ -print_final_stats=1
# The machine is shared: fuzzing runs niced, one process, never -jobs/-workers.
FUZZ_NICE ?= nice -n 15

# The seeds of a target: the committed corpus, and for ext2 and ext4 the generated images.
fuzz_seed_dirs = $(wildcard tests/fuzz/corpus/$(1)) $(if $(filter ext2 ext4,$(1)),$(FUZZ_SEEDS)/$(1))

$(FUZZ_BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/%-fuzz: $(FUZZ_BUILD)/tests/fuzz/%_fuzz.c.o $(FUZZ_COMMON_OBJS) $(FUZZ_LIB_OBJS)
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_SANITIZE) -fsanitize=fuzzer -o $@ $^

$(FUZZ_SEEDS)/.done: tests/fuzz/make-seeds.sh
	$(Q)tests/fuzz/make-seeds.sh $(FUZZ_SEEDS)
	@touch $@

# Every target depends on the generated ext2 seeds: one rule for all, and they are quick.
$(addprefix fuzz-,$(FUZZ_TARGETS)): fuzz-%: $(FUZZ_BUILD)/%-fuzz $(FUZZ_SEEDS)/.done
	@mkdir -p $(FUZZ_BUILD)/corpus/$* $(FUZZ_BUILD)/crashes
	$(Q)$(FUZZ_ENV) $(FUZZ_NICE) $< $(FUZZ_BUILD)/corpus/$* $(call fuzz_seed_dirs,$*) $(call fuzz_args,$*) \
		-max_total_time=$(FUZZ_SECONDS) > $(FUZZ_BUILD)/$*.log 2>&1; \
		rc=$$?; tail -n 12 $(FUZZ_BUILD)/$*.log; exit $$rc

# A fresh copy of the seeds each time and a fixed seed: the same inputs, run after run.
# Committed crash inputs sit among the seeds, so every smoke replays them first.
$(addsuffix -smoke,$(addprefix fuzz-,$(FUZZ_TARGETS))): fuzz-%-smoke: $(FUZZ_BUILD)/%-fuzz $(FUZZ_SEEDS)/.done
	@rm -rf $(FUZZ_BUILD)/smoke-$* && mkdir -p $(FUZZ_BUILD)/smoke-$* $(FUZZ_BUILD)/crashes
	@for d in $(call fuzz_seed_dirs,$*); do cp $$d/* $(FUZZ_BUILD)/smoke-$*/; done
	$(Q)$(FUZZ_ENV) $< $(FUZZ_BUILD)/smoke-$* $(call fuzz_args,$*) -seed=1 -runs=$(call fuzz_smoke_runs,$*) \
		> $(FUZZ_BUILD)/smoke-$*.log 2>&1 || { tail -n 60 $(FUZZ_BUILD)/smoke-$*.log; exit 1; }
	@grep -a 'Done [0-9]* runs' $(FUZZ_BUILD)/smoke-$*.log || true
	@echo "fuzz-$*-smoke: $(call fuzz_smoke_runs,$*) runs, no crash"

# One target to FUZZ_LONG_RUNS executions; the log gets the wall seconds and the exit status
# for tests/fuzz/long-summary.sh.
$(addsuffix -long,$(addprefix fuzz-,$(FUZZ_TARGETS))): fuzz-%-long: $(FUZZ_BUILD)/%-fuzz $(FUZZ_SEEDS)/.done
	@mkdir -p $(FUZZ_BUILD)/corpus/$* $(FUZZ_BUILD)/crashes
	@echo "fuzz-$*-long: $(FUZZ_LONG_RUNS) executions, log $(FUZZ_BUILD)/long-$*.log"
	$(Q)start=$$(date +%s); $(FUZZ_ENV) $(FUZZ_NICE) $< $(FUZZ_BUILD)/corpus/$* $(call fuzz_seed_dirs,$*) \
		$(call fuzz_args,$*) -runs=$(FUZZ_LONG_RUNS) > $(FUZZ_BUILD)/long-$*.log 2>&1; rc=$$?; \
		echo "fuzz-long: seconds $$(($$(date +%s) - start))" >> $(FUZZ_BUILD)/long-$*.log; \
		echo "fuzz-long: exit $$rc" >> $(FUZZ_BUILD)/long-$*.log

# Every target, one after the other, whatever one of them finds; the table at the end.
fuzz-long:
	$(Q)for t in $(FUZZ_TARGETS); do $(MAKE) --no-print-directory fuzz-$$t-long; done; \
		tests/fuzz/long-summary.sh $(FUZZ_BUILD) $(FUZZ_TARGETS)

# Sequential on purpose (a shared machine): make -j does not run two fuzzers at once.
fuzz:
	$(Q)for t in $(FUZZ_TARGETS); do $(MAKE) --no-print-directory fuzz-$$t || exit 1; done

# The list, for scripts/run-tests (which counts each smoke as a test).
fuzz-targets:
	@echo $(FUZZ_TARGETS)

fuzz-smoke:
	$(Q)for t in $(FUZZ_TARGETS); do $(MAKE) --no-print-directory fuzz-$$t-smoke || exit 1; done

# Only inputs that add coverage to the committed seeds are copied in (libFuzzer's -merge=1);
# edges alone count (-use_counters=0), which keeps the committed set to a few hundred files.
fuzz-merge: $(patsubst %,$(FUZZ_BUILD)/%-fuzz,$(FUZZ_MERGE_TARGETS))
	$(Q)for t in $(FUZZ_MERGE_TARGETS); do \
		mkdir -p tests/fuzz/corpus/$$t $(FUZZ_BUILD)/corpus/$$t && \
		$(FUZZ_ENV) $(FUZZ_NICE) $(FUZZ_BUILD)/$$t-fuzz -merge=1 -use_counters=0 -max_len=4096 \
			tests/fuzz/corpus/$$t $(FUZZ_BUILD)/corpus/$$t > $(FUZZ_BUILD)/merge-$$t.log 2>&1 \
			|| { tail -n 20 $(FUZZ_BUILD)/merge-$$t.log; exit 1; }; \
		echo "fuzz-merge $$t: $$(ls tests/fuzz/corpus/$$t | wc -l) seeds"; \
	done

.PHONY: fuzz fuzz-smoke fuzz-long fuzz-merge fuzz-targets $(addprefix fuzz-,$(FUZZ_TARGETS)) \
	$(addsuffix -smoke,$(addprefix fuzz-,$(FUZZ_TARGETS))) $(addsuffix -long,$(addprefix fuzz-,$(FUZZ_TARGETS)))
.SECONDARY: $(FUZZ_HARNESS_OBJS) $(FUZZ_COMMON_OBJS) $(FUZZ_LIB_OBJS)

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_HARNESS_OBJS:.o=.d) $(FUZZ_COMMON_OBJS:.o=.d)
