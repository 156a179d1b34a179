/*
 * The writeback_control's cgroup side: one writeback round of one inode, from
 * wbc_attach_and_unlock_inode() to wbc_detach_inode(), as in Linux's fs/fs-writeback.c.
 *
 * For an inode with cgroup writeback (its bdi does writeback and its filesystem set
 * SB_I_CGROUPWB), each round runs with wbc->wb = the inode's wb: the bios it builds carry
 * that wb's io cgroup (wbc_init_bio), and every page written is reported with the memcg it
 * is charged to (wbc_account_cgroup_owner). Otherwise wbc->wb stays NULL and bios keep the
 * submitter's association.
 *
 * Foreign-owner detection. A page is charged to the memcg that first brought it into the
 * cache; an inode belongs to the wb of whoever dirtied it first. When another group does
 * most of an inode's writing, its IO is charged to the wrong io cgroup. Each round:
 *  - the owner's bytes are counted apart; among the other groups a Boyer-Moore vote finds
 *    the majority writer (the candidate), and last round's winner is counted on its own;
 *  - wbc_detach_inode takes the round's winner, converts its bytes to IO time at the wb's
 *    bandwidth (1 s = 8192 units) and, unless the round is much shorter than the inode's
 *    average (noise), shifts one bit per 1/8 s of that time into a 16-bit history, ones
 *    for a foreign winner;
 *  - more than half the history foreign (> 8 of 16 slots, about 1 s of the last 2 s of the
 *    inode's writeback IO) switches the inode to the winner's wb (fs/fs-writeback-switch.c).
 * A switch zeroes the history, so going back takes a fresh majority.
 *
 * What does not switch, as in Linux: pages stay charged to the group that brought them in.
 * If A's file is still cached when B rewrites it, every page written is charged to A, A
 * wins every round, and the inode stays A's (its IO is charged to A). Only pages B brings
 * in (after the cache was dropped, or new ones past the end) vote for B.
 *
 * Past Linux, opt-in (vm_dirty_foreign_fast_switch): one round that is clearly foreign
 * switches at once: the winner wrote >= 3/4 of the round's bytes, and at least 1/8 s of
 * IO time or 4 MiB (the flusher's smallest chunk; a fast owner writes 4 MiB in far less
 * than 1/8 s, and its writeback is exactly where another group's pages escape that
 * group's io.max). A best-effort round (WB_SYNC_NONE) ends as soon as it is clearly
 * foreign (wbc->frn_clear, checked by write_cache_pages), so at most about 4 MiB go out
 * under the wrong owner before the switch. So does a pass of sync_inodes_sb() that a later
 * pass completes (wbc->frn_pass_repeats): the switch waits for the pass to end (no inode
 * changes wb while a sync runs: wb_switch_rwsem, as in Linux) and the next pass writes the
 * rest under the new owner. On several CPUs that pass is often the first to meet the
 * pages: the flusher may take the sync's work before the round sync(2) asked for first.
 * Any other integrity round (fsync, a sync's last pass) writes what it must.
 * The hysteresis that keeps two groups taking turns from bouncing the inode: switching
 * back to the group the inode last left (i_wb_frn_prev) needs 12 of 16 foreign slots,
 * which taking turns never gives, and is never fast.
 */
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/writeback.h>
#include <cgwb/vmstat.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/bio.h>
#include <cgwb/trace/writeback.h>
#include "internal.h"

#define WB_FRN_TIME_SHIFT 13                              /* 1 s = 8192 units; a u16 holds 8 s */
#define WB_FRN_TIME_AVG_SHIFT 3                           /* avg = 7/8 avg + 1/8 new */
#define WB_FRN_TIME_CUT_DIV 8                             /* rounds under avg/8 do not vote */
#define WB_FRN_TIME_PERIOD (2 * (1 << WB_FRN_TIME_SHIFT)) /* the history covers 2 s */
#define WB_FRN_HIST_SLOTS 16
#define WB_FRN_HIST_UNIT (WB_FRN_TIME_PERIOD / WB_FRN_HIST_SLOTS) /* 1/8 s per slot */
#define WB_FRN_HIST_THR_SLOTS (WB_FRN_HIST_SLOTS / 2)             /* switch above this many */
#define WB_FRN_HIST_MAX_SLOTS (WB_FRN_HIST_THR_SLOTS / 2 + 1)     /* one round adds at most 5 */
/* opt-in mode: a clear round's winner wrote 3/4 of it, 4 MiB or 1/8 s; back needs 12 slots */
#define WB_FRN_FAST_SHARE_NUM 3
#define WB_FRN_FAST_SHARE_DEN 4
#define WB_FRN_FAST_MIN_BYTES (4UL << 20)
#define WB_FRN_FAST_BACK_SLOTS 12

unsigned int vm_dirty_foreign_fast_switch;

void wbc_attach_and_unlock_inode(struct writeback_control *wbc, struct inode *inode)
{
	struct bdi_writeback *wb;

	if (!inode_cgwb_enabled(inode)) {
		spin_unlock(&inode->i_lock);
		return;
	}
	wb = inode_to_wb(inode);
	wb_get(wb);
	wbc->wb = wb;
	wbc->inode = inode;
	wbc->wb_id = mem_cgroup_id(wb_memcg(wb));
	wbc->wb_lcand_id = inode->i_wb_frn_winner;
	wbc->wb_tcand_id = 0;
	wbc->wb_bytes = wbc->wb_lcand_bytes = wbc->wb_tcand_bytes = 0;
	wbc->wb_round_bytes = 0;
	wbc->frn_clear = 0;
	spin_unlock(&inode->i_lock);

	/*
	 * A wb killed while its memcg lives means the io cgroup association changed: move the
	 * inode to the memcg's current wb.
	 */
	if (wb_dying(wb) && !css_is_dying(&wb_memcg(wb)->css))
		inode_switch_wbs(inode, wbc->wb_id);
}

void wbc_attach_fdatawrite_inode(struct writeback_control *wbc, struct inode *inode)
{
	spin_lock(&inode->i_lock);
	inode_attach_wb(inode, NULL);
	wbc_attach_and_unlock_inode(wbc, inode);
}

/* Set bits of the history (no libgcc popcount in the kernel). */
static unsigned int frn_slots(u16 history)
{
	unsigned int n = 0;

	for (; history; history &= (u16)(history - 1))
		n++;
	return n;
}

/*
 * Foreign slots needed to switch to max_id: Linux's majority, or in the opt-in mode the
 * stronger one when going back to the group the inode last left.
 */
static unsigned int frn_switch_slots(struct inode *inode, int max_id)
{
	if (READ_ONCE(vm_dirty_foreign_fast_switch) && max_id == inode->i_wb_frn_prev)
		return WB_FRN_FAST_BACK_SLOTS;
	return WB_FRN_HIST_THR_SLOTS + 1;
}

/*
 * Opt-in: a foreign winner, not the group the inode last left, that wrote 3/4 of the round
 * and at least 4 MiB or one slot of IO time.
 */
static bool frn_clear_round(struct writeback_control *wbc, struct inode *inode, int max_id,
			    size_t max_bytes, unsigned long max_time)
{
	return READ_ONCE(vm_dirty_foreign_fast_switch) && max_id != wbc->wb_id &&
	       max_id != inode->i_wb_frn_prev &&
	       (max_time >= WB_FRN_HIST_UNIT || max_bytes >= WB_FRN_FAST_MIN_BYTES) &&
	       max_bytes * WB_FRN_FAST_SHARE_DEN >= wbc->wb_round_bytes * WB_FRN_FAST_SHARE_NUM;
}

/* The round's winner and its bytes: the owner on ties, then last round's winner, then the candidate. */
static int frn_round_winner(const struct writeback_control *wbc, size_t *bytes)
{
	if (wbc->wb_bytes >= wbc->wb_lcand_bytes && wbc->wb_bytes >= wbc->wb_tcand_bytes) {
		*bytes = wbc->wb_bytes;
		return wbc->wb_id;
	}
	if (wbc->wb_lcand_bytes >= wbc->wb_tcand_bytes) {
		*bytes = wbc->wb_lcand_bytes;
		return wbc->wb_lcand_id;
	}
	*bytes = wbc->wb_tcand_bytes;
	return wbc->wb_tcand_id;
}

/* IO time of bytes in 1/8192 s at bw pages per second. */
static unsigned long frn_io_time(size_t bytes, unsigned long bw)
{
	return DIV_ROUND_UP((unsigned long)(bytes >> PAGE_SHIFT) << WB_FRN_TIME_SHIFT, max(bw, 1UL));
}

int wbc_foreign_verdict(struct writeback_control *wbc, struct inode *inode, unsigned long bw)
{
	unsigned long avg_time = inode->i_wb_frn_avg_time;
	u16 history = inode->i_wb_frn_history;
	int switch_to = 0;
	size_t max_bytes;
	int max_id = frn_round_winner(wbc, &max_bytes);
	unsigned long max_time = frn_io_time(max_bytes, bw);

	/* updated even for a round that then does not vote; the first one sets it outright */
	if (avg_time)
		avg_time += (max_time >> WB_FRN_TIME_AVG_SHIFT) - (avg_time >> WB_FRN_TIME_AVG_SHIFT);
	else
		avg_time = max_time;

	if (max_time >= avg_time / WB_FRN_TIME_CUT_DIV) {
		unsigned int slots = (unsigned int)min(DIV_ROUND_UP(max_time, WB_FRN_HIST_UNIT),
						       (unsigned long)WB_FRN_HIST_MAX_SLOTS);

		history = (u16)(history << slots);
		if (max_id != wbc->wb_id)
			history |= (u16)((1U << slots) - 1);
		/* as Linux: only where the round votes, and only a history that holds something */
		if (history)
			trace_inode_foreign_history(inode, wbc, history);
		/* an owner win over a foreign history would "switch" to the same wb: skip it */
		if (max_id != wbc->wb_id && frn_slots(history) >= frn_switch_slots(inode, max_id))
			switch_to = max_id;
	}
	/* a clear round is no noise, however short beside the average: it always counts */
	if (frn_clear_round(wbc, inode, max_id, max_bytes, max_time))
		switch_to = max_id;

	/* racy against a concurrent round of the same inode: a lost update only delays a switch */
	inode->i_wb_frn_winner = max_id;
	inode->i_wb_frn_avg_time = (u16)min(avg_time, 0xffffUL);
	inode->i_wb_frn_history = history;
	return switch_to;
}

void wbc_detach_inode(struct writeback_control *wbc)
{
	struct bdi_writeback *wb = wbc->wb;
	int switch_to;

	if (!wb)
		return;
	/* a round without bytes (metadata only, no_cgroup_owner) only ages the average */
	switch_to = wbc_foreign_verdict(wbc, wbc->inode, wb->avg_write_bandwidth);
	if (switch_to)
		inode_switch_wbs(wbc->inode, switch_to);
	wb_put(wb);
	wbc->wb = NULL;
}

void wbc_init_bio(struct writeback_control *wbc, struct bio *bio)
{
	struct blkcg *blkcg;

	if (!wbc->wb)
		return;
	/* submission takes the bio's own css reference (bio_associate_blkcg) */
	blkcg = wb_blkcg(wbc->wb);
	bio_release_blkcg(bio);
	bio->bi_blkcg = blkcg;
}

void wbc_account_owner_id(struct writeback_control *wbc, int id, size_t bytes)
{
	wbc->wb_round_bytes += bytes;
	if (id == wbc->wb_id) {
		wbc->wb_bytes += bytes; /* the owner does not take part in the vote */
		return;
	}
	if (id == wbc->wb_lcand_id)
		wbc->wb_lcand_bytes += bytes;
	/* Boyer-Moore majority vote among the foreign writers */
	if (!wbc->wb_tcand_bytes)
		wbc->wb_tcand_id = id;
	if (id == wbc->wb_tcand_id)
		wbc->wb_tcand_bytes += bytes;
	else
		wbc->wb_tcand_bytes -= min(bytes, wbc->wb_tcand_bytes);
}

/* Opt-in: is this best-effort round clearly foreign already? Then it ends at this page. */
static void wbc_check_clear_round(struct writeback_control *wbc)
{
	size_t bytes;
	int id = frn_round_winner(wbc, &bytes);

	if (frn_clear_round(wbc, wbc->inode, id, bytes,
			    frn_io_time(bytes, wbc->wb->avg_write_bandwidth)))
		wbc->frn_clear = 1;
}

void wbc_account_cgroup_owner(struct writeback_control *wbc, struct page *page, size_t bytes)
{
	struct mem_cgroup *memcg;

	if (!wbc->wb || wbc->no_cgroup_owner)
		return;
	memcg = page_memcg(page);
	if (unlikely(READ_ONCE(wbc->wb->bdi->wb_audit)))
		wb_audit_account(wbc, memcg, bytes);
	if (css_is_dying(&memcg->css))
		return; /* dead groups do not vote */
	wbc_account_owner_id(wbc, mem_cgroup_id(memcg), bytes);
	if (READ_ONCE(vm_dirty_foreign_fast_switch) &&
	    (wbc->sync_mode == WB_SYNC_NONE || wbc->frn_pass_repeats) && !wbc->frn_clear)
		wbc_check_clear_round(wbc);
}

int cgroup_writeback_by_id(u64 bdi_id, int memcg_id, enum wb_reason reason, struct wb_completion *done)
{
	struct backing_dev_info *bdi = bdi_get_by_id(bdi_id);
	struct cgroup_subsys_state *css;
	struct wb_writeback_work *work;
	struct bdi_writeback *wb;
	unsigned long dirty;

	if (!bdi)
		return -ENOENT;
	css = css_from_id(memcg_id, memory_cgrp_id);
	if (!css)
		return -ENOENT;
	/* look up only: a group without a wb here has nothing of this bdi to write */
	wb = wb_get_lookup(bdi, mem_cgroup_from_css(css));
	if (!wb) {
		css_put(css);
		return -ENOENT;
	}
	/* 25 % more than is dirty now: enough to finish, not enough to chase new dirtiers */
	dirty = memcg_page_state(mem_cgroup_from_css(css), NR_FILE_DIRTY);
	css_put(css);
	dirty = dirty * 10 / 8;

	work = kzalloc(sizeof(*work), GFP_NOWAIT | __GFP_NOWARN);
	if (!work) {
		wb_put(wb);
		return -ENOMEM;
	}
	work->nr_pages = (long)dirty;
	work->sync_mode = WB_SYNC_NONE;
	work->range_cyclic = 1;
	work->reason = reason;
	work->done = done;
	work->auto_free = 1;
	INIT_LIST_HEAD(&work->list);
	wb_queue_work(wb, work);
	wb_put(wb);
	return 0;
}
