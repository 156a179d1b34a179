/*
 * The test programs' checks: each prints "PASS name" or "FAIL name: why" and counts the
 * failures; the program ends with "NAME: N failed" and a status of its own.
 */
#ifndef TESTS_PROGRAMS_CHECK_H
#define TESTS_PROGRAMS_CHECK_H
#include <errno.h>
#include <stdio.h>

static int failures;
static char why[256]; /* the reason of the next failing result() */

static inline void report(const char *name, int ok, const char *reason)
{
	if (ok) {
		printf("PASS %s\n", name);
	} else {
		printf("FAIL %s: %s\n", name, reason);
		failures++;
	}
	fflush(stdout);
}

static inline void result(const char *name, int ok)
{
	report(name, ok, why);
	why[0] = 0;
}

/* ok, or the reason: a call's result and errno against what was expected */
static inline int expect(long got, long want, const char *what)
{
	if (got == want)
		return 1;
	snprintf(why, sizeof(why), "%s: %ld (errno %d), expected %ld", what, got, errno, want);
	return 0;
}

static inline int expect_err(long got, int err, const char *what)
{
	if (got == -1 && errno == err)
		return 1;
	snprintf(why, sizeof(why), "%s: %ld (errno %d), expected errno %d", what, got, errno, err);
	return 0;
}
#endif
