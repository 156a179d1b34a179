/*
 * The host's side of the scheduler (the core is kernel/sched-core.c): ucontext fibers for
 * switching, and an idle loop instead of an idle task. One CPU, no tick: a task runs until
 * it blocks, yields, or uses up a slice of virtual CPU time (vtime.c). When nothing is
 * runnable, the idle loop moves virtual time to the next event instead of halting; with no
 * event left either, every task waits for another and the run is a deadlock, reported with
 * the state of every task.
 */
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include "../../../kernel/sched-internal.h"
#include "host_internal.h"
#include <cgwb/seq_buf.h>
#include <cgwb/rcupdate.h>
#include <cgwb/vmstat.h>

static struct task_struct main_task;
static struct host_task main_host;
static struct task_struct *idle_waiter; /* in host_run_until_idle() */
static u64 nr_switches;

u64 host_nr_switches(void)
{
	return nr_switches;
}

static void report_task(struct task_struct *t, void *unused)
{
	printk(KERN_EMERG "host:   pid %-4d %-16s %s%s\n", t->pid, t->comm, task_state_name(t),
	       t == current ? " (current)" : "");
}

void host_report_tasks(void)
{
	for_each_task(report_task, NULL)
		;
}

static __noreturn void deadlock(void)
{
	printk(KERN_EMERG "host: deadlock at %llu ns: no task can run and no timer is pending\n",
	       ktime_get_ns());
	host_report_tasks();
	panic("deadlock: every task is blocked and no timer is pending");
}

/*
 * Every CPU is idle, interrupts off, no lock held: run the events due now, or let the
 * run-until-idle waiter in, or move virtual time to the next event (none: a deadlock).
 */
void host_idle_step(void)
{
	u64 when;
	bool pending = host_next_event(&when);

	if (pending && when <= ktime_get_ns()) {
		host_run_events();
	} else if (idle_waiter) {
		/* idle at this instant: the run-until-idle waiter's turn, before time moves */
		struct task_struct *t = idle_waiter;

		idle_waiter = NULL;
		wake_up_process(t);
	} else if (!pending) {
		deadlock();
	} else {
		host_clock_advance(when);
	}
}

/*
 * Interrupts off, rq's lock held. On one CPU the loop is the idle task: it runs events until
 * somebody is runnable, with the lock dropped, since the events wake tasks. Several virtual
 * CPUs have idle tasks instead (vcpu.c), as the kernel's.
 */
struct task_struct *pick_next_task(struct rq *rq)
{
	if (host_smp_on)
		return host_vcpu_pick(rq);
	for (;;) {
		struct task_struct *t = pick_next_fair(rq);

		if (t)
			return t;
		raw_spin_unlock(&rq->lock);
		quiet_vmstat();
		rcu_note_context_switch(); /* idle: a quiescent state */
		host_idle_step();
		raw_spin_lock(&rq->lock);
	}
}

/* A virtual CPU looks at its need_resched when it next runs (vcpu.c): nothing to send. */
void arch_send_reschedule(unsigned int cpu)
{
	BUG_ON(cpu >= nr_cpu_ids);
}

void arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
	nr_switches++;
	host_fiber_switch(prev, next, prev->state == TASK_DEAD);
}

void arch_finish_switch(struct task_struct *self, struct task_struct *from)
{
	(void)from; /* the fiber layer knows it, also after a change of virtual CPU */
	host_fiber_finish(self);
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

/* The calling thread becomes "main" (pid 1, like init: there is no idle task). */
void host_sched_init(void)
{
	main_task = (struct task_struct){ 0 };
	host_fiber_init_main(&main_host);
	main_task.platform = &main_host;
	sched_init_rq(0);
	sched_init_boot_task(&main_task, 1, "main", 0);
}

static void free_stack(struct task_struct *t, void *unused)
{
	if (t != &main_task)
		arch_task_free(t);
}

/*
 * Drop every task's stack; the task structs themselves live in the arena, and nothing runs
 * again (the platform is never brought up twice in one process).
 */
void host_sched_exit(void)
{
	host_smp_on = false; /* the other virtual CPUs' tasks are dropped too */
	for_each_task(free_stack, NULL)
		;
	__pcpu_hot_write(current_task, NULL);
	idle_waiter = NULL;
}

/* The simulator's one CPU. */
void arch_show_cpuinfo(struct seq_buf *s, unsigned int cpu)
{
	seq_printf(s, "vendor_id\t: cgwb\nmodel name\t: host simulator, virtual time\n");
}

/* The simulator has no TLB. */
unsigned long arch_tlb_local_flushes(void)
{
	return 0;
}

/* The host has no NMI to ask for the report of every task: the hooks are only kept. */
static struct show_state_hook *show_state_hooks;

void register_show_state_hook(struct show_state_hook *hook)
{
	hook->next = show_state_hooks;
	show_state_hooks = hook;
}
