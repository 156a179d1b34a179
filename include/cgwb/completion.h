/* Completions: one-shot events that tasks wait for. */
#ifndef CGWB_COMPLETION_H
#define CGWB_COMPLETION_H

#include <cgwb/wait.h>

struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};

#define COMPLETION_INITIALIZER(work)                          \
	{                                                     \
		0, __WAIT_QUEUE_HEAD_INITIALIZER((work).wait) \
	}
#define DECLARE_COMPLETION(work) struct completion work = COMPLETION_INITIALIZER(work)

/**
 * init_completion() - set up a completion, not done
 * @x: the completion
 *
 * Context: any context.
 */
void init_completion(struct completion *x);
void reinit_completion(struct completion *x);
/**
 * complete() - signal a completion once
 * @x: the completion
 *
 * One more waiter may return. The waiters are woken under the completion's lock, as
 * Linux's: a waiter that returns may free it at once (it often lives on its stack).
 *
 * Context: any context, interrupts included; never sleeps.
 */
void complete(struct completion *x);
void complete_all(struct completion *x);
/**
 * wait_for_completion() - wait until a completion is signalled, and consume one signal
 * @x: the completion
 *
 * Uninterruptible.
 *
 * Context: process context; sleeps.
 */
void wait_for_completion(struct completion *x);
int wait_for_completion_killable(struct completion *x);
/**
 * wait_for_completion_timeout() - wait_for_completion(), for at most a time
 * @x: the completion
 * @timeout: jiffies
 *
 * Uninterruptible.
 *
 * Context: process context; sleeps.
 * Return: 0 on timeout, else the jiffies left (at least 1).
 */
long wait_for_completion_timeout(struct completion *x, long timeout);
bool completion_done(struct completion *x);

#endif
