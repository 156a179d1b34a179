/*
 * Timers (portable): a list sorted by expiry. The platform calls run_timers() from its tick
 * (kernel) or when virtual time advances (host). Callbacks run with interrupts off and must
 * not sleep. A callback runs with the lock dropped, the timer off the list: each CPU
 * records the timer whose callback it runs, so that del_timer_sync() can wait for it (a
 * sleeper woken early by something else would otherwise return and free the stack its
 * timer lives on while another CPU's tick still runs the callback on it).
 */
#include <cgwb/timer.h>
#include <cgwb/spinlock.h>
#include <cgwb/bug.h>
#include <cgwb/percpu.h>
#include <cgwb/smp.h>

static LIST_HEAD(pending_timers);
static DEFINE_SPINLOCK(timer_lock);
static DEFINE_PER_CPU(struct timer_list *, running_timer); /* timer_lock */

void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *), unsigned int flags)
{
	(void)flags;
	INIT_LIST_HEAD(&timer->entry);
	timer->function = fn;
	timer->expires = 0;
	timer->pending = false;
}

static void enqueue_timer(struct timer_list *timer)
{
	struct timer_list *t;

	/* walk from the latest: most new timers are due after those already queued */
	list_for_each_entry_reverse(t, &pending_timers, entry) {
		if (!time_after(t->expires, timer->expires)) {
			list_add(&timer->entry, &t->entry);
			timer->pending = true;
			return;
		}
	}
	list_add(&timer->entry, &pending_timers);
	timer->pending = true;
}

bool mod_timer(struct timer_list *timer, unsigned long expires)
{
	unsigned long flags;
	bool was_pending;

	BUG_ON(!timer->function);
	spin_lock_irqsave(&timer_lock, flags);
	was_pending = timer->pending;
	if (was_pending)
		list_del_init(&timer->entry);
	timer->expires = expires;
	enqueue_timer(timer);
	spin_unlock_irqrestore(&timer_lock, flags);
	return was_pending;
}

void add_timer(struct timer_list *timer)
{
	BUG_ON(timer->pending);
	mod_timer(timer, timer->expires);
}

bool del_timer(struct timer_list *timer)
{
	unsigned long flags;
	bool was_pending;

	spin_lock_irqsave(&timer_lock, flags);
	was_pending = timer->pending;
	if (was_pending) {
		list_del_init(&timer->entry);
		timer->pending = false;
	}
	spin_unlock_irqrestore(&timer_lock, flags);
	return was_pending;
}

static bool timer_running(const struct timer_list *timer)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (per_cpu(running_timer, cpu) == timer)
			return true;
	return false;
}

bool del_timer_sync(struct timer_list *timer)
{
	unsigned long flags;
	bool was_pending = false;

	for (;;) {
		spin_lock_irqsave(&timer_lock, flags);
		if (timer->pending) {
			list_del_init(&timer->entry);
			timer->pending = false;
			was_pending = true;
		}
		if (!timer_running(timer))
			break;
		spin_unlock_irqrestore(&timer_lock, flags);
		cpu_relax();
	}
	spin_unlock_irqrestore(&timer_lock, flags);
	return was_pending;
}

void run_timers(unsigned long now)
{
	unsigned long flags;

	spin_lock_irqsave(&timer_lock, flags);
	while (!list_empty(&pending_timers)) {
		struct timer_list *t = list_first_entry(&pending_timers, struct timer_list, entry);
		if (time_after(t->expires, now))
			break;
		list_del_init(&t->entry);
		t->pending = false;
		*this_cpu_ptr(&running_timer) = t;
		/* the callback may re-arm this or other timers */
		spin_unlock_irqrestore(&timer_lock, flags);
		t->function(t);
		spin_lock_irqsave(&timer_lock, flags);
		*this_cpu_ptr(&running_timer) = NULL;
	}
	spin_unlock_irqrestore(&timer_lock, flags);
}

bool next_timer_expiry(unsigned long *expires)
{
	unsigned long flags;
	bool any;

	spin_lock_irqsave(&timer_lock, flags);
	any = !list_empty(&pending_timers);
	if (any)
		*expires = list_first_entry(&pending_timers, struct timer_list, entry)->expires;
	spin_unlock_irqrestore(&timer_lock, flags);
	return any;
}
