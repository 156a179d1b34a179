/* Time: HZ = 1000 ticks per second, a monotonic nanosecond clock and the wall clock. */
#ifndef CGWB_JIFFIES_H
#define CGWB_JIFFIES_H

#include <cgwb/compiler.h>

#define HZ 1000
#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL
#define USEC_PER_SEC 1000000ULL
#define MSEC_PER_SEC 1000UL
#define MAX_JIFFY_OFFSET ((long)(~0UL >> 2))

/* Ticks since boot. 64 bits, so it never wraps; the helpers below are kept for Linux's idiom. */
extern volatile unsigned long jiffies;

#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
#define time_in_range(a, b, c) (time_after_eq(a, b) && time_before_eq(a, c))

static inline unsigned long msecs_to_jiffies(unsigned long ms)
{
	return ms * HZ / MSEC_PER_SEC;
}

static inline unsigned long jiffies_to_msecs(unsigned long j)
{
	return j * MSEC_PER_SEC / HZ;
}

static inline unsigned long nsecs_to_jiffies(u64 ns)
{
	return ns / (NSEC_PER_SEC / HZ);
}

/**
 * ktime_get_ns() - nanoseconds since boot (monotonic, from the TSC)
 *
 * Context: any context.
 * Return: the time; 0 before the clock is calibrated.
 */
u64 ktime_get_ns(void);
/**
 * ktime_get_real_seconds() - seconds since the Unix epoch
 *
 * The RTC at boot plus the monotonic clock: it never steps.
 *
 * Context: any context.
 * Return: the time.
 */
u64 ktime_get_real_seconds(void);
/**
 * ktime_get_real_ns() - nanoseconds since the Unix epoch, on the same clock
 *
 * Context: any context.
 * Return: the time.
 */
u64 ktime_get_real_ns(void);

#endif
