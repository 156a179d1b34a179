/*
 * The kernel's scheduler: round-robin over runnable tasks with 10 ms slices, preemption at
 * interrupt exit and at preempt_enable(), an idle task that halts the CPU. Uniprocessor: the
 * run queue and task list are protected by disabling interrupts.
 */
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include "arch/x86.h"
#include "sched_internal.h"

#define SLICE_TICKS 10

struct task_struct *current_task;
int preempt_count;
static bool need_resched;
static LIST_HEAD(runqueue);
static LIST_HEAD(all_tasks);
static struct task_struct idle_task;
static struct task_struct *switched_from;
static int next_pid = 1;
static unsigned int task_count;
static DECLARE_WAIT_QUEUE_HEAD(task_exit_wq);

static void enqueue(struct task_struct *t)
{
	if (t->on_rq || (t->flags & PF_IDLE))
		return;
	t->on_rq = true;
	list_add_tail(&t->run_list, &runqueue);
}

static struct task_struct *pick_next(void)
{
	if (list_empty(&runqueue))
		return &idle_task;
	struct task_struct *t = list_first_entry(&runqueue, struct task_struct, run_list);
	list_del_init(&t->run_list);
	t->on_rq = false;
	return t;
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

/* Runs in the next task's context, interrupts off, right after a switch. */
static void finish_task_switch(void)
{
	struct task_struct *prev = switched_from;

	if (prev && prev->state == TASK_DEAD) {
		prev->switched_out = true;
		if (prev->flags & PF_DETACHED)
			free_task(prev);
		else
			__wake_up(&task_exit_wq, 0);
	}
}

/*
 * preempt: the task did not ask to sleep (tick or wakeup preemption). It may be between
 * set_current_state() and its own schedule() call, so it stays runnable whatever its state;
 * only a voluntary schedule() takes a sleeping task off the run queue.
 */
static void __schedule(bool preempt)
{
	struct task_struct *prev = current, *next;
	u64 now;

	/* a wakeup while it ran may have queued it already: start from "not queued" */
	if (prev->on_rq) {
		list_del_init(&prev->run_list);
		prev->on_rq = false;
	}
	if (prev->state == TASK_INTERRUPTIBLE && prev->sigkill)
		prev->state = TASK_RUNNING;
	if (preempt || prev->state == TASK_RUNNING)
		enqueue(prev);
	next = pick_next();
	need_resched = false;
	if (next == prev) {
		prev->slice_left = SLICE_TICKS;
		return;
	}
	if (arch_stack_corrupted(prev))
		panic("stack overflow in task %d (%s)", prev->pid, prev->comm);

	now = ktime_get_ns();
	prev->sum_exec_ns += now - prev->last_ran_ns;
	next->last_ran_ns = now;
	next->slice_left = SLICE_TICKS;
	switched_from = prev;
	current_task = next;
	__switch_to(&prev->sp, next->sp);
	finish_task_switch();
}

void schedule(void)
{
	if (unlikely(in_atomic()))
		panic("scheduling while atomic: task %d (%s), preempt_count %#x", current->pid,
		      current->comm, preempt_count);
	unsigned long flags = arch_local_irq_save();
	__schedule(false);
	arch_local_irq_restore(flags);
}

/* Interrupt exit with preemption allowed (called by do_interrupt, interrupts off). */
void preempt_schedule_irq(void)
{
	if (need_resched)
		__schedule(true);
}

void preempt_check_resched(void)
{
	if (need_resched && preempt_count == 0 && !arch_irqs_disabled()) {
		arch_local_irq_disable();
		__schedule(true);
		arch_local_irq_enable();
	}
}

void sched_tick(void)
{
	struct task_struct *t = current;

	if (!t)
		return;
	if (t->flags & PF_IDLE) {
		if (!list_empty(&runqueue))
			need_resched = true;
	} else if (t->slice_left && --t->slice_left == 0) {
		if (list_empty(&runqueue))
			t->slice_left = SLICE_TICKS;
		else
			need_resched = true;
	}
}

void yield(void)
{
	unsigned long flags = arch_local_irq_save();

	__schedule(true);
	arch_local_irq_restore(flags);
}

void cond_resched(void)
{
	if (need_resched && !in_atomic())
		schedule();
}

bool wake_up_state(struct task_struct *t, long state)
{
	unsigned long flags = arch_local_irq_save();
	bool woken = false;

	if (t->state & state) {
		t->state = TASK_RUNNING;
		enqueue(t);
		if (current->flags & PF_IDLE)
			need_resched = true;
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
	unsigned long flags = arch_local_irq_save();
	t->pid = next_pid++;
	list_add_tail(&t->tasks, &all_tasks);
	task_count++;
	arch_local_irq_restore(flags);
	return t;
}

struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct task_struct *t = task_alloc(fn, arg, fmt, ap);
	va_end(ap);
	return t;
}

struct task_struct *kthread_run(int (*fn)(void *), void *arg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct task_struct *t = task_alloc(fn, arg, fmt, ap);
	va_end(ap);
	if (t)
		wake_up_process(t);
	return t;
}

__noreturn void kthread_entry(void)
{
	finish_task_switch();
	arch_local_irq_enable();
	struct task_struct *t = current;
	do_exit(t->fn(t->arg));
}

__noreturn void do_exit(int code)
{
	struct task_struct *t = current;

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

	t->flags |= PF_DETACHED;
	bool already_gone = t->switched_out;
	arch_local_irq_restore(flags);
	if (already_gone)
		free_task(t);
}

void for_each_task(void (*fn)(struct task_struct *, void *), void *arg)
{
	unsigned long flags = arch_local_irq_save();
	struct task_struct *t;

	fn(&idle_task, arg);
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

unsigned int nr_tasks(void)
{
	return task_count + 1;
}

/* The boot context becomes the idle task (pid 0). */
void sched_init(void)
{
	idle_task.pid = 0;
	strlcpy(idle_task.comm, "idle", sizeof(idle_task.comm));
	idle_task.state = TASK_RUNNING;
	idle_task.flags = PF_IDLE | PF_KTHREAD;
	INIT_LIST_HEAD(&idle_task.run_list);
	INIT_LIST_HEAD(&idle_task.tasks);
	idle_task.last_ran_ns = ktime_get_ns();
	task_init_defaults(&idle_task);
	current_task = &idle_task;
}

__noreturn void cpu_idle_loop(void)
{
	for (;;) {
		arch_local_irq_disable();
		if (list_empty(&runqueue))
			safe_halt();
		else
			arch_local_irq_enable();
		schedule();
	}
}
