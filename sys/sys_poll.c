/*
 * select, pselect6, poll and ppoll (Linux's fs/select.c) over the files' poll() (a file
 * without one is always readable and writable, as a regular file is). Signal masks are
 * accepted and ignored (no handlers). The remaining time is not written back.
 *
 * Waiting, as Linux's: the first look queues the poller on the wait queue of every file
 * that has one (poll_wait(): a pipe's end) and learns the time a file without one changes
 * by itself (poll_wait_until(): a timer's expiry); the poller then sleeps until one of them
 * wakes it, that time or its timeout comes, or a kill. Each later look runs with the
 * task's state already set to sleep, so a wake-up between a look and the sleep is not
 * lost; the looks only read the files (no copy to or from the program in between). A
 * poller on more queues than POLL_QUEUES looks again every tick instead.
 */
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/slab.h>
#include <cgwb/wait.h>
#include "internal.h"

#define FD_SETSIZE 1024
#define POLLNVAL 0x20
#define POLL_QUEUES 32

struct poll_wqueues {
	struct poll_table pt;
	unsigned int nr;
	bool overflow;
	struct poll_entry {
		struct file *file; /* held while queued */
		wait_queue_head_t *head;
		struct wait_queue_entry wait;
	} entries[POLL_QUEUES];
};

static void poll_queue(struct file *file, struct wait_queue_head *head, struct poll_table *pt)
{
	struct poll_wqueues *pw = container_of(pt, struct poll_wqueues, pt);
	struct poll_entry *e;

	if (pw->nr == POLL_QUEUES) {
		pw->overflow = true;
		return;
	}
	e = &pw->entries[pw->nr++];
	e->file = get_file(file);
	e->head = head;
	init_wait_entry(&e->wait, 0);
	add_wait_queue(head, &e->wait);
}

static void poll_initwait(struct poll_wqueues *pw)
{
	pw->pt.qproc = poll_queue;
	pw->pt.next_event = 0;
	pw->nr = 0;
	pw->overflow = false;
}

static void poll_freewait(struct poll_wqueues *pw)
{
	for (unsigned int i = 0; i < pw->nr; i++) {
		remove_wait_queue(pw->entries[i].head, &pw->entries[i].wait);
		fput(pw->entries[i].file);
	}
	pw->nr = 0;
}

/* What fd can do now; with pt, also what will wake a poller (see above). */
static int file_mask(int fd, struct poll_table *pt)
{
	struct file *f = fd_file(fd);

	if (!f)
		return -EBADF;
	return f->f_op->poll ? (int)f->f_op->poll(f, pt) : POLLIN | POLLOUT;
}

/*
 * Sleep after a look that found nothing (state already TASK_INTERRUPTIBLE): 0 to look
 * again, -ETIMEDOUT past the deadline (0: none), -EINTR on a kill.
 */
static int poll_schedule(struct poll_wqueues *pw, u64 deadline)
{
	u64 now = ktime_get_ns(), until = deadline;
	long timeout = MAX_SCHEDULE_TIMEOUT;

	if (pw->pt.next_event && (!until || pw->pt.next_event < until))
		until = pw->pt.next_event;
	if (deadline && now >= deadline) {
		__set_current_state(TASK_RUNNING);
		return -ETIMEDOUT;
	}
	if (signal_pending(current)) {
		__set_current_state(TASK_RUNNING);
		return -EINTR;
	}
	if (pw->overflow)
		timeout = 1;
	else if (until)
		timeout = until > now ? (long)max(1ULL, (until - now + NSEC_PER_SEC / HZ - 1) /
								(NSEC_PER_SEC / HZ)) :
					1;
	schedule_timeout(timeout);
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* One look over a call's files: how many are ready (or an error); with pt, who wakes it. */
typedef long (*poll_look_fn)(void *files, struct poll_table *pt);

/* Prepare the next look: the task's state first, the time of the next event anew. */
static void poll_prepare_look(struct poll_wqueues *pw)
{
	pw->pt.qproc = NULL; /* queued once, on the first look */
	pw->pt.next_event = 0;
	set_current_state(TASK_INTERRUPTIBLE);
}

/* Look until something is ready: how many, 0 at the timeout, or an error. */
static long poll_wait_ready(poll_look_fn look, void *files, u64 deadline, bool poll_only)
{
	struct poll_wqueues *pw = kmalloc(sizeof(*pw), GFP_KERNEL);
	long ready;
	int err = 0;

	if (!pw)
		return -ENOMEM;
	poll_initwait(pw);
	ready = look(files, poll_only ? NULL : &pw->pt);
	while (!ready && !poll_only) {
		poll_prepare_look(pw);
		ready = look(files, &pw->pt);
		if (ready) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		err = poll_schedule(pw, deadline);
		if (err)
			break;
	}
	poll_freewait(pw);
	kfree(pw);
	return err == -ETIMEDOUT ? 0 : err ? err : ready;
}

struct fdsets {
	int nfds;
	unsigned long in[3][FD_SETSIZE / 64], out[3][FD_SETSIZE / 64];
};

static long select_once(void *files, struct poll_table *pt)
{
	static const int want[3] = { POLLIN | POLLHUP, POLLOUT | POLLERR, POLLERR };
	struct fdsets *s = files;
	long ready = 0;

	memset(s->out, 0, sizeof(s->out));
	for (int fd = 0; fd < s->nfds; fd++) {
		unsigned long bit = 1UL << (fd % 64);
		int mask;

		if (!((s->in[0][fd / 64] | s->in[1][fd / 64] | s->in[2][fd / 64]) & bit))
			continue;
		mask = file_mask(fd, pt);
		if (mask < 0)
			return mask;
		for (int k = 0; k < 3; k++) {
			if ((s->in[k][fd / 64] & bit) && (mask & want[k])) {
				s->out[k][fd / 64] |= bit;
				ready++;
			}
		}
	}
	return ready;
}

static long do_select(int nfds, const u64 uset[3], u64 deadline, bool poll_only)
{
	struct fdsets s;
	size_t bytes;
	long ready;

	if (nfds < 0 || nfds > FD_SETSIZE)
		return -EINVAL;
	bytes = (size_t)(nfds + 63) / 64 * 8;
	memset(&s, 0, sizeof(s));
	s.nfds = nfds;
	for (int k = 0; k < 3; k++)
		if (uset[k] && copy_from_user(s.in[k], uset[k], bytes))
			return -EFAULT;
	ready = poll_wait_ready(select_once, &s, deadline, poll_only);
	if (ready <= 0)
		return ready;
	for (int k = 0; k < 3; k++)
		if (uset[k] && copy_to_user(uset[k], s.out[k], bytes))
			return -EFAULT;
	return ready;
}

struct time_user {
	s64 sec, frac; /* a timeval's microseconds or a timespec's nanoseconds */
};

/* A timeout at utime (NULL: wait for ever): its deadline, or poll_only for a zero one. */
static long timeout_of(u64 utime, u64 frac_ns, u64 *deadline, bool *poll_only)
{
	struct time_user t;
	u64 ns;

	*deadline = 0;
	*poll_only = false;
	if (!utime)
		return 0;
	if (copy_from_user(&t, utime, sizeof(t)))
		return -EFAULT;
	if (t.sec < 0 || t.frac < 0 || (u64)t.frac * frac_ns >= NSEC_PER_SEC)
		return -EINVAL;
	ns = (u64)t.sec * NSEC_PER_SEC + (u64)t.frac * frac_ns;
	*poll_only = !ns;
	*deadline = ktime_get_ns() + ns;
	return 0;
}

static long sys_select(u64 nfds, u64 r, u64 w, u64 e, u64 utv, u64 a5)
{
	u64 sets[3] = { r, w, e }, deadline;
	bool poll_only;
	long err = timeout_of(utv, 1000, &deadline, &poll_only);

	return err ? err : do_select((int)nfds, sets, deadline, poll_only);
}

static long sys_pselect6(u64 nfds, u64 r, u64 w, u64 e, u64 uts, u64 sigmask)
{
	u64 sets[3] = { r, w, e }, deadline;
	bool poll_only;
	long err = timeout_of(uts, 1, &deadline, &poll_only);

	return err ? err : do_select((int)nfds, sets, deadline, poll_only);
}

struct pollfd_user {
	s32 fd;
	s16 events, revents;
};

struct pollfds {
	struct pollfd_user *fds;
	u64 nfds;
};

/* Each entry's revents now: how many are ready. */
static long poll_once(void *files, struct poll_table *pt)
{
	struct pollfds *p = files;
	struct pollfd_user *fds = p->fds;
	long ready = 0;

	for (u64 i = 0; i < p->nfds; i++) {
		int mask = fds[i].fd < 0 ? 0 : file_mask(fds[i].fd, pt);

		fds[i].revents =
			(s16)(mask < 0 ? POLLNVAL : mask & (fds[i].events | POLLHUP | POLLERR));
		ready += !!fds[i].revents;
	}
	return ready;
}

static long do_poll(u64 ufds, u64 nfds, u64 deadline, bool poll_only)
{
	struct pollfd_user *fds;
	struct pollfds p;
	long ready;

	if (nfds > FD_SETSIZE)
		return -EINVAL;
	fds = kmalloc((nfds ? nfds : 1) * sizeof(*fds), GFP_KERNEL); /* at most 8 KiB */
	if (!fds)
		return -ENOMEM;
	p = (struct pollfds){ fds, nfds };
	ready = nfds && copy_from_user(fds, ufds, nfds * sizeof(*fds)) ?
			-EFAULT :
			poll_wait_ready(poll_once, &p, deadline, poll_only);
	for (u64 i = 0; ready >= 0 && i < nfds; i++)
		if (copy_to_user(ufds + i * sizeof(*fds) + 6, &fds[i].revents, sizeof(fds[i].revents)))
			ready = -EFAULT;
	kfree(fds);
	return ready;
}

static long sys_poll(u64 ufds, u64 nfds, u64 timeout_ms, u64 a3, u64 a4, u64 a5)
{
	int ms = (int)timeout_ms;

	return do_poll(ufds, nfds, ms > 0 ? ktime_get_ns() + (u64)ms * 1000000 : 0, ms == 0);
}

static long sys_ppoll(u64 ufds, u64 nfds, u64 uts, u64 sigmask, u64 size, u64 a5)
{
	u64 deadline;
	bool poll_only;
	long err = timeout_of(uts, 1, &deadline, &poll_only);

	return err ? err : do_poll(ufds, nfds, deadline, poll_only);
}

static const struct syscall_def calls[] = {
	{ 7, "poll", sys_poll },
	{ 23, "select", sys_select },
	{ 270, "pselect6", sys_pselect6 },
	{ 271, "ppoll", sys_ppoll },
};

const struct syscall_table sys_poll_calls = { calls, ARRAY_SIZE(calls) };
