/* Invariant checks. A failed BUG_ON stops the kernel with a report; WARN_ON logs once and goes on. */
#ifndef CGWB_BUG_H
#define CGWB_BUG_H

#include <cgwb/compiler.h>

/**
 * panic() - stop the kernel with a report
 * @fmt: the printf format of the reason
 * @...: its arguments
 *
 * Logs "Kernel panic - not syncing: <reason>" with a backtrace and stops the machine (the
 * host build aborts, or checks a panic a test expects). A panic inside a panic stops at
 * once.
 *
 * Context: any context.
 */
__noreturn void panic(const char *fmt, ...) __printf(1, 2);
/**
 * warn_slowpath() - report a failed WARN_ON() and go on
 * @file: the source file
 * @line: the line
 * @cond: the condition's text
 *
 * Counts it in warn_count (tests assert it stays 0) and logs it with the current task.
 *
 * Context: any context.
 */
void warn_slowpath(const char *file, int line, const char *cond);

#define BUG() panic("kernel BUG at %s:%d", __FILE__, __LINE__)
#define BUG_ON(cond)                                                                 \
	do {                                                                         \
		if (unlikely(cond))                                                  \
			panic("kernel BUG at %s:%d: %s", __FILE__, __LINE__, #cond); \
	} while (0)

#define WARN_ON(cond)                                             \
	({                                                        \
		bool __w = !!(cond);                              \
		if (unlikely(__w))                                \
			warn_slowpath(__FILE__, __LINE__, #cond); \
		unlikely(__w);                                    \
	})

#define WARN_ON_ONCE(cond)                                        \
	({                                                        \
		static bool __warned;                             \
		bool __w = !!(cond);                              \
		if (unlikely(__w) && !__warned) {                 \
			__warned = true;                          \
			warn_slowpath(__FILE__, __LINE__, #cond); \
		}                                                 \
		unlikely(__w);                                    \
	})

/* Number of warnings issued so far: tests assert it stays 0. */
extern unsigned long warn_count;

#endif
