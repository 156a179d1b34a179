/*
 * The lock validator (kernel/lockdep.c), Linux's lockdep in miniature, for spinlocks. A
 * class is every lock of one name (a static lock's, or what its initialisation says). It
 * learns the order in which classes are taken, one CPU's held locks at a time, and reports
 * once, as a WARNING in the log, a new order that closes a cycle with the known ones (a
 * possible deadlock between CPUs) and a class taken in an interrupt handler and, elsewhere,
 * with interrupts on (a possible deadlock on one CPU). Sleeping with a lock held is
 * schedule()'s check. Off unless turned on: lockdep on the command line (every system
 * test's boot has it) or lockdep_enable() (the host tests).
 */
#ifndef CGWB_LOCKDEP_H
#define CGWB_LOCKDEP_H

#include <cgwb/types.h>

struct spinlock;

/**
 * lockdep_enable() - turn the lock validator on (the host tests; the kernel's lockdep
 *                    argument)
 *
 * It stays on until its first report turns it off.
 *
 * Context: any context.
 */
void lockdep_enable(void);
/*
 * After a lock was taken / before it is released (kernel/spinlock.c), only once the
 * validator was ever on (lockdep_was_enabled, never cleared: a report turns it off, and
 * the locks held then are still released through the hook). Off, a lock costs no call.
 */
extern bool lockdep_was_enabled;
void lock_acquired_hook(struct spinlock *lock, bool trylock);
void lock_release_hook(struct spinlock *lock);
/* Reports so far (0 or 1: it stops at the first). */
unsigned int lockdep_reports(void);

#endif
