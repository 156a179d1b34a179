# cgwb: a freestanding x86_64 kernel with Linux-style cgroup writeback.
#
#   make            build build/cgwb.elf and build/cgwb.iso
#   make run        boot the ISO in QEMU (TCG; ACCEL=kvm to opt in), shell on this terminal
#   make test       host unit/simulation tests, then QEMU system tests
#   make test-for FILE=mm/page-writeback.c
#                   the tests found for a file at each level (host, fuzz, system), run; LEVEL=host
#                   looks at those only (scripts/test-for says how they are found)
#   make bench      benchmarks, printed beside reference figures from the same run (ext2;
#                   BENCH_FS=ext4: the ext4 section, beside Linux's ext4)
#   make debug      like run, with a gdb stub on :1234, stopped at the first instruction
#   make lint       declarations, floors and .clang-format checked over the tree (all fatal)
#   make format     clang-format the tree (F=files: those files only)
#   make clean
#
# CROSS=x86_64-elf- uses a cross toolchain for the kernel; host tests always use the host gcc.

CROSS ?=
CC := $(CROSS)gcc
LD := $(CROSS)ld
NM := $(CROSS)nm
STRIP := $(CROSS)strip
HOSTCC ?= gcc
# programs for the guest: a Linux x86-64 compiler with a static C library (the host's)
HOSTCC_PROG ?= gcc
BUILD ?= build
Q ?= @

all: deps kernel iso programs

# ---------------------------------------------------------------------------- sources
# Portable sources build into both the kernel and the host test binaries, so they use only
# the primitives declared in include/cgwb/. Whether a file is portable follows its folder
# (docs/architecture.md, "Layout"); drivers/virtio/, the one mixed folder, names its exception.

# every file portable
PORTABLE_DIRS := kernel kernel/lib mm fs fs/ext2 fs/ext4 fs/jbd2 fs/proc fs/pseudo fs/ramfs fs/sysfs block \
	cg/cgroup cg/memcg cg/io cg/pids shell/lang
# every file kernel-only
KERNEL_ONLY_DIRS := boot init kernel/platform kernel/arch drivers/pci sys shell
# drivers/virtio/: kernel-only but for the virtqueue logic
PORTABLE_IN_VIRTIO := drivers/virtio/virtio_ring.c

dir_srcs = $(wildcard $(addsuffix /*.c,$(1)) $(addsuffix /*.S,$(1)))

PORTABLE_SRCS := $(call dir_srcs,$(PORTABLE_DIRS)) $(PORTABLE_IN_VIRTIO)
KERNEL_ONLY_SRCS := $(call dir_srcs,$(KERNEL_ONLY_DIRS)) \
	$(filter-out $(PORTABLE_IN_VIRTIO),$(call dir_srcs,drivers/virtio))

KERNEL_SRCS := $(PORTABLE_SRCS) $(KERNEL_ONLY_SRCS)
KERNEL_OBJS := $(patsubst %,$(BUILD)/kernel/%.o,$(KERNEL_SRCS))

# ---------------------------------------------------------------------------- kernel
KERNEL_CFLAGS := -std=gnu11 -O2 -g -ffreestanding -nostdlib -fno-pic -fno-pie -mcmodel=kernel \
	-mno-red-zone -mgeneral-regs-only -fno-stack-protector -fno-omit-frame-pointer \
	-fno-optimize-sibling-calls -fno-asynchronous-unwind-tables -fno-common \
	-fno-strict-aliasing -fno-delete-null-pointer-checks \
	-Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Iinclude -DCGWB_KERNEL -MMD -MP
KERNEL_ASFLAGS := -Iinclude -DCGWB_KERNEL -MMD -MP -g
KERNEL_LDFLAGS := -nostdlib -n -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments -T linker.ld

# The flags an object was built with: a change of them (say -mcmodel) rebuilds everything.
KERNEL_FLAGS_STAMP := $(BUILD)/kernel/.flags
KERNEL_FLAGS_NOW := $(CC) $(KERNEL_CFLAGS) $(KERNEL_ASFLAGS)
$(KERNEL_FLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(KERNEL_FLAGS_NOW)' | cmp -s - $@ || echo '$(KERNEL_FLAGS_NOW)' > $@

$(BUILD)/kernel/%.c.o: %.c $(KERNEL_FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/kernel/%.S.o: %.S $(KERNEL_FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(KERNEL_ASFLAGS) -c $< -o $@

# Two links: the first gives symbol addresses for the backtrace table, which the second
# appends last (so nothing else moves).
$(BUILD)/ksyms0.S: scripts/gen-ksyms
	@mkdir -p $(BUILD)
	$(Q)scripts/gen-ksyms < /dev/null > $@

$(BUILD)/%.o: $(BUILD)/%.S
	$(Q)$(CC) $(KERNEL_ASFLAGS) -c $< -o $@

$(BUILD)/cgwb.pass1.elf: $(KERNEL_OBJS) $(BUILD)/ksyms0.o linker.ld
	$(Q)$(LD) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms0.o

$(BUILD)/ksyms.S: $(BUILD)/cgwb.pass1.elf scripts/gen-ksyms
	$(Q)$(NM) -n $< | scripts/gen-ksyms > $@

$(BUILD)/cgwb.elf: $(KERNEL_OBJS) $(BUILD)/ksyms.o linker.ld
	@echo "  LD      $@"
	$(Q)$(LD) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms.o
	$(Q)grub-file --is-x86-multiboot2 $@ || { echo "$@ is not multiboot2" >&2; rm -f $@; exit 1; }

kernel: $(BUILD)/cgwb.elf

$(BUILD)/cgwb.iso: $(BUILD)/cgwb.elf boot/grub.cfg
	@echo "  ISO     $@"
	@rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	$(Q)$(STRIP) -o $(BUILD)/iso/boot/cgwb.elf $(BUILD)/cgwb.elf # GRUB reads less; gdb uses build/cgwb.elf
	$(Q)cp boot/grub.cfg $(BUILD)/iso/boot/grub/grub.cfg
	$(Q)grub-mkrescue --locales= --fonts= --themes= -o $@ $(BUILD)/iso 2> $(BUILD)/grub-mkrescue.log \
		|| { cat $(BUILD)/grub-mkrescue.log >&2; exit 1; }

iso: $(BUILD)/cgwb.iso

# Linux programs for the system tests (tests/programs/): static, as cgwb runs them, and one
# dynamically linked to be refused. Built with the host's compiler and C library.
PROGRAM_SRCS := $(wildcard tests/programs/*.c)
PROGRAMS := $(patsubst tests/programs/%.c,$(BUILD)/programs/%,$(PROGRAM_SRCS)) \
	$(BUILD)/programs/hello-dynamic

$(BUILD)/programs/%: tests/programs/%.c tests/programs/check.h
	@mkdir -p $(dir $@)
	@echo "  PROG    $@"
	$(Q)$(HOSTCC_PROG) -static -pthread -O2 -Wall -Wextra -Werror -o $@ $<

$(BUILD)/programs/hello-dynamic: tests/programs/hello.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC_PROG) -O2 -o $@ $<

# Debian's busybox-static, unmodified, for the tests that run its shell and applets; a
# machine that cannot download it builds without it (those tests say they are skipped).
$(BUILD)/programs/busybox:
	@echo "  FETCH   busybox-static"
	$(Q)scripts/fetch-deb busybox-static bin/busybox $@ || true

# Debian's fio, built static from its source package (scripts/build-fio), as build/fio and
# on the test image; a machine that cannot fetch it builds without it.
$(BUILD)/fio: scripts/build-fio
	@echo "  FIO     $@ (Debian's fio source, static)"
	$(Q)scripts/build-fio $@ || true

$(BUILD)/programs/fio: $(BUILD)/fio
	$(Q)if [ -x $< ]; then cp $< $@; fi

programs: $(PROGRAMS) $(BUILD)/programs/busybox $(BUILD)/programs/fio

# ---------------------------------------------------------------------------- tools
deps:
	$(Q)scripts/install-deps

# ---------------------------------------------------------------------------- run
# The default disk: an ext2 image made on first use and kept between runs (`make disk`
# makes it anew). The guest mounts it on /mnt.
DISK ?= $(BUILD)/disk.img
DISK_SIZE ?= 512M
QEMU_ARGS ?=
# make run plays examples/demo.sh before the prompt; DEMO=0 skips it
DEMO ?= 1
DEMO_SCRIPT := $(if $(filter 0 no,$(DEMO)),,--script examples/demo.sh)

$(DISK):
	@mkdir -p $(dir $@)
	@echo "  MKE2FS  $@ ($(DISK_SIZE))"
	$(Q)truncate -s $(DISK_SIZE) $@.tmp && PATH=$$PATH:/usr/sbin:/sbin mke2fs -q -F -t ext2 -L cgwb $@.tmp && mv $@.tmp $@

disk:
	@rm -f $(DISK)
	$(Q)$(MAKE) --no-print-directory $(DISK)

run: all | $(DISK)
	scripts/run-qemu --iso $(BUILD)/cgwb.iso --disk $(DISK) $(DEMO_SCRIPT) $(QEMU_ARGS)

debug: all | $(DISK)
	scripts/run-qemu --iso $(BUILD)/cgwb.iso --disk $(DISK) --gdb $(QEMU_ARGS)

test: deps
	$(Q)MAKE="$(MAKE)" scripts/run-tests

# Only the QEMU system tests (T=name runs one): quicker while working on the kernel.
test-system: all
	$(Q)tests/system/run $(T)

# The tests of the files given, found from the objects and the tests themselves, then run:
# make test-for FILE="fs/sync.c mm/vmscan.c" [LEVEL=host,fuzz,system]. scripts/test-for FILE
# only lists them.
test-for: deps
	$(Q)test -n "$(FILE)" || { echo "make test-for: FILE=path/to/file.c... is needed" >&2; exit 2; }
	$(Q)MAKE="$(MAKE)" scripts/test-for --run $(if $(LEVEL),--level $(LEVEL)) $(FILE)

# The kernel's sources, each as "portable PATH" (in the host binaries too) or "kernel-only
# PATH", for scripts/test-for.
source-lists:
	@printf 'portable %s\n' $(PORTABLE_SRCS)
	@printf 'kernel-only %s\n' $(KERNEL_ONLY_SRCS)

# Minutes of concurrency on several CPUs (RCU torture, writeback churn); not in make test.
stress: all
	$(Q)scripts/stress/run

bench: all bench-tools
	$(Q)BENCH_FS="$(BENCH_FS)" scripts/bench/run

# The workloads of examples/workloads/ on Debian's Linux and on cgwb, on the same QEMU
# hardware (docs/compare.md): one run of the headline workloads; N=3 runs, W="boot seqwrite"
# picks workloads (W=all: every one), FIO="examples/fio/*.fio" runs fio job files instead
# (fio's figures per job side by side, scripts/compare/fio), KVER=... the kernel,
# POLICY=bandwidth cgwb's dirty-throttling policy, DRIVE="throttling.bps-write=33554432" more
# -drive options for the workload disk of both kernels, PROFILE=disk the disk-bound profile
# (scripts/compare/hardware.sh: 100 MiB/s, 3000 requests/s). FS=ext4 [FS_OPTS=data=writeback]: an ext4
# disk on both (Debian's mke2fs defaults), and Linux mounting the images cgwb writes.
N ?= 1
compare: all
	$(Q)export KVER="$(KVER)" POLICY="$(POLICY)" COMPARE_DRIVE_OPTS="$(DRIVE)" DISK_PROFILE="$(PROFILE)" FS="$(FS)" FS_OPTS="$(FS_OPTS)"; \
		if [ -n "$(FIO)" ]; then scripts/compare/fio -n $(N) $(FIO); else \
		scripts/compare/run -n $(N) $(if $(W),-w "$(W)"); fi; rc=$$?; \
		if [ "$(FS)" = ext4 ]; then KVER="$(KVER)" scripts/compare/ext4-interop read || rc=1; fi; exit $$rc

# Figures of writeback from tracefs traces, cgwb's or Linux's (docs/plots.md):
# make plot TRACE="a.trace b.trace" [OUT=dir]
OUT ?= $(BUILD)/plots
plot: deps
	$(Q)test -n "$(TRACE)" || { echo "make plot: TRACE=FILE... is needed" >&2; exit 2; }
	$(Q)scripts/plot $(TRACE) -o $(OUT)

lint: deps
	$(Q)scripts/lint

format: deps
	$(Q)clang-format -i $(or $(F),$$(git ls-files --cached --others --exclude-standard '*.c' '*.h'))

clean:
	rm -rf $(BUILD)

.PHONY: FORCE all kernel iso programs deps run debug disk clean test test-system test-for source-lists stress bench compare plot lint format
.DELETE_ON_ERROR:

-include $(KERNEL_OBJS:.o=.d)
-include tests/tests.mk
-include tests/fuzz/fuzz.mk
FORCE:
