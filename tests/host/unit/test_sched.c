/*
 * Tasks, sleeping and waking, and the locks built on them, under virtual time. Tasks record
 * what they saw; the assertions run in main (a failed assertion must not unwind a task).
 */
#include <signal.h>
#include <time.h>
#include <criterion/criterion.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/completion.h>
#include <cgwb/mutex.h>
#include <cgwb/timer.h>
#include <cgwb/spinlock.h>
#include <cgwb/errno.h>
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

TestSuite(sched, .init = setup, .fini = teardown);

static struct task_struct *spawn(int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *t = kthread_run(fn, arg, "%s", name);

	cr_assert_not_null(t, "cannot create task %s", name);
	return t;
}

/* ------------------------------------------------------------------ sleeping */

struct sleeper {
	unsigned int ms;
	u64 woke_ns;
	int rank;
};

static int wake_rank;

static int sleep_then_record(void *arg)
{
	struct sleeper *s = arg;

	schedule_timeout_uninterruptible((long)msecs_to_jiffies(s->ms));
	s->woke_ns = host_now_ns();
	s->rank = wake_rank++;
	return 0;
}

Test(sched, sleepers_wake_in_time_order_at_exact_times)
{
	struct sleeper s[3] = { { .ms = 30 }, { .ms = 10 }, { .ms = 20 } };
	struct task_struct *t[3];

	for (int i = 0; i < 3; i++)
		t[i] = spawn(sleep_then_record, &s[i], "sleeper");
	for (int i = 0; i < 3; i++)
		kthread_join(t[i]);
	cr_assert_eq(s[1].rank, 0);
	cr_assert_eq(s[2].rank, 1);
	cr_assert_eq(s[0].rank, 2);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(s[i].woke_ns, MS(s[i].ms), "slept %u ms, woke at %llu ns", s[i].ms,
			     s[i].woke_ns);
}

Test(sched, msleep_sleeps_one_jiffy_more_like_linux)
{
	msleep(10);
	cr_assert_eq(host_now_ns(), MS(11));
}

Test(sched, msleep_advances_virtual_time_not_real_time)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	u64 before = host_now_ns();
	msleep(1000);
	u64 slept = host_now_ns() - before;
	clock_gettime(CLOCK_MONOTONIC, &b);
	double real = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;

	cr_assert(slept >= MS(1000) && slept <= MS(1001), "slept %llu ns", slept);
	cr_assert_lt(real, 0.5, "msleep(1000) took %.3f s of real time", real);
}

Test(sched, run_until_idle_does_not_move_time)
{
	struct sleeper s = { .ms = 50 };
	struct task_struct *t = spawn(sleep_then_record, &s, "sleeper");

	host_run_until_idle();
	cr_assert_eq(host_now_ns(), 0);
	cr_assert_eq(t->state, TASK_UNINTERRUPTIBLE, "the sleeper should be asleep");
	kthread_join(t);
	cr_assert_eq(s.woke_ns, MS(50));
}

/* ------------------------------------------------------------------ wait queues */

static DECLARE_WAIT_QUEUE_HEAD(wq);
static int cond_flag;

struct waiter {
	u64 woke_ns;
	long ret;
	int wakeups;
	bool done;
};

static int wait_for_flag(void *arg)
{
	struct waiter *w = arg;

	wait_event(wq, READ_ONCE(cond_flag));
	w->woke_ns = host_now_ns();
	w->done = true;
	return 0;
}

Test(sched, wait_event_returns_only_once_the_condition_holds)
{
	struct waiter w = { 0 };
	struct task_struct *t = spawn(wait_for_flag, &w, "waiter");

	host_run_for(MS(5));
	wake_up(&wq); /* condition still false: must go back to sleep */
	host_run_until_idle();
	cr_assert_not(w.done);
	cr_assert_eq(t->state, TASK_UNINTERRUPTIBLE);

	host_run_for(MS(5));
	cond_flag = 1;
	wake_up(&wq);
	kthread_join(t);
	cr_assert(w.done);
	cr_assert_eq(w.woke_ns, MS(10));
}

static int tokens;

/* An exclusive waiter (like a lock waiter): counts each time it is woken. */
static int exclusive_waiter(void *arg)
{
	struct waiter *w = arg;
	DEFINE_WAIT(entry);

	for (;;) {
		prepare_to_wait_exclusive(&wq, &entry, TASK_UNINTERRUPTIBLE);
		if (tokens > 0) {
			tokens--;
			break;
		}
		schedule();
		w->wakeups++;
	}
	finish_wait(&wq, &entry);
	w->done = true;
	return 0;
}

Test(sched, wake_up_wakes_one_exclusive_waiter)
{
	struct waiter w[3] = { 0 };
	struct task_struct *t[3];

	for (int i = 0; i < 3; i++)
		t[i] = spawn(exclusive_waiter, &w[i], "excl");
	host_run_until_idle();

	wake_up(&wq);
	host_run_until_idle();
	cr_assert_eq(w[0].wakeups + w[1].wakeups + w[2].wakeups, 1);
	cr_assert_eq(w[0].wakeups, 1, "the first in the queue is woken");

	tokens = 1;
	wake_up(&wq);
	host_run_until_idle();
	cr_assert(w[0].done);
	cr_assert_not(w[1].done);
	cr_assert_not(w[2].done);

	tokens = 2;
	wake_up_all(&wq);
	for (int i = 0; i < 3; i++)
		kthread_join(t[i]);
	cr_assert(w[1].done && w[2].done);
	cr_assert_eq(tokens, 0);
}

static int set_flag_after_20ms(void *arg)
{
	msleep(19); /* 20 jiffies */
	cond_flag = 1;
	wake_up(&wq);
	return 0;
}

Test(sched, wait_event_timeout_times_out_with_zero)
{
	long left = wait_event_timeout(wq, READ_ONCE(cond_flag), 50);

	cr_assert_eq(left, 0);
	cr_assert_eq(host_now_ns(), MS(50));
}

Test(sched, wait_event_timeout_woken_in_time_returns_jiffies_left)
{
	struct task_struct *t = spawn(set_flag_after_20ms, NULL, "setter");
	long left = wait_event_timeout(wq, READ_ONCE(cond_flag), 50);

	cr_assert_eq(host_now_ns(), MS(20));
	cr_assert_eq(left, 30);
	kthread_join(t);
}

Test(sched, wait_event_timeout_with_true_condition_returns_at_least_one)
{
	cond_flag = 1;
	cr_assert_eq(wait_event_timeout(wq, READ_ONCE(cond_flag), 0), 1);
	cr_assert_eq(host_now_ns(), 0);
}

/* ------------------------------------------------------------------ completions */

static DECLARE_COMPLETION(done);

static int wait_done(void *arg)
{
	struct waiter *w = arg;

	wait_for_completion(&done);
	w->woke_ns = host_now_ns();
	w->done = true;
	return 0;
}

Test(sched, complete_releases_one_waiter_complete_all_releases_all)
{
	struct waiter w[3] = { 0 };
	struct task_struct *t[3];

	for (int i = 0; i < 3; i++)
		t[i] = spawn(wait_done, &w[i], "waiter");
	host_run_until_idle();
	cr_assert_not(completion_done(&done));

	complete(&done);
	host_run_until_idle();
	cr_assert_eq(w[0].done + w[1].done + w[2].done, 1);
	cr_assert(w[0].done, "FIFO: the first waiter gets it");
	cr_assert_not(completion_done(&done), "the one completion was consumed");

	host_run_for(MS(7));
	complete_all(&done);
	for (int i = 0; i < 3; i++)
		kthread_join(t[i]);
	cr_assert(w[1].done && w[2].done);
	cr_assert_eq(w[2].woke_ns, MS(7));
	/* complete_all stays done: later waiters pass straight through */
	wait_for_completion(&done);
	cr_assert(completion_done(&done));
}

Test(sched, completion_counts_completes_before_the_wait)
{
	complete(&done);
	complete(&done);
	wait_for_completion(&done);
	wait_for_completion(&done);
	cr_assert_eq(host_now_ns(), 0);
	cr_assert_eq(wait_for_completion_timeout(&done, 25), 0);
	cr_assert_eq(host_now_ns(), MS(25));
}

/* ------------------------------------------------------------------ mutex and rwsem */

static DEFINE_MUTEX(lock);
static int in_critical, max_in_critical;
static int order[8], nr_order;

static int hold_lock(void *arg)
{
	mutex_lock(&lock);
	if (++in_critical > max_in_critical)
		max_in_critical = in_critical;
	order[nr_order++] = (int)(long)arg;
	msleep(1); /* hold it across a sleep: everybody else queues up */
	in_critical--;
	mutex_unlock(&lock);
	return 0;
}

Test(sched, mutex_is_exclusive_and_granted_in_arrival_order)
{
	struct task_struct *t[4];

	for (long i = 0; i < 4; i++)
		t[i] = spawn(hold_lock, (void *)i, "locker");
	host_run_until_idle();
	cr_assert(mutex_is_locked(&lock));
	cr_assert_not(mutex_trylock(&lock));
	for (int i = 0; i < 4; i++)
		kthread_join(t[i]);

	cr_assert_eq(max_in_critical, 1);
	cr_assert_eq(nr_order, 4);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(order[i], i, "acquisition %d went to task %d", i, order[i]);
	cr_assert_eq(host_now_ns(), MS(8), "four holders of 2 jiffies each, back to back");
	cr_assert_not(mutex_is_locked(&lock));
	cr_assert(mutex_trylock(&lock));
	mutex_unlock(&lock);
}

static unsigned long switches_at_unlock[8];

static int hold_lock_counting_switches(void *arg)
{
	mutex_lock(&lock);
	msleep(1);
	switches_at_unlock[(long)arg] = current->nr_switches;
	mutex_unlock(&lock);
	return 0;
}

/* Each waiter sleeps twice: once queued for the lock, once in msleep; never woken in vain. */
Test(sched, mutex_unlock_wakes_only_the_next_waiter)
{
	struct task_struct *t[8];

	for (long i = 0; i < 8; i++)
		t[i] = spawn(hold_lock_counting_switches, (void *)i, "locker");
	for (int i = 0; i < 8; i++)
		kthread_join(t[i]);
	cr_assert_eq(switches_at_unlock[0], 1, "the first holder never waited");
	for (int i = 1; i < 8; i++)
		cr_assert_eq(switches_at_unlock[i], 2, "waiter %d switched out %lu times", i,
			     switches_at_unlock[i]);
}

static bool atomic_inside = true;

static int lock_nopreempt(void *arg)
{
	(void)arg;
	mutex_lock_nopreempt(&lock);
	if (++in_critical > max_in_critical)
		max_in_critical = in_critical;
	if (!in_atomic())
		atomic_inside = false;
	in_critical--;
	mutex_unlock(&lock);
	preempt_enable();
	return 0;
}

Test(sched, mutex_lock_nopreempt_waits_its_turn_and_holds_without_preemption)
{
	struct task_struct *t[5];

	t[0] = spawn(hold_lock, (void *)0, "sleeper");
	for (long i = 1; i < 5; i++)
		t[i] = spawn(lock_nopreempt, NULL, "nopreempt");
	host_run_until_idle();
	cr_assert(mutex_is_locked(&lock), "the sleeping holder still has it");
	for (int i = 0; i < 5; i++)
		kthread_join(t[i]);
	cr_assert_eq(max_in_critical, 1);
	cr_assert(atomic_inside, "preemption was on inside the section");
	cr_assert_eq(preempt_count(), 0);
	cr_assert_not(mutex_is_locked(&lock));
}

static DECLARE_RWSEM(sem);
static int readers_in, max_readers_in, writers_in;
static bool overlap;

static int reader(void *arg)
{
	int ms = (int)(long)arg;

	down_read(&sem);
	if (writers_in)
		overlap = true;
	readers_in++;
	if (readers_in > max_readers_in)
		max_readers_in = readers_in;
	order[nr_order++] = 'r';
	msleep((unsigned int)ms);
	readers_in--;
	up_read(&sem);
	return 0;
}

static int writer(void *arg)
{
	int ms = (int)(long)arg;

	down_write(&sem);
	if (readers_in || writers_in)
		overlap = true;
	writers_in++;
	order[nr_order++] = 'W';
	msleep((unsigned int)ms);
	writers_in--;
	up_write(&sem);
	return 0;
}

Test(sched, rwsem_readers_share)
{
	struct task_struct *t[3];

	for (int i = 0; i < 3; i++)
		t[i] = spawn(reader, (void *)9L, "reader");
	for (int i = 0; i < 3; i++)
		kthread_join(t[i]);
	cr_assert_eq(max_readers_in, 3);
	cr_assert_eq(host_now_ns(), MS(10), "all three held it at once");
}

Test(sched, rwsem_writer_excludes_and_blocks_later_readers)
{
	struct task_struct *r1, *w, *r2;

	r1 = spawn(reader, (void *)9L, "r1");
	host_run_until_idle(); /* r1 holds it */
	w = spawn(writer, (void *)9L, "w");
	host_run_until_idle(); /* w waits for r1 */
	r2 = spawn(reader, (void *)9L, "r2");
	host_run_until_idle(); /* a writer is waiting: r2 must queue behind it */
	cr_assert_eq(readers_in, 1);
	cr_assert_eq(writers_in, 0);

	kthread_join(r1);
	kthread_join(w);
	kthread_join(r2);
	cr_assert_not(overlap, "a writer overlapped another holder");
	cr_assert_eq(nr_order, 3);
	cr_assert_eq(order[0], 'r');
	cr_assert_eq(order[1], 'W');
	cr_assert_eq(order[2], 'r');
	cr_assert_eq(host_now_ns(), MS(30));
}

/* ------------------------------------------------------------------ kill */

static int sleep_interruptibly(void *arg)
{
	struct waiter *w = arg;

	w->ret = wait_event_interruptible(wq, READ_ONCE(cond_flag));
	w->woke_ns = host_now_ns();
	return 0;
}

static int msleep_killable(void *arg)
{
	struct waiter *w = arg;

	w->ret = (long)msleep_interruptible(1000);
	w->woke_ns = host_now_ns();
	return 0;
}

static int msleep_unkillable(void *arg)
{
	struct waiter *w = arg;

	msleep(19);
	w->woke_ns = host_now_ns();
	return 0;
}

Test(sched, kill_ends_interruptible_sleeps_with_eintr)
{
	struct waiter a = { 0 }, b = { 0 }, c = { 0 };
	struct task_struct *ta = spawn(sleep_interruptibly, &a, "a");
	struct task_struct *tb = spawn(msleep_killable, &b, "b");
	struct task_struct *tc = spawn(msleep_unkillable, &c, "c");

	host_run_for(MS(5));
	send_sig_kill(ta);
	send_sig_kill(tb);
	send_sig_kill(tc);
	kthread_join(ta);
	kthread_join(tb);
	kthread_join(tc);
	cr_assert_eq(a.ret, -EINTR);
	cr_assert_eq(a.woke_ns, MS(5));
	cr_assert_eq(b.woke_ns, MS(5));
	cr_assert_eq(b.ret, 996, "msleep_interruptible left %ld ms", b.ret);
	cr_assert_eq(c.woke_ns, MS(20), "an uninterruptible sleep ignores the kill");
}

/* ------------------------------------------------------------------ task life cycle */

static int return_arg(void *arg)
{
	msleep((unsigned int)(long)arg);
	return (int)(long)arg + 100;
}

Test(sched, kthread_join_returns_the_exit_code_and_frees_the_task)
{
	unsigned int base = nr_tasks();
	struct task_struct *a = spawn(return_arg, (void *)3L, "a");
	struct task_struct *b = spawn(return_arg, (void *)1L, "b");
	int pid_a = a->pid, code;

	cr_assert_eq(nr_tasks(), base + 2);
	cr_assert_eq(find_task_by_pid(pid_a), a);
	cr_assert_eq(kthread_join(a), 103);
	cr_assert_eq(kthread_join_killable(b, &code), 0);
	cr_assert_eq(code, 101);
	cr_assert_eq(nr_tasks(), base);
	cr_assert_null(find_task_by_pid(pid_a));
}

Test(sched, detached_tasks_are_reaped_on_exit)
{
	unsigned int base = nr_tasks();

	for (long i = 1; i <= 3; i++)
		kthread_detach(spawn(return_arg, (void *)i, "detached"));
	cr_assert_eq(nr_tasks(), base + 3);
	host_run_for(MS(10));
	cr_assert_eq(nr_tasks(), base);
}

/*
 * A wake-up can come while its task still runs (between set_current_state() and schedule(),
 * from an interrupt; here from the task itself): it queues the task. Whatever the task does
 * next, that stale entry must not outlive it, nor end a later sleep.
 */
static int woken_while_running_then_exit(void *arg)
{
	set_current_state(TASK_UNINTERRUPTIBLE);
	wake_up_process(current);
	return 7; /* exits while still queued by that wake-up */
}

Test(sched, a_task_woken_while_running_exits_cleanly)
{
	unsigned int base = nr_tasks();
	struct task_struct *t = spawn(woken_while_running_then_exit, NULL, "w");

	cr_assert_eq(kthread_join(t), 7);
	kthread_detach(spawn(woken_while_running_then_exit, NULL, "detached"));
	host_run_until_idle();
	cr_assert_eq(nr_tasks(), base);
}

static bool released;

static int woken_while_running_then_sleep(void *arg)
{
	bool *saw_release = arg;

	set_current_state(TASK_UNINTERRUPTIBLE);
	wake_up_process(current);
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule(); /* a real sleep: only main's wake-up may end it */
	*saw_release = READ_ONCE(released);
	return 0;
}

Test(sched, an_earlier_wake_up_does_not_end_a_later_sleep)
{
	bool saw_release = false;
	struct task_struct *t = spawn(woken_while_running_then_sleep, &saw_release, "w");

	host_run_until_idle();
	cr_assert_eq(t->state, TASK_UNINTERRUPTIBLE, "the task should be asleep");
	released = true;
	wake_up_process(t);
	kthread_join(t);
	cr_assert(saw_release, "the task ran on before it was woken");
}

static int yielder(void *arg)
{
	for (int i = 0; i < 3; i++) {
		order[nr_order++] = (int)(long)arg;
		yield();
	}
	return 0;
}

Test(sched, yield_round_robins_runnable_tasks)
{
	struct task_struct *a = spawn(yielder, (void *)'a', "a");
	struct task_struct *b = spawn(yielder, (void *)'b', "b");

	kthread_join(a);
	kthread_join(b);
	cr_assert_eq(nr_order, 6);
	for (int i = 0; i < 6; i++)
		cr_assert_eq(order[i], i % 2 ? 'b' : 'a');
	cr_assert_eq(host_now_ns(), 0);
}

/* ------------------------------------------------------------------ timers */

struct probe {
	struct timer_list timer;
	int fired;
	unsigned long at_jiffies;
	bool in_irq, irqs_off;
};

static void probe_fn(struct timer_list *t)
{
	struct probe *p = from_timer(p, t, timer);

	p->fired++;
	p->at_jiffies = jiffies;
	p->in_irq = in_interrupt();
	p->irqs_off = irqs_disabled();
}

Test(sched, timer_fires_once_at_its_jiffy_in_interrupt_context)
{
	struct probe p = { 0 };

	timer_setup(&p.timer, probe_fn, 0);
	cr_assert_not(mod_timer(&p.timer, jiffies + 10));
	cr_assert(timer_pending(&p.timer));
	host_run_for(MS(9));
	cr_assert_eq(p.fired, 0);
	host_run_for(MS(100));
	cr_assert_eq(p.fired, 1);
	cr_assert_eq(p.at_jiffies, 10);
	cr_assert(p.in_irq && p.irqs_off);
	cr_assert_not(timer_pending(&p.timer));
}

Test(sched, mod_timer_rearms_a_pending_timer)
{
	struct probe p = { 0 };

	timer_setup(&p.timer, probe_fn, 0);
	mod_timer(&p.timer, jiffies + 10);
	host_run_for(MS(5));
	cr_assert(mod_timer(&p.timer, jiffies + 20), "it was pending");
	host_run_for(MS(100));
	cr_assert_eq(p.fired, 1);
	cr_assert_eq(p.at_jiffies, 25);
}

Test(sched, del_timer_cancels)
{
	struct probe p = { 0 };

	timer_setup(&p.timer, probe_fn, 0);
	mod_timer(&p.timer, jiffies + 10);
	host_run_for(MS(5));
	cr_assert(del_timer(&p.timer));
	cr_assert_not(del_timer(&p.timer));
	host_run_for(MS(100));
	cr_assert_eq(p.fired, 0);
}

/* ------------------------------------------------------------------ fatal errors */

Test(sched, sleeping_with_a_spinlock_held_panics, .signal = SIGABRT)
{
	DEFINE_SPINLOCK(l);

	host_expect_panic("scheduling while atomic");
	spin_lock(&l);
	msleep(1);
}

Test(sched, sleeping_with_interrupts_off_panics, .signal = SIGABRT)
{
	host_expect_panic("scheduling while atomic");
	local_irq_disable();
	schedule();
}

Test(sched, deadlock_is_detected_and_reported, .signal = SIGABRT)
{
	host_expect_panic("deadlock");
	wait_for_completion(&done); /* nobody will ever complete it */
}

Test(sched, recursive_mutex_lock_panics, .signal = SIGABRT)
{
	host_expect_panic("recursive lock");
	mutex_lock(&lock);
	mutex_lock(&lock);
}
