/*
 * The host platform's own promises: CPU time and round-robin slices, nanosecond host timers
 * and their order, interrupts held back while disabled, and runs that repeat exactly.
 */
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>
#include <criterion/criterion.h>
#include <cgwb/sched.h>
#include <cgwb/timer.h>
#include <cgwb/workqueue.h>
#include <cgwb/spinlock.h>
#include <cgwb/printk.h>
#include <cgwb/completion.h>
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

TestSuite(vtime, .init = setup, .fini = teardown);

/* ------------------------------------------------------------------ CPU time */

struct trace {
	char who[128];
	u64 at[128];
	int n;
};

static struct trace trace;

static void record(char who)
{
	if (trace.n < (int)ARRAY_SIZE(trace.who)) {
		trace.who[trace.n] = who;
		trace.at[trace.n] = host_now_ns();
		trace.n++;
	}
}

/* 30 ms of CPU in 1 ms steps, logging each step. */
static int cpu_hog(void *arg)
{
	for (int i = 0; i < 30; i++) {
		record((char)(long)arg);
		host_consume_ns(MS(1));
	}
	return 0;
}

/* Two runnable tasks share SCHED_LATENCY_NS: 3 ms slices each, in turn. */
Test(vtime, cpu_hogs_share_the_cpu_in_slices_of_the_latency)
{
	struct task_struct *a = kthread_run(cpu_hog, (void *)'a', "a");
	struct task_struct *b = kthread_run(cpu_hog, (void *)'b', "b");

	kthread_join(a);
	kthread_join(b);
	cr_assert_eq(trace.n, 60);
	for (int i = 0; i < 60; i++) {
		char expect = (i / 3) % 2 ? 'b' : 'a';
		cr_assert_eq(trace.who[i], expect, "step %d ran %c", i, trace.who[i]);
		cr_assert_eq(trace.at[i], MS(i), "step %d at %llu ns", i, trace.at[i]);
	}
	cr_assert_eq(host_now_ns(), MS(60));
}

static int hog_and_report(void *arg)
{
	u64 *exec = arg;

	host_consume_ns(MS(25));
	*exec = current->sum_exec_ns + (host_now_ns() - current->last_ran_ns);
	return 0;
}

Test(vtime, cpu_time_is_charged_to_the_task_that_spent_it)
{
	u64 exec_a = 0, exec_b = 0;
	struct task_struct *a = kthread_run(hog_and_report, &exec_a, "a");
	struct task_struct *b = kthread_run(hog_and_report, &exec_b, "b");

	msleep(99); /* main is idle meanwhile: its sleep is nobody's CPU time */
	kthread_join(a);
	kthread_join(b);
	cr_assert_eq(exec_a, MS(25));
	cr_assert_eq(exec_b, MS(25));
}

static int sleep_5ms(void *arg)
{
	u64 *woke = arg;

	msleep(4);
	*woke = host_now_ns();
	return 0;
}

/* A task back from a sleep has had less CPU time than a hog: it preempts it at once. */
Test(vtime, a_woken_sleeper_preempts_a_cpu_hog)
{
	u64 woke = 0;
	struct task_struct *t = kthread_run(sleep_5ms, &woke, "sleeper");

	host_run_until_idle();
	host_consume_ns(MS(30)); /* main hogs the CPU; the sleeper's timer fires at 5 ms */
	cr_assert_eq(host_now_ns(), MS(30), "main spent all its CPU time");
	kthread_join(t);
	cr_assert_eq(woke, MS(5), "it ran when its timer fired, not when main's slice ended");
}

static int hog_ms(void *arg)
{
	host_consume_ns(MS((long)arg));
	return 0;
}

/* Sleep 100 ms, then 40 ms of CPU; *ran is how long that took from the wake-up. */
static int sleep_then_hog(void *arg)
{
	u64 *ran = arg, woke;

	msleep(100);
	woke = host_now_ns();
	host_consume_ns(MS(40));
	*ran = host_now_ns() - woke;
	return 0;
}

/*
 * Sleeping banks no credit: a task that slept while another ran 100 ms comes back at most
 * half a latency period (3 ms) behind it, so it shares the CPU from then on instead of
 * keeping it for 40 ms in a row.
 */
Test(vtime, a_long_sleeper_comes_back_at_most_half_a_latency_behind)
{
	u64 ran = 0;
	struct task_struct *late = kthread_run(sleep_then_hog, &ran, "late");
	struct task_struct *hog = kthread_run(hog_ms, (void *)200L, "hog");

	kthread_join(late);
	kthread_join(hog);
	cr_assert_geq(ran, MS(75), "it had the CPU alone: 40 ms of CPU took %llu ns", ran);
	cr_assert_leq(ran, MS(85), "it had less than its share: %llu ns", ran);
}

Test(vtime, no_preemption_while_preemption_is_disabled)
{
	u64 woke = 0;
	struct task_struct *t = kthread_run(sleep_5ms, &woke, "sleeper");

	host_run_until_idle();
	preempt_disable();
	host_consume_ns(MS(30));
	cr_assert_eq(woke, 0);
	preempt_enable(); /* the pending reschedule happens here */
	cr_assert_eq(woke, MS(30));
	kthread_join(t);
}

struct probe {
	struct timer_list timer;
	unsigned long at_jiffies;
};

static void probe_fn(struct timer_list *t)
{
	struct probe *p = from_timer(p, t, timer);

	p->at_jiffies = jiffies;
}

Test(vtime, timers_are_held_back_while_interrupts_are_off)
{
	struct probe p = { 0 };
	unsigned long flags;

	timer_setup(&p.timer, probe_fn, 0);
	mod_timer(&p.timer, jiffies + 3);
	local_irq_save(flags);
	host_consume_ns(MS(5));
	cr_assert_eq(p.at_jiffies, 0, "fired with interrupts off");
	local_irq_restore(flags);
	cr_assert_eq(p.at_jiffies, 5, "delivered late, when interrupts came back on");
}

Test(vtime, timers_fire_during_cpu_time_at_their_own_time)
{
	struct probe p = { 0 };

	timer_setup(&p.timer, probe_fn, 0);
	mod_timer(&p.timer, jiffies + 3);
	host_consume_ns(MS(5));
	cr_assert_eq(p.at_jiffies, 3);
}

/* ------------------------------------------------------------------ host timers */

struct hprobe {
	struct host_timer timer;
	char name;
	u64 at;
	bool in_irq;
};

static void hprobe_fn(struct host_timer *t)
{
	struct hprobe *p = container_of(t, struct hprobe, timer);

	p->at = host_now_ns();
	p->in_irq = in_interrupt();
	record(p->name);
}

static void kprobe_fn(struct timer_list *t)
{
	(void)t;
	record('k');
}

Test(vtime, host_timers_fire_at_the_nanosecond)
{
	struct hprobe p = { .name = 'h' };

	host_timer_init(&p.timer, hprobe_fn, 0);
	host_timer_start(&p.timer, 1234567);
	cr_assert(host_timer_pending(&p.timer));
	host_run_for(MS(10));
	cr_assert_eq(p.at, 1234567);
	cr_assert(p.in_irq);
	cr_assert_not(host_timer_pending(&p.timer));
}

Test(vtime, events_of_one_instant_fire_in_a_fixed_order)
{
	struct hprobe late = { .name = 'L' }, x = { .name = 'x' }, y = { .name = 'y' };
	struct timer_list k;

	host_timer_init(&late.timer, hprobe_fn, HOST_TIMER_LATE);
	host_timer_init(&x.timer, hprobe_fn, 0);
	host_timer_init(&y.timer, hprobe_fn, 0);
	timer_setup(&k, kprobe_fn, 0);
	host_timer_start(&late.timer, MS(4));
	host_timer_start(&y.timer, MS(4));
	host_timer_start(&x.timer, MS(4));
	mod_timer(&k, 4);
	host_run_for(MS(5));
	cr_assert_eq(trace.n, 4);
	cr_assert_eq(trace.who[0], 'k', "kernel timers first");
	cr_assert_eq(trace.who[1], 'y', "then host timers in the order they were armed");
	cr_assert_eq(trace.who[2], 'x');
	cr_assert_eq(trace.who[3], 'L', "late ones last");
}

Test(vtime, host_timer_cancel_and_restart)
{
	struct hprobe p = { .name = 'h' };

	host_timer_init(&p.timer, hprobe_fn, 0);
	host_timer_start(&p.timer, MS(3));
	host_timer_start(&p.timer, MS(6)); /* re-arm replaces */
	host_run_for(MS(4));
	cr_assert_eq(trace.n, 0);
	cr_assert(host_timer_cancel(&p.timer));
	cr_assert_not(host_timer_cancel(&p.timer));
	host_run_for(MS(10));
	cr_assert_eq(trace.n, 0);
}

static int wake_at_4ms(void *arg)
{
	msleep(3);
	record('t');
	return 0;
}

Test(vtime, advance_to_returns_after_tasks_woken_at_that_instant)
{
	struct task_struct *t = kthread_run(wake_at_4ms, NULL, "t");

	host_advance_to(MS(4));
	record('m');
	cr_assert_eq(trace.n, 2);
	cr_assert_eq(trace.who[0], 't');
	cr_assert_eq(trace.who[1], 'm');
	cr_assert_eq(host_now_ns(), MS(4));
	host_advance_to(MS(1)); /* in the past: nothing to do */
	cr_assert_eq(host_now_ns(), MS(4));
	kthread_join(t);
}

Test(vtime, wall_clock_follows_virtual_time)
{
	u64 t0 = ktime_get_real_seconds();

	host_run_for(3 * NSEC_PER_SEC);
	cr_assert_eq(ktime_get_real_seconds(), t0 + 3);
	cr_assert_eq(jiffies, 3000);
}

/* ------------------------------------------------------------------ determinism */

static int busy_worker(void *arg)
{
	long id = (long)arg;

	for (int i = 0; i < 20; i++) {
		host_consume_ns((u64)(id * 300 + i * 70) * NSEC_PER_USEC);
		if (i % 3 == 0)
			msleep((unsigned int)(id + i % 4));
		else if (i % 5 == 0)
			yield();
	}
	return 0;
}

static struct work_struct works[4];

static void work_fn(struct work_struct *w)
{
	host_consume_ns(MS(1) + (u64)(w - works) * 1000);
}

/* A scenario with sleeps, CPU time, yields and work items; returns its schedule's digest. */
static u64 run_scenario(void)
{
	struct task_struct *t[4];
	u64 digest = 0;

	for (int i = 0; i < 4; i++) {
		INIT_WORK(&works[i], work_fn);
		t[i] = kthread_run(busy_worker, (void *)(long)(i + 1), "busy%d", i);
	}
	for (int round = 0; round < 5; round++) {
		for (int i = 0; i < 4; i++)
			schedule_work(&works[i]);
		msleep(7);
	}
	for (int i = 0; i < 4; i++)
		kthread_join(t[i]);
	flush_workqueue(system_wq);
	digest = host_now_ns() * 1000003 + host_nr_switches();
	return digest;
}

/* Each run in a fresh process: the platform is initialised once per process. */
static u64 run_in_child(void)
{
	int fds[2];
	u64 digest = 0;
	pid_t pid;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		host_platform_init(16 << 20);
		digest = run_scenario();
		if (write(fds[1], &digest, sizeof(digest)) != sizeof(digest))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	cr_assert_eq(read(fds[0], &digest, sizeof(digest)), (ssize_t)sizeof(digest));
	close(fds[0]);
	int status;
	waitpid(pid, &status, 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return digest;
}

/* No suite setup here: the parent only forks and compares. */
Test(vtime_replay, same_scenario_same_schedule)
{
	u64 first = run_in_child();
	u64 second = run_in_child();

	cr_assert_neq(first, 0);
	cr_assert_eq(first, second, "two runs of one scenario diverged");
}

/* ------------------------------------------------------------------ runaway time */

static struct timer_list ticker;

static void tick(struct timer_list *t)
{
	mod_timer(t, jiffies + 10);
}

Test(vtime, endless_waiting_stops_at_the_time_limit, .signal = SIGABRT)
{
	struct completion never;

	init_completion(&never);
	timer_setup(&ticker, tick, 0);
	mod_timer(&ticker, 10);
	host_set_time_limit(MS(100));
	host_expect_panic("virtual time limit");
	wait_for_completion(&never); /* not a deadlock: the ticker keeps time moving */
}
