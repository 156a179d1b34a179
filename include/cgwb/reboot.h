#ifndef CGWB_REBOOT_H
#define CGWB_REBOOT_H

#include <cgwb/list.h>

/* Run before an orderly power-off, newest first (e.g. sync and unmount filesystems). */
struct shutdown_hook {
	void (*fn)(void);
	struct list_head node;
};
void register_shutdown_hook(struct shutdown_hook *hook);

/* Orderly: shutdown hooks, then power off with code (QEMU exits with exactly code). */
__noreturn void kernel_poweroff(int code);
/* Immediate, for fatal errors. */
__noreturn void machine_poweroff(int code);
__noreturn void machine_halt(void);

#endif
