/*
 * Workqueue pools on two virtual CPUs (host_set_nr_cpus): a bound work runs on the pool of
 * the CPU it was queued on, a work running on one pool and queued on another runs again
 * behind itself there, flush and cancel reach every pool, and an unbound workqueue has one
 * pool. The host runs every task on CPU 0: which pool ran a work shows in its worker's name.
 */
#include <criterion/criterion.h>
#include <cgwb/workqueue.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>
#include "host.h"

#define MS(x) ((u64)(x)*NSEC_PER_MSEC)

static void setup(void)
{
	host_platform_init(16 << 20);
	host_set_nr_cpus(2);
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(workqueue_pools, .init = setup, .fini = teardown);

struct pitem {
	struct work_struct work;
	unsigned int sleep_ms;
	int runs;
	bool running, overlapped;
	char comm[2][TASK_COMM_LEN]; /* the workers of the first two runs */
};

static void pitem_fn(struct work_struct *w)
{
	struct pitem *it = container_of(w, struct pitem, work);

	if (it->running)
		it->overlapped = true;
	it->running = true;
	if (it->runs < 2)
		strlcpy(it->comm[it->runs], current->comm, sizeof(it->comm[0]));
	if (it->sleep_ms)
		msleep(it->sleep_ms);
	it->runs++;
	it->running = false;
}

static void init_pitem(struct pitem *it, unsigned int sleep_ms)
{
	*it = (struct pitem){ .sleep_ms = sleep_ms };
	INIT_WORK(&it->work, pitem_fn);
}

static void count_prefixed(struct task_struct *t, void *arg)
{
	if (!strncmp(t->comm, "kworker/", 8) && strstr(t->comm, ":pl"))
		(*(int *)arg)++;
}

static void count_pinned(struct task_struct *t, void *arg)
{
	if (!strcmp(t->comm, "kworker/0:pl") || !strcmp(t->comm, "kworker/1:pl"))
		(*(int *)arg)++;
}

static int nr_pl_workers(void)
{
	int n = 0;

	for_each_task(count_prefixed, &n)
		;
	return n;
}

Test(workqueue_pools, bound_work_runs_on_the_queuing_cpus_pool)
{
	struct workqueue_struct *wq = alloc_workqueue("pl", 0, 4);
	struct pitem a, b, c;

	cr_assert_eq(nr_pl_workers(), 2, "one worker per CPU up front");
	init_pitem(&a, 0);
	init_pitem(&b, 0);
	init_pitem(&c, 0);
	cr_assert(queue_work_on(1, wq, &a.work));
	cr_assert(queue_work_on(0, wq, &b.work));
	host_set_cpu(1);
	cr_assert(queue_work(wq, &c.work));
	host_set_cpu(0);
	flush_workqueue(wq);
	cr_assert_str_eq(a.comm[0], "kworker/1:pl");
	cr_assert_str_eq(b.comm[0], "kworker/0:pl");
	cr_assert_str_eq(c.comm[0], "kworker/1:pl", "queue_work() takes the local CPU's pool");
	destroy_workqueue(wq);
}

Test(workqueue_pools, work_running_on_one_pool_queued_on_another_runs_behind_itself)
{
	struct workqueue_struct *wq = alloc_workqueue("pl", 0, 4);
	struct pitem w;

	init_pitem(&w, 10);
	queue_work_on(0, wq, &w.work);
	host_run_for(MS(2));
	cr_assert(w.running);
	/* CPU 1's worker is idle, but must not take it while CPU 0's runs it */
	cr_assert(queue_work_on(1, wq, &w.work));
	cr_assert_not(queue_work_on(1, wq, &w.work), "pending already");
	flush_workqueue(wq);
	cr_assert_not(w.overlapped, "the work ran on two pools at once");
	cr_assert_eq(w.runs, 2);
	cr_assert_str_eq(w.comm[1], "kworker/0:pl", "not behind itself: %s", w.comm[1]);
	destroy_workqueue(wq);
}

Test(workqueue_pools, flush_and_cancel_reach_every_pool)
{
	struct workqueue_struct *wq = alloc_workqueue("pl", 0, 1);
	struct pitem slow, waiting, other;

	init_pitem(&slow, 10);
	init_pitem(&waiting, 0);
	init_pitem(&other, 5);
	queue_work_on(1, wq, &slow.work);
	queue_work_on(1, wq, &waiting.work); /* max_active 1: waits behind slow */
	queue_work_on(0, wq, &other.work);
	host_run_for(MS(1));
	cr_assert(cancel_work_sync(&waiting.work), "it was pending on CPU 1's pool");
	cr_assert(cancel_work_sync(&slow.work) == false, "running, not pending");
	cr_assert_eq(slow.runs, 1, "cancel_work_sync waited for the run on CPU 1");
	cr_assert(flush_work(&other.work) || other.runs == 1);
	cr_assert_eq(other.runs, 1);
	queue_work_on(1, wq, &slow.work);
	queue_work_on(0, wq, &other.work);
	flush_workqueue(wq);
	cr_assert_eq(slow.runs, 2);
	cr_assert_eq(other.runs, 2);
	cr_assert_eq(waiting.runs, 0);
	destroy_workqueue(wq);
}

Test(workqueue_pools, unbound_workqueue_keeps_one_pool)
{
	struct workqueue_struct *wq = alloc_workqueue("pl", WQ_UNBOUND, 4);
	struct pitem a, b;
	int nr_pinned = 0;

	cr_assert_eq(nr_pl_workers(), 1, "one pool, one worker up front");
	init_pitem(&a, 0);
	init_pitem(&b, 0);
	queue_work_on(1, wq, &a.work);
	queue_work_on(0, wq, &b.work);
	flush_workqueue(wq);
	for_each_task(count_pinned, &nr_pinned)
		;
	cr_assert_str_eq(a.comm[0], "kworker/u:pl");
	cr_assert_str_eq(b.comm[0], "kworker/u:pl");
	cr_assert_eq(nr_pinned, 0, "an unbound workqueue made a per-CPU worker");
	destroy_workqueue(wq);
}
