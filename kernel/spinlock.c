/* Ticket spinlocks (see include/cgwb/spinlock.h): portable, also used by host tests. */
#include <cgwb/spinlock.h>
#include <cgwb/bug.h>
#include <cgwb/lockdep.h>

static const char *lock_name(const spinlock_t *lock)
{
	return lock->name ? lock->name : "?";
}

/*
 * On one CPU (the host simulator, or the kernel before the others start) a lock that is
 * taken can only be held by this CPU: spinning would never end.
 */
__lockfunc void raw_spin_lock(spinlock_t *lock)
{
	u16 ticket;

	if (unlikely(spin_is_held(lock)))
		panic("spinlock %s: recursive lock (would deadlock)", lock_name(lock));
	ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
	WRITE_ONCE(lock->owner_cpu, (s16)raw_smp_processor_id());
	if (unlikely(READ_ONCE(lockdep_was_enabled)))
		lock_acquired_hook(lock, false);
}

__lockfunc void raw_spin_unlock(spinlock_t *lock)
{
	if (unlikely(!spin_is_locked(lock)))
		panic("spinlock %s: unlock of an unlocked lock", lock_name(lock));
	if (unlikely(READ_ONCE(lockdep_was_enabled)))
		lock_release_hook(lock);
	WRITE_ONCE(lock->owner_cpu, -1);
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1), __ATOMIC_RELEASE);
	/* a CPU may be held up right after a release, with nothing else done (host: may switch) */
	host_preempt_point(false);
}

__lockfunc void spin_lock(spinlock_t *lock)
{
	preempt_disable();
	raw_spin_lock(lock);
}

__lockfunc bool spin_trylock(spinlock_t *lock)
{
	u16 owner;

	preempt_disable();
	owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	/* the lock is free when the next ticket is the one being served: take it then */
	if (__atomic_compare_exchange_n(&lock->next, &owner, (u16)(owner + 1), false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		WRITE_ONCE(lock->owner_cpu, (s16)raw_smp_processor_id());
		if (unlikely(READ_ONCE(lockdep_was_enabled)))
			lock_acquired_hook(lock, true);
		return true;
	}
	preempt_enable_no_resched();
	return false;
}

__lockfunc void spin_unlock(spinlock_t *lock)
{
	raw_spin_unlock(lock);
	preempt_enable();
}

__lockfunc void spin_lock_irq(spinlock_t *lock)
{
	local_irq_disable();
	preempt_disable();
	raw_spin_lock(lock);
}

__lockfunc void spin_unlock_irq(spinlock_t *lock)
{
	raw_spin_unlock(lock);
	preempt_enable_no_resched();
	local_irq_enable();
	preempt_check_resched();
}

__lockfunc unsigned long _spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags;

	local_irq_save(flags);
	preempt_disable();
	raw_spin_lock(lock);
	return flags;
}

__lockfunc void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	raw_spin_unlock(lock);
	preempt_enable_no_resched();
	local_irq_restore(flags);
	preempt_check_resched();
}
