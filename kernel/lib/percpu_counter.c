/* Per-CPU counters (portable): see include/cgwb/percpu_counter.h. */
#include <cgwb/percpu_counter.h>
#include <cgwb/slab.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>
#include <cgwb/compiler.h>

s32 percpu_counter_batch = 32;

void percpu_counter_compute_batch(void)
{
	WRITE_ONCE(percpu_counter_batch, max(32, 2 * (s32)num_online_cpus()));
}

static s32 *percpu_counter_part(const struct percpu_counter *fbc, unsigned int cpu)
{
	return fbc->counters + (size_t)cpu * PERCPU_COUNTER_STRIDE;
}

int percpu_counter_init_many(struct percpu_counter *fbc, s64 amount, gfp_t gfp, unsigned int nr)
{
	s32 *parts;
	unsigned int i;

	BUG_ON(nr == 0 || nr > PERCPU_COUNTER_STRIDE);
	parts = kzalloc(sizeof(s32) * PERCPU_COUNTER_STRIDE * NR_CPUS, gfp);
	if (!parts)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		spin_lock_init(&fbc[i].lock);
		fbc[i].lock.name = "percpu_counter->lock";
		fbc[i].count = amount;
		fbc[i].counters = parts + i;
	}
	return 0;
}

void percpu_counter_destroy_many(struct percpu_counter *fbc, unsigned int nr)
{
	unsigned int i;

	if (!fbc[0].counters)
		return;
	kfree(fbc[0].counters);
	for (i = 0; i < nr; i++)
		fbc[i].counters = NULL;
}

/*
 * Preemption off, interrupts on (as Linux 6.1's): the part is changed only by atomic adds
 * (one instruction on x86, which an interrupt cannot split) and exchanges, so an IO
 * completion adding from an interrupt handler between our read and our add loses
 * nothing. Preemption must be off between the read and the add: a task moved to another
 * CPU there would add to a part whose size it did not check, two tasks could each take
 * one part to batch - 1, and the parts would no longer be bounded by the batch, which
 * the readers' error bound (wb_stat_error()) counts on. Toggling interrupts twice per
 * update, several updates per page written, was a visible share of the CPU under TCG;
 * the preemption count is one per-CPU add.
 */
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s32 *part;
	s64 count;
	unsigned long flags;

	preempt_disable();
	part = percpu_counter_part(fbc, raw_smp_processor_id());
	count = (s64)READ_ONCE(*part) + amount;
	if (count < batch && count > -batch) {
		__atomic_add_fetch(part, (s32)amount, __ATOMIC_RELAXED);
	} else {
		spin_lock_irqsave(&fbc->lock, flags);
		fbc->count += (s64)__atomic_exchange_n(part, 0, __ATOMIC_RELAXED) + amount;
		spin_unlock_irqrestore(&fbc->lock, flags);
	}
	preempt_enable();
}

/*
 * Exact at the instant the lock is held: a CPU folding its part takes the lock, one that
 * only adds to its part is either seen before or after its add, never half.
 */
s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	unsigned long flags;
	unsigned int cpu;
	s64 ret;

	spin_lock_irqsave(&fbc->lock, flags);
	ret = fbc->count;
	for_each_possible_cpu(cpu) ret += READ_ONCE(*percpu_counter_part(fbc, cpu));
	spin_unlock_irqrestore(&fbc->lock, flags);
	return ret;
}

int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch)
{
	s64 count = percpu_counter_read(fbc);

	/* further apart than the parts can make up: the read decides */
	if (count - rhs > (s64)batch * nr_cpu_ids || rhs - count > (s64)batch * nr_cpu_ids)
		return count > rhs ? 1 : -1;
	count = percpu_counter_sum(fbc);
	if (count > rhs)
		return 1;
	return count < rhs ? -1 : 0;
}
