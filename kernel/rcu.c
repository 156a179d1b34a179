/*
 * RCU grace periods (include/cgwb/rcupdate.h), portable: the kernel's CPUs report through
 * their switches and ticks, the host's one CPU through its switches and its idle loop.
 *
 * One grace period at a time. call_rcu() adds to the next batch and starts a period if none
 * runs; a period takes the batch, and needs a quiescent state from each CPU online at its
 * start (qs_pending). The CPU whose report empties qs_pending ends it: it starts the next
 * period if callbacks wait, then runs the finished batch with no lock held. A CPU reports
 * only at a quiescent point (rcu_note_context_switch() before the scheduler takes its run
 * queue lock; the tick when the interrupted code had preemption on, or the CPU idled), so
 * a reader that began before the period still runs on a CPU whose bit is set.
 */
#include <cgwb/rcupdate.h>
#include <cgwb/spinlock.h>
#include <cgwb/completion.h>
#include <cgwb/smp.h>
#include <cgwb/bug.h>

static DEFINE_SPINLOCK(rcu_lock);
static struct rcu_head *next_batch, **next_tail = &next_batch; /* waiting for a period */
static struct rcu_head *gp_batch;                              /* the running period's */
static bool gp_running;
static cpumask_t qs_pending;
static unsigned long gp_completed;
cpumask_t rcu_parked_cpus;

unsigned long rcu_gp_completed(void)
{
	return READ_ONCE(gp_completed);
}

/* rcu_lock held. */
static void rcu_start_gp(void)
{
	if (gp_running || !next_batch)
		return;
	gp_batch = next_batch;
	next_batch = NULL;
	next_tail = &next_batch;
	gp_running = true;
	qs_pending = READ_ONCE(cpu_online_mask) | READ_ONCE(rcu_parked_cpus);
	smp_mb(); /* the period begins before any CPU's report can count for it */
}

static void rcu_invoke(struct rcu_head *list)
{
	while (list) {
		struct rcu_head *next = list->next;

		list->func(list);
		list = next;
	}
}

/* This CPU is at a quiescent point. Interrupts off. */
static void rcu_report_qs(void)
{
	unsigned long bit = 1UL << raw_smp_processor_id();
	struct rcu_head *done = NULL;

	if (!(READ_ONCE(qs_pending) & bit))
		return;
	raw_spin_lock(&rcu_lock);
	if (gp_running && (qs_pending & bit)) {
		qs_pending &= ~bit;
		if (!qs_pending) {
			done = gp_batch;
			gp_batch = NULL;
			gp_running = false;
			WRITE_ONCE(gp_completed, gp_completed + 1);
			rcu_start_gp();
		}
	}
	raw_spin_unlock(&rcu_lock);
	rcu_invoke(done);
}

bool rcu_needs_cpu_qs(unsigned int cpu)
{
	return READ_ONCE(qs_pending) & (1UL << cpu);
}

void rcu_note_context_switch(void)
{
	rcu_report_qs();
}

void rcu_sched_clock_irq(bool idle)
{
	/* in the tick's interrupt: the interrupted code held no read-side section if its count was 0 */
	if (idle || preempt_count() == HARDIRQ_OFFSET)
		rcu_report_qs();
}

void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	unsigned long flags;

	head->func = func;
	head->next = NULL;
	spin_lock_irqsave(&rcu_lock, flags);
	*next_tail = head;
	next_tail = &head->next;
	rcu_start_gp();
	spin_unlock_irqrestore(&rcu_lock, flags);
}

struct rcu_synchronize {
	struct rcu_head head;
	struct completion done;
};

static void wakeme_after_rcu(struct rcu_head *head)
{
	complete(&container_of(head, struct rcu_synchronize, head)->done);
}

void synchronize_rcu(void)
{
	struct rcu_synchronize rs;

	BUG_ON(in_atomic());
	init_completion(&rs.done);
	call_rcu(&rs.head, wakeme_after_rcu);
	wait_for_completion(&rs.done);
}
