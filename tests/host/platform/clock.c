/*
 * Virtual time. The clock is a counter that only the platform moves: to the next event when
 * every task is blocked (sched.c), or by the CPU time a task says it spends (vtime.c).
 * Two kinds of events wake things up: the portable kernel timers (kernel/timer.c, jiffy
 * resolution) and host timers (nanosecond resolution, for simulated devices). Both fire in
 * interrupt context, in a fixed order, so a run is a pure function of its inputs.
 */
#include <cgwb/jiffies.h>
#include <cgwb/timer.h>
#include <cgwb/irqflags.h>
#include <cgwb/bug.h>
#include "host_internal.h"

#define NSEC_PER_JIFFY (NSEC_PER_SEC / HZ)
/* 2024-01-01 00:00:00 UTC: a fixed wall clock, so file times do not vary between runs */
#define HOST_EPOCH_SECONDS 1704067200ULL

/*
 * A task waiting for what never comes, while some periodic timer keeps firing, would move
 * virtual time forever instead of deadlocking: stop it at a generous limit.
 */
#define DEFAULT_TIME_LIMIT_NS (3600 * NSEC_PER_SEC)

volatile unsigned long jiffies;
static u64 clock_ns;
static u64 time_limit_ns = DEFAULT_TIME_LIMIT_NS;
static LIST_HEAD(host_timers); /* pending, in firing order (see timer_before) */
static u64 host_timer_seq;

u64 ktime_get_ns(void)
{
	return READ_ONCE(clock_ns);
}

u64 ktime_get_real_seconds(void)
{
	return HOST_EPOCH_SECONDS + ktime_get_ns() / NSEC_PER_SEC;
}

u64 ktime_get_real_ns(void)
{
	return HOST_EPOCH_SECONDS * NSEC_PER_SEC + ktime_get_ns();
}

u64 host_now_ns(void)
{
	return ktime_get_ns();
}

static void clock_set(u64 ns)
{
	if (ns < clock_ns)
		panic("host: the clock cannot go back (%llu -> %llu ns)", clock_ns, ns);
	if (time_limit_ns && ns > time_limit_ns)
		panic("host: virtual time limit of %llu s reached: is a task waiting for something "
		      "that never happens? (host_set_time_limit)",
		      time_limit_ns / NSEC_PER_SEC);
	clock_ns = ns;
	jiffies = (unsigned long)(ns / NSEC_PER_JIFFY);
}

void host_set_time_limit(u64 ns)
{
	time_limit_ns = ns;
}

void host_clock_reset(void)
{
	clock_ns = 0;
	time_limit_ns = DEFAULT_TIME_LIMIT_NS;
	jiffies = 0;
	INIT_LIST_HEAD(&host_timers);
	host_timer_seq = 0;
}

void host_timer_init(struct host_timer *timer, void (*fn)(struct host_timer *), unsigned int flags)
{
	INIT_LIST_HEAD(&timer->node);
	timer->expires_ns = 0;
	timer->seq = 0;
	timer->flags = flags;
	timer->pending = false;
	timer->function = fn;
}

/* Does a fire before b? LATE timers come after all others of the same instant. */
static bool timer_before(const struct host_timer *a, const struct host_timer *b)
{
	bool a_late = a->flags & HOST_TIMER_LATE, b_late = b->flags & HOST_TIMER_LATE;

	if (a->expires_ns != b->expires_ns)
		return a->expires_ns < b->expires_ns;
	if (a_late != b_late)
		return !a_late;
	return a->seq < b->seq;
}

void host_timer_start(struct host_timer *timer, u64 expires_ns)
{
	struct host_timer *t;
	unsigned long flags = arch_local_irq_save();

	BUG_ON(!timer->function);
	if (timer->pending)
		list_del_init(&timer->node);
	timer->expires_ns = expires_ns;
	timer->seq = ++host_timer_seq;
	timer->pending = true;
	/* from the latest: a new timer is usually due after the ones already queued */
	list_for_each_entry_reverse(t, &host_timers, node) {
		if (!timer_before(timer, t)) {
			list_add(&timer->node, &t->node);
			arch_local_irq_restore(flags);
			return;
		}
	}
	list_add(&timer->node, &host_timers);
	arch_local_irq_restore(flags);
}

bool host_timer_cancel(struct host_timer *timer)
{
	unsigned long flags = arch_local_irq_save();
	bool was_pending = timer->pending;

	if (was_pending) {
		list_del_init(&timer->node);
		timer->pending = false;
	}
	arch_local_irq_restore(flags);
	return was_pending;
}

static bool kernel_timer_due(void)
{
	unsigned long expires;

	return next_timer_expiry(&expires) && !time_after(expires, jiffies);
}

bool host_next_event(u64 *when_ns)
{
	unsigned long expires;
	bool any = false;
	u64 best = 0;

	if (next_timer_expiry(&expires)) {
		best = time_after(expires, jiffies) ? (u64)expires * NSEC_PER_JIFFY : clock_ns;
		any = true;
	}
	if (!list_empty(&host_timers)) {
		u64 t = list_first_entry(&host_timers, struct host_timer, node)->expires_ns;
		if (t < clock_ns)
			t = clock_ns;
		if (!any || t < best)
			best = t;
		any = true;
	}
	if (any)
		*when_ns = best;
	return any;
}

/* Callbacks may arm more events for this same instant: loop until none is due. */
static void fire_due(void)
{
	for (;;) {
		struct host_timer *t;

		if (kernel_timer_due()) {
			run_timers(jiffies);
			continue;
		}
		t = list_first_entry_or_null(&host_timers, struct host_timer, node);
		if (!t || t->expires_ns > clock_ns)
			break;
		list_del_init(&t->node);
		t->pending = false;
		t->function(t);
	}
}

void host_run_events(void)
{
	unsigned long saved = host_irq_enter();

	fire_due();
	host_irq_exit(saved);
}

void host_clock_advance(u64 when_ns)
{
	u64 next;

	while (host_next_event(&next) && next <= when_ns) {
		clock_set(next);
		host_run_events();
	}
	if (when_ns > clock_ns)
		clock_set(when_ns);
}

void host_clock_skip(u64 when_ns)
{
	u64 next;

	if (host_next_event(&next) && next <= when_ns)
		host_irq_set_pending();
	clock_set(when_ns);
}
