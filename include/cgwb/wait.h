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

/**
 * init_waitqueue_head() - set up a wait queue, empty
 * @wq: the wait queue
 *
 * Context: any context.
 */
void init_waitqueue_head(wait_queue_head_t *wq);
/**
 * init_wait_entry() - set up a wait entry for the current task
 * @wait: the entry, not on a queue
 * @flags: its flags (exclusive or not)
 *
 * Context: task context.
 */
void init_wait_entry(struct wait_queue_entry *wait, unsigned int flags);
/**
 * add_wait_queue() - put a wait entry on a queue
 * @wq: the wait queue
 * @wait: the entry; nothing is done if it is on a queue already
 *
 * Context: any context; takes @wq's irq-safe lock.
 */
void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wait);
/**
 * remove_wait_queue() - take a wait entry off its queue
 * @wq: the wait queue
 * @wait: the entry
 *
 * Context: any context; takes @wq's irq-safe lock.
 */
void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wait);
/**
 * prepare_to_wait() - queue the current task's wait entry and set its state, to sleep
 * @wq: the wait queue
 * @wait: the entry (non-exclusive: every wake-up wakes it)
 * @state: TASK_UNINTERRUPTIBLE, TASK_INTERRUPTIBLE...
 *
 * The caller then checks its condition and calls schedule(), and finish_wait() once the
 * condition holds.
 *
 * Context: task context; never sleeps itself.
 */
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait, long state);
void prepare_to_wait_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *wait, long state);
/**
 * finish_wait() - end a wait: the task runs, its entry leaves the queue
 * @wq: the wait queue
 * @wait: the entry prepare_to_wait() queued
 *
 * Context: task context.
 */
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait);

/**
 * __wake_up() - wake the waiters of a queue
 * @wq: the wait queue
 * @nr: how many exclusive waiters to wake, 0 for all; every non-exclusive one is woken
 *
 * Context: any context, interrupts included; takes @wq's irq-safe lock.
 */
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

#define __wait_event_idle(wq, condition, exclusive)                                      \
	do {                                                                             \
		if (condition)                                                           \
			break;                                                           \
		(void)___wait_event(wq, condition, TASK_IDLE, exclusive, 0, schedule()); \
	} while (0)
/* A service thread waiting for work: uninterruptible, but not a hung task (TASK_IDLE). */
#define wait_event_idle(wq, condition) __wait_event_idle(wq, condition, 0)
/*
 * The same, waiting exclusively: a wake_up() wakes one such waiter (idle workers of a
 * pool: one work wants one of them, as Linux wakes its pool's first idle worker).
 */
#define wait_event_idle_exclusive(wq, condition) __wait_event_idle(wq, condition, 1)

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
