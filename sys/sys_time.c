/*
 * Time system calls (Linux's kernel/time/): clock_gettime and clock_getres, gettimeofday,
 * time, nanosleep and clock_nanosleep. The CPU-time clocks give the task's run time, the
 * real-time ones the wall clock, the others the monotonic clock. Sleeps end early, with
 * -EINTR, when a kill comes.
 */
#include <cgwb/sched.h>
#include <cgwb/jiffies.h>
#include <cgwb/errno.h>
#include "internal.h"

#define CLOCK_REALTIME 0
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MAX 12
#define NSEC_PER_SEC_U 1000000000ULL

static u64 clock_ns(u64 clk)
{
	if (clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_COARSE)
		return ktime_get_real_ns();
	if (clk == CLOCK_PROCESS_CPUTIME_ID || clk == CLOCK_THREAD_CPUTIME_ID)
		return current->sum_exec_ns;
	return ktime_get_ns(); /* the monotonic, raw, coarse and boot-time clocks */
}

static long put_timespec(u64 uts, u64 ns)
{
	struct timespec_user ts = { (s64)(ns / NSEC_PER_SEC_U), (s64)(ns % NSEC_PER_SEC_U) };

	return copy_to_user(uts, &ts, sizeof(ts));
}

static long sys_clock_gettime(u64 clk, u64 uts, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return clk >= CLOCK_MAX ? -EINVAL : put_timespec(uts, clock_ns(clk));
}

static long sys_clock_getres(u64 clk, u64 uts, u64 a2, u64 a3, u64 a4, u64 a5)
{
	if (clk >= CLOCK_MAX)
		return -EINVAL;
	return uts ? put_timespec(uts, 1) : 0;
}

static long sys_gettimeofday(u64 utv, u64 utz, u64 a2, u64 a3, u64 a4, u64 a5)
{
	u64 ns = ktime_get_real_ns();
	s64 tv[2] = { (s64)(ns / NSEC_PER_SEC_U), (s64)(ns % NSEC_PER_SEC_U / 1000) };

	return utv ? copy_to_user(utv, tv, sizeof(tv)) : 0;
}

static long sys_time(u64 ut, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	s64 now = (s64)ktime_get_real_seconds();

	if (ut && copy_to_user(ut, &now, sizeof(now)))
		return -EFAULT;
	return now;
}

/* Interruptible: a kill ends it with -EINTR. */
static long sleep_ns(u64 ns)
{
	u64 end = ktime_get_ns() + ns, now;

	while ((now = ktime_get_ns()) < end) {
		schedule_timeout_interruptible((long)max(1ULL, (end - now) / (NSEC_PER_SEC_U / HZ)));
		if (signal_pending(current))
			return -EINTR;
	}
	return 0;
}

long get_timespec_ns(u64 uts, u64 *ns)
{
	struct timespec_user ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (s64)NSEC_PER_SEC_U)
		return -EINVAL;
	*ns = (u64)ts.tv_sec * NSEC_PER_SEC_U + (u64)ts.tv_nsec;
	return 0;
}

static long sys_nanosleep(u64 req, u64 rem, u64 a2, u64 a3, u64 a4, u64 a5)
{
	u64 ns;
	long err = get_timespec_ns(req, &ns);

	return err ? err : sleep_ns(ns);
}

#define TIMER_ABSTIME 1

static long sys_clock_nanosleep(u64 clk, u64 flags, u64 req, u64 rem, u64 a4, u64 a5)
{
	u64 ns, now = clock_ns(clk);
	long err = clk >= CLOCK_MAX ? -EINVAL : get_timespec_ns(req, &ns);

	if (err)
		return err;
	if (flags & TIMER_ABSTIME)
		ns = ns > now ? ns - now : 0;
	return sleep_ns(ns);
}

static const struct syscall_def calls[] = {
	{ 35, "nanosleep", sys_nanosleep },
	{ 96, "gettimeofday", sys_gettimeofday },
	{ 201, "time", sys_time },
	{ 228, "clock_gettime", sys_clock_gettime },
	{ 229, "clock_getres", sys_clock_getres },
	{ 230, "clock_nanosleep", sys_clock_nanosleep },
};

const struct syscall_table sys_time_calls = { calls, ARRAY_SIZE(calls) };
