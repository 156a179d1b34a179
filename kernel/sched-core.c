/*
 * The scheduler core, the same code in the kernel and on the host: the task list, the FIFO
 * run queue, wake-ups and kills, schedule(), and the life of a kthread from creation to
 * join. What differs per platform (picking when nobody is runnable, switching stacks,
 * ending time slices) is behind the hooks of sched-internal.h.
 *
 * One CPU: the run queue and the task list are protected by disabling interrupts.
 *
 * Life of a task: kthread_create() puts it on the task list, asleep; a wake-up queues it;
 * do_exit() marks it TASK_DEAD and switches away for good. Then exactly one side frees it,
 * never while its stack is in use: its joiner (kthread_join, after switched_out is set) or,
 * once detached, whoever sees it dead and switched out (finish_task_switch on the next
 * task's stack, or kthread_detach). The boot task (the kernel's idle task, the host's
 * "main") is on the task list too but never exits.
 */
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/bio.h>
#include "sched-internal.h"

struct task_struct *current_task;
static bool need_resched_flag;
static LIST_HEAD(runqueue);
static LIST_HEAD(all_tasks);
static struct task_struct *switched_from; /* the task the current one was switched to from */
static int next_pid;
static unsigned int task_count;
static DECLARE_WAIT_QUEUE_HEAD(task_exit_wq);

/* ---------------------------------------------------------------- run queue */

static void enqueue(struct task_struct *t)
{
	if (t->on_rq || (t->flags & PF_IDLE))
		return;
	t->on_rq = true;
	list_add_tail(&t->run_list, &runqueue);
}

static void dequeue(struct task_struct *t)
{
	if (!t->on_rq)
		return;
	list_del_init(&t->run_list);
	t->on_rq = false;
}

bool runqueue_empty(void)
{
	return list_empty(&runqueue);
}

struct task_struct *runqueue_pop(void)
{
	struct task_struct *t;

	if (list_empty(&runqueue))
		return NULL;
	t = list_first_entry(&runqueue, struct task_struct, run_list);
	dequeue(t);
	return t;
}

void set_need_resched(void)
{
	need_resched_flag = true;
}

bool need_resched(void)
{
	return need_resched_flag;
}

/* ---------------------------------------------------------------- switching */

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
 * A dead task's joiner hears of it before the switch away: on the host, with no idle task,
 * the joiner may be the only task that can run next and the idle loop must see it runnable.
 * Nothing frees this stack before we have left it: the joiner only runs after the switch.
 */
static void announce_exit(struct task_struct *t)
{
	if (!(t->flags & PF_DETACHED)) {
		t->switched_out = true;
		__wake_up(&task_exit_wq, 0);
	}
}

/* On the stack switched to, interrupts off: a detached dead task is freed here, off its stack. */
static void finish_task_switch(void)
{
	struct task_struct *prev = switched_from;

	if (prev && prev->state == TASK_DEAD && (prev->flags & PF_DETACHED)) {
		prev->switched_out = true;
		free_task(prev);
	}
}

/*
 * preempt: the task did not ask to sleep (tick or wake-up preemption). It may be between
 * set_current_state() and its own schedule() call, so it stays runnable whatever its state;
 * only a voluntary schedule() takes a sleeping task off the run queue.
 */
void __schedule(bool preempt)
{
	struct task_struct *prev = current, *next;
	u64 now = ktime_get_ns();

	prev->sum_exec_ns += now - prev->last_ran_ns;
	/* a wake-up while it ran may have queued it already: start from "not queued" */
	dequeue(prev);
	if (prev->state == TASK_INTERRUPTIBLE && prev->sigkill)
		prev->state = TASK_RUNNING;
	if (prev->state == TASK_DEAD)
		announce_exit(prev);
	else if (preempt || prev->state == TASK_RUNNING)
		enqueue(prev);
	need_resched_flag = false;
	next = pick_next_task();
	/* the platform may have idled in pick_next_task: idle time is nobody's CPU time */
	now = ktime_get_ns();
	next->last_ran_ns = now;
	next->slice_start_ns = now;
	if (next == prev)
		return;

	prev->nr_switches++;
	switched_from = prev;
	current_task = next;
	arch_switch_to(prev, next);
	arch_finish_switch(prev, switched_from);
	finish_task_switch();
}

void schedule(void)
{
	if (unlikely(!current))
		panic("schedule() before the scheduler is up");
	if (unlikely(in_atomic() || arch_irqs_disabled()))
		panic("scheduling while atomic: task %d (%s), preempt_count %#x, interrupts %s",
		      current->pid, current->comm, preempt_count,
		      arch_irqs_disabled() ? "off" : "on");
	/*
	 * As Linux's sched_submit_work(): a task going to sleep sends what its plug holds
	 * first, or whoever waits for those bios might be what this task waits for. Sending
	 * may sleep itself (no free request); the caller's wait loop then looks again.
	 */
	if (current->plug && current->state != TASK_RUNNING)
		blk_flush_plug_current();
	arch_local_irq_disable();
	__schedule(false);
	arch_local_irq_enable();
}

static void preempt_schedule(void)
{
	arch_local_irq_disable();
	__schedule(true);
	arch_local_irq_enable();
}

void preempt_check_resched(void)
{
	if (need_resched_flag && preempt_count == 0 && !arch_irqs_disabled() && current)
		preempt_schedule();
}

void cond_resched(void)
{
	if (need_resched_flag && !in_atomic() && !arch_irqs_disabled())
		preempt_schedule();
}

/* Give way to every task queued now; the caller stays runnable (as Linux's yield()). */
void yield(void)
{
	__set_current_state(TASK_RUNNING);
	schedule();
}

/* ---------------------------------------------------------------- wake-ups and kills */

bool wake_up_state(struct task_struct *t, long state)
{
	unsigned long flags = arch_local_irq_save();
	bool woken = false;

	if (t->state & state) {
		t->state = TASK_RUNNING;
		enqueue(t);
		/* the idle task gives way at the next interrupt exit */
		if (current && (current->flags & PF_IDLE))
			need_resched_flag = true;
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

/* ---------------------------------------------------------------- life cycle */

void sched_init_boot_task(struct task_struct *t, int pid, const char *comm, unsigned int flags)
{
	t->pid = pid;
	next_pid = pid + 1;
	strlcpy(t->comm, comm, sizeof(t->comm));
	t->state = TASK_RUNNING;
	t->flags = flags;
	INIT_LIST_HEAD(&t->run_list);
	t->last_ran_ns = t->slice_start_ns = ktime_get_ns();
	task_init_defaults(t);
	list_add_tail(&t->tasks, &all_tasks);
	task_count++;
	current_task = t;
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

__noreturn void kthread_entry(void)
{
	struct task_struct *t = current;

	arch_finish_switch(t, switched_from);
	finish_task_switch();
	arch_local_irq_enable();
	do_exit(t->fn(t->arg));
}

__noreturn void do_exit(int code)
{
	struct task_struct *t = current;

	if (!t->fn)
		panic("the boot task %d (%s) cannot exit", t->pid, t->comm);
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

/* ---------------------------------------------------------------- the task table */

void for_each_task(void (*fn)(struct task_struct *, void *), void *arg)
{
	unsigned long flags = arch_local_irq_save();
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, tasks)
		fn(t, arg);
	arch_local_irq_restore(flags);
}

/* The idle task is no process anybody can name (Linux's pid 0 is not in the pid hash). */
struct task_struct *find_task_by_pid(int pid)
{
	unsigned long flags = arch_local_irq_save();
	struct task_struct *t, *found = NULL;

	list_for_each_entry(t, &all_tasks, tasks) {
		if (t->pid == pid && t->state != TASK_DEAD && !(t->flags & PF_IDLE)) {
			found = t;
			break;
		}
	}
	arch_local_irq_restore(flags);
	return found;
}

unsigned int nr_tasks(void)
{
	return task_count;
}
