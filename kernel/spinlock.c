/* Uniprocessor spinlocks (see include/cgwb/spinlock.h): portable, also used by host tests. */
#include <cgwb/spinlock.h>
#include <cgwb/bug.h>

static void lock_acquired(spinlock_t *lock)
{
	if (unlikely(lock->locked))
		panic("spinlock %s: recursive lock (would deadlock)", lock->name ? lock->name : "?");
	lock->locked = 1;
}

static void lock_released(spinlock_t *lock)
{
	if (unlikely(!lock->locked))
		panic("spinlock %s: unlock of an unlocked lock", lock->name ? lock->name : "?");
	lock->locked = 0;
}

void spin_lock(spinlock_t *lock)
{
	preempt_disable();
	lock_acquired(lock);
}

bool spin_trylock(spinlock_t *lock)
{
	preempt_disable();
	if (lock->locked) {
		preempt_enable_no_resched();
		return false;
	}
	lock->locked = 1;
	return true;
}

void spin_unlock(spinlock_t *lock)
{
	lock_released(lock);
	preempt_enable();
}

void spin_lock_irq(spinlock_t *lock)
{
	local_irq_disable();
	preempt_disable();
	lock_acquired(lock);
}

void spin_unlock_irq(spinlock_t *lock)
{
	lock_released(lock);
	preempt_enable_no_resched();
	local_irq_enable();
	preempt_check_resched();
}

unsigned long _spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags;

	local_irq_save(flags);
	preempt_disable();
	lock_acquired(lock);
	return flags;
}

void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	lock_released(lock);
	preempt_enable_no_resched();
	local_irq_restore(flags);
	preempt_check_resched();
}
