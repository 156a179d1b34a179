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
	del_timer(&pt.timer);
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

void msleep(unsigned int ms)
{
	long timeout = (long)msecs_to_jiffies(ms) + 1;

	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
}

unsigned long msleep_interruptible(unsigned int ms)
{
	long timeout = (long)msecs_to_jiffies(ms) + 1;

	while (timeout && !signal_pending(current))
		timeout = schedule_timeout_interruptible(timeout);
	return jiffies_to_msecs((unsigned long)timeout);
}
