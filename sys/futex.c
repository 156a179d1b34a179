/*
 * Futexes (Linux's kernel/futex/): FUTEX_WAIT and FUTEX_WAKE, their _BITSET forms (absolute
 * timeouts, CLOCK_MONOTONIC or CLOCK_REALTIME), what a C library's mutexes, condition
 * variables and pthread_join need. Other operations are -ENOSYS.
 *
 * The key, as Linux's get_futex_key(): a private futex (FUTEX_PRIVATE_FLAG) is the address
 * space and the address; a shared one in a shared file mapping is the file's page cache and
 * the offset there, so processes that map the same memory at any address meet (a
 * process-shared mutex in shared memory after fork); elsewhere a shared one is private.
 * The key's pointer is only compared, never followed.
 *
 * A waiter queues itself on its bucket first and reads the futex word after: a waker
 * changes the word, then takes the bucket's lock to wake, so it either finds the waiter
 * queued or the waiter finds the word changed (-EAGAIN). The word is read with no lock
 * held (reading a program's memory may fault and sleep).
 */
#include <cgwb/sched.h>
#include <cgwb/jiffies.h>
#include <cgwb/list.h>
#include <cgwb/spinlock.h>
#include <cgwb/errno.h>
#include "internal.h"

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu
#define FUTEX_HASH_BITS 6

struct futex_key {
	const void *space; /* the mm, or the file's address_space */
	u64 off;           /* the address, or the offset in the file */
};

struct futex_waiter {
	struct list_head node;
	struct futex_key key;
	u32 bitset;
	struct task_struct *task;
	bool woken;
};

static struct futex_bucket {
	spinlock_t lock;
	struct list_head waiters;
} futex_buckets[1 << FUTEX_HASH_BITS];

static struct futex_key futex_key_of(struct mm_struct *mm, u64 uaddr, bool shared)
{
	struct address_space *mapping;
	u64 pos;

	if (shared && mm_shared_file_pos(mm, uaddr, &mapping, &pos))
		return (struct futex_key){ mapping, pos };
	return (struct futex_key){ mm, uaddr };
}

static bool key_match(const struct futex_key *a, const struct futex_key *b)
{
	return a->space == b->space && a->off == b->off;
}

static struct futex_bucket *bucket_of(const struct futex_key *key)
{
	u64 h = ((u64)(uintptr_t)key->space ^ key->off) * 0x9e3779b97f4a7c15ULL;

	return &futex_buckets[h >> (64 - FUTEX_HASH_BITS)];
}

void futex_init(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(futex_buckets); i++) {
		spin_lock_init(&futex_buckets[i].lock);
		INIT_LIST_HEAD(&futex_buckets[i].waiters);
	}
}

static long futex_wake_key(const struct futex_key *key, int nr, u32 bitset)
{
	struct futex_bucket *b = bucket_of(key);
	struct futex_waiter *w, *n;
	long woken = 0;

	if (!bitset)
		return -EINVAL;
	spin_lock(&b->lock);
	list_for_each_entry_safe(w, n, &b->waiters, node) {
		if (woken >= nr)
			break;
		if (!key_match(&w->key, key) || !(w->bitset & bitset))
			continue;
		list_del_init(&w->node);
		WRITE_ONCE(w->woken, true);
		wake_up_process(w->task);
		woken++;
	}
	spin_unlock(&b->lock);
	return woken;
}

long futex_wake(struct mm_struct *mm, u64 uaddr, int nr, u32 bitset)
{
	struct futex_key key = futex_key_of(mm, uaddr, true);

	return futex_wake_key(&key, nr, bitset);
}

/* Sleep until woken, the deadline (ktime ns; 0: none) or a kill. */
static long futex_sleep(struct futex_waiter *w, u64 deadline)
{
	for (;;) {
		u64 now = ktime_get_ns();
		long timeout = MAX_SCHEDULE_TIMEOUT;

		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(w->woken))
			break;
		if (signal_pending(current)) {
			__set_current_state(TASK_RUNNING);
			return -EINTR;
		}
		if (deadline) {
			if (now >= deadline) {
				__set_current_state(TASK_RUNNING);
				return -ETIMEDOUT;
			}
			timeout = (long)max(1ULL, (deadline - now) / (NSEC_PER_SEC / HZ));
		}
		schedule_timeout(timeout);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static long futex_wait(const struct futex_key *key, u64 uaddr, u32 val, u64 deadline, u32 bitset)
{
	struct futex_bucket *b = bucket_of(key);
	struct futex_waiter w = { .key = *key, .bitset = bitset, .task = current };
	u32 cur;
	long err;

	if (!bitset || (uaddr & 3))
		return -EINVAL;
	spin_lock(&b->lock);
	list_add_tail(&w.node, &b->waiters);
	spin_unlock(&b->lock);
	smp_mb(); /* queued before the word is read: pairs with the waker's store, then lock */
	err = copy_from_user(&cur, uaddr, sizeof(cur));
	if (!err && cur != val)
		err = -EAGAIN;
	if (!err)
		err = futex_sleep(&w, deadline);
	spin_lock(&b->lock);
	if (!list_empty(&w.node))
		list_del(&w.node); /* not woken: still queued */
	spin_unlock(&b->lock);
	return READ_ONCE(w.woken) ? 0 : err;
}

/* The deadline of a FUTEX_WAIT (relative) or FUTEX_WAIT_BITSET (absolute) timeout. */
static long futex_deadline(u64 uts, bool absolute, bool realtime, u64 *deadline)
{
	u64 ns;
	long err;

	*deadline = 0;
	if (!uts)
		return 0;
	err = get_timespec_ns(uts, &ns);
	if (err)
		return err;
	if (!absolute)
		*deadline = ktime_get_ns() + ns;
	else if (realtime) /* on the monotonic clock, from the wall clock's distance */
		*deadline =
			ktime_get_ns() + (ns > ktime_get_real_ns() ? ns - ktime_get_real_ns() : 0);
	else
		*deadline = ns;
	*deadline = *deadline ? *deadline : 1;
	return 0;
}

static long sys_futex(u64 uaddr, u64 op, u64 val, u64 utimeout, u64 uaddr2, u64 val3)
{
	unsigned int cmd = (unsigned int)op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	bool realtime = op & FUTEX_CLOCK_REALTIME;
	struct futex_key key = futex_key_of(current->mm, uaddr, !(op & FUTEX_PRIVATE_FLAG));
	u64 deadline;
	long err;

	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		err = futex_deadline(utimeout, cmd == FUTEX_WAIT_BITSET, realtime, &deadline);
		return err ? err :
			     futex_wait(&key, uaddr, (u32)val, deadline,
					cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : (u32)val3);
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET:
		return futex_wake_key(&key, (int)min(val, (u64)0x7fffffff),
				      cmd == FUTEX_WAKE ? FUTEX_BITSET_MATCH_ANY : (u32)val3);
	default:
		return -ENOSYS;
	}
}

static const struct syscall_def calls[] = {
	{ 202, "futex", sys_futex },
};

const struct syscall_table sys_futex_calls = { calls, ARRAY_SIZE(calls) };
