#ifndef CGWB_KERNEL_PANIC_H
#define CGWB_KERNEL_PANIC_H

#include <cgwb/compiler.h>

/* QEMU exit status after a panic or fatal exception when cgwb.panic=poweroff (test runs). */
#define PANIC_EXIT_CODE 112

extern int oops_in_progress;
void oops_begin(void);
/* Stop after a fatal error: power off with code (cgwb.panic=poweroff) or halt. */
__noreturn void panic_stop(int code);
void panic_set_action(const char *action);

#endif
