/*
 * RCU grace periods on the host's one CPU: a callback runs only after the CPU passed a
 * quiescent state (a switch, or idling), never inside a read-side section; synchronize_rcu()
 * returns after a grace period; queue_rcu_work() queues its work after one. Readers racing
 * writers on other CPUs are the QEMU stress test's (make stress).
 */
#include <criterion/criterion.h>
#include <cgwb/sched.h>
#include <cgwb/rcupdate.h>
#include <cgwb/workqueue.h>
#include <cgwb/completion.h>
#include "host.h"

static void setup(void)
{
	host_platform_init(16 << 20);
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(rcu, .init = setup, .fini = teardown);

struct counted {
	struct rcu_head head;
	int calls;
};

static void count_call(struct rcu_head *head)
{
	container_of(head, struct counted, head)->calls++;
}

Test(rcu, a_callback_waits_for_a_quiescent_state)
{
	struct counted c = { 0 };
	unsigned long before = rcu_gp_completed();

	rcu_read_lock();
	call_rcu(&c.head, count_call);
	host_consume_ns(10 * NSEC_PER_MSEC); /* past slices: no switch inside a section */
	cr_assert_eq(c.calls, 0, "a callback ran inside a read-side section");
	rcu_read_unlock();
	msleep(1); /* a switch: the grace period ends */
	cr_assert_eq(c.calls, 1);
	cr_assert_geq(rcu_gp_completed(), before + 1);
}

/* On one CPU no reader can overlap the writer: what is checked is that a period passes. */
Test(rcu, synchronize_waits_for_a_grace_period)
{
	unsigned long before = rcu_gp_completed();

	synchronize_rcu();
	cr_assert_geq(rcu_gp_completed(), before + 1);
}

static struct rcu_work rwork;
static unsigned long gp_at_queue, gp_at_run;
static DECLARE_COMPLETION(rwork_ran);

static void rwork_fn(struct work_struct *work)
{
	cr_assert_eq(to_rcu_work(work), &rwork);
	gp_at_run = rcu_gp_completed();
	complete(&rwork_ran);
}

Test(rcu, rcu_work_runs_after_a_grace_period)
{
	reinit_completion(&rwork_ran);
	INIT_RCU_WORK(&rwork, rwork_fn);
	gp_at_queue = rcu_gp_completed();
	cr_assert(queue_rcu_work(system_wq, &rwork));
	cr_assert_not(queue_rcu_work(system_wq, &rwork), "pending: a second queue is a no-op");
	wait_for_completion(&rwork_ran);
	cr_assert_gt(gp_at_run, gp_at_queue);
}
