/*
 * Several CPUs: which queue a task is on, where a waking task goes, and moving queued tasks
 * from a busy CPU to an idle or less busy one (Linux's select_task_rq_fair() and
 * load_balance(), reduced to counting runnable tasks).
 *
 * A task's CPU changes only with its pi_lock held (a wake-up placing it) or with both queues'
 * locks held (a queued task pulled by balancing), so either lock, with the task's queue
 * re-checked after taking it, pins it (task_rq_lock()). A running task is never pulled: it
 * moves when it next wakes up, or through set_cpus_allowed() at its next switch.
 */
#include <cgwb/bug.h>
#include <cgwb/errno.h>
#include "sched-internal.h"

struct rq *task_rq_lock(struct task_struct *t, unsigned long *flags)
{
	struct rq *rq;

	spin_lock_irqsave(&t->pi_lock, *flags);
	for (;;) {
		rq = task_rq(t);
		raw_spin_lock(&rq->lock);
		if (rq == task_rq(t))
			return rq;
		raw_spin_unlock(&rq->lock);
	}
}

void task_rq_unlock(struct rq *rq, struct task_struct *t, unsigned long flags)
{
	raw_spin_unlock(&rq->lock);
	spin_unlock_irqrestore(&t->pi_lock, flags);
}

void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a == b) {
		raw_spin_lock(&a->lock);
		return;
	}
	if (a->cpu > b->cpu)
		swap(a, b);
	raw_spin_lock(&a->lock);
	raw_spin_lock(&b->lock);
}

void double_rq_unlock(struct rq *a, struct rq *b)
{
	raw_spin_unlock(&a->lock);
	if (a != b)
		raw_spin_unlock(&b->lock);
}

void set_task_cpu(struct task_struct *t, unsigned int cpu)
{
	struct rq *src = task_rq(t), *dst = cpu_rq(cpu);

	if (src == dst)
		return;
	/* keep its place relative to the queues' least-served */
	t->vruntime = t->vruntime - READ_ONCE(src->min_vruntime) + READ_ONCE(dst->min_vruntime);
	WRITE_ONCE(t->cpu, cpu);
}

static unsigned int rq_load(const struct rq *rq)
{
	const struct task_struct *curr = READ_ONCE(rq->curr);

	return READ_ONCE(rq->nr_queued) + (curr && !(curr->flags & PF_IDLE));
}

/*
 * Its last CPU if that one is idle (its cache is warm there), else the least loaded CPU it
 * may use; ties go to the last CPU, then the lower number.
 */
unsigned int select_task_rq(struct task_struct *t)
{
	unsigned long allowed = t->cpus_mask & READ_ONCE(cpu_online_mask);
	unsigned int prev = task_cpu(t), best = prev, cpu;
	unsigned int best_load = ~0u;

	if (!allowed)
		return 0; /* its CPUs went away: the boot CPU is always there */
	if (cpumask_test_cpu(prev, allowed)) {
		best_load = rq_load(cpu_rq(prev));
		if (best_load == 0)
			return prev;
	}
	for_each_cpu(cpu, allowed)
	{
		unsigned int load = rq_load(cpu_rq(cpu));

		if (load < best_load) {
			best = cpu;
			best_load = load;
		}
	}
	return best;
}

static bool can_migrate(const struct task_struct *t, unsigned int cpu)
{
	return !t->on_cpu && cpumask_test_cpu(cpu, t->cpus_mask);
}

/*
 * The busiest other queue, if it has at least two more runnable tasks (or any, when idle),
 * and how many to take from it: half the difference, so that one pass evens two queues out
 * (at least one for an idle CPU), as Linux's imbalance, at most SCHED_NR_MIGRATE.
 */
static struct rq *find_busiest(struct rq *this, bool idle, unsigned int *nr_move)
{
	unsigned int this_load = rq_load(this), best_load = 0, cpu;
	struct rq *busiest = NULL;

	for_each_online_cpu(cpu)
	{
		struct rq *rq = cpu_rq(cpu);
		unsigned int load = rq_load(rq);

		if (rq == this || !READ_ONCE(rq->nr_queued) || load <= best_load)
			continue;
		busiest = rq;
		best_load = load;
	}
	if (!busiest || (!idle && best_load < this_load + 2))
		return NULL;
	*nr_move = best_load > this_load ? (best_load - this_load) / 2 : 0;
	*nr_move = clamp(*nr_move, 1u, (unsigned int)SCHED_NR_MIGRATE);
	return busiest;
}

/* The queued task of src that may run here and has had least CPU time; both locks held. */
static struct task_struct *pick_migratable(struct rq *src, unsigned int cpu)
{
	struct task_struct *t;

	list_for_each_entry(t, &src->queue, run_list)
		if (can_migrate(t, cpu))
			return t;
	return NULL;
}

bool load_balance(struct rq *rq, bool idle)
{
	unsigned int nr_move, moved = 0;
	struct rq *busiest = find_busiest(rq, idle, &nr_move);
	struct task_struct *t;

	if (!busiest)
		return false;
	raw_spin_unlock(&rq->lock);
	double_rq_lock(rq, busiest);
	/* the loads were read unlocked: stop early if busiest has run out of movable tasks */
	while (moved < nr_move && (t = pick_migratable(busiest, rq->cpu))) {
		dequeue_task(busiest, t);
		set_task_cpu(t, rq->cpu);
		enqueue_task(rq, t);
		moved++;
	}
	raw_spin_unlock(&busiest->lock);
	return moved;
}

int set_cpus_allowed(struct task_struct *t, unsigned long mask)
{
	unsigned long flags;
	struct rq *rq;

	if (!(mask & READ_ONCE(cpu_online_mask)))
		return -EINVAL;
	rq = task_rq_lock(t, &flags);
	t->cpus_mask = mask;
	if (!cpumask_test_cpu(task_cpu(t), mask)) {
		if (!list_empty(&t->run_list)) {
			/* queued elsewhere: dequeue; it is placed again as if woken */
			dequeue_task(rq, t);
			t->on_rq = false;
			raw_spin_unlock(&rq->lock);
			set_task_cpu(t, select_task_rq(t));
			rq = task_rq(t);
			raw_spin_lock(&rq->lock);
			t->on_rq = true;
			enqueue_task(rq, t);
			if (wakeup_preempt(rq, t))
				resched_curr(rq);
		}
		/* running: it moves when it next wakes up */
	}
	task_rq_unlock(rq, t, flags);
	return 0;
}
