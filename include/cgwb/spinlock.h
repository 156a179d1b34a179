/*
 * Spinlocks: ticket locks, fair between CPUs (each waiter takes the next ticket and spins
 * until the owner's number reaches it). Holding one disables preemption; the _irq and
 * _irqsave forms also keep this CPU's interrupt handlers out, for data an interrupt handler
 * shares. The lock remembers which CPU holds it: taking it again on the same CPU (which
 * would spin for ever) panics with the lock's name, and lockdep_assert_held() asks whether
 * this CPU is the holder.
 *
 * raw_spin_lock() leaves preemption alone: for the scheduler's own locks, taken where
 * preemption cannot happen (interrupts off) and handed from one task to the next across a
 * switch.
 */
#ifndef CGWB_SPINLOCK_H
#define CGWB_SPINLOCK_H

#include <cgwb/irqflags.h>

typedef struct spinlock {
	u16 owner; /* the ticket being served */
	u16 next;  /* the next ticket to hand out */
	s16 owner_cpu;
	s16 class_id;     /* the lock validator's class (kernel/lockdep.c); 0: not looked up */
	const char *name; /* and its key: locks of one name are one class */
} spinlock_t;

/*
 * The lock functions live in their own section, as Linux's: a profile tick that lands in
 * one (an unlock turning interrupts back on takes the ticks that came while they were off)
 * is counted at its caller (profile_pc()).
 */
#define __lockfunc __attribute__((section(".spinlock.text")))

#define __SPIN_LOCK_UNLOCKED(n)                                                   \
	{                                                                         \
		.owner = 0, .next = 0, .owner_cpu = -1, .class_id = 0, .name = #n \
	}
#define DEFINE_SPINLOCK(n) spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

static inline void __spin_lock_init(spinlock_t *lock, const char *name)
{
	lock->owner = lock->next = 0;
	lock->owner_cpu = -1;
	lock->class_id = 0;
	lock->name = name;
}
/* Named after the expression, as Linux keys a class by its initialisation. */
#define spin_lock_init(lock) __spin_lock_init((lock), #lock)

void raw_spin_lock(spinlock_t *lock);
void raw_spin_unlock(spinlock_t *lock);
/**
 * spin_lock() - take a spinlock, preemption off
 * @lock: the lock
 *
 * A ticket lock: waiters are served in order. Taking it twice on one CPU panics with its
 * name. A lock also taken from interrupt handlers needs spin_lock_irqsave().
 *
 * Context: any context; spins, never sleeps; nothing that sleeps until spin_unlock().
 */
void spin_lock(spinlock_t *lock);
/**
 * spin_unlock() - release a spinlock taken with spin_lock() or spin_trylock()
 * @lock: the lock
 *
 * Preemption is back on (a pending reschedule happens here).
 *
 * Context: the CPU that holds it.
 */
void spin_unlock(spinlock_t *lock);
/**
 * spin_trylock() - take a spinlock if it is free
 * @lock: the lock
 *
 * Context: any context; never spins.
 * Return: true if it was taken (preemption is then off until spin_unlock()).
 */
bool spin_trylock(spinlock_t *lock);
void spin_lock_irq(spinlock_t *lock);
void spin_unlock_irq(spinlock_t *lock);
/**
 * _spin_lock_irqsave() - take a spinlock with this CPU's interrupts off
 * @lock: the lock
 *
 * What spin_lock_irqsave() expands to. Interrupts off protect nothing from other CPUs:
 * the lock does.
 *
 * Context: any context, interrupts included; spins, never sleeps.
 * Return: the interrupt state to give spin_unlock_irqrestore().
 */
unsigned long _spin_lock_irqsave(spinlock_t *lock);
/**
 * spin_unlock_irqrestore() - release a spinlock, restoring the interrupt state
 * @lock: the lock, taken with spin_lock_irqsave()
 * @flags: the state spin_lock_irqsave() saved
 *
 * Context: the CPU that holds it.
 */
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
#define spin_lock_irqsave(lock, flags)              \
	do {                                        \
		(flags) = _spin_lock_irqsave(lock); \
	} while (0)

static inline bool spin_is_locked(const spinlock_t *lock)
{
	return READ_ONCE(lock->owner) != READ_ONCE(lock->next);
}

/* Held by this CPU (only this CPU can make that true or false, so the answer is stable). */
static inline bool spin_is_held(const spinlock_t *lock)
{
	return spin_is_locked(lock) && READ_ONCE(lock->owner_cpu) == (s16)raw_smp_processor_id();
}

#define lockdep_assert_held(lock) WARN_ON_ONCE(!spin_is_held(lock))

#endif
