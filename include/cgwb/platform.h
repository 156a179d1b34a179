/*
 * What system start-up (init/) takes from the kernel's platform: the machine set up (CPU
 * tables, memory, clock, interrupt routing), the boot command line, files the boot loader
 * or the virtual machine hands over, the scheduler's start and the hung-task watchdog.
 */
#ifndef CGWB_PLATFORM_H
#define CGWB_PLATFORM_H

#include <cgwb/types.h>
#include <cgwb/compiler.h>

/**
 * setup_arch() - set the machine up
 * @magic: the multiboot2 loader's magic (anything else panics)
 * @info: the address of its boot information
 *
 * CPU tables, the command line, memory, the clock, ACPI, the interrupt controllers, the
 * RTC.
 *
 * Context: the boot code, once, interrupts off.
 */
void setup_arch(u32 magic, u32 info);
/**
 * cmdline_get() - the value of an argument of the command line
 * @key: the KEY of KEY=value; the last one given wins
 *
 * Context: any context, after setup_arch().
 * Return: the value, "" for a bare KEY, or NULL if it is absent.
 */
const char *cmdline_get(const char *key);
/**
 * cmdline_full() - the whole command line, as given (/proc/cmdline)
 *
 * Context: any context, after setup_arch().
 * Return: the line.
 */
const char *cmdline_full(void);
/**
 * boot_file_read() - read a file handed over at boot (QEMU's fw_cfg "opt/cgwb/...")
 * @name: its name
 * @data: set to its content, allocated (the caller frees it)
 * @len: set to its length
 *
 * Context: process context; may sleep.
 * Return: 0, or a negative errno (no such file, no memory).
 */
int boot_file_read(const char *name, char **data, size_t *len);

/**
 * sched_init() - start the scheduler: the boot context becomes CPU 0's idle task (pid 0)
 *
 * Context: boot, once, interrupts off.
 */
void sched_init(void);
/**
 * timer_tick_init() - start the boot CPU's tick (the PIT at HZ)
 *
 * Context: boot, once.
 */
void timer_tick_init(void);
/**
 * cpu_idle_loop() - the idle loop: halt until there is something to run
 *
 * Before it halts, a CPU runs the idle hook (register_cpu_idle_hook()).
 *
 * Context: a CPU's idle task, for good.
 */
__noreturn void cpu_idle_loop(void);

/**
 * smp_init() - start the other CPUs (kernel/arch/smpboot.c)
 *
 * Those the ACPI MADT lists, up to what the command line asks (nr_cpus=); a CPU that does
 * not start ends the bring-up there, and nr_cpu_ids counts those that did.
 *
 * Context: init, first thing, once.
 */
void smp_init(void);
/**
 * mem_init_late() - hand over the RAM setup_arch() left for later
 *
 * A thread scrubs it and gives it to the page allocator (kernel/platform/meminit.c), once
 * the scheduler and the other CPUs run; without a thread, it is done now.
 *
 * Context: init, once.
 */
void mem_init_late(void);

/**
 * hung_task_init() - start reporting tasks stuck in uninterruptible sleep
 *
 * kernel/platform/hung_task.c's thread, unless hung_task_timeout_secs=0.
 *
 * Context: init, once.
 */
void hung_task_init(void);

#endif
