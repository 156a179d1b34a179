/*
 * The scheduler core, the same code in the kernel and on the host: the task list, the run
 * queue, wake-ups and kills, schedule(), and the life of a kthread from creation to join.
 * What differs per platform (picking when nobody is runnable, switching stacks, ending time
 * slices) is behind the hooks of sched-internal.h.
 *
 * One CPU: the run queue and the task list are protected by disabling interrupts.
 *
 * Fair picking, Linux's CFS in miniature. Each task's vruntime grows with the CPU time it
 * uses; the run queue is kept in vruntime order and its head, the task that has had least,
 * runs next. min_vruntime follows the least-served runnable task and never goes back. A
 * task that wakes from a sleep comes back at most SCHED_LATENCY_NS / 2 behind it: a flusher
 * or a writer whose IO has completed runs at once, ahead of tasks that use their whole
 * slices, but sleeping banks no credit with which to starve them afterwards. Without this
 * (a FIFO queue and 10 ms slices) a flusher woken beside 16 busy writers waited 190 ms for
 * the CPU while the dirty pages it should have been writing piled up.
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
#include <cgwb/psi.h>
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

static u64 min_vruntime;
static unsigned int nr_queued;

static bool vruntime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/*
 * In vruntime order, after the tasks that have had as much: FIFO among equals. A preempted
 * task has had the most and belongs near the tail, a woken one near the head: the walk
 * starts from the nearer end, so neither costs a walk past hundreds of queued writers.
 */
static void enqueue(struct task_struct *t)
{
	struct task_struct *pos, *head, *tail;

	if (t->on_rq || (t->flags & PF_IDLE))
		return;
	t->on_rq = true;
	nr_queued++;
	if (!(t->psi_flags & TSK_RUNNING))
		psi_task_wake(t); /* woken or new: a preempted task is still running */
	if (list_empty(&runqueue)) {
		list_add(&t->run_list, &runqueue);
		return;
	}
	head = list_first_entry(&runqueue, struct task_struct, run_list);
	tail = list_last_entry(&runqueue, struct task_struct, run_list);
	if ((s64)(t->vruntime - head->vruntime) < (s64)(tail->vruntime - t->vruntime)) {
		list_for_each_entry(pos, &runqueue, run_list) {
			if (vruntime_before(t->vruntime, pos->vruntime)) {
				list_add_tail(&t->run_list, &pos->run_list);
				return;
			}
		}
		list_add_tail(&t->run_list, &runqueue);
		return;
	}
	list_for_each_entry_reverse(pos, &runqueue, run_list) {
		if (!vruntime_before(t->vruntime, pos->vruntime)) {
			list_add(&t->run_list, &pos->run_list);
			return;
		}
	}
	list_add(&t->run_list, &runqueue);
}

static void dequeue(struct task_struct *t)
{
	if (!t->on_rq)
		return;
	list_del_init(&t->run_list);
	t->on_rq = false;
	nr_queued--;
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

/* The running task's vruntime including the time since it was switched in. */
static u64 curr_vruntime(struct task_struct *curr, u64 now)
{
	return curr->vruntime + (now - curr->last_ran_ns);
}

/* min_vruntime moves up to the least-served of the running task and the queue's head. */
static void update_min_vruntime(u64 now)
{
	struct task_struct *curr = current;
	bool have = false;
	u64 v = 0;

	if (curr && !(curr->flags & PF_IDLE)) {
		v = curr_vruntime(curr, now);
		have = true;
	}
	if (!list_empty(&runqueue)) {
		u64 head = list_first_entry(&runqueue, struct task_struct, run_list)->vruntime;

		if (!have || vruntime_before(head, v))
			v = head;
		have = true;
	}
	if (have && vruntime_before(min_vruntime, v))
		min_vruntime = v;
}

u64 sched_slice_ns(void)
{
	return max(SCHED_LATENCY_NS / (nr_queued + 1), SCHED_MIN_GRAN_NS);
}

bool sched_slice_expired(struct task_struct *curr, u64 now)
{
	if (list_empty(&runqueue)) {
		curr->slice_start_ns = now; /* nobody waiting: a fresh slice */
		return false;
	}
	return now - curr->slice_start_ns >= sched_slice_ns();
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
	if (!(prev->flags & PF_IDLE))
		prev->vruntime += now - prev->last_ran_ns;
	prev->last_ran_ns = now;
	/* a wake-up while it ran may have queued it already: start from "not queued" */
	dequeue(prev);
	if (prev->state == TASK_INTERRUPTIBLE && prev->sigkill)
		prev->state = TASK_RUNNING;
	if (prev->state == TASK_DEAD)
		announce_exit(prev);
	else if (preempt || prev->state == TASK_RUNNING)
		enqueue(prev);
	if (!prev->on_rq)
		psi_task_sleep(prev, prev->state == TASK_DEAD);
	need_resched_flag = false;
	update_min_vruntime(now);
	next = pick_next_task();
	/* the platform may have idled in pick_next_task: idle time is nobody's CPU time */
	now = ktime_get_ns();
	next->last_ran_ns = now;
	next->slice_start_ns = now;
	psi_task_switch(prev, next); /* also when prev slept and was woken meanwhile */
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
	if (current->sleep_flush && current->state != TASK_RUNNING)
		current->sleep_flush->fn(current->sleep_flush);
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

/*
 * Give way to every task queued now; the caller stays runnable (as Linux's yield()): it
 * counts as having had as much CPU time as the last of them.
 */
void yield(void)
{
	unsigned long flags = arch_local_irq_save();

	if (!list_empty(&runqueue)) {
		u64 last = list_last_entry(&runqueue, struct task_struct, run_list)->vruntime;

		if (vruntime_before(current->vruntime, last))
			current->vruntime = last;
	}
	arch_local_irq_restore(flags);
	__set_current_state(TASK_RUNNING);
	schedule();
}

/* ---------------------------------------------------------------- wake-ups and kills */

/*
 * A task back from a sleep: at most half a latency period behind the least-served runnable
 * task, and it preempts the running one if that has had a wake-up granularity more. The
 * idle task always gives way (at the next interrupt exit).
 */
static void place_woken(struct task_struct *t)
{
	struct task_struct *curr = current;
	u64 now = ktime_get_ns(), floor;

	update_min_vruntime(now);
	floor = min_vruntime - SCHED_LATENCY_NS / 2;
	if (vruntime_before(t->vruntime, floor))
		t->vruntime = floor;
	if (!curr)
		return;
	if (curr->flags & PF_IDLE)
		need_resched_flag = true;
	else if ((s64)(curr_vruntime(curr, now) - t->vruntime) > (s64)SCHED_WAKEUP_GRAN_NS)
		need_resched_flag = true;
}

bool wake_up_state(struct task_struct *t, long state)
{
	unsigned long flags = arch_local_irq_save();
	bool woken = false;

	if (t->state & state) {
		t->state = TASK_RUNNING;
		if (t != current && !t->on_rq)
			place_woken(t);
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

void send_sig(int sig, struct task_struct *t)
{
	u8 old = READ_ONCE(t->kill_signal);

	/* the first signal tells, but SIGKILL overrides: a racing Ctrl-C cannot mask it */
	while ((sig == SIGKILL || !old) &&
	       !__atomic_compare_exchange_n(&t->kill_signal, &old, (u8)sig, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST))
		;
	WRITE_ONCE(t->sigkill, true);
	wake_up_state(t, TASK_INTERRUPTIBLE);
}

void send_sig_kill(struct task_struct *t)
{
	send_sig(SIGINT, t);
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
	t->vruntime = min_vruntime; /* a newcomer starts level with the least-served */
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
	/* whoever it wakes runs once this task is gone, never while it is still listed */
	preempt_disable();
	if (t->exit_notify)
		t->exit_notify(t->exit_notify_arg, code);
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
