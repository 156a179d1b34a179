/*
 * Interval timers (Linux's kernel/time/itimer.c): ITIMER_REAL, a process's timer on the
 * wall of jiffies that sends it SIGALRM at each expiry, and alarm(), its one-shot form.
 * A forked child starts without one; execve keeps it. ITIMER_VIRTUAL and ITIMER_PROF
 * (CPU-time timers) are -EINVAL: no per-process CPU time is counted.
 */
#include <cgwb/sched.h>
#include <cgwb/errno.h>
#include <cgwb/jiffies.h>
#include "internal.h"
#include "signal.h"

#define ITIMER_REAL 0

struct timeval_user {
	s64 tv_sec, tv_usec;
};

struct itimerval_user {
	struct timeval_user it_interval, it_value;
};

static void it_real_fn(struct timer_list *timer)
{
	struct sighand_struct *sh = from_timer(sh, timer, real_timer);
	struct kernel_siginfo info = { .signo = SIGALRM, .code = SI_KERNEL, .trapno = -1 };
	unsigned long flags;

	spin_lock_irqsave(&siglock, flags);
	sighand_signal(sh, SIGALRM, &info);
	if (sh->it_real_incr && !list_empty(&sh->threads))
		mod_timer(&sh->real_timer, jiffies + sh->it_real_incr);
	spin_unlock_irqrestore(&siglock, flags);
}

/* A time as jiffies, rounded up so that it never fires early (a set one: at least one). */
static int timeval_to_jiffies(const struct timeval_user *tv, unsigned long *j)
{
	if (tv->tv_sec < 0 || tv->tv_usec < 0 || tv->tv_usec >= (s64)USEC_PER_SEC ||
	    tv->tv_sec > (s64)(~0UL / 2 / HZ))
		return -EINVAL;
	*j = (unsigned long)tv->tv_sec * HZ +
	     (unsigned long)(((u64)tv->tv_usec * HZ + USEC_PER_SEC - 1) / USEC_PER_SEC);
	return 0;
}

static struct timeval_user jiffies_to_timeval(unsigned long j)
{
	return (struct timeval_user){ (s64)(j / HZ), (s64)((j % HZ) * (USEC_PER_SEC / HZ)) };
}

/* With siglock: what is left of the timer and its interval. */
static void get_real(struct sighand_struct *sh, struct itimerval_user *v)
{
	unsigned long left = 0;

	if (timer_pending(&sh->real_timer) && time_after(sh->real_timer.expires, jiffies))
		left = sh->real_timer.expires - jiffies;
	else if (timer_pending(&sh->real_timer))
		left = 1; /* due: not yet sent */
	v->it_value = jiffies_to_timeval(left);
	v->it_interval = jiffies_to_timeval(sh->it_real_incr);
}

static long do_setitimer(const struct itimerval_user *v, struct itimerval_user *old)
{
	struct sighand_struct *sh = current->signal->sighand;
	unsigned long value, incr, flags;
	long err = timeval_to_jiffies(&v->it_value, &value);

	if (!err)
		err = timeval_to_jiffies(&v->it_interval, &incr);
	if (err)
		return err;
	spin_lock_irqsave(&siglock, flags);
	if (!sh->real_timer.function)
		timer_setup(&sh->real_timer, it_real_fn, 0);
	if (old)
		get_real(sh, old);
	sh->it_real_incr = incr;
	if (value)
		mod_timer(&sh->real_timer, jiffies + value);
	else
		del_timer(&sh->real_timer);
	spin_unlock_irqrestore(&siglock, flags);
	return 0;
}

static long sys_setitimer(u64 which, u64 unew, u64 uold, u64 a3, u64 a4, u64 a5)
{
	struct itimerval_user v = { 0 }, old;
	long err;

	if (which != ITIMER_REAL)
		return -EINVAL;
	if (unew && copy_from_user(&v, unew, sizeof(v)))
		return -EFAULT;
	err = do_setitimer(&v, &old);
	if (!err && uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

static long sys_getitimer(u64 which, u64 ucur, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct itimerval_user v;
	unsigned long flags;

	if (which != ITIMER_REAL)
		return -EINVAL;
	spin_lock_irqsave(&siglock, flags);
	get_real(current->signal->sighand, &v);
	spin_unlock_irqrestore(&siglock, flags);
	return copy_to_user(ucur, &v, sizeof(v)) ? -EFAULT : 0;
}

/* The seconds left of the previous alarm, rounded as Linux's (a part left counts as one). */
static long sys_alarm(u64 seconds, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct itimerval_user v = { .it_value = { (s64)(unsigned int)seconds, 0 } }, old;

	if (do_setitimer(&v, &old))
		return 0;
	if ((!old.it_value.tv_sec && old.it_value.tv_usec) || old.it_value.tv_usec >= 500000)
		old.it_value.tv_sec++;
	return (long)old.it_value.tv_sec;
}

static const struct syscall_def calls[] = {
	{ 36, "getitimer", sys_getitimer },
	{ 37, "alarm", sys_alarm },
	{ 38, "setitimer", sys_setitimer },
};

const struct syscall_table sys_itimer_calls = { calls, ARRAY_SIZE(calls) };
