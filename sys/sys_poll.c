/*
 * select, pselect6, poll and ppoll (Linux's fs/select.c) over the files' poll() (a file
 * without one is always readable and writable, as a regular file is). A call with nothing
 * ready looks again every tick until something is, its timeout passes or a kill comes:
 * the files here have no wait queue for a poller to sleep on. Signal masks are accepted
 * and ignored (no handlers). The remaining time is not written back.
 */
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"

#define FD_SETSIZE 1024
#define POLLNVAL 0x20

static int file_mask(int fd)
{
	struct file *f = fd_file(fd);

	if (!f)
		return -EBADF;
	return f->f_op->poll ? (int)f->f_op->poll(f) : POLLIN | POLLOUT;
}

/* Wait for the next look: 0, -ETIMEDOUT past the deadline (0: none), -EINTR on a kill. */
static int poll_wait_tick(u64 deadline)
{
	if (deadline && ktime_get_ns() >= deadline)
		return -ETIMEDOUT;
	schedule_timeout_interruptible(1);
	return signal_pending(current) ? -EINTR : 0;
}

struct fdsets {
	unsigned long in[3][FD_SETSIZE / 64], out[3][FD_SETSIZE / 64];
};

static int select_once(int nfds, struct fdsets *s)
{
	static const int want[3] = { POLLIN | POLLHUP, POLLOUT | POLLERR, POLLERR };
	int ready = 0;

	memset(s->out, 0, sizeof(s->out));
	for (int fd = 0; fd < nfds; fd++) {
		unsigned long bit = 1UL << (fd % 64);
		int mask;

		if (!((s->in[0][fd / 64] | s->in[1][fd / 64] | s->in[2][fd / 64]) & bit))
			continue;
		mask = file_mask(fd);
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
	int ready, err;

	if (nfds < 0 || nfds > FD_SETSIZE)
		return -EINVAL;
	bytes = (size_t)(nfds + 63) / 64 * 8;
	memset(&s, 0, sizeof(s));
	for (int k = 0; k < 3; k++)
		if (uset[k] && copy_from_user(s.in[k], uset[k], bytes))
			return -EFAULT;
	while (!(ready = select_once(nfds, &s)) && !poll_only) {
		err = poll_wait_tick(deadline);
		if (err)
			return err == -ETIMEDOUT ? 0 : err;
	}
	if (ready < 0)
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

static long do_poll(u64 ufds, u64 nfds, u64 deadline, bool poll_only)
{
	struct pollfd_user p;
	long ready;

	if (nfds > FD_SETSIZE)
		return -EINVAL;
	for (;;) {
		ready = 0;
		for (u64 i = 0; i < nfds; i++) {
			int mask;

			if (copy_from_user(&p, ufds + i * sizeof(p), sizeof(p)))
				return -EFAULT;
			if (p.fd < 0) {
				p.revents = 0;
			} else {
				mask = file_mask(p.fd);
				p.revents = (s16)(mask < 0 ? POLLNVAL :
							     mask & (p.events | POLLHUP | POLLERR));
			}
			if (p.revents)
				ready++;
			if (copy_to_user(ufds + i * sizeof(p) + 6, &p.revents, sizeof(p.revents)))
				return -EFAULT;
		}
		if (ready || poll_only)
			return ready;
		ready = poll_wait_tick(deadline);
		if (ready)
			return ready == -ETIMEDOUT ? 0 : ready;
	}
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

static long sys_tgkill(u64 tgid, u64 tid, u64 sig, u64 a3, u64 a4, u64 a5)
{
	return program_signal((int)tid, (int)sig);
}

static long sys_tkill(u64 tid, u64 sig, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return program_signal((int)tid, (int)sig);
}

static const struct syscall_def calls[] = {
	{ 7, "poll", sys_poll },           { 23, "select", sys_select },
	{ 200, "tkill", sys_tkill },       { 234, "tgkill", sys_tgkill },
	{ 270, "pselect6", sys_pselect6 }, { 271, "ppoll", sys_ppoll },
};

const struct syscall_table sys_poll_calls = { calls, ARRAY_SIZE(calls) };
