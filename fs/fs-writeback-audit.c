/*
 * The attribution audit (past Linux, opt-in per device): for each inode written back, how
 * many bytes each cgroup's pages made up and how many of those were charged to another
 * group's io cgroup because the inode belonged to that group's wb. This is what a cgroup
 * writeback user cannot see in Linux: io.stat says who was charged, never for whom.
 *
 * Shown as /sys/kernel/debug/bdi/MAJ:MIN/wb_attribution; writing 1 there clears the
 * device's records and starts recording, 0 stops (the records stay readable).
 *
 * Records live in one small table shared by every device, keyed by (bdi, inode, owner
 * cgroup): a key hashes to a home slot and may sit in any of the WB_AUDIT_PROBE slots from
 * there; when they are all taken the least recently updated one is reused, so a long run keeps the
 * busiest inodes and says how many records it dropped. Every page written back with
 * cgroup writeback comes through wb_audit_account(), under one irq-safe lock.
 */
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/writeback.h>
#include <cgwb/pseudofs.h>
#include <cgwb/spinlock.h>
#include <cgwb/string.h>
#include <cgwb/jiffies.h>

#define WB_AUDIT_SLOTS 256
#define WB_AUDIT_PROBE 16

struct wb_audit_rec {
	u64 bdi_id; /* 0: free */
	unsigned long ino;
	unsigned int owner; /* cgroup id of the memcg the pages are charged to */
	u64 bytes;          /* written back for owner */
	u64 elsewhere;      /* of which charged to another group's io cgroup */
	unsigned long last; /* jiffies of the last update (reuse order) */
};

static struct wb_audit_rec wb_audit[WB_AUDIT_SLOTS];
static unsigned long wb_audit_dropped;
static DEFINE_SPINLOCK(wb_audit_lock);

static unsigned int wb_audit_home(u64 bdi_id, unsigned long ino, unsigned int owner)
{
	u64 h = (bdi_id * 0x9e3779b97f4a7c15ULL) ^ (ino * 0xff51afd7ed558ccdULL) ^ owner;

	return (unsigned int)(h >> 32) % WB_AUDIT_SLOTS;
}

/* The record of the key, or a free/reused slot for it. wb_audit_lock held. */
static struct wb_audit_rec *wb_audit_slot(u64 bdi_id, unsigned long ino, unsigned int owner)
{
	unsigned int home = wb_audit_home(bdi_id, ino, owner);
	struct wb_audit_rec *free = NULL, *oldest = NULL;

	/* all probes: clearing one device's records leaves holes before others' */
	for (unsigned int i = 0; i < WB_AUDIT_PROBE; i++) {
		struct wb_audit_rec *r = &wb_audit[(home + i) % WB_AUDIT_SLOTS];

		if (r->bdi_id == bdi_id && r->ino == ino && r->owner == owner)
			return r;
		if (!r->bdi_id && !free)
			free = r;
		else if (r->bdi_id && (!oldest || time_before(r->last, oldest->last)))
			oldest = r;
	}
	if (!free) {
		free = oldest;
		wb_audit_dropped++;
	}
	*free = (struct wb_audit_rec){ .bdi_id = bdi_id, .ino = ino, .owner = owner };
	return free;
}

void wb_audit_account(struct writeback_control *wbc, struct mem_cgroup *memcg, size_t bytes)
{
	struct mem_cgroup *charged = wb_memcg(wbc->wb);
	struct wb_audit_rec *r;
	unsigned long flags;

	spin_lock_irqsave(&wb_audit_lock, flags);
	r = wb_audit_slot(wbc->wb->bdi->id, wbc->inode->i_ino, memcg->css.cgroup->id);
	r->bytes += bytes;
	if (memcg != charged)
		r->elsewhere += bytes;
	r->last = jiffies;
	spin_unlock_irqrestore(&wb_audit_lock, flags);
}

int wb_audit_show(struct seq_buf *s, struct backing_dev_info *bdi)
{
	int err = seq_printf(s, "%-10s %-8s %16s %16s\n", "ino", "cgroup", "written",
			     "charged_elsewhere");

	for (unsigned int i = 0; i < WB_AUDIT_SLOTS && !err; i++) {
		struct wb_audit_rec r;
		unsigned long flags;

		spin_lock_irqsave(&wb_audit_lock, flags);
		r = wb_audit[i];
		spin_unlock_irqrestore(&wb_audit_lock, flags);
		if (r.bdi_id == bdi->id)
			err = seq_printf(s, "%-10lu %-8u %16llu %16llu\n", r.ino, r.owner, r.bytes,
					 r.elsewhere);
	}
	if (!err && READ_ONCE(wb_audit_dropped))
		err = seq_printf(s, "# %lu records reused (table full)\n",
				 READ_ONCE(wb_audit_dropped));
	return err;
}

void wb_audit_enable(struct backing_dev_info *bdi, bool on)
{
	unsigned long flags;

	spin_lock_irqsave(&wb_audit_lock, flags);
	if (on) {
		for (unsigned int i = 0; i < WB_AUDIT_SLOTS; i++)
			if (wb_audit[i].bdi_id == bdi->id)
				wb_audit[i].bdi_id = 0;
	}
	WRITE_ONCE(bdi->wb_audit, on);
	spin_unlock_irqrestore(&wb_audit_lock, flags);
}
