/*
 * The lock validator (kernel/lockdep.c), under which every host test and system test runs:
 * two classes taken in both orders are reported once, naming both, and the run fails at its
 * end (host_platform_exit() panics, which the test expects); one order alone, however
 * often, is not a report.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <cgwb/spinlock.h>
#include <cgwb/lockdep.h>
#include "host.h"

static void setup(void)
{
	host_platform_init(16 << 20);
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(lockdep, .init = setup, .fini = teardown);

static spinlock_t first, second;

static void take_in_order(spinlock_t *outer, spinlock_t *inner)
{
	spin_lock(outer);
	spin_lock(inner);
	spin_unlock(inner);
	spin_unlock(outer);
}

Test(lockdep, one_order_taken_often_is_no_report)
{
	spin_lock_init(&first);
	spin_lock_init(&second);
	for (int i = 0; i < 3; i++)
		take_in_order(&first, &second);
	cr_expect_eq(lockdep_reports(), 0, "%s", host_log());
}

Test(lockdep, both_orders_are_reported_and_fail_the_run, .signal = SIGABRT)
{
	spin_lock_init(&first);
	spin_lock_init(&second);
	take_in_order(&first, &second);
	cr_expect_eq(lockdep_reports(), 0);
	take_in_order(&second, &first);
	cr_expect_eq(lockdep_reports(), 1);
	cr_expect(host_log_contains("possible circular locking dependency: &second then &first"),
		  "%s", host_log());
	host_platform_exit(); /* panics: the validator spoke */
}
