/*
 * A task's life: kthread_create() puts it on the task list, asleep; a wake-up queues it;
 * do_exit() marks it TASK_DEAD and switches away for good. Then exactly one side frees it,
 * never while its stack is in use: its joiner (kthread_join, once switched_out is set) or,
 * once detached, whoever learns last of the two facts "dead and off its CPU" and "detached":
 * task_dead() on the next task's stack, or kthread_detach(). The task's pi_lock makes that
 * decision one. The boot tasks (the kernel's idle tasks, the host's "main") are on the task
 * list too but never exit.
 *
 * The task list and the pids are under tasklist_lock (irq-safe: interrupt handlers look up
 * tasks). It comes first in the scheduler's lock order: a kill takes the task's pi_lock and a
 * run queue's lock under it.
 */
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>
#include "sched-internal.h"

static DEFINE_SPINLOCK(tasklist_lock);
static LIST_HEAD(all_tasks);
static int next_pid = 1;
static unsigned int task_count;
static DECLARE_WAIT_QUEUE_HEAD(task_exit_wq);

static void task_list_add(struct task_struct *t, int pid)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	t->pid = pid >= 0 ? pid : next_pid++;
	list_add_tail(&t->tasks, &all_tasks);
	task_count++;
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

static void free_task(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_del(&t->tasks);
	task_count--;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	arch_task_free(t);
	kfree(t);
}

/* Fields every task starts with, boot tasks included. */
void kthread_init_cpu_task(struct task_struct *t)
{
	INIT_LIST_HEAD(&t->run_list);
	spin_lock_init(&t->pi_lock);
	t->pi_lock.name = "task->pi_lock";
	t->cpus_mask = ~0UL;
}

void set_current_comm(const char *name)
{
	char comm[TASK_COMM_LEN];

	strlcpy(comm, name, sizeof(comm));
	memcpy(current->comm, comm, sizeof(comm));
}

void sched_init_boot_task(struct task_struct *t, int pid, const char *comm, unsigned int flags)
{
	unsigned int cpu = raw_smp_processor_id();
	struct rq *rq = cpu_rq(cpu);

	strlcpy(t->comm, comm, sizeof(t->comm));
	t->state = TASK_RUNNING;
	t->flags = flags;
	kthread_init_cpu_task(t);
	if (flags & PF_IDLE)
		t->cpus_mask = 1UL << cpu;
	t->cpu = cpu;
	t->on_cpu = true;
	t->on_rq = !(flags & PF_IDLE);
	t->last_ran_ns = t->slice_start_ns = ktime_get_ns();
	task_init_defaults(t);
	if (pid > 0 && next_pid <= pid)
		next_pid = pid + 1;
	task_list_add(t, pid);
	rq->curr = t;
	if (flags & PF_IDLE)
		rq->idle = t;
	__pcpu_hot_write(current_task, t);
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
	kthread_init_cpu_task(t);
	task_init_defaults(t);
	if (arch_task_init(t)) {
		task_exit_hook(t);
		kfree(t);
		return NULL;
	}
	t->start_ns = ktime_get_ns();
	/* a newcomer starts level with the least-served of its creator's CPU */
	t->cpu = raw_smp_processor_id();
	t->vruntime = READ_ONCE(cpu_rq(t->cpu)->min_vruntime);
	task_list_add(t, -1);
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

	schedule_tail();
	arch_local_irq_enable();
	do_exit(t->fn(t->arg));
}

/* Its stack is free (interrupts off, no lock held). */
void task_dead(struct task_struct *t)
{
	bool detached;

	raw_spin_lock(&t->pi_lock);
	WRITE_ONCE(t->switched_out, true);
	detached = t->flags & PF_DETACHED;
	raw_spin_unlock(&t->pi_lock);
	if (detached)
		free_task(t);
	else
		__wake_up(&task_exit_wq, 0);
}

__noreturn void do_exit(int code)
{
	struct task_struct *t = current;

	if (!t->fn)
		panic("the boot task %d (%s) cannot exit", t->pid, t->comm);
	if (in_atomic())
		panic("task %d (%s) exiting in atomic context, preempt_count %#x", t->pid, t->comm,
		      preempt_count());
	task_exit_hook(t);
	/* whoever it wakes runs once this task is gone, never while it is still listed */
	preempt_disable();
	if (t->exit_notify)
		t->exit_notify(t->exit_notify_arg, code);
	/*
	 * The joiner is woken now as well as once this task is off its CPU: on the host, with
	 * no idle task, it may be the only task that can run next. Woken early it finds
	 * switched_out unset and waits again; task_dead() wakes it for good.
	 */
	if (!(t->flags & PF_DETACHED))
		__wake_up(&task_exit_wq, 0);
	arch_local_irq_disable();
	preempt_enable_no_resched();
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
	unsigned long flags;
	bool already_gone;

	spin_lock_irqsave(&t->pi_lock, flags);
	t->flags |= PF_DETACHED;
	already_gone = t->switched_out;
	spin_unlock_irqrestore(&t->pi_lock, flags);
	if (already_gone)
		free_task(t);
}

/* ---------------------------------------------------------------- the task table */

void for_each_task(void (*fn)(struct task_struct *, void *), void *arg)
{
	unsigned long flags;
	struct task_struct *t;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(t, &all_tasks, tasks)
		fn(t, arg);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* The idle tasks are no process anybody can name (Linux's pid 0 is not in the pid hash). */
static struct task_struct *__find_task_by_pid(int pid)
{
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, tasks)
		if (t->pid == pid && t->state != TASK_DEAD && !(t->flags & PF_IDLE))
			return t;
	return NULL;
}

struct task_struct *find_task_by_pid(int pid)
{
	struct task_struct *found;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	found = __find_task_by_pid(pid);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return found;
}

/*
 * Under the task list's lock the task cannot exit and be freed between the lookup and the
 * signal. Kernel threads serve everybody: not to be killed by a user.
 */
int kill_pid(int pid, int sig)
{
	struct task_struct *t;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = __find_task_by_pid(pid);
	if (!t)
		err = -ESRCH;
	else if (t->flags & (PF_KTHREAD | PF_IDLE))
		err = -EPERM;
	else if (sig)
		send_sig(sig, t);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}

unsigned int nr_tasks(void)
{
	return task_count;
}
