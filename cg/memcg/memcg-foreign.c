/*
 * Foreign dirty flushing (Linux 5.3's mem_cgroup_track_foreign_dirty_slowpath() and
 * mem_cgroup_flush_foreign()).
 *
 * The problem: memcg A dirties pages of an inode whose writeback belongs to B's wb. The
 * pages count in A's dirty total, so A is throttled, but B's wb sees few dirty pages of its
 * own and may not be writing: nobody cleans A's pages. So each memcg remembers the last
 * few foreign wbs it dirtied for, and when one of its tasks is throttled it asks those wbs
 * to write.
 *
 * The policy:
 *  - a memcg keeps MEMCG_CGWB_FRN_CNT = 4 records {bdi id, wb's memcg id, last seen, flushes
 *    in flight}; ids only, no references, so a record may name something gone (the flush
 *    then finds nothing and does nothing);
 *  - recording (at page dirtying, i_pages lock held): a record for the same wb is refreshed
 *    at most every min(1 s, dirty_expire_interval / 8), which keeps the hot path cheap;
 *    a new wb takes the record seen longest ago that has no flush in flight; if all four
 *    are being flushed, nothing is recorded (the next dirtying will try again);
 *  - flushing (throttled task): every record seen within dirty_expire_interval and not
 *    being flushed gets one FOREIGN_FLUSH work (cgroup_writeback_by_id) and its time is
 *    cleared, so a record is flushed once per sighting and never twice at a time.
 * Races between dirtiers of one memcg are tolerated: at worst a record is overwritten or a
 * flush is missed, as in Linux.
 */
#include <cgwb/memcontrol.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/jiffies.h>
#include <cgwb/trace/writeback.h>
#include "memcg.h"

/* woken when a record's last flush completes (mem_cgroup_foreign_wait) */
static DECLARE_WAIT_QUEUE_HEAD(frn_done_wq);

static unsigned long frn_expire(void)
{
	return msecs_to_jiffies((unsigned long)dirty_expire_interval * 10);
}

static bool frn_flushing(const struct memcg_cgwb_frn *frn)
{
	return READ_ONCE(frn->done.cnt) != 0;
}

static void mem_cgroup_track_foreign_dirty_slowpath(struct mem_cgroup *memcg, struct bdi_writeback *wb)
{
	int wb_memcg_id = mem_cgroup_id(wb_memcg(wb));
	unsigned long now = jiffies;
	unsigned long refresh = min((unsigned long)HZ, frn_expire() / 8);
	struct memcg_cgwb_frn *oldest = NULL;

	for (int i = 0; i < MEMCG_CGWB_FRN_CNT; i++) {
		struct memcg_cgwb_frn *frn = &memcg->cgwb_frn[i];

		if (frn->bdi_id == wb->bdi->id && frn->memcg_id == wb_memcg_id) {
			if (time_before(frn->at, now - refresh))
				frn->at = now;
			return;
		}
		if (time_before(frn->at, oldest ? oldest->at : now) && !frn_flushing(frn))
			oldest = frn;
	}
	if (!oldest)
		return;
	oldest->bdi_id = wb->bdi->id;
	oldest->memcg_id = wb_memcg_id;
	oldest->at = now;
}

void mem_cgroup_track_foreign_dirty(struct page *page, struct bdi_writeback *wb)
{
	struct mem_cgroup *memcg = page_memcg(page);

	if (memcg == wb_memcg(wb))
		return;
	trace_track_foreign_dirty(page, wb);
	mem_cgroup_track_foreign_dirty_slowpath(memcg, wb);
}

void mem_cgroup_flush_foreign(struct bdi_writeback *wb)
{
	struct mem_cgroup *memcg = wb_memcg(wb);
	unsigned long now = jiffies;

	for (int i = 0; i < MEMCG_CGWB_FRN_CNT; i++) {
		struct memcg_cgwb_frn *frn = &memcg->cgwb_frn[i];

		/* at == 0: never seen, or flushed since; jiffies start at 0 here, Linux's do not */
		if (!frn->at || !time_after(frn->at, now - frn_expire()) || frn_flushing(frn))
			continue;
		frn->at = 0;
		frn->done.waitq = &frn_done_wq;
		trace_flush_foreign(wb, (unsigned int)frn->bdi_id, (unsigned int)frn->memcg_id);
		flusher_hooks()->cgroup_writeback_by_id(frn->bdi_id, frn->memcg_id,
							WB_REASON_FOREIGN_FLUSH, &frn->done);
	}
}

void mem_cgroup_foreign_wait(struct mem_cgroup *memcg)
{
	for (int i = 0; i < MEMCG_CGWB_FRN_CNT; i++)
		wait_event(frn_done_wq, !frn_flushing(&memcg->cgwb_frn[i]));
}
