/*
 * timerfd (Linux's fs/timerfd.c): a file that becomes readable when its timer expires,
 * and reads the number of expirations since the last read as a u64. CLOCK_MONOTONIC and
 * CLOCK_REALTIME (both kept on the monotonic clock: a real-time timer is armed for its
 * distance from now), TFD_TIMER_ABSTIME, intervals, TFD_NONBLOCK. Expirations are counted
 * from the clock when asked, not by a kernel timer: a blocking read sleeps until the next,
 * a poller until the expiry it was told of, or until timerfd_settime() wakes it (rearmed).
 */
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/spinlock.h>
#include <cgwb/wait.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"

#define TFD_TIMER_ABSTIME 1
#define TFD_NONBLOCK O_NONBLOCK
#define TFD_CLOEXEC 02000000
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1

struct timerfd {
	spinlock_t lock;
	wait_queue_head_t rearmed; /* pollers: settime changed the expiry they sleep until */
	u64 next_ns;               /* the next expiration (monotonic); 0: disarmed */
	u64 interval_ns;           /* 0: one shot */
};

/* Expirations due by now, the timer moved past them. Lock held. */
static u64 timerfd_collect(struct timerfd *t, u64 now)
{
	u64 n;

	if (!t->next_ns || now < t->next_ns)
		return 0;
	if (!t->interval_ns) {
		t->next_ns = 0;
		return 1;
	}
	n = (now - t->next_ns) / t->interval_ns + 1;
	t->next_ns += n * t->interval_ns;
	return n;
}

static ssize_t timerfd_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	struct timerfd *t = file->private_data;

	if (len < sizeof(u64))
		return -EINVAL;
	for (;;) {
		u64 now = ktime_get_ns(), n, next;

		spin_lock(&t->lock);
		n = timerfd_collect(t, now);
		next = t->next_ns;
		spin_unlock(&t->lock);
		if (n) {
			memcpy(buf, &n, sizeof(n));
			return sizeof(n);
		}
		if ((file->f_flags & O_NONBLOCK) || !next)
			return -EAGAIN; /* Linux's blocking read of a disarmed timer waits for ever */
		schedule_timeout_interruptible((long)max(1ULL, (next - now) / (NSEC_PER_SEC / HZ)));
		if (signal_pending(current))
			return -EINTR;
	}
}

/* No kernel timer: the poller sleeps until the expiry itself (poll_wait_until()). */
static unsigned int timerfd_poll(struct file *file, struct poll_table *pt)
{
	struct timerfd *t = file->private_data;
	u64 next = READ_ONCE(t->next_ns);

	poll_wait(file, &t->rearmed, pt);
	if (next && ktime_get_ns() >= next)
		return POLLIN;
	poll_wait_until(pt, next);
	return 0;
}

static int timerfd_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static const struct file_operations timerfd_fops = {
	.read = timerfd_read,
	.poll = timerfd_poll,
	.release = timerfd_release,
};

static long sys_timerfd_create(u64 clockid, u64 flags, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct timerfd *t;
	struct file *f;
	long fd;

	if ((clockid != CLOCK_MONOTONIC && clockid != CLOCK_REALTIME) ||
	    (flags & ~(u64)(TFD_NONBLOCK | TFD_CLOEXEC)))
		return -EINVAL;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	spin_lock_init(&t->lock);
	init_waitqueue_head(&t->rearmed);
	f = alloc_file(&timerfd_fops, O_RDONLY | (unsigned int)(flags & TFD_NONBLOCK), t);
	if (!f) {
		kfree(t);
		return -ENOMEM;
	}
	fd = fd_install(f, 0);
	if (fd < 0)
		fput(f);
	return fd;
}

struct itimerspec_user {
	s64 interval_sec, interval_nsec, value_sec, value_nsec;
};

static struct timerfd *timerfd_of(int fd)
{
	struct file *f = fd_file(fd);

	return f && f->f_op == &timerfd_fops ? f->private_data : NULL;
}

static long put_itimerspec(struct timerfd *t, u64 uold)
{
	struct itimerspec_user old = { 0 };
	u64 now = ktime_get_ns();

	spin_lock(&t->lock);
	old.interval_sec = (s64)(t->interval_ns / NSEC_PER_SEC);
	old.interval_nsec = (s64)(t->interval_ns % NSEC_PER_SEC);
	if (t->next_ns > now) {
		old.value_sec = (s64)((t->next_ns - now) / NSEC_PER_SEC);
		old.value_nsec = (s64)((t->next_ns - now) % NSEC_PER_SEC);
	}
	spin_unlock(&t->lock);
	return copy_to_user(uold, &old, sizeof(old));
}

static long sys_timerfd_settime(u64 fd, u64 flags, u64 unew, u64 uold, u64 a4, u64 a5)
{
	struct timerfd *t = timerfd_of((int)fd);
	struct itimerspec_user its;
	u64 value, now = ktime_get_ns();

	if (!t)
		return fd_file((int)fd) ? -EINVAL : -EBADF;
	if (copy_from_user(&its, unew, sizeof(its)))
		return -EFAULT;
	if (its.value_sec < 0 || its.value_nsec < 0 || its.value_nsec >= (s64)NSEC_PER_SEC ||
	    its.interval_sec < 0 || its.interval_nsec < 0 || its.interval_nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	if (uold && put_itimerspec(t, uold))
		return -EFAULT;
	value = (u64)its.value_sec * NSEC_PER_SEC + (u64)its.value_nsec;
	if (value && (flags & TFD_TIMER_ABSTIME)) /* on the monotonic clock: what is left */
		value = value > now ? value - now : 1;
	spin_lock(&t->lock);
	t->interval_ns = (u64)its.interval_sec * NSEC_PER_SEC + (u64)its.interval_nsec;
	t->next_ns = value ? now + value : 0;
	spin_unlock(&t->lock);
	wake_up_all(&t->rearmed);
	return 0;
}

static long sys_timerfd_gettime(u64 fd, u64 uold, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct timerfd *t = timerfd_of((int)fd);

	if (!t)
		return fd_file((int)fd) ? -EINVAL : -EBADF;
	return put_itimerspec(t, uold);
}

static const struct syscall_def calls[] = {
	{ 283, "timerfd_create", sys_timerfd_create },
	{ 286, "timerfd_settime", sys_timerfd_settime },
	{ 287, "timerfd_gettime", sys_timerfd_gettime },
};

const struct syscall_table sys_timerfd_calls = { calls, ARRAY_SIZE(calls) };
