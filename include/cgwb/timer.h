/* Timers that call a function at a given jiffy, in interrupt context. */
#ifndef CGWB_TIMER_H
#define CGWB_TIMER_H

#include <cgwb/list.h>
#include <cgwb/jiffies.h>

struct timer_list {
	struct list_head entry; /* on the pending list, sorted by expires */
	unsigned long expires;
	void (*function)(struct timer_list *);
	bool pending;
};

#define from_timer(var, timer, field) container_of(timer, __typeof__(*var), field)

void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *), unsigned int flags);
void add_timer(struct timer_list *timer);
/* Re-arm for expires; returns true if the timer was pending. */
bool mod_timer(struct timer_list *timer, unsigned long expires);
/* Returns true if the timer was pending. Its callback may still be running on another CPU. */
bool del_timer(struct timer_list *timer);
/*
 * del_timer() that also waits for the timer's callback if a CPU is running it: after it the
 * timer's memory may go (an on-stack timer's sleeper returning). Not from the callback.
 */
bool del_timer_sync(struct timer_list *timer);
static inline bool timer_pending(const struct timer_list *timer)
{
	return timer->pending;
}

/* Platform side: run every timer whose time has come (called with the current jiffies). */
void run_timers(unsigned long now);
/* Earliest pending expiry, or false if nothing is pending (the host advances virtual time to it). */
bool next_timer_expiry(unsigned long *expires);

#endif
