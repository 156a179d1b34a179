/* Wait queues and the wait_event family. */
#ifndef CGWB_WAIT_H
#define CGWB_WAIT_H

#include <cgwb/sched.h>
#include <cgwb/errno.h>

#define WQ_FLAG_EXCLUSIVE 0x01

struct wait_queue_entry {
	unsigned int flags;
	struct task_struct *task;
	struct list_head entry;
};

typedef struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
} wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)                                                \
	{                                                                                  \
		.lock = __SPIN_LOCK_UNLOCKED(name.lock), .head = LIST_HEAD_INIT(name.head) \
	}
#define DECLARE_WAIT_QUEUE_HEAD(name) wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)
#define DEFINE_WAIT(name)                                 \
	struct wait_queue_entry name = { .flags = 0,      \
					 .task = current, \
					 .entry = LIST_HEAD_INIT(name.entry) }

void init_waitqueue_head(wait_queue_head_t *wq);
void init_wait_entry(struct wait_queue_entry *wait, unsigned int flags);
void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wait);
void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wait);
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait, long state);
void prepare_to_wait_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *wait, long state);
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait);

/* Wake every non-exclusive waiter and up to nr exclusive ones (0 = all). */
void __wake_up(wait_queue_head_t *wq, int nr);
/* The same, wq->lock held by the caller. */
void __wake_up_locked(wait_queue_head_t *wq, int nr);
#define wake_up(wq) __wake_up(wq, 1)
#define wake_up_all(wq) __wake_up(wq, 0)
#define wake_up_nr(wq, nr) __wake_up(wq, nr)

static inline bool waitqueue_active(wait_queue_head_t *wq)
{
	return !list_empty(&wq->head);
}

#define ___wait_event(wq, condition, state, exclusive, ret, cmd)                          \
	({                                                                                \
		long __ret = ret;                                                         \
		struct wait_queue_entry __wq_entry;                                       \
		init_wait_entry(&__wq_entry, exclusive ? WQ_FLAG_EXCLUSIVE : 0);          \
		for (;;) {                                                                \
			prepare_to_wait(&(wq), &__wq_entry, state);                       \
			if (condition)                                                    \
				break;                                                    \
			if ((state) != TASK_UNINTERRUPTIBLE && signal_pending(current)) { \
				__ret = -EINTR;                                           \
				break;                                                    \
			}                                                                 \
			cmd;                                                              \
		}                                                                         \
		finish_wait(&(wq), &__wq_entry);                                          \
		__ret;                                                                    \
	})

#define wait_event(wq, condition)                                                           \
	do {                                                                                \
		if (condition)                                                              \
			break;                                                              \
		(void)___wait_event(wq, condition, TASK_UNINTERRUPTIBLE, 0, 0, schedule()); \
	} while (0)

/* A service thread waiting for work: uninterruptible, but not a hung task (TASK_IDLE). */
#define wait_event_idle(wq, condition)                                           \
	do {                                                                     \
		if (condition)                                                   \
			break;                                                   \
		(void)___wait_event(wq, condition, TASK_IDLE, 0, 0, schedule()); \
	} while (0)

#define wait_event_interruptible(wq, condition)                                                   \
	({                                                                                        \
		long __r = 0;                                                                     \
		if (!(condition))                                                                 \
			__r = ___wait_event(wq, condition, TASK_INTERRUPTIBLE, 0, 0, schedule()); \
		(int)__r;                                                                         \
	})

#define wait_event_killable wait_event_interruptible

#define ___wait_event_timeout(wq, condition, state, timeout)                              \
	({                                                                                \
		long __t = (timeout);                                                     \
		struct wait_queue_entry __we;                                             \
		init_wait_entry(&__we, 0);                                                \
		for (;;) {                                                                \
			prepare_to_wait(&(wq), &__we, state);                             \
			if (condition) {                                                  \
				if (!__t)                                                 \
					__t = 1;                                          \
				break;                                                    \
			}                                                                 \
			if (!__t)                                                         \
				break;                                                    \
			if ((state) != TASK_UNINTERRUPTIBLE && signal_pending(current)) { \
				__t = -EINTR;                                             \
				break;                                                    \
			}                                                                 \
			__t = schedule_timeout(__t);                                      \
		}                                                                         \
		finish_wait(&(wq), &__we);                                                \
		__t;                                                                      \
	})

/* Returns 0 on timeout, else the jiffies left (at least 1). */
#define wait_event_timeout(wq, condition, timeout) \
	___wait_event_timeout(wq, condition, TASK_UNINTERRUPTIBLE, timeout)

/* Returns 0 on timeout, -EINTR if killed, else the jiffies left (at least 1). */
#define wait_event_interruptible_timeout(wq, condition, timeout) \
	___wait_event_timeout(wq, condition, TASK_INTERRUPTIBLE, timeout)

#endif
