/* Timed sleeps on top of timers and the scheduler (portable). */
#include <cgwb/sched.h>
#include <cgwb/timer.h>
#include <cgwb/bug.h>

struct process_timer {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	struct process_timer *pt = from_timer(pt, t, timer);
	wake_up_process(pt->task);
}

long schedule_timeout(long timeout)
{
	struct process_timer pt;
	unsigned long expire;
	long left;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (WARN_ON_ONCE(timeout < 0)) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + (unsigned long)timeout;
	pt.task = current;
	timer_setup(&pt.timer, process_timeout, 0);
	mod_timer(&pt.timer, expire);
	schedule();
	del_timer_sync(&pt.timer); /* pt is on this stack: no CPU may still run its callback */
	left = (long)(expire - jiffies);
	return left < 0 ? 0 : left;
}

long schedule_timeout_interruptible(long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

/*
 * Jiffies to sleep until the clock reaches deadline (ns), one more for the tick in
 * progress; 0 once it has. The clock, not jiffies, decides: jiffies only moves at a tick,
 * and a tick that comes late (under emulation) would otherwise end a sleep early.
 */
static long jiffies_until(u64 deadline)
{
	u64 now = ktime_get_ns();

	if (now >= deadline)
		return 0;
	return (long)msecs_to_jiffies((unsigned int)DIV_ROUND_UP(deadline - now, NSEC_PER_MSEC)) + 1;
}

void msleep(unsigned int ms)
{
	u64 deadline = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	long timeout;

	while ((timeout = jiffies_until(deadline)))
		schedule_timeout_uninterruptible(timeout);
}

unsigned long msleep_interruptible(unsigned int ms)
{
	u64 deadline = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	long timeout;

	while ((timeout = jiffies_until(deadline)) && !signal_pending(current))
		schedule_timeout_interruptible(timeout);
	return timeout ? jiffies_to_msecs((unsigned long)timeout) : 0;
}
