/*
 * A power cut for crash-consistency tests (cgwb.power_cut=N): once N requests that write
 * have gone to the devices (writes and flushes, each step of a flush sequence as the disk
 * statistics count them, all disks together), nothing goes to a device any more, reads
 * neither: each request waits on its queue for good, and so does every task waiting for
 * one, as if the power had gone at that instant. What the devices completed stays on them.
 * The host then kills QEMU (scripts/bench/crash); the kernel says when, once.
 */
#include "blk.h"
#include <cgwb/spinlock.h>
#include <cgwb/printk.h>

static DEFINE_SPINLOCK(power_cut_lock);
static bool power_cut_armed, power_cut_done;
static u64 power_cut_after, power_cut_left;

void blk_set_power_cut(u64 nr_writes)
{
	unsigned long flags;

	spin_lock_irqsave(&power_cut_lock, flags);
	power_cut_after = power_cut_left = nr_writes;
	power_cut_done = false;
	WRITE_ONCE(power_cut_armed, true);
	spin_unlock_irqrestore(&power_cut_lock, flags);
	pr_notice("blk: the power goes after %llu writes\n", (unsigned long long)nr_writes);
}

bool blk_power_cut_allows(const struct request *rq)
{
	bool writes = req_op(rq) == REQ_OP_WRITE || req_op(rq) == REQ_OP_FLUSH;
	bool allowed, cut_now = false;
	unsigned long flags;

	if (!READ_ONCE(power_cut_armed))
		return true;
	spin_lock_irqsave(&power_cut_lock, flags);
	if (!power_cut_done && writes && !power_cut_left)
		power_cut_done = cut_now = true;
	allowed = !power_cut_done;
	if (allowed && writes)
		power_cut_left--;
	spin_unlock_irqrestore(&power_cut_lock, flags);
	if (cut_now)
		pr_warn("blk: power cut after %llu writes: no request reaches a disk any more\n",
			(unsigned long long)power_cut_after);
	return allowed;
}
