/*
 * The scheduler core, the same code in the kernel and on the host: schedule(), wake-ups
 * and kills, the tick. What differs per platform (picking when nobody is runnable,
 * switching stacks, ending time slices, IPIs) is behind the hooks of sched-internal.h; the
 * fair queues are sched-fair.c, the placement and balancing between CPUs sched-balance.c,
 * a task's life kthread.c.
 *
 * A switch, as Linux's: __schedule() takes this CPU's queue lock with interrupts off,
 * charges the leaving task, takes it off the queue if it goes to sleep, picks the next and
 * switches with the lock held; the arriving task releases it in finish_task_switch() and
 * only then clears the leaving task's on_cpu, the moment its stack is free.
 *
 * A wake-up (try_to_wake_up()) holds the task's pi_lock. A task still on a queue (it has not
 * reached schedule() yet, or is queued) only needs TASK_RUNNING, under its queue's lock, which
 * __schedule() holds when it reads the state. A task off every queue may still be leaving
 * its CPU: the waker waits for on_cpu to clear before placing it anywhere, so no task runs
 * on two CPUs at once.
 */
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/rcupdate.h>
#include <cgwb/psi.h>
#include "sched-internal.h"

/* ---------------------------------------------------------------- switching */

/*
 * On the stack switched to, interrupts off, rq's lock held since the switch began. prev's
 * state is read before its on_cpu is cleared, as Linux's finish_task_switch(): from that
 * store on, a wake-up elsewhere may run prev on another CPU, where it may exit and be freed
 * before this CPU looks again; a dead task is seen dead here only if it died here.
 */
static void finish_task_switch(struct rq *rq)
{
	struct task_struct *prev = rq->prev;
	bool prev_dead = prev && prev->state == TASK_DEAD;

	rq->prev = NULL;
	if (prev)
		__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	raw_spin_unlock(&rq->lock);
	if (prev_dead)
		task_dead(prev);
}

/* Takes prev off the queue or keeps it runnable; rq's lock held. */
static void put_prev_task(struct rq *rq, struct task_struct *prev, bool preempt)
{
	/*
	 * preempt: the task did not ask to sleep. It may be between set_current_state() and its
	 * own schedule() call, so it stays runnable whatever its state; only a voluntary
	 * schedule() takes a sleeping task off the queue.
	 */
	if (prev->state == TASK_INTERRUPTIBLE && prev->sigkill)
		prev->state = TASK_RUNNING;
	if (prev->flags & PF_IDLE)
		return;
	if (preempt || prev->state == TASK_RUNNING)
		enqueue_task(rq, prev);
	else
		prev->on_rq = false;
}

void __schedule(bool preempt)
{
	struct rq *rq = this_rq();
	struct task_struct *prev = rq->curr, *next;
	u64 now;

	rcu_note_context_switch();
	raw_spin_lock(&rq->lock);
	update_curr(rq, ktime_get_ns());
	put_prev_task(rq, prev, preempt);
	if (!prev->on_rq)
		psi_task_sleep(prev, prev->state == TASK_DEAD);
	WRITE_ONCE(rq->need_resched, false);
	next = pick_next_task(rq);
	/* the platform may have idled in pick_next_task: idle time is nobody's CPU time */
	now = ktime_get_ns();
	next->last_ran_ns = now;
	next->slice_start_ns = now;
	psi_task_switch(prev, next); /* also when prev slept and was woken meanwhile */
	if (next == prev) {
		raw_spin_unlock(&rq->lock);
		return;
	}
	prev->nr_switches++;
	rq->nr_switches++;
	next->on_cpu = true;
	rq->curr = next;
	rq->prev = prev;
	__pcpu_hot_write(current_task, next);
	arch_switch_to(prev, next);
	/* back on prev's stack, maybe on another CPU: the queue is the one switched from */
	rq = this_rq();
	arch_finish_switch(prev, rq->prev);
	finish_task_switch(rq);
}

/* A new task's first steps on its own stack (before its function runs). */
void schedule_tail(void)
{
	struct rq *rq = this_rq();

	arch_finish_switch(current, rq->prev);
	finish_task_switch(rq);
}

void schedule(void)
{
	if (unlikely(!current))
		panic("schedule() before the scheduler is up");
	if (unlikely(in_atomic() || arch_irqs_disabled()))
		panic("scheduling while atomic: task %d (%s), preempt_count %#x, interrupts %s",
		      current->pid, current->comm, preempt_count(),
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
	if (need_resched() && preempt_count() == 0 && !arch_irqs_disabled() && current)
		preempt_schedule();
}

/* Outside any read-side section: a quiescent state too, as Linux's rcu_all_qs(). */
void cond_resched(void)
{
	unsigned long flags;

	if (in_atomic() || arch_irqs_disabled())
		return;
	if (need_resched()) {
		preempt_schedule();
		return;
	}
	flags = arch_local_irq_save();
	rcu_note_context_switch();
	arch_local_irq_restore(flags);
}

/*
 * Give way to every task queued on this CPU now; the caller stays runnable (as Linux's
 * yield()): it counts as having had as much CPU time as the last of them.
 */
void yield(void)
{
	unsigned long flags = arch_local_irq_save();
	struct rq *rq = this_rq();

	raw_spin_lock(&rq->lock);
	if (!list_empty(&rq->queue)) {
		u64 last = list_last_entry(&rq->queue, struct task_struct, run_list)->vruntime;

		if ((s64)(current->vruntime - last) < 0)
			current->vruntime = last;
	}
	raw_spin_unlock(&rq->lock);
	arch_local_irq_restore(flags);
	__set_current_state(TASK_RUNNING);
	schedule();
}

/* The tick of this CPU, interrupts off: slices, then now and then a look at the others. */
void scheduler_tick(void)
{
	struct rq *rq = this_rq();
	struct task_struct *curr = rq->curr;
	u64 now = ktime_get_ns();

	if (!curr)
		return;
	raw_spin_lock(&rq->lock);
	update_curr(rq, now);
	if (curr->flags & PF_IDLE) {
		if (rq->nr_queued)
			WRITE_ONCE(rq->need_resched, true);
	} else if (sched_slice_expired(rq, curr, now)) {
		WRITE_ONCE(rq->need_resched, true);
	}
	if (num_online_cpus() > 1 && now >= rq->next_balance_ns) {
		rq->next_balance_ns = now + SCHED_BALANCE_INTERVAL_NS;
		if (load_balance(rq, curr->flags & PF_IDLE) && (curr->flags & PF_IDLE))
			WRITE_ONCE(rq->need_resched, true);
	}
	raw_spin_unlock(&rq->lock);
}

/* ---------------------------------------------------------------- statistics (unlocked reads) */

unsigned int nr_running(void)
{
	unsigned int n = 0, cpu;

	for_each_online_cpu(cpu)
	{
		struct rq *rq = cpu_rq(cpu);
		struct task_struct *curr = READ_ONCE(rq->curr);

		n += READ_ONCE(rq->nr_queued) + (curr && !(curr->flags & PF_IDLE));
	}
	return n;
}

u64 nr_context_switches(void)
{
	u64 n = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu) n += READ_ONCE(cpu_rq(cpu)->nr_switches);
	return n;
}

/* What its idle task has run, the current stretch included (0 on the host: no idle task). */
u64 cpu_idle_time_ns(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *idle = rq->idle;
	unsigned long flags;
	u64 ns;

	if (!idle)
		return 0;
	spin_lock_irqsave(&rq->lock, flags);
	ns = idle->sum_exec_ns;
	if (rq->curr == idle)
		ns += ktime_get_ns() - idle->last_ran_ns;
	spin_unlock_irqrestore(&rq->lock, flags);
	return ns;
}

/* ---------------------------------------------------------------- wake-ups and kills */

/* Still on a queue: running, or queued; it only needs to be runnable again. */
static bool ttwu_runnable(struct task_struct *t)
{
	struct rq *rq = task_rq(t);
	bool on;

	raw_spin_lock(&rq->lock);
	while (rq != task_rq(t)) { /* pulled to another queue meanwhile */
		raw_spin_unlock(&rq->lock);
		rq = task_rq(t);
		raw_spin_lock(&rq->lock);
	}
	on = t->on_rq;
	if (on)
		t->state = TASK_RUNNING;
	raw_spin_unlock(&rq->lock);
	return on;
}

/*
 * Off every queue. If it is still leaving its CPU, wait for that, unless that CPU is this one
 * and the leaving is what runs this wake-up (the host's idle loop runs events on the stack of
 * the task it switches away from): then it is queued here and picked again at once.
 */
static void ttwu_activate(struct task_struct *t)
{
	bool here = t->on_cpu && task_cpu(t) == raw_smp_processor_id();
	unsigned int cpu;
	struct rq *rq;

	if (!here)
		while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
			cpu_relax();
	cpu = here ? task_cpu(t) : select_task_rq(t);
	set_task_cpu(t, cpu);
	rq = cpu_rq(cpu);
	raw_spin_lock(&rq->lock);
	t->state = TASK_RUNNING;
	t->on_rq = true;
	if (!(t->psi_flags & TSK_RUNNING))
		psi_task_wake(t); /* woken or new */
	place_woken(rq, t);
	enqueue_task(rq, t);
	if (wakeup_preempt(rq, t))
		resched_curr(rq);
	raw_spin_unlock(&rq->lock);
}

bool wake_up_state(struct task_struct *t, long state)
{
	unsigned long flags;
	bool woken = false;

	spin_lock_irqsave(&t->pi_lock, flags);
	if (READ_ONCE(t->state) & state) {
		if (!ttwu_runnable(t))
			ttwu_activate(t);
		woken = true;
	}
	spin_unlock_irqrestore(&t->pi_lock, flags);
	return woken;
}

bool wake_up_process(struct task_struct *t)
{
	return wake_up_state(t, TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE);
}

static bool (*send_sig_hook)(int sig, struct task_struct *t);

void send_sig_register(bool (*hook)(int sig, struct task_struct *t))
{
	send_sig_hook = hook;
}

void task_kill(int sig, struct task_struct *t)
{
	u8 old = READ_ONCE(t->kill_signal);

	/* the first signal tells, but SIGKILL overrides: a racing Ctrl-C cannot mask it */
	while ((sig == SIGKILL || !old) &&
	       !__atomic_compare_exchange_n(&t->kill_signal, &old, (u8)sig, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST))
		;
	signal_wake_up(t);
}

void signal_wake_up(struct task_struct *t)
{
	__atomic_store_n(&t->sigkill, true, __ATOMIC_SEQ_CST);
	wake_up_state(t, TASK_INTERRUPTIBLE);
}

void send_sig(int sig, struct task_struct *t)
{
	if (READ_ONCE(t->signal) && send_sig_hook && send_sig_hook(sig, t))
		return;
	task_kill(sig, t);
}

void send_sig_kill(struct task_struct *t)
{
	send_sig(SIGINT, t);
}
