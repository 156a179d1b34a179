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

/**
 * timer_setup() - set up a timer, not armed
 * @timer: the timer
 * @fn: its callback, run from the tick (interrupt context) once the timer expires
 * @flags: unused (Linux's TIMER_* flags)
 *
 * Context: any context; not while the timer may be armed.
 */
void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *), unsigned int flags);
void add_timer(struct timer_list *timer);
/**
 * mod_timer() - arm a timer, or move its expiry
 * @timer: the timer, set up
 * @expires: when it fires, in jiffies
 *
 * Context: any context, its own callback included; never sleeps.
 * Return: true if the timer was pending.
 */
bool mod_timer(struct timer_list *timer, unsigned long expires);
/**
 * del_timer() - disarm a timer
 * @timer: the timer
 *
 * Its callback may still be running on another CPU (del_timer_sync() waits for it).
 *
 * Context: any context; never sleeps.
 * Return: true if the timer was pending.
 */
bool del_timer(struct timer_list *timer);
/**
 * del_timer_sync() - disarm a timer and wait for its callback if a CPU is running it
 * @timer: the timer
 *
 * After it the timer's memory may go (an on-stack timer's sleeper returning). The wait
 * spins.
 *
 * Context: any context but the timer's own callback, and not holding a lock the callback
 * takes.
 * Return: true if the timer was pending.
 */
bool del_timer_sync(struct timer_list *timer);
static inline bool timer_pending(const struct timer_list *timer)
{
	return timer->pending;
}

/**
 * run_timers() - run every timer whose time has come (platform side)
 * @now: the current jiffies
 *
 * Each expired timer is disarmed, then its callback runs without the timer lock; it may
 * re-arm this or other timers.
 *
 * Context: the tick, interrupt context.
 */
void run_timers(unsigned long now);
/* Earliest pending expiry, or false if nothing is pending (the host advances virtual time to it). */
bool next_timer_expiry(unsigned long *expires);

#endif
