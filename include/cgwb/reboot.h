#ifndef CGWB_REBOOT_H
#define CGWB_REBOOT_H

#include <cgwb/list.h>

/* Run before an orderly power-off, newest first (e.g. sync and unmount filesystems). */
struct shutdown_hook {
	void (*fn)(void);
	struct list_head node;
};
/**
 * register_shutdown_hook() - run a function before an orderly power-off
 * @hook: the hook, static; hooks run newest first
 *
 * Context: start-up; the list is not locked.
 */
void register_shutdown_hook(struct shutdown_hook *hook);
/**
 * kernel_poweroff() - power off in order
 * @code: the exit status (QEMU exits with exactly @code's low byte)
 *
 * The shutdown hooks (newest first: sync and unmount the filesystems...), then the trace
 * stream is drained, then machine_poweroff().
 *
 * Context: process context; sleeps (the hooks).
 */
__noreturn void kernel_poweroff(int code);
/**
 * machine_poweroff() - power off at once, for fatal errors
 * @code: the exit status (QEMU's debug-exit device takes it; ACPI then turns the power
 *        off; the CPU halts if neither happens)
 *
 * Context: any context.
 */
__noreturn void machine_poweroff(int code);
/**
 * machine_halt() - stop this CPU for good, interrupts off
 *
 * Context: any context.
 */
__noreturn void machine_halt(void);

#endif
