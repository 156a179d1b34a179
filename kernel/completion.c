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

void complete(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != ~0u)
		x->done++;
	spin_unlock_irqrestore(&x->wait.lock, flags);
	wake_up_all(&x->wait);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	x->done = ~0u;
	spin_unlock_irqrestore(&x->wait.lock, flags);
	wake_up_all(&x->wait);
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
