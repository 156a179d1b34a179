/*
 * Rate limiting of log messages, as Linux's <linux/ratelimit.h>: at most burst messages
 * per interval (jiffies) pass; the next interval begins with one line counting those
 * suppressed ("func: N callbacks suppressed"). Any context.
 */
#ifndef CGWB_RATELIMIT_H
#define CGWB_RATELIMIT_H

#include <cgwb/spinlock.h>
#include <cgwb/jiffies.h>
#include <cgwb/printk.h>

#define DEFAULT_RATELIMIT_INTERVAL (5 * HZ)
#define DEFAULT_RATELIMIT_BURST 10

struct ratelimit_state {
	spinlock_t lock;
	int interval, burst;
	int printed, missed;
	unsigned long begin; /* jiffies at the start of the interval, once begun */
	bool begun;
};

#define RATELIMIT_STATE_INIT(name, interval_init, burst_init)                         \
	{                                                                             \
		.lock = __SPIN_LOCK_UNLOCKED(name.lock), .interval = (interval_init), \
		.burst = (burst_init),                                                \
	}
#define DEFINE_RATELIMIT_STATE(name, interval_init, burst_init) \
	struct ratelimit_state name = RATELIMIT_STATE_INIT(name, interval_init, burst_init)

/**
 * ratelimit_state_init() - set up a rate limit
 * @rs: the state
 * @interval: the interval in jiffies; 0 lets everything through
 * @burst: how many messages may pass per interval
 *
 * Context: any context; not while it may be in use.
 */
void ratelimit_state_init(struct ratelimit_state *rs, int interval, int burst);
/**
 * ___ratelimit() - may a message go out now?
 * @rs: the state
 * @func: the caller's name, in the line counting those suppressed
 *
 * The first call of a new interval logs how many were suppressed in the last one. A call
 * that finds the state busy on another CPU is suppressed without being counted.
 *
 * Context: any context; never sleeps.
 * Return: nonzero if it may, 0 if it is suppressed.
 */
int ___ratelimit(struct ratelimit_state *rs, const char *func);
#define __ratelimit(state) ___ratelimit(state, __func__)
/* Messages suppressed so far and not yet reported (tests, and callers that count them). */
int ratelimit_missed(struct ratelimit_state *rs);

#define printk_ratelimited(fmt, ...)                                           \
	({                                                                     \
		static DEFINE_RATELIMIT_STATE(_rs, DEFAULT_RATELIMIT_INTERVAL, \
					      DEFAULT_RATELIMIT_BURST);        \
		__ratelimit(&_rs) ? printk(fmt, ##__VA_ARGS__) : 0;            \
	})
#define pr_err_ratelimited(fmt, ...) printk_ratelimited(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...) printk_ratelimited(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_ratelimited(fmt, ...) printk_ratelimited(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)

#endif
