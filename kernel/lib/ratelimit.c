/*
 * Rate limiting, as Linux's lib/ratelimit.c: an interval begins at the first message after
 * the last one ended; within it, burst messages pass and the rest are counted. Contended
 * (another CPU deciding at the same instant), a message is dropped rather than waited for,
 * as Linux's: callers may be in interrupt context.
 */
#include <cgwb/ratelimit.h>
#include <cgwb/irqflags.h>

void ratelimit_state_init(struct ratelimit_state *rs, int interval, int burst)
{
	spin_lock_init(&rs->lock);
	rs->interval = interval;
	rs->burst = burst;
	rs->printed = rs->missed = 0;
	rs->begin = 0;
	rs->begun = false;
}

int ___ratelimit(struct ratelimit_state *rs, const char *func)
{
	unsigned long flags;
	int ret;

	if (!rs->interval)
		return 1;
	local_irq_save(flags);
	if (!spin_trylock(&rs->lock)) {
		local_irq_restore(flags);
		return 0;
	}
	if (!rs->begun) {
		rs->begun = true;
		rs->begin = jiffies;
	}
	if (time_after(jiffies, rs->begin + (unsigned long)rs->interval)) {
		if (rs->missed)
			printk(KERN_WARNING "%s: %d callbacks suppressed\n", func, rs->missed);
		rs->begin = jiffies;
		rs->printed = 0;
		rs->missed = 0;
	}
	if (rs->burst && rs->burst > rs->printed) {
		rs->printed++;
		ret = 1;
	} else {
		rs->missed++;
		ret = 0;
	}
	spin_unlock(&rs->lock);
	local_irq_restore(flags);
	return ret;
}

int ratelimit_missed(struct ratelimit_state *rs)
{
	return READ_ONCE(rs->missed);
}
