/* Completions (portable). */
#include <cgwb/completion.h>

void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

void reinit_completion(struct completion *x)
{
	x->done = 0;
}

/*
 * The waiters are woken under the lock, as Linux's: a waiter sees done only under it, and
 * once it has, may return and free the completion (often on its stack: synchronize_rcu()'s).
 * Woken after the unlock, they were woken through memory another CPU had reused by then.
 */
void complete(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != ~0u)
		x->done++;
	__wake_up_locked(&x->wait, 0);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	x->done = ~0u;
	__wake_up_locked(&x->wait, 0);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

/* Consume one completion if available. */
static bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool ok = false;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done) {
		if (x->done != ~0u)
			x->done--;
		ok = true;
	}
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return ok;
}

void wait_for_completion(struct completion *x)
{
	wait_event(x->wait, try_wait_for_completion(x));
}

int wait_for_completion_killable(struct completion *x)
{
	return wait_event_killable(x->wait, try_wait_for_completion(x));
}

long wait_for_completion_timeout(struct completion *x, long timeout)
{
	return wait_event_timeout(x->wait, try_wait_for_completion(x), timeout);
}

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) != 0;
}
