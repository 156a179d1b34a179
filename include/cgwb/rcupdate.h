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

/* func(head) after a grace period; any context. */
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));
/* Sleep until every read-side section that had begun has ended. */
void synchronize_rcu(void);
/* Grace periods completed so far (tests). */
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
void rcu_sched_clock_irq(bool idle);

#endif
