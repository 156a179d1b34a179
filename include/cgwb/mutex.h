/* Sleeping locks: mutexes and reader/writer semaphores. */
#ifndef CGWB_MUTEX_H
#define CGWB_MUTEX_H

#include <cgwb/wait.h>

struct mutex {
	struct task_struct *owner;
	wait_queue_head_t wait;
	const char *name;
};

#define __MUTEX_INITIALIZER(n)                                                           \
	{                                                                                \
		.owner = NULL, .wait = __WAIT_QUEUE_HEAD_INITIALIZER(n.wait), .name = #n \
	}
#define DEFINE_MUTEX(n) struct mutex n = __MUTEX_INITIALIZER(n)

/**
 * mutex_init() - set up a mutex, unlocked
 * @lock: the mutex
 *
 * Context: any context; not while it may be held.
 */
void mutex_init(struct mutex *lock);
/**
 * mutex_lock() - take a mutex, sleeping while another task holds it
 * @lock: the mutex
 *
 * A free mutex is taken by one compare-and-exchange; a held one is spun on for a while
 * when there are other CPUs, then waited for (uninterruptibly, in a queue where an unlock
 * wakes the next waiter only). Taking it twice panics.
 *
 * Context: process context; may sleep; not holding a spinlock.
 */
void mutex_lock(struct mutex *lock);
int mutex_lock_killable(struct mutex *lock);
bool mutex_trylock(struct mutex *lock);
/* Lock and preemption off at once, for a section that never sleeps (see kernel/mutex.c). */
void mutex_lock_nopreempt(struct mutex *lock);
/**
 * mutex_unlock() - release a mutex
 * @lock: the mutex, held by the current task (another's unlock panics)
 *
 * Wakes the next waiter, if any.
 *
 * Context: process context, the task that took it; never sleeps.
 */
void mutex_unlock(struct mutex *lock);
/* The end of a mutex_lock_nopreempt() section. */
static inline void mutex_unlock_nopreempt(struct mutex *lock)
{
	mutex_unlock(lock);
	preempt_enable();
}
static inline bool mutex_is_locked(const struct mutex *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}
#define lockdep_assert_mutex_held(m) WARN_ON_ONCE((m)->owner != current)

/* Writers exclude everybody; readers share. Writers are preferred once waiting. */
struct rw_semaphore {
	int readers; /* > 0: that many readers; -1: a writer */
	int writers_waiting;
	struct task_struct *writer;
	wait_queue_head_t wait;
};

#define __RWSEM_INITIALIZER(n)                                    \
	{                                                         \
		0, 0, NULL, __WAIT_QUEUE_HEAD_INITIALIZER(n.wait) \
	}
#define DECLARE_RWSEM(n) struct rw_semaphore n = __RWSEM_INITIALIZER(n)

/**
 * init_rwsem() - set up a reader/writer semaphore, free
 * @sem: the semaphore
 *
 * Context: any context; not while it may be held.
 */
void init_rwsem(struct rw_semaphore *sem);
/**
 * down_read() - take a reader/writer semaphore for reading
 * @sem: the semaphore
 *
 * Waits while a writer holds it or waits for it (writers are preferred once waiting), so
 * a reader must not take it again while it holds it.
 *
 * Context: process context; may sleep.
 */
void down_read(struct rw_semaphore *sem);
/**
 * down_read_trylock() - take a reader/writer semaphore for reading if that needs no wait
 * @sem: the semaphore
 *
 * Context: any task context; never sleeps.
 * Return: true if it was taken; false if a writer holds it or waits for it.
 */
bool down_read_trylock(struct rw_semaphore *sem);
/**
 * up_read() - release a reader/writer semaphore taken for reading
 * @sem: the semaphore
 *
 * The last reader wakes the waiters.
 *
 * Context: any task context; never sleeps.
 */
void up_read(struct rw_semaphore *sem);
/**
 * down_write() - take a reader/writer semaphore for writing
 * @sem: the semaphore
 *
 * Waits until no reader or writer holds it; new readers wait behind a waiting writer.
 *
 * Context: process context; may sleep.
 */
void down_write(struct rw_semaphore *sem);
bool down_write_trylock(struct rw_semaphore *sem);
/**
 * up_write() - release a reader/writer semaphore taken for writing
 * @sem: the semaphore, held for writing by the current task
 *
 * Wakes every waiter.
 *
 * Context: task context, the task that took it; never sleeps.
 */
void up_write(struct rw_semaphore *sem);

#endif
