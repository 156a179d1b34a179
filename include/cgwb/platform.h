/*
 * What system start-up (init/) takes from the kernel's platform: the machine set up (CPU
 * tables, memory, clock, interrupt routing), the boot command line, files the boot loader
 * or the virtual machine hands over, the scheduler's start and the hung-task watchdog.
 */
#ifndef CGWB_PLATFORM_H
#define CGWB_PLATFORM_H

#include <cgwb/types.h>
#include <cgwb/compiler.h>

/*
 * From the boot code with interrupts off (magic and info from the multiboot2 loader): CPU
 * tables, the command line, memory, the clock, ACPI, interrupt controllers, the RTC.
 */
void setup_arch(u32 magic, u32 info);
/* The value of KEY=value (or "" for a bare KEY) on the command line; NULL if absent. */
const char *cmdline_get(const char *key);
const char *cmdline_full(void);
/* A file handed over at boot (QEMU's fw_cfg "opt/cgwb/..."), allocated: 0 or -errno. */
int boot_file_read(const char *name, char **data, size_t *len);

/* The scheduler's start (kernel/platform/sched.c), the tick, and the boot CPU's idle loop. */
void sched_init(void);
void timer_tick_init(void);
__noreturn void cpu_idle_loop(void);

/* Start the other CPUs (kernel/arch/smpboot.c), first thing in init. */
void smp_init(void);
/* The RAM setup_arch() left for later (kernel/platform/meminit.c): scrubbed and given to the
 * page allocator by a thread, once the scheduler and the other CPUs run. */
void mem_init_late(void);

/* Report tasks stuck in uninterruptible sleep (kernel/platform/hung_task.c). */
void hung_task_init(void);

#endif
