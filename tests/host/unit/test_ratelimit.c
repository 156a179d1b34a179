/*
 * Rate limiting of log lines (kernel/lib/ratelimit.c), as Linux's: burst messages per
 * interval pass, the rest are counted, and the next interval opens with the count.
 */
#include <criterion/criterion.h>
#include <cgwb/ratelimit.h>
#include "host.h"

static void setup(void)
{
	host_platform_init(8u << 20);
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(ratelimit, .init = setup, .fini = teardown);

Test(ratelimit, a_burst_passes_then_the_rest_are_counted_and_reported)
{
	struct ratelimit_state rs;
	int passed = 0;

	ratelimit_state_init(&rs, DEFAULT_RATELIMIT_INTERVAL, DEFAULT_RATELIMIT_BURST);
	for (int i = 0; i < 25; i++)
		passed += ___ratelimit(&rs, "tester");
	cr_assert_eq(passed, DEFAULT_RATELIMIT_BURST);
	cr_assert_eq(ratelimit_missed(&rs), 15);
	host_run_for(4 * NSEC_PER_SEC);
	cr_assert_eq(___ratelimit(&rs, "tester"), 0, "the interval is not over yet");
	host_run_for(2 * NSEC_PER_SEC);
	cr_assert_eq(___ratelimit(&rs, "tester"), 1);
	cr_assert(host_log_contains("tester: 16 callbacks suppressed"), "%s", host_log());
	cr_assert_eq(ratelimit_missed(&rs), 0);
}

Test(ratelimit, an_interval_of_zero_lets_everything_through)
{
	struct ratelimit_state rs;

	ratelimit_state_init(&rs, 0, DEFAULT_RATELIMIT_BURST);
	for (int i = 0; i < 100; i++)
		cr_assert_eq(___ratelimit(&rs, "tester"), 1);
	cr_assert(!host_log_contains("suppressed"));
}
