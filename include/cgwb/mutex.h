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

void mutex_init(struct mutex *lock);
void mutex_lock(struct mutex *lock);
int mutex_lock_killable(struct mutex *lock);
bool mutex_trylock(struct mutex *lock);
/* Lock and preemption off at once, for a section that never sleeps (see kernel/mutex.c). */
void mutex_lock_nopreempt(struct mutex *lock);
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

void init_rwsem(struct rw_semaphore *sem);
void down_read(struct rw_semaphore *sem);
bool down_read_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
bool down_write_trylock(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);

#endif
