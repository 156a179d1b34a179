/*
 * panic() for host runs: the message and the end of the kernel log on stderr, then abort(),
 * which a test can expect (Criterion's .signal = SIGABRT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cgwb/bug.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/irqflags.h>
#include "host_internal.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#else
#include <execinfo.h>
#endif

#define LOG_TAIL_BYTES 4096

extern int oops_in_progress; /* kernel/printk.c */

static const char *expected;
static int panic_depth;

void host_expect_panic(const char *needle)
{
	expected = needle;
}

static void print_backtrace(void)
{
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_print_stack_trace();
#else
	void *frames[64];
	int n = backtrace(frames, ARRAY_SIZE(frames));

	backtrace_symbols_fd(frames, n, STDERR_FILENO);
#endif
}

__noreturn void panic(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	arch_local_irq_disable();
	if (panic_depth++) {
		fputs("cgwb host: nested panic\n", stderr);
		abort();
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	oops_in_progress = 1; /* a panic from inside printk must still be logged */
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);

	if (expected) {
		if (!strstr(msg, expected)) {
			fprintf(stderr, "cgwb host: expected a panic about \"%s\", got: %s\n",
				expected, msg);
			_exit(HOST_PANIC_MISMATCH);
		}
		abort(); /* as the test asked: no report needed */
	}
	if (!host_log_verbose()) {
		fputs("---- cgwb host: kernel log tail ----\n", stderr);
		host_log_dump_tail(LOG_TAIL_BYTES);
		fputs("---- end of kernel log ----\n", stderr);
	}
	fprintf(stderr, "cgwb host: Kernel panic - not syncing: %s\n", msg);
	print_backtrace();
	fflush(stderr);
	abort();
}

/* No frame walking on the host: the report says where to look instead. */
void dump_stack(void)
{
	printk(KERN_WARNING "(no backtrace in host builds: run the case in the kernel, or under "
			    "gdb)\n");
}
