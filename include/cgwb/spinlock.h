/*
 * Spinlocks. On a uniprocessor a spinlock only has to keep the holder from being preempted
 * (and, for the _irq variants, interrupted); the "locked" flag catches recursion and unlock
 * imbalance, which on one CPU would otherwise go unnoticed.
 */
#ifndef CGWB_SPINLOCK_H
#define CGWB_SPINLOCK_H

#include <cgwb/irqflags.h>

typedef struct spinlock {
	int locked;
	const char *name;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(n)         \
	{                               \
		.locked = 0, .name = #n \
	}
#define DEFINE_SPINLOCK(n) spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->locked = 0;
	lock->name = "spinlock";
}

void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
bool spin_trylock(spinlock_t *lock);
void spin_lock_irq(spinlock_t *lock);
void spin_unlock_irq(spinlock_t *lock);
unsigned long _spin_lock_irqsave(spinlock_t *lock);
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
#define spin_lock_irqsave(lock, flags)              \
	do {                                        \
		(flags) = _spin_lock_irqsave(lock); \
	} while (0)

static inline bool spin_is_locked(const spinlock_t *lock)
{
	return READ_ONCE(lock->locked) != 0;
}

#define lockdep_assert_held(lock) WARN_ON_ONCE(!spin_is_locked(lock))

#endif
