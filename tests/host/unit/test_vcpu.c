/*
 * Several virtual CPUs (host_smp_start(), tests/host/platform/vcpu.c), each scenario under
 * many seeds (host_smp_seeds()): tasks pinned to different CPUs really interleave inside
 * their critical sections, a spinlock still excludes, an RCU reader on one CPU holds off the
 * grace period of a writer on another, and one seed always gives the same interleaving.
 * A failing seed is printed as SIM_SEED=S; SIM_SEED=S replays it alone.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>
#include <cgwb/sched.h>
#include <cgwb/spinlock.h>
#include <cgwb/rcupdate.h>
#include <cgwb/slab.h>
#include <cgwb/completion.h>
#include <cgwb/bug.h>
#include "host.h"
#include "../../../kernel/sched-internal.h"

#define NR_SEEDS 200

static struct task_struct *start_on(unsigned int cpu, int (*fn)(void *), void *arg)
{
	struct task_struct *t = kthread_create(fn, arg, "vcpu-test/%u", cpu);

	BUG_ON(!t);
	BUG_ON(set_cpus_allowed(t, 1UL << cpu));
	wake_up_process(t);
	return t;
}

/* ---------------------------------------------------------------- a spinlock-protected counter */

#define LOCK_TASKS 4
#define LOCK_ROUNDS 50

static DEFINE_SPINLOCK(counter_lock);
static DEFINE_SPINLOCK(inner_lock);
static unsigned long counter;
static unsigned long cpus_seen; /* the CPUs that took the lock */
static u64 order_hash;          /* which task, on which CPU, in what order */

static int increment(void *arg)
{
	unsigned long id = (unsigned long)arg;

	for (int i = 0; i < LOCK_ROUNDS; i++) {
		spin_lock(&counter_lock);
		unsigned long v = READ_ONCE(counter);

		/* a switch point inside the section: another CPU may run here */
		spin_lock(&inner_lock);
		spin_unlock(&inner_lock);
		WRITE_ONCE(counter, v + 1);
		cpus_seen |= 1UL << raw_smp_processor_id();
		order_hash = (order_hash ^ (id << 8 | raw_smp_processor_id())) * 0x100000001b3ULL;
		spin_unlock(&counter_lock);
	}
	return 0;
}

static void run_counter(u64 seed, unsigned int nr_cpus)
{
	struct task_struct *t[LOCK_TASKS];

	host_platform_init(16 << 20);
	host_smp_start(nr_cpus, seed);
	for (unsigned long i = 0; i < LOCK_TASKS; i++)
		t[i] = start_on(i % nr_cpus, increment, (void *)i);
	for (int i = 0; i < LOCK_TASKS; i++)
		BUG_ON(kthread_join(t[i]));
}

static void counter_scenario(u64 seed)
{
	run_counter(seed, 2 + seed % 3);
	if (counter != LOCK_TASKS * LOCK_ROUNDS)
		panic("lost increments: %lu of %u", counter, LOCK_TASKS * LOCK_ROUNDS);
	if (__builtin_popcountl(cpus_seen) < 2)
		panic("the tasks ran on one CPU (%#lx)", cpus_seen);
	if (host_log_contains("lockdep"))
		panic("lockdep spoke:\n%s", host_log());
	host_platform_exit();
}

Test(vcpu, a_spinlock_excludes_tasks_on_other_cpus, .timeout = 240)
{
	cr_assert_eq(host_smp_seeds(NR_SEEDS, counter_scenario), 0);
}

/* ---------------------------------------------------------------- an RCU reader and a writer */

#define RCU_ROUNDS 20

struct item {
	struct rcu_head rcu;
	bool freed;
};

static struct item *shared;
static bool writer_done;
static unsigned long overlaps; /* sections that saw the pointer change under them */
static int overlap_fd;         /* the parent's pipe: a byte per seed that had some */

static void item_free(struct rcu_head *head)
{
	container_of(head, struct item, rcu)->freed = true; /* kept: the reader checks the flag */
}

static int reader(void *unused)
{
	while (!READ_ONCE(writer_done)) {
		rcu_read_lock();
		struct item *p = rcu_dereference(shared);

		for (int i = 0; i < 4; i++) {
			preempt_disable(); /* switch points: the writer runs meanwhile */
			preempt_enable();
			if (READ_ONCE(p->freed))
				panic("an item was freed under a reader");
		}
		if (rcu_dereference(shared) != p)
			overlaps++;
		rcu_read_unlock();
		cond_resched();
	}
	return 0;
}

static int writer(void *arg)
{
	bool sync = arg;

	for (int i = 0; i < RCU_ROUNDS; i++) {
		struct item *n = kzalloc(sizeof(*n), GFP_KERNEL), *old = shared;

		BUG_ON(!n);
		rcu_assign_pointer(shared, n);
		if (sync) {
			synchronize_rcu();
			item_free(&old->rcu);
		} else {
			call_rcu(&old->rcu, item_free);
		}
		cond_resched();
	}
	WRITE_ONCE(writer_done, true);
	return 0;
}

static void rcu_scenario(u64 seed)
{
	struct task_struct *r, *w;

	host_platform_init(16 << 20);
	host_smp_start(2, seed);
	shared = kzalloc(sizeof(*shared), GFP_KERNEL);
	r = start_on(0, reader, NULL);
	w = start_on(1, writer, (void *)(seed & 1)); /* odd seeds: synchronize_rcu() */
	BUG_ON(kthread_join(w));
	BUG_ON(kthread_join(r));
	if (overlaps) /* tell the parent: this seed tested what it should */
		BUG_ON(write(overlap_fd, "o", 1) != 1);
	host_platform_exit();
}

Test(vcpu, a_grace_period_waits_for_a_reader_on_another_cpu, .timeout = 240)
{
	int fd[2], n = 0;
	char c;

	cr_assert_eq(pipe(fd), 0);
	overlap_fd = fd[1];
	cr_assert_eq(host_smp_seeds(NR_SEEDS, rcu_scenario), 0);
	close(fd[1]);
	while (read(fd[0], &c, 1) == 1)
		n++;
	close(fd[0]);
	/* a seed whose reader never overlapped a grace period proves nothing: most must */
	cr_assert_gt(n, NR_SEEDS / 2, "only %d seeds had a reader overlap a grace period", n);
}

/* ---------------------------------------------------------------- a wake-up racing a switch */

/*
 * A task goes to sleep on CPU 0 and a task on CPU 1 wakes it onto CPU 1 the moment it is
 * off CPU 0, where it exits at once, detached: freed by whoever sees it dead and off its
 * CPU. CPU 0, still finishing the switch away from it, must not look at it again (its
 * state) once it has said so: the task may be freed by then (AddressSanitizer reports it).
 */
static bool sleeper_asleep;

static int sleeper(void *unused)
{
	(void)unused;
	set_current_state(TASK_UNINTERRUPTIBLE);
	WRITE_ONCE(sleeper_asleep, true);
	schedule();
	return 0;
}

static int waker(void *arg)
{
	struct task_struct *t = arg;

	while (!READ_ONCE(sleeper_asleep))
		cpu_relax();
	BUG_ON(set_cpus_allowed(t, 1UL << 1));
	wake_up_process(t);
	return 0;
}

static void exit_scenario(u64 seed)
{
	struct task_struct *s, *w;
	unsigned int before;

	host_platform_init(16 << 20);
	host_smp_start(2, seed);
	sleeper_asleep = false;
	before = nr_tasks();
	s = start_on(0, sleeper, NULL);
	kthread_detach(s);
	w = start_on(1, waker, s);
	BUG_ON(kthread_join(w));
	while (nr_tasks() != before) /* the sleeper freed */
		schedule_timeout_uninterruptible(1);
	host_platform_exit();
}

Test(vcpu, a_task_woken_elsewhere_as_it_leaves_its_cpu_is_freed_once, .timeout = 240)
{
	cr_assert_eq(host_smp_seeds(NR_SEEDS, exit_scenario), 0);
}

/* ---------------------------------------------------------------- a completion freed on return */

/*
 * A waiter may free a completion once its wait returns (synchronize_rcu()'s is on its
 * stack): complete() on another CPU must be done with it by then. CPU 1 completes what
 * CPU 0 waits for, and CPU 0 frees each completion as its wait returns, often without
 * having slept; the completions are all allocated first, so that a freed one stays
 * poisoned and AddressSanitizer reports a late touch.
 */
#define COMPLETIONS 20

static struct completion *completions[COMPLETIONS];
static int nr_posted;
static DECLARE_WAIT_QUEUE_HEAD(posted_wq);

static int completer(void *unused)
{
	(void)unused;
	for (int i = 0; i < COMPLETIONS; i++) {
		wait_event(posted_wq, READ_ONCE(nr_posted) > i);
		complete(completions[i]);
	}
	return 0;
}

static int completion_waiter(void *unused)
{
	(void)unused;
	for (int i = 0; i < COMPLETIONS; i++) {
		WRITE_ONCE(nr_posted, i + 1);
		wake_up(&posted_wq);
		wait_for_completion(completions[i]);
		kfree(completions[i]);
	}
	return 0;
}

static void completion_scenario(u64 seed)
{
	struct task_struct *w, *c;

	host_platform_init(16 << 20);
	host_smp_start(2, seed);
	for (int i = 0; i < COMPLETIONS; i++) {
		completions[i] = kmalloc(sizeof(*completions[i]), GFP_KERNEL);
		BUG_ON(!completions[i]);
		init_completion(completions[i]);
	}
	w = start_on(0, completion_waiter, NULL);
	c = start_on(1, completer, NULL);
	BUG_ON(kthread_join(w));
	BUG_ON(kthread_join(c));
	host_platform_exit();
}

Test(vcpu, complete_is_done_with_a_completion_when_its_waiter_returns, .timeout = 240)
{
	cr_assert_eq(host_smp_seeds(NR_SEEDS, completion_scenario), 0);
}

/* ---------------------------------------------------------------- balancing evens queues out */

#define BALANCE_TASKS 8

static int return_at_once(void *unused)
{
	(void)unused;
	return 0;
}

static unsigned int tasks_on(struct task_struct **t, unsigned int n, unsigned int cpu)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++)
		k += task_cpu(t[i]) == cpu;
	return k;
}

/*
 * Eight tasks queued on CPU 0 behind the running test, none on CPU 1: one balancing pass of
 * CPU 1 takes half the difference of the loads (9 against 0: four), as Linux's imbalance,
 * not one task a pass (which leaves a CPU that went busy with one task beside a queue of
 * hundreds for a second).
 */
static void balance_scenario(u64 seed)
{
	struct task_struct *t[BALANCE_TASKS];
	unsigned int moved, queued;
	unsigned long flags;

	host_platform_init(16 << 20);
	host_smp_start(2, seed);
	for (int i = 0; i < BALANCE_TASKS; i++) {
		t[i] = kthread_create(return_at_once, NULL, "balance/%d", i);
		BUG_ON(!t[i] || set_cpus_allowed(t[i], 1UL << 0));
	}
	preempt_disable(); /* the test stays CPU 0's current: the eight stay queued */
	if (raw_smp_processor_id() != 0)
		panic("the test runs on CPU %u", raw_smp_processor_id());
	for (int i = 0; i < BALANCE_TASKS; i++) {
		wake_up_process(t[i]);
		BUG_ON(set_cpus_allowed(t[i], 3UL));
	}
	local_irq_save(flags);
	raw_spin_lock(&cpu_rq(1)->lock);
	load_balance(cpu_rq(1), true);
	/* counted before the unlock: past it CPU 1 runs, and pulls more as it goes idle */
	moved = tasks_on(t, BALANCE_TASKS, 1);
	queued = cpu_rq(1)->nr_queued;
	raw_spin_unlock(&cpu_rq(1)->lock);
	local_irq_restore(flags);
	if (moved != 4 || queued != 4)
		panic("one pass moved %u of %u tasks to the idle CPU (%u queued), not 4", moved,
		      BALANCE_TASKS, queued);
	preempt_enable();
	for (int i = 0; i < BALANCE_TASKS; i++)
		BUG_ON(kthread_join(t[i]));
	host_platform_exit();
}

Test(vcpu, one_balancing_pass_takes_half_the_difference, .timeout = 60)
{
	cr_assert_eq(host_smp_seeds(20, balance_scenario), 0);
}

/* ---------------------------------------------------------------- one seed, one interleaving */

/* The counter scenario's order and clock, through a pipe from the child that ran it. */
static u64 counter_fingerprint(u64 seed)
{
	int fd[2];
	u64 h = 0;
	pid_t pid;

	cr_assert_eq(pipe(fd), 0);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		run_counter(seed, 3);
		h = order_hash ^ host_nr_switches() << 1;
		_exit(write(fd[1], &h, sizeof(h)) == sizeof(h) ? 0 : 1);
	}
	cr_assert_eq(read(fd[0], &h, sizeof(h)), (ssize_t)sizeof(h));
	close(fd[0]);
	close(fd[1]);
	return h;
}

Test(vcpu, a_seed_replays_its_interleaving)
{
	u64 a = counter_fingerprint(7), b = counter_fingerprint(7);

	cr_assert_eq(a, b, "seed 7 ran two ways");
	cr_assert_neq(counter_fingerprint(8), a, "seeds 7 and 8 interleaved alike");
}
