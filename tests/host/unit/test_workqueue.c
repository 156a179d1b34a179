/*
 * Workqueues: order, no self-concurrency, a pool that grows past a blocked item, delayed
 * work on virtual time, cancel and flush. Work functions record; main asserts.
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
}

static void teardown(void)
{
	host_platform_exit();
}

TestSuite(workqueue, .init = setup, .fini = teardown);

struct item {
	struct work_struct work;
	struct delayed_work dwork;
	int id;
	unsigned int sleep_ms; /* msleep inside the work */
	int runs;
	bool running, overlapped;
	u64 started[4], finished[4];
	int requeue; /* queue itself again this many times */
	bool requeue_refused;
	struct workqueue_struct *wq;
};

static int ran[16], nr_ran;

static void item_run(struct item *it)
{
	if (it->running)
		it->overlapped = true;
	it->running = true;
	if (it->runs < 4)
		it->started[it->runs] = host_now_ns();
	if (nr_ran < (int)ARRAY_SIZE(ran))
		ran[nr_ran++] = it->id;
	if (it->sleep_ms)
		msleep(it->sleep_ms);
	if (it->runs < 4)
		it->finished[it->runs] = host_now_ns();
	it->runs++;
	it->running = false;
}

static void item_fn(struct work_struct *w)
{
	struct item *it = container_of(w, struct item, work);

	item_run(it);
	if (it->requeue > 0) {
		it->requeue--;
		if (!queue_work(it->wq, &it->work))
			it->requeue_refused = true;
	}
}

static void ditem_fn(struct work_struct *w)
{
	item_run(container_of(to_delayed_work(w), struct item, dwork));
}

static void init_item(struct item *it, int id, unsigned int sleep_ms)
{
	*it = (struct item){ .id = id, .sleep_ms = sleep_ms };
	INIT_WORK(&it->work, item_fn);
	INIT_DELAYED_WORK(&it->dwork, ditem_fn);
}

Test(workqueue, works_run_in_fifo_order)
{
	struct workqueue_struct *wq = alloc_workqueue("fifo", 0, 1);
	struct item it[6];

	cr_assert_not_null(wq);
	for (int i = 0; i < 6; i++) {
		init_item(&it[i], i, 0);
		cr_assert(queue_work(wq, &it[i].work));
	}
	cr_assert_not(queue_work(wq, &it[0].work), "already pending");
	flush_workqueue(wq);
	cr_assert_eq(nr_ran, 6);
	for (int i = 0; i < 6; i++) {
		cr_assert_eq(ran[i], i);
		cr_assert_eq(it[i].runs, 1);
	}
	destroy_workqueue(wq);
}

Test(workqueue, system_wq_runs_work_in_order)
{
	struct item it[3];

	for (int i = 0; i < 3; i++) {
		init_item(&it[i], i, 0);
		schedule_work(&it[i].work);
	}
	flush_workqueue(system_wq);
	cr_assert_eq(nr_ran, 3);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(ran[i], i);
}

Test(workqueue, work_queued_while_running_runs_again_never_concurrently)
{
	struct workqueue_struct *wq = alloc_workqueue("requeue", 0, 4);
	struct item w, quick;

	init_item(&w, 1, 9); /* 10 ms */
	init_item(&quick, 2, 0);
	queue_work(wq, &w.work);
	queue_work(wq, &quick.work); /* a second worker appears for this one */
	host_run_for(MS(2));
	cr_assert_eq(quick.runs, 1);
	cr_assert(w.running);
	/* queued again while running: the second worker is idle, but must not take it */
	cr_assert(queue_work(wq, &w.work));
	cr_assert_not(queue_work(wq, &w.work), "pending already");
	flush_workqueue(wq);

	cr_assert_not(w.overlapped, "the work ran on two workers at once");
	cr_assert_eq(w.runs, 2);
	cr_assert_eq(w.started[1], w.finished[0]);
	cr_assert_eq(w.finished[0], MS(10));
	cr_assert_eq(w.finished[1], MS(20));
	destroy_workqueue(wq);
}

/* More running works than the busy workers' hash has buckets: each found behind itself. */
Test(workqueue, many_running_works_queued_again_each_run_behind_itself)
{
	enum { N = 150 };
	struct workqueue_struct *wq = alloc_workqueue("many", WQ_UNBOUND, N + 1);
	static struct item it[N];

	for (int i = 0; i < N; i++) {
		init_item(&it[i], i, 9); /* 10 ms */
		queue_work(wq, &it[i].work);
	}
	host_run_for(MS(2));
	for (int i = 0; i < N; i++) {
		cr_assert(it[i].running, "work %d is not running", i);
		cr_assert(queue_work(wq, &it[i].work));
	}
	flush_workqueue(wq);
	for (int i = 0; i < N; i++) {
		cr_assert_not(it[i].overlapped, "work %d ran on two workers at once", i);
		cr_assert_eq(it[i].runs, 2);
		cr_assert_eq(it[i].started[1], it[i].finished[0], "work %d", i);
	}
	destroy_workqueue(wq);
}

Test(workqueue, work_requeued_by_itself_runs_again_afterwards)
{
	struct workqueue_struct *wq = alloc_workqueue("self", 0, 4);
	struct item w;

	init_item(&w, 1, 1);
	w.wq = wq;
	w.requeue = 2;
	queue_work(wq, &w.work);
	flush_workqueue(wq);
	cr_assert_not(w.requeue_refused);
	cr_assert_not(w.overlapped);
	cr_assert_eq(w.runs, 3);
	for (int i = 1; i < 3; i++)
		cr_assert_geq(w.started[i], w.finished[i - 1]);
	destroy_workqueue(wq);
}

Test(workqueue, blocked_work_does_not_hold_up_the_queue)
{
	struct workqueue_struct *wq = alloc_workqueue("grow", 0, 4);
	struct item slow, fast;

	init_item(&slow, 1, 100);
	init_item(&fast, 2, 0);
	queue_work(wq, &slow.work);
	queue_work(wq, &fast.work);
	host_run_for(MS(1));
	cr_assert_eq(fast.runs, 1, "the fast work waited for the slow one");
	cr_assert_lt(fast.finished[0], MS(1));
	cr_assert_eq(slow.runs, 0);
	flush_workqueue(wq);
	cr_assert_eq(slow.runs, 1);
	destroy_workqueue(wq);
}

Test(workqueue, the_pool_grows_for_each_blocked_work)
{
	struct workqueue_struct *wq = alloc_workqueue("wide", 0, 8);
	struct item it[4];

	for (int i = 0; i < 4; i++) {
		init_item(&it[i], i, 9); /* 10 ms each */
		queue_work(wq, &it[i].work);
	}
	flush_workqueue(wq);
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(it[i].started[0], 0, "work %d waited for another", i);
		cr_assert_eq(it[i].finished[0], MS(10));
	}
	destroy_workqueue(wq);
}

Test(workqueue, max_active_caps_the_pool)
{
	struct workqueue_struct *wq = alloc_workqueue("narrow", 0, 2);
	struct item it[3];

	for (int i = 0; i < 3; i++) {
		init_item(&it[i], i, 9);
		queue_work(wq, &it[i].work);
	}
	flush_workqueue(wq);
	cr_assert_eq(it[0].started[0], 0);
	cr_assert_eq(it[1].started[0], 0);
	cr_assert_eq(it[2].started[0], MS(10), "the third waits for a free worker");
	cr_assert_eq(host_now_ns(), MS(20));
	destroy_workqueue(wq);
}

Test(workqueue, delayed_work_fires_after_its_delay)
{
	struct item d;

	init_item(&d, 1, 0);
	cr_assert(schedule_delayed_work(&d.dwork, msecs_to_jiffies(50)));
	cr_assert(delayed_work_pending(&d.dwork));
	cr_assert_not(schedule_delayed_work(&d.dwork, 1), "already pending");
	host_run_for(MS(49));
	cr_assert_eq(d.runs, 0);
	host_run_for(MS(51));
	cr_assert_eq(d.runs, 1);
	cr_assert_eq(d.started[0], MS(50));
	cr_assert_not(delayed_work_pending(&d.dwork));
}

/*
 * A timer that has fired (run_timers() took it off its list) but whose callback has not
 * yet got the workqueue's lock, while mod_delayed_work() takes the work over and queues
 * it, or re-arms it: the late callback must not queue it a second time. Reproduced by
 * doing run_timers()' two steps by hand around the takeover. Queued twice, the work's
 * list entry points at itself and it runs for ever (the test's timeout).
 */
static void timer_fires_late_around(struct item *d, unsigned long delay)
{
	cr_assert(schedule_delayed_work(&d->dwork, 10));
	cr_assert(del_timer(&d->dwork.timer), "armed"); /* run_timers(): off its list */
	cr_assert(mod_delayed_work(system_wq, &d->dwork, delay), "was pending");
	d->dwork.timer.function(&d->dwork.timer); /* ...and the callback, late */
	flush_delayed_work(&d->dwork);
	flush_workqueue(system_wq);
}

Test(workqueue, a_late_timer_callback_does_not_queue_a_work_taken_over, .timeout = 10)
{
	struct item d;

	init_item(&d, 1, 0);
	timer_fires_late_around(&d, 0);
	cr_assert_eq(d.runs, 1, "ran %d times", d.runs);
	cr_assert_not(delayed_work_pending(&d.dwork));
	init_item(&d, 2, 0);
	timer_fires_late_around(&d, 50);
	cr_assert_eq(d.runs, 1, "ran %d times", d.runs);
	cr_assert_not(delayed_work_pending(&d.dwork));
}

Test(workqueue, mod_delayed_work_rearms)
{
	struct item d;

	init_item(&d, 1, 0);
	cr_assert_not(mod_delayed_work(system_wq, &d.dwork, 50), "was not pending");
	host_run_for(MS(20));
	cr_assert(mod_delayed_work(system_wq, &d.dwork, 50), "was pending");
	host_run_for(MS(200));
	cr_assert_eq(d.runs, 1);
	cr_assert_eq(d.started[0], MS(70));
	/* a zero delay queues at once */
	mod_delayed_work(system_wq, &d.dwork, 0);
	host_run_until_idle();
	cr_assert_eq(d.runs, 2);
	cr_assert_eq(d.started[1], MS(220));
}

Test(workqueue, cancel_delayed_work_sync_prevents_the_run)
{
	struct item d;

	init_item(&d, 1, 0);
	schedule_delayed_work(&d.dwork, 50);
	host_run_for(MS(10));
	cr_assert(cancel_delayed_work_sync(&d.dwork));
	cr_assert_not(delayed_work_pending(&d.dwork));
	host_run_for(MS(200));
	cr_assert_eq(d.runs, 0);
	cr_assert_not(cancel_delayed_work_sync(&d.dwork), "nothing left to cancel");
}

Test(workqueue, cancel_delayed_work_sync_waits_for_a_running_work)
{
	struct item d;

	init_item(&d, 1, 19); /* runs from 10 ms to 30 ms */
	schedule_delayed_work(&d.dwork, 10);
	host_run_for(MS(15));
	cr_assert(d.running);
	cr_assert_not(cancel_delayed_work_sync(&d.dwork), "running, not pending");
	cr_assert_eq(host_now_ns(), MS(30));
	cr_assert_not(d.running);
	cr_assert_eq(d.runs, 1);
}

Test(workqueue, flush_work_waits_for_the_work)
{
	struct item w;

	init_item(&w, 1, 29); /* 30 ms */
	cr_assert_not(flush_work(&w.work), "never queued: nothing to wait for");
	schedule_work(&w.work);
	cr_assert(flush_work(&w.work));
	cr_assert_eq(w.runs, 1);
	cr_assert_eq(host_now_ns(), MS(30));
	cr_assert_not(flush_work(&w.work), "idle now");
}

Test(workqueue, flush_delayed_work_runs_it_now)
{
	struct item d;

	init_item(&d, 1, 0);
	schedule_delayed_work(&d.dwork, 1000);
	cr_assert(flush_delayed_work(&d.dwork));
	cr_assert_eq(d.runs, 1);
	cr_assert_eq(host_now_ns(), 0);
}

Test(workqueue, destroy_workqueue_finishes_queued_work_and_ends_its_workers)
{
	unsigned int base = nr_tasks();
	struct workqueue_struct *wq = alloc_workqueue("doomed", 0, 4);
	struct item it[3];

	for (int i = 0; i < 3; i++) {
		init_item(&it[i], i, 5);
		queue_work(wq, &it[i].work);
	}
	host_run_for(MS(1));
	cr_assert_gt(nr_tasks(), base + 1, "the pool grew");
	destroy_workqueue(wq);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(it[i].runs, 1);
	cr_assert_eq(nr_tasks(), base);
}

static void count_workers(struct task_struct *t, void *arg)
{
	if (!strcmp(t->comm, "kworker/0:lean"))
		(*(int *)arg)++;
}

/*
 * A new worker counts as idle before it first runs: the manager, woken again while the
 * worker waits for the CPU, must not take the waiting work for a reason to make another
 * (it once made 46 writeback workers for one writer).
 */
Test(workqueue, the_pool_grows_by_one_worker_per_blocked_work)
{
	struct workqueue_struct *wq = alloc_workqueue("lean", 0, 64);
	struct item it[3];
	int workers = 0;

	for (int i = 0; i < 3; i++) {
		init_item(&it[i], i, 9);
		queue_work(wq, &it[i].work);
	}
	flush_workqueue(wq);
	for_each_task(count_workers, &workers)
		;
	cr_assert_eq(workers, 3, "%d workers for 3 blocked works", workers);
	destroy_workqueue(wq);
}

static void sum_herd_switches(struct task_struct *t, void *arg)
{
	if (!strcmp(t->comm, "kworker/0:herd"))
		*(unsigned long *)arg += t->nr_switches;
}

/*
 * A work queued beside idle workers wakes one of them, as Linux's pool wakes its first idle
 * worker: the flushers of many groups share one pool, and waking every idle worker for each
 * work had 7 workers switch 1800 times a second for 32 tenants at 1 MiB/s.
 */
Test(workqueue, a_work_wakes_one_idle_worker)
{
	struct workqueue_struct *wq = alloc_workqueue("herd", 0, 8);
	unsigned long before = 0, after = 0;
	struct item it[6], quick;

	for (int i = 0; i < 6; i++) {
		init_item(&it[i], i, 9); /* six workers, idle once these end */
		queue_work(wq, &it[i].work);
	}
	flush_workqueue(wq);
	for_each_task(sum_herd_switches, &before)
		;
	for (int round = 0; round < 10; round++) {
		init_item(&quick, 10 + round, 0);
		queue_work(wq, &quick.work);
		flush_workqueue(wq);
		cr_assert_eq(quick.runs, 1);
	}
	for_each_task(sum_herd_switches, &after)
		;
	cr_assert_leq(after - before, 20, "%lu switches of 6 idle workers for 10 works",
		      after - before);
	destroy_workqueue(wq);
}
