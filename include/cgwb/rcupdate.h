/*
 * RCU, Linux's non-preemptible flavour: a read-side section is a section with preemption off,
 * so a CPU that switches tasks, idles, or takes its tick outside any such section has passed
 * a quiescent state. A grace period ends once every online CPU has passed one after it began;
 * callbacks queued before it began then run (in the context that ended it, interrupts off:
 * they must not sleep). synchronize_rcu() waits for one; queue_rcu_work()
 * (<cgwb/workqueue.h>) queues a work item after one.
 */
#ifndef CGWB_RCUPDATE_H
#define CGWB_RCUPDATE_H

#include <cgwb/irqflags.h>
#include <cgwb/smp.h>

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

static inline void rcu_read_lock(void)
{
	preempt_disable();
}
static inline void rcu_read_unlock(void)
{
	preempt_enable();
}
#define rcu_dereference(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

/**
 * call_rcu() - call a function once a grace period has passed
 * @head: the rcu_head, in the object @func frees
 * @func: called with @head once every read-side section that had begun has ended; it
 *        runs with interrupts off, from a context switch or the tick, and must not sleep
 *
 * Context: any context; never sleeps.
 */
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));
/**
 * synchronize_rcu() - wait until every read-side section that had begun has ended
 *
 * Context: process context, not atomic (BUG otherwise); sleeps.
 */
void synchronize_rcu(void);
/**
 * rcu_gp_completed() - how many grace periods have completed (tests)
 *
 * Context: any context.
 * Return: the count.
 */
unsigned long rcu_gp_completed(void);
/* Does the running grace period still wait for cpu's quiescent state? (unlocked read) */
bool rcu_needs_cpu_qs(unsigned int cpu);

/*
 * CPUs a grace period waits for besides the online ones: none in the kernel; on the host
 * platform, virtual CPUs a test parks inside a read-side section (host_rcu_cpu_online()).
 */
extern cpumask_t rcu_parked_cpus;

/* The scheduler's reports, interrupts off, no lock held: a switch, and the tick. */
void rcu_note_context_switch(void);
/**
 * rcu_sched_clock_irq() - the tick's report to RCU
 * @idle: the tick interrupted the idle loop
 *
 * The CPU has passed a quiescent state if it was idle or the interrupted code held no
 * read-side section; the grace period ends when every CPU it waits for has.
 *
 * Context: the tick, interrupts off, no lock held.
 */
void rcu_sched_clock_irq(bool idle);

#endif
