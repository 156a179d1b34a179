/* panic() and the fatal-error stop for the kernel build. */
#include <cgwb/bug.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/irqflags.h>
#include "../arch/x86.h"
#include "panic.h"
#include <cgwb/reboot.h>

static bool poweroff_on_panic;
static int panic_depth;

void panic_set_action(const char *action)
{
	poweroff_on_panic = action && !strcmp(action, "poweroff");
}

void oops_begin(void)
{
	local_irq_disable();
	oops_in_progress = 1;
	console_loglevel = LOGLEVEL_DEBUG; /* the report must reach the console */
}

__noreturn void panic_stop(int code)
{
	if (poweroff_on_panic)
		machine_poweroff(code);
	machine_halt();
}

__noreturn void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	oops_begin();
	if (panic_depth++) {
		debugcon_write("cgwb: nested panic\n", 19);
		panic_stop(PANIC_EXIT_CODE);
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	show_backtrace((u64)(uintptr_t)__builtin_frame_address(0));
	panic_stop(PANIC_EXIT_CODE);
}
