/*
 * How tasks move virtual time: by sleeping until an instant (the clock jumps there once
 * everybody else is blocked) or by spending CPU time (the clock moves while they run).
 */
#include <cgwb/sched.h>
#include <cgwb/irqflags.h>
#include <cgwb/bug.h>
#include "../../../kernel/sched-internal.h"
#include "host_internal.h"

struct sleeper {
	struct host_timer timer;
	struct task_struct *task;
};

static void sleeper_wake(struct host_timer *timer)
{
	struct sleeper *s = container_of(timer, struct sleeper, timer);

	wake_up_process(s->task);
}

void host_advance_to(u64 when_ns)
{
	struct sleeper s = { .task = current };
	bool slept = false;

	host_check_initialized(__func__);
	/* LATE: tasks woken by the other events of that instant get the CPU before us */
	host_timer_init(&s.timer, sleeper_wake, HOST_TIMER_LATE);
	while (host_now_ns() < when_ns) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		host_timer_start(&s.timer, when_ns);
		schedule();
		host_timer_cancel(&s.timer);
		slept = true;
	}
	/* the fair run queue may have put us first: give way to those woken at that instant */
	if (slept)
		yield();
}

void host_run_for(u64 ns)
{
	host_advance_to(host_now_ns() + ns);
}

void host_run_until_idle(void)
{
	host_check_initialized(__func__);
	host_wait_idle();
}

/* Advance the clock: events fire on the way as interrupts, or wait for interrupts to be on. */
static void spend(u64 ns)
{
	u64 until = host_now_ns() + ns;

	if (arch_irqs_disabled())
		host_clock_skip(until);
	else
		host_clock_advance(until);
}

/*
 * Spend the CPU time in pieces that end at slice boundaries; at each boundary the kernel's
 * tick would ask for a reschedule if anybody else is runnable. When preemption is not
 * possible now (preempt_count, interrupts off) the request stays pending, as in the kernel,
 * and the rest of the time is spent at once.
 */
void host_consume_ns(u64 ns)
{
	host_check_initialized(__func__);
	if (in_interrupt())
		panic("host_consume_ns() in interrupt context");
	while (ns) {
		u64 now = host_now_ns();
		u64 slice_end = current->slice_start_ns + sched_slice_ns(this_rq());

		if (now >= slice_end) {
			if (!sched_slice_expired(this_rq(), current, now))
				continue; /* nobody waiting: a fresh slice */
			set_need_resched();
			preempt_check_resched();
			if (need_resched()) {
				spend(ns);
				return;
			}
			continue; /* we were preempted and got a fresh slice back */
		}
		u64 step = min(ns, slice_end - now);
		spend(step);
		ns -= step;
	}
	/* the last piece may have ended the slice: the tick would preempt right here */
	if (sched_slice_expired(this_rq(), current, host_now_ns())) {
		set_need_resched();
		preempt_check_resched();
	}
}
