/*
 * The host scheduler: kernel/sched.c's run queue and task life cycle on ucontext fibers.
 * One CPU, FIFO run queue, no tick: a task runs until it blocks, yields, or uses up a slice
 * of virtual CPU time (vtime.c). When nothing is runnable, this CPU's "idle task" moves
 * virtual time to the next event instead of halting; with no event left either, every task
 * waits for another and the run is a deadlock, reported with the state of every task.
 *
 * Deliberate differences from kernel/sched.c: a preempted task stays runnable whatever its
 * state (Linux's semantics: preemption between set_current_state() and schedule() must not
 * become a sleep); schedule() with interrupts off panics too; a dead task's joiner is woken
 * before the switch away from it (see announce_exit); exiting in atomic context panics.
 */
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include "../../../kernel/sched_internal.h"
#include "host_internal.h"

struct task_struct *current_task;
static bool need_resched;
static LIST_HEAD(runqueue);
static LIST_HEAD(all_tasks);
static struct task_struct main_task;
static struct host_task main_host;
static struct task_struct *switched_from;
static struct task_struct *idle_waiter;  /* in host_run_until_idle() */
static int next_pid = 1;
static unsigned int task_count;
static u64 nr_switches;
static DECLARE_WAIT_QUEUE_HEAD(task_exit_wq);

static void enqueue(struct task_struct *t)
{
	if (t->on_rq)
		return;
	t->on_rq = true;
	list_add_tail(&t->run_list, &runqueue);
}

bool host_runqueue_empty(void)
{
	return list_empty(&runqueue);
}

void host_set_need_resched(void)
{
	need_resched = true;
}

bool host_need_resched(void)
{
	return need_resched;
}

u64 host_nr_switches(void)
{
	return nr_switches;
}

static __noreturn void deadlock(void)
{
	struct task_struct *t;

	printk(KERN_EMERG "host: deadlock at %llu ns: no task can run and no timer is pending\n",
	       ktime_get_ns());
	list_for_each_entry(t, &all_tasks, tasks)
		printk(KERN_EMERG "host:   pid %-4d %-16s %s%s\n", t->pid, t->comm,
		       task_state_name(t), t == current ? " (current)" : "");
	panic("deadlock: every task is blocked and no timer is pending");
}

/* Interrupts off. The loop is the idle task: it runs events until somebody is runnable. */
static struct task_struct *pick_next(void)
{
	for (;;) {
		bool pending;
		u64 when;

		if (!list_empty(&runqueue)) {
			struct task_struct *t = list_first_entry(&runqueue, struct task_struct, run_list);
			list_del_init(&t->run_list);
			t->on_rq = false;
			return t;
		}
		pending = host_next_event(&when);
		if (pending && when <= ktime_get_ns()) {
			host_run_events();
			continue;
		}
		/* idle at this instant: the run-until-idle waiter's turn, before time moves */
		if (idle_waiter) {
			struct task_struct *t = idle_waiter;
			idle_waiter = NULL;
			wake_up_process(t);
			continue;
		}
		if (!pending)
			deadlock();
		host_clock_advance(when);
	}
}

static void free_task(struct task_struct *t)
{
	unsigned long flags = arch_local_irq_save();

	list_del(&t->tasks);
	task_count--;
	arch_local_irq_restore(flags);
	arch_task_free(t);
	kfree(t);
}

/*
 * A dead task's joiner hears of it before the switch, not after as in the kernel: with no
 * idle task to switch to, the joiner may be the only task that can run next, and the idle
 * loop must see it runnable. Nothing can free this stack before we have left it: the joiner
 * only runs after the switch.
 */
static void announce_exit(struct task_struct *t)
{
	if (!(t->flags & PF_DETACHED)) {
		t->switched_out = true;
		__wake_up(&task_exit_wq, 0);
	}
}

/* In the task switched to, interrupts off: a detached dead task is freed here, off its stack. */
static void finish_task_switch(void)
{
	struct task_struct *prev = switched_from;

	if (prev && prev->state == TASK_DEAD && (prev->flags & PF_DETACHED)) {
		prev->switched_out = true;
		free_task(prev);
	}
}

static void __schedule(bool preempt)
{
	struct task_struct *prev = current, *next;
	u64 now = ktime_get_ns();

	prev->sum_exec_ns += now - prev->last_ran_ns;
	if (prev->state == TASK_INTERRUPTIBLE && prev->sigkill)
		prev->state = TASK_RUNNING;
	if (prev->state == TASK_RUNNING || (preempt && prev->state != TASK_DEAD))
		enqueue(prev);
	else if (prev->state == TASK_DEAD)
		announce_exit(prev);
	need_resched = false;
	next = pick_next();
	/* idle time is nobody's CPU time: stamp after the clock moved */
	now = ktime_get_ns();
	next->last_ran_ns = now;
	host_task(next)->slice_start_ns = now;
	if (next == prev)
		return;

	switched_from = prev;
	current_task = next;
	nr_switches++;
	host_fiber_switch(prev, next);
	host_fiber_finish(prev, switched_from);
	finish_task_switch();
}

static void check_can_sleep(void)
{
	if (unlikely(!current))
		panic("host: schedule() before host_platform_init()");
	if (unlikely(in_atomic() || arch_irqs_disabled()))
		panic("scheduling while atomic: task %d (%s), preempt_count %#x, interrupts %s",
		      current->pid, current->comm, preempt_count,
		      arch_irqs_disabled() ? "off" : "on");
}

void schedule(void)
{
	unsigned long flags;

	check_can_sleep();
	flags = arch_local_irq_save();
	__schedule(false);
	arch_local_irq_restore(flags);
}

static void preempt_schedule(void)
{
	unsigned long flags = arch_local_irq_save();

	__schedule(true);
	arch_local_irq_restore(flags);
}

void preempt_check_resched(void)
{
	if (need_resched && preempt_count == 0 && !arch_irqs_disabled() && current)
		preempt_schedule();
}

void yield(void)
{
	need_resched = true;
	schedule();
}

void cond_resched(void)
{
	if (need_resched && !in_atomic() && !arch_irqs_disabled())
		preempt_schedule();
}

bool wake_up_state(struct task_struct *t, long state)
{
	unsigned long flags = arch_local_irq_save();
	bool woken = false;

	if (t->state & state) {
		t->state = TASK_RUNNING;
		enqueue(t);
		woken = true;
	}
	arch_local_irq_restore(flags);
	return woken;
}

bool wake_up_process(struct task_struct *t)
{
	return wake_up_state(t, TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE);
}

void send_sig_kill(struct task_struct *t)
{
	WRITE_ONCE(t->sigkill, true);
	wake_up_state(t, TASK_INTERRUPTIBLE);
}

static struct task_struct *task_alloc(int (*fn)(void *), void *arg, const char *fmt, va_list ap)
{
	struct task_struct *t = kzalloc(sizeof(*t), GFP_KERNEL);
	unsigned long flags;

	if (!t)
		return NULL;
	vsnprintf(t->comm, sizeof(t->comm), fmt, ap);
	t->fn = fn;
	t->arg = arg;
	t->state = TASK_UNINTERRUPTIBLE; /* not running until woken */
	INIT_LIST_HEAD(&t->run_list);
	task_init_defaults(t);
	if (arch_task_init(t)) {
		task_exit_hook(t);
		kfree(t);
		return NULL;
	}
	t->start_ns = ktime_get_ns();
	flags = arch_local_irq_save();
	t->pid = next_pid++;
	list_add_tail(&t->tasks, &all_tasks);
	task_count++;
	arch_local_irq_restore(flags);
	return t;
}

struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *fmt, ...)
{
	struct task_struct *t;
	va_list ap;

	va_start(ap, fmt);
	t = task_alloc(fn, arg, fmt, ap);
	va_end(ap);
	return t;
}

struct task_struct *kthread_run(int (*fn)(void *), void *arg, const char *fmt, ...)
{
	struct task_struct *t;
	va_list ap;

	va_start(ap, fmt);
	t = task_alloc(fn, arg, fmt, ap);
	va_end(ap);
	if (t)
		wake_up_process(t);
	return t;
}

/* A new task's first instructions, on its own stack (makecontext in fiber.c). */
__noreturn void kthread_entry(void)
{
	struct task_struct *t = current;

	host_fiber_finish(t, switched_from);
	finish_task_switch();
	arch_local_irq_enable();
	do_exit(t->fn(t->arg));
}

__noreturn void do_exit(int code)
{
	struct task_struct *t = current;

	if (t == &main_task)
		panic("host: the main task cannot exit");
	if (in_atomic())
		panic("task %d (%s) exiting in atomic context, preempt_count %#x", t->pid, t->comm,
		      preempt_count);
	task_exit_hook(t);
	arch_local_irq_disable();
	t->exit_code = code;
	t->flags |= PF_EXITING;
	t->state = TASK_DEAD;
	__schedule(false);
	panic("dead task %d rescheduled", t->pid);
}

int kthread_join(struct task_struct *t)
{
	int code;

	BUG_ON(t->flags & PF_DETACHED);
	BUG_ON(t == current);
	wait_event(task_exit_wq, READ_ONCE(t->switched_out));
	code = t->exit_code;
	free_task(t);
	return code;
}

int kthread_join_killable(struct task_struct *t, int *exit_code)
{
	if (wait_event_interruptible(task_exit_wq, READ_ONCE(t->switched_out))) {
		kthread_detach(t);
		return -EINTR;
	}
	*exit_code = kthread_join(t);
	return 0;
}

void kthread_detach(struct task_struct *t)
{
	unsigned long flags = arch_local_irq_save();
	bool already_gone;

	t->flags |= PF_DETACHED;
	already_gone = t->switched_out;
	arch_local_irq_restore(flags);
	if (already_gone)
		free_task(t);
}

void for_each_task(void (*fn)(struct task_struct *, void *), void *arg)
{
	unsigned long flags = arch_local_irq_save();
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, tasks)
		fn(t, arg);
	arch_local_irq_restore(flags);
}

struct task_struct *find_task_by_pid(int pid)
{
	unsigned long flags = arch_local_irq_save();
	struct task_struct *t, *found = NULL;

	list_for_each_entry(t, &all_tasks, tasks) {
		if (t->pid == pid && t->state != TASK_DEAD) {
			found = t;
			break;
		}
	}
	arch_local_irq_restore(flags);
	return found;
}

/* The kernel counts its idle task; the host has none, and "main" is an ordinary task. */
unsigned int nr_tasks(void)
{
	return task_count;
}

/* Sleep until the system is idle at this instant (host_run_until_idle). */
void host_wait_idle(void)
{
	struct task_struct *me = current;

	BUG_ON(idle_waiter);
	idle_waiter = me;
	/* a wakeup from elsewhere is not the idle signal: sleep again */
	while (READ_ONCE(idle_waiter) == me) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(idle_waiter) != me) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		schedule();
	}
}

/* The calling thread becomes "main" (pid 1), like the kernel's boot context. */
void host_sched_init(void)
{
	struct task_struct *t = &main_task;

	*t = (struct task_struct){ 0 };
	t->pid = next_pid++;
	strlcpy(t->comm, "main", sizeof(t->comm));
	t->state = TASK_RUNNING;
	INIT_LIST_HEAD(&t->run_list);
	host_fiber_init_main(&main_host);
	t->platform = &main_host;
	t->start_ns = t->last_ran_ns = ktime_get_ns();
	task_init_defaults(t);
	list_add_tail(&t->tasks, &all_tasks);
	task_count = 1;
	current_task = t;
}

/* Drop every task's stack; the task structs themselves live in the arena. */
void host_sched_exit(void)
{
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, tasks)
		if (t != &main_task)
			arch_task_free(t);
	INIT_LIST_HEAD(&all_tasks);
	INIT_LIST_HEAD(&runqueue);
	current_task = NULL;
	switched_from = NULL;
	idle_waiter = NULL;
	task_count = 0;
}
