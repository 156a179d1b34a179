/*
 * The writeback trace events: Linux 6.1's include/trace/events/writeback.h, its classes,
 * names, fields and TP_printk text, declared as it declares them (<cgwb/tracepoint.h>). Each
 * trace_<event>(...) call site costs one branch when the event is off (include/cgwb/trace.h);
 * mm/trace-writeback.c compiles the recorders and formatters, with the helpers they call.
 *
 * cgroup_ino is the cgroup's id (1 for the root), as Linux's cgroup_ino() is the id of the
 * cgroup's kernfs node.
 */
#ifndef CGWB_TRACE_WRITEBACK_H
#define CGWB_TRACE_WRITEBACK_H

#include <cgwb/tracepoint.h>

struct bdi_writeback;
struct wb_writeback_work;
struct writeback_control;
struct backing_dev_info;
struct inode;
struct page;
struct address_space;

extern struct trace_system writeback_trace_system;

#define trace_writeback_dirty_folio(...) TRACE_CALL(writeback_dirty_folio, __VA_ARGS__)
#define trace_writeback_mark_inode_dirty(...) TRACE_CALL(writeback_mark_inode_dirty, __VA_ARGS__)
#define trace_writeback_dirty_inode_start(...) TRACE_CALL(writeback_dirty_inode_start, __VA_ARGS__)
#define trace_writeback_dirty_inode(...) TRACE_CALL(writeback_dirty_inode, __VA_ARGS__)
#define trace_inode_foreign_history(...) TRACE_CALL(inode_foreign_history, __VA_ARGS__)
#define trace_inode_switch_wbs(...) TRACE_CALL(inode_switch_wbs, __VA_ARGS__)
#define trace_track_foreign_dirty(...) TRACE_CALL(track_foreign_dirty, __VA_ARGS__)
#define trace_flush_foreign(...) TRACE_CALL(flush_foreign, __VA_ARGS__)
#define trace_writeback_write_inode_start(...) TRACE_CALL(writeback_write_inode_start, __VA_ARGS__)
#define trace_writeback_write_inode(...) TRACE_CALL(writeback_write_inode, __VA_ARGS__)
#define trace_writeback_queue(...) TRACE_CALL(writeback_queue, __VA_ARGS__)
#define trace_writeback_exec(...) TRACE_CALL(writeback_exec, __VA_ARGS__)
#define trace_writeback_start(...) TRACE_CALL(writeback_start, __VA_ARGS__)
#define trace_writeback_written(...) TRACE_CALL(writeback_written, __VA_ARGS__)
#define trace_writeback_wait(...) TRACE_CALL(writeback_wait, __VA_ARGS__)
#define trace_writeback_pages_written(...) TRACE_CALL(writeback_pages_written, __VA_ARGS__)
#define trace_writeback_wake_background(...) TRACE_CALL(writeback_wake_background, __VA_ARGS__)
#define trace_wbc_writepage(...) TRACE_CALL(wbc_writepage, __VA_ARGS__)
#define trace_writeback_queue_io(...) TRACE_CALL(writeback_queue_io, __VA_ARGS__)
#define trace_global_dirty_state(...) TRACE_CALL(global_dirty_state, __VA_ARGS__)
#define trace_bdi_dirty_ratelimit(...) TRACE_CALL(bdi_dirty_ratelimit, __VA_ARGS__)
#define trace_balance_dirty_pages(...) TRACE_CALL(balance_dirty_pages, __VA_ARGS__)
#define trace_writeback_sb_inodes_requeue(...) TRACE_CALL(writeback_sb_inodes_requeue, __VA_ARGS__)
#define trace_writeback_single_inode_start(...) \
	TRACE_CALL(writeback_single_inode_start, __VA_ARGS__)
#define trace_writeback_single_inode(...) TRACE_CALL(writeback_single_inode, __VA_ARGS__)

/* Linux's show_inode_state() */
#define show_inode_state(state)                                                                     \
	__print_flags(state, "|", { I_DIRTY_SYNC, "I_DIRTY_SYNC" },                                 \
		      { I_DIRTY_DATASYNC, "I_DIRTY_DATASYNC" }, { I_DIRTY_PAGES, "I_DIRTY_PAGES" }, \
		      { I_NEW, "I_NEW" }, { I_WILL_FREE, "I_WILL_FREE" },                           \
		      { I_FREEING, "I_FREEING" }, { I_CLEAR, "I_CLEAR" }, { I_SYNC, "I_SYNC" },     \
		      { I_DIRTY_TIME, "I_DIRTY_TIME" }, { I_REFERENCED, "I_REFERENCED" })

#endif /* CGWB_TRACE_WRITEBACK_H */

#if !defined(CGWB_TRACE_WRITEBACK_EVENTS) || defined(TRACE_HEADER_MULTI_READ)
#define CGWB_TRACE_WRITEBACK_EVENTS

DECLARE_EVENT_CLASS(writeback_folio_template,
	TP_PROTO(struct page *page, struct address_space *mapping),
	TP_ARGS(page, mapping),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, ino)
		__field(pgoff_t, index)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(mapping ? inode_to_bdi(mapping->host) : NULL),
			32);
		__entry->ino = mapping ? mapping->host->i_ino : 0;
		__entry->index = page->index;
	),
	TP_printk("bdi %s: ino=%lu index=%lu", __entry->name, __entry->ino, __entry->index)
);

DEFINE_EVENT(writeback_folio_template, writeback_dirty_folio,
	TP_PROTO(struct page *page, struct address_space *mapping),
	TP_ARGS(page, mapping)
);

DECLARE_EVENT_CLASS(writeback_dirty_inode_template,
	TP_PROTO(struct inode *inode, int flags),
	TP_ARGS(inode, flags),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, ino)
		__field(unsigned long, state)
		__field(unsigned long, flags)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(inode_to_bdi(inode)), 32);
		__entry->ino = inode->i_ino;
		__entry->state = inode->i_state;
		__entry->flags = (unsigned long)flags;
	),
	TP_printk("bdi %s: ino=%lu state=%s flags=%s", __entry->name, __entry->ino,
		  show_inode_state(__entry->state), show_inode_state(__entry->flags))
);

/* the events of a class share its prototype (clang-format would misalign the backslashes) */
/* clang-format off */
#define DEFINE_WRITEBACK_DIRTY_INODE_EVENT(name)                   \
	DEFINE_EVENT(writeback_dirty_inode_template, name,         \
		TP_PROTO(struct inode *inode, int flags),          \
		TP_ARGS(inode, flags))
/* clang-format on */
DEFINE_WRITEBACK_DIRTY_INODE_EVENT(writeback_mark_inode_dirty);
DEFINE_WRITEBACK_DIRTY_INODE_EVENT(writeback_dirty_inode_start);
DEFINE_WRITEBACK_DIRTY_INODE_EVENT(writeback_dirty_inode);

TRACE_EVENT(inode_foreign_history,
	TP_PROTO(struct inode *inode, struct writeback_control *wbc, unsigned int history),
	TP_ARGS(inode, wbc, history),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, ino)
		__field(unsigned long, cgroup_ino)
		__field(unsigned int, history)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(inode_to_bdi(inode)), 32);
		__entry->ino = inode->i_ino;
		__entry->cgroup_ino = wbc_cgroup_ino(wbc);
		__entry->history = history;
	),
	TP_printk("bdi %s: ino=%lu cgroup_ino=%lu history=0x%x", __entry->name, __entry->ino,
		  __entry->cgroup_ino, __entry->history)
);

TRACE_EVENT(inode_switch_wbs,
	TP_PROTO(struct inode *inode, struct bdi_writeback *old_wb, struct bdi_writeback *new_wb),
	TP_ARGS(inode, old_wb, new_wb),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, ino)
		__field(unsigned long, old_cgroup_ino)
		__field(unsigned long, new_cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(old_wb->bdi), 32);
		__entry->ino = inode->i_ino;
		__entry->old_cgroup_ino = wb_cgroup_ino(old_wb);
		__entry->new_cgroup_ino = wb_cgroup_ino(new_wb);
	),
	TP_printk("bdi %s: ino=%lu old_cgroup_ino=%lu new_cgroup_ino=%lu", __entry->name,
		  __entry->ino, __entry->old_cgroup_ino, __entry->new_cgroup_ino)
);

TRACE_EVENT(track_foreign_dirty,
	TP_PROTO(struct page *page, struct bdi_writeback *wb),
	TP_ARGS(page, wb),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(u64, bdi_id)
		__field(unsigned long, ino)
		__field(unsigned int, memcg_id)
		__field(unsigned long, cgroup_ino)
		__field(unsigned long, page_cgroup_ino)
	),
	TP_fast_assign(
		struct mem_cgroup *page_mcg = page_memcg(page);

		strlcpy(__entry->name, bdi_dev_name(wb->bdi), 32);
		__entry->bdi_id = wb->bdi->id;
		__entry->ino = page->mapping ? page->mapping->host->i_ino : 0;
		__entry->memcg_id = (unsigned int)wb_memcg(wb)->css.id;
		__entry->cgroup_ino = wb_cgroup_ino(wb);
		__entry->page_cgroup_ino = page_mcg ? page_mcg->css.cgroup->id : 1;
	),
	TP_printk("bdi %s[%llu]: ino=%lu memcg_id=%u cgroup_ino=%lu page_cgroup_ino=%lu",
		  __entry->name, __entry->bdi_id, __entry->ino, __entry->memcg_id,
		  __entry->cgroup_ino, __entry->page_cgroup_ino)
);

TRACE_EVENT(flush_foreign,
	TP_PROTO(struct bdi_writeback *wb, unsigned int frn_bdi_id, unsigned int frn_memcg_id),
	TP_ARGS(wb, frn_bdi_id, frn_memcg_id),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, cgroup_ino)
		__field(unsigned int, frn_bdi_id)
		__field(unsigned int, frn_memcg_id)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(wb->bdi), 32);
		__entry->cgroup_ino = wb_cgroup_ino(wb);
		__entry->frn_bdi_id = frn_bdi_id;
		__entry->frn_memcg_id = frn_memcg_id;
	),
	TP_printk("bdi %s: cgroup_ino=%lu frn_bdi_id=%u frn_memcg_id=%u", __entry->name,
		  __entry->cgroup_ino, __entry->frn_bdi_id, __entry->frn_memcg_id)
);

DECLARE_EVENT_CLASS(writeback_write_inode_template,
	TP_PROTO(struct inode *inode, struct writeback_control *wbc),
	TP_ARGS(inode, wbc),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, ino)
		__field(int, sync_mode)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(inode_to_bdi(inode)), 32);
		__entry->ino = inode->i_ino;
		__entry->sync_mode = wbc->sync_mode;
		__entry->cgroup_ino = wbc_cgroup_ino(wbc);
	),
	TP_printk("bdi %s: ino=%lu sync_mode=%d cgroup_ino=%lu", __entry->name, __entry->ino,
		  __entry->sync_mode, __entry->cgroup_ino)
);

DEFINE_EVENT(writeback_write_inode_template, writeback_write_inode_start,
	TP_PROTO(struct inode *inode, struct writeback_control *wbc),
	TP_ARGS(inode, wbc)
);

DEFINE_EVENT(writeback_write_inode_template, writeback_write_inode,
	TP_PROTO(struct inode *inode, struct writeback_control *wbc),
	TP_ARGS(inode, wbc)
);

DECLARE_EVENT_CLASS(writeback_work_class,
	TP_PROTO(struct bdi_writeback *wb, struct wb_writeback_work *work),
	TP_ARGS(wb, work),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(long, nr_pages)
		__field(dev_t, sb_dev)
		__field(int, sync_mode)
		__field(int, for_kupdate)
		__field(int, range_cyclic)
		__field(int, for_background)
		__field(int, reason)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(wb->bdi), 32);
		__entry->nr_pages = work->nr_pages;
		__entry->sb_dev = work->sb ? work->sb->s_dev : 0;
		__entry->sync_mode = work->sync_mode;
		__entry->for_kupdate = work->for_kupdate;
		__entry->range_cyclic = work->range_cyclic;
		__entry->for_background = work->for_background;
		__entry->reason = work->reason;
		__entry->cgroup_ino = wb_cgroup_ino(wb);
	),
	TP_printk("bdi %s: sb_dev %u:%u nr_pages=%ld sync_mode=%d kupdate=%d range_cyclic=%d "
		  "background=%d reason=%s cgroup_ino=%lu",
		  __entry->name, MAJOR(__entry->sb_dev), MINOR(__entry->sb_dev), __entry->nr_pages,
		  __entry->sync_mode, __entry->for_kupdate, __entry->range_cyclic,
		  __entry->for_background, wb_reason_name(__entry->reason), __entry->cgroup_ino)
);

/* clang-format off */
#define DEFINE_WRITEBACK_WORK_EVENT(name)                                           \
	DEFINE_EVENT(writeback_work_class, name,                                    \
		TP_PROTO(struct bdi_writeback *wb, struct wb_writeback_work *work), \
		TP_ARGS(wb, work))
/* clang-format on */
DEFINE_WRITEBACK_WORK_EVENT(writeback_queue);
DEFINE_WRITEBACK_WORK_EVENT(writeback_exec);
DEFINE_WRITEBACK_WORK_EVENT(writeback_start);
DEFINE_WRITEBACK_WORK_EVENT(writeback_written);
DEFINE_WRITEBACK_WORK_EVENT(writeback_wait);

TRACE_EVENT(writeback_pages_written,
	TP_PROTO(long pages_written),
	TP_ARGS(pages_written),
	TP_STRUCT__entry(
		__field(long, pages)
	),
	TP_fast_assign(
		__entry->pages = pages_written;
	),
	TP_printk("%ld", __entry->pages)
);

DECLARE_EVENT_CLASS(writeback_class,
	TP_PROTO(struct bdi_writeback *wb),
	TP_ARGS(wb),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(wb->bdi), 32);
		__entry->cgroup_ino = wb_cgroup_ino(wb);
	),
	TP_printk("bdi %s: cgroup_ino=%lu", __entry->name, __entry->cgroup_ino)
);

DEFINE_EVENT(writeback_class, writeback_wake_background,
	TP_PROTO(struct bdi_writeback *wb),
	TP_ARGS(wb)
);

DECLARE_EVENT_CLASS(wbc_class,
	TP_PROTO(struct writeback_control *wbc, struct backing_dev_info *bdi),
	TP_ARGS(wbc, bdi),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(long, nr_to_write)
		__field(long, pages_skipped)
		__field(int, sync_mode)
		__field(int, for_kupdate)
		__field(int, for_background)
		__field(int, for_reclaim)
		__field(int, range_cyclic)
		__field(long, range_start)
		__field(long, range_end)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(bdi), 32);
		__entry->nr_to_write = wbc->nr_to_write;
		__entry->pages_skipped = wbc->pages_skipped;
		__entry->sync_mode = wbc->sync_mode;
		__entry->for_kupdate = wbc->for_kupdate;
		__entry->for_background = wbc->for_background;
		__entry->for_reclaim = wbc->for_reclaim;
		__entry->range_cyclic = wbc->range_cyclic;
		__entry->range_start = (long)wbc->range_start;
		__entry->range_end = (long)wbc->range_end;
		__entry->cgroup_ino = wbc_cgroup_ino(wbc);
	),
	TP_printk("bdi %s: towrt=%ld skip=%ld mode=%d kupd=%d bgrd=%d reclm=%d cyclic=%d "
		  "start=0x%lx end=0x%lx cgroup_ino=%lu",
		  __entry->name, __entry->nr_to_write, __entry->pages_skipped, __entry->sync_mode,
		  __entry->for_kupdate, __entry->for_background, __entry->for_reclaim,
		  __entry->range_cyclic, __entry->range_start, __entry->range_end,
		  __entry->cgroup_ino)
);

DEFINE_EVENT(wbc_class, wbc_writepage,
	TP_PROTO(struct writeback_control *wbc, struct backing_dev_info *bdi),
	TP_ARGS(wbc, bdi)
);

TRACE_EVENT(writeback_queue_io,
	TP_PROTO(struct bdi_writeback *wb, struct wb_writeback_work *work,
		 unsigned long dirtied_before, int moved),
	TP_ARGS(wb, work, dirtied_before, moved),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, older)
		__field(long, age)
		__field(int, moved)
		__field(int, reason)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(wb->bdi), 32);
		__entry->older = dirtied_before;
		__entry->age = (long)(jiffies - dirtied_before) * 1000 / HZ;
		__entry->moved = moved;
		__entry->reason = work->reason;
		__entry->cgroup_ino = wb_cgroup_ino(wb);
	),
	TP_printk("bdi %s: older=%lu age=%ld enqueue=%d reason=%s cgroup_ino=%lu",
		  __entry->name, __entry->older, __entry->age, __entry->moved,
		  wb_reason_name(__entry->reason), __entry->cgroup_ino)
);

TRACE_EVENT(global_dirty_state,
	TP_PROTO(unsigned long background_thresh, unsigned long dirty_thresh),
	TP_ARGS(background_thresh, dirty_thresh),
	TP_STRUCT__entry(
		__field(unsigned long, nr_dirty)
		__field(unsigned long, nr_writeback)
		__field(unsigned long, background_thresh)
		__field(unsigned long, dirty_thresh)
		__field(unsigned long, dirty_limit)
		__field(unsigned long, nr_dirtied)
		__field(unsigned long, nr_written)
	),
	TP_fast_assign(
		__entry->nr_dirty = global_node_page_state(NR_FILE_DIRTY);
		__entry->nr_writeback = global_node_page_state(NR_WRITEBACK);
		__entry->background_thresh = background_thresh;
		__entry->dirty_thresh = dirty_thresh;
		__entry->dirty_limit = global_wb_domain.dirty_limit;
		__entry->nr_dirtied = global_node_page_state(NR_DIRTIED);
		__entry->nr_written = global_node_page_state(NR_WRITTEN);
	),
	TP_printk("dirty=%lu writeback=%lu bg_thresh=%lu thresh=%lu limit=%lu dirtied=%lu "
		  "written=%lu",
		  __entry->nr_dirty, __entry->nr_writeback, __entry->background_thresh,
		  __entry->dirty_thresh, __entry->dirty_limit, __entry->nr_dirtied,
		  __entry->nr_written)
);

TRACE_EVENT(bdi_dirty_ratelimit,
	TP_PROTO(struct bdi_writeback *wb, unsigned long dirty_rate, unsigned long task_ratelimit),
	TP_ARGS(wb, dirty_rate, task_ratelimit),
	TP_STRUCT__entry(
		__array(char, bdi, 32)
		__field(unsigned long, write_bw)
		__field(unsigned long, avg_write_bw)
		__field(unsigned long, dirty_rate)
		__field(unsigned long, dirty_ratelimit)
		__field(unsigned long, task_ratelimit)
		__field(unsigned long, balanced_dirty_ratelimit)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->bdi, bdi_dev_name(wb->bdi), 32);
		__entry->write_bw = KBps(wb->write_bandwidth);
		__entry->avg_write_bw = KBps(wb->avg_write_bandwidth);
		__entry->dirty_rate = KBps(dirty_rate);
		__entry->dirty_ratelimit = KBps(wb->dirty_ratelimit);
		__entry->task_ratelimit = KBps(task_ratelimit);
		__entry->balanced_dirty_ratelimit = KBps(wb->balanced_dirty_ratelimit);
		__entry->cgroup_ino = wb_cgroup_ino(wb);
	),
	TP_printk("bdi %s: write_bw=%lu awrite_bw=%lu dirty_rate=%lu dirty_ratelimit=%lu "
		  "task_ratelimit=%lu balanced_dirty_ratelimit=%lu cgroup_ino=%lu",
		  __entry->bdi, __entry->write_bw, __entry->avg_write_bw, __entry->dirty_rate,
		  __entry->dirty_ratelimit, __entry->task_ratelimit,
		  __entry->balanced_dirty_ratelimit, __entry->cgroup_ino)
);

/* Linux's arguments; pause, period and the times in jiffies, the rates in pages/s. */
TRACE_EVENT(balance_dirty_pages,
	TP_PROTO(struct bdi_writeback *wb, unsigned long thresh, unsigned long bg_thresh,
		 unsigned long dirty, unsigned long bdi_thresh, unsigned long bdi_dirty,
		 unsigned long dirty_ratelimit, unsigned long task_ratelimit,
		 unsigned long dirtied, unsigned long period, long pause,
		 unsigned long start_time),
	TP_ARGS(wb, thresh, bg_thresh, dirty, bdi_thresh, bdi_dirty, dirty_ratelimit,
		task_ratelimit, dirtied, period, pause, start_time),
	TP_STRUCT__entry(
		__array(char, bdi, 32)
		__field(unsigned long, limit)
		__field(unsigned long, setpoint)
		__field(unsigned long, dirty)
		__field(unsigned long, bdi_setpoint)
		__field(unsigned long, bdi_dirty)
		__field(unsigned long, dirty_ratelimit)
		__field(unsigned long, task_ratelimit)
		__field(unsigned int, dirtied)
		__field(unsigned int, dirtied_pause)
		__field(unsigned long, paused)
		__field(long, pause)
		__field(unsigned long, period)
		__field(long, think)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		unsigned long freerun = (thresh + bg_thresh) / 2;

		strlcpy(__entry->bdi, bdi_dev_name(wb->bdi), 32);
		__entry->limit = global_wb_domain.dirty_limit;
		__entry->setpoint = (__entry->limit + freerun) / 2;
		__entry->dirty = dirty;
		__entry->bdi_setpoint = __entry->setpoint * bdi_thresh / (thresh + 1);
		__entry->bdi_dirty = bdi_dirty;
		__entry->dirty_ratelimit = KBps(dirty_ratelimit);
		__entry->task_ratelimit = KBps(task_ratelimit);
		__entry->dirtied = (unsigned int)dirtied;
		__entry->dirtied_pause = (unsigned int)current->nr_dirtied_pause;
		__entry->think = current->dirty_paused_when == 0 ? 0 :
			(long)(jiffies - current->dirty_paused_when) * 1000 / HZ;
		__entry->period = period * 1000 / HZ;
		__entry->pause = pause * 1000 / HZ;
		__entry->paused = (jiffies - start_time) * 1000 / HZ;
		__entry->cgroup_ino = wb_cgroup_ino(wb);
	),
	TP_printk("bdi %s: limit=%lu setpoint=%lu dirty=%lu bdi_setpoint=%lu bdi_dirty=%lu "
		  "dirty_ratelimit=%lu task_ratelimit=%lu dirtied=%u dirtied_pause=%u paused=%lu "
		  "pause=%ld period=%lu think=%ld cgroup_ino=%lu",
		  __entry->bdi, __entry->limit, __entry->setpoint, __entry->dirty,
		  __entry->bdi_setpoint, __entry->bdi_dirty, __entry->dirty_ratelimit,
		  __entry->task_ratelimit, __entry->dirtied, __entry->dirtied_pause,
		  __entry->paused, __entry->pause, __entry->period, __entry->think,
		  __entry->cgroup_ino)
);

/* The ages are from jiffies when the line is printed, as Linux's. */
TRACE_EVENT(writeback_sb_inodes_requeue,
	TP_PROTO(struct inode *inode),
	TP_ARGS(inode),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, ino)
		__field(unsigned long, state)
		__field(unsigned long, dirtied_when)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(inode_to_bdi(inode)), 32);
		__entry->ino = inode->i_ino;
		__entry->state = inode->i_state;
		__entry->dirtied_when = inode->dirtied_when;
		__entry->cgroup_ino = inode->i_wb ? wb_cgroup_ino(inode->i_wb) : 1;
	),
	TP_printk("bdi %s: ino=%lu state=%s dirtied_when=%lu age=%lu cgroup_ino=%lu",
		  __entry->name, __entry->ino, show_inode_state(__entry->state),
		  __entry->dirtied_when, (jiffies - __entry->dirtied_when) / HZ,
		  __entry->cgroup_ino)
);

DECLARE_EVENT_CLASS(writeback_single_inode_template,
	TP_PROTO(struct inode *inode, struct writeback_control *wbc, unsigned long nr_to_write),
	TP_ARGS(inode, wbc, nr_to_write),
	TP_STRUCT__entry(
		__array(char, name, 32)
		__field(unsigned long, ino)
		__field(unsigned long, state)
		__field(unsigned long, dirtied_when)
		__field(unsigned long, writeback_index)
		__field(long, nr_to_write)
		__field(unsigned long, wrote)
		__field(unsigned long, cgroup_ino)
	),
	TP_fast_assign(
		strlcpy(__entry->name, bdi_dev_name(inode_to_bdi(inode)), 32);
		__entry->ino = inode->i_ino;
		__entry->state = inode->i_state;
		__entry->dirtied_when = inode->dirtied_when;
		__entry->writeback_index = inode->i_mapping->writeback_index;
		__entry->nr_to_write = (long)nr_to_write;
		__entry->wrote = nr_to_write - (unsigned long)wbc->nr_to_write;
		__entry->cgroup_ino = wbc_cgroup_ino(wbc);
	),
	TP_printk("bdi %s: ino=%lu state=%s dirtied_when=%lu age=%lu index=%lu to_write=%ld "
		  "wrote=%lu cgroup_ino=%lu",
		  __entry->name, __entry->ino, show_inode_state(__entry->state),
		  __entry->dirtied_when, (jiffies - __entry->dirtied_when) / HZ,
		  __entry->writeback_index, __entry->nr_to_write, __entry->wrote,
		  __entry->cgroup_ino)
);

DEFINE_EVENT(writeback_single_inode_template, writeback_single_inode_start,
	TP_PROTO(struct inode *inode, struct writeback_control *wbc, unsigned long nr_to_write),
	TP_ARGS(inode, wbc, nr_to_write)
);

DEFINE_EVENT(writeback_single_inode_template, writeback_single_inode,
	TP_PROTO(struct inode *inode, struct writeback_control *wbc, unsigned long nr_to_write),
	TP_ARGS(inode, wbc, nr_to_write)
);

#endif /* the events */

#undef TRACE_SYSTEM
#define TRACE_SYSTEM writeback
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE <cgwb/trace/writeback.h>
#include <cgwb/trace/define_trace.h>
