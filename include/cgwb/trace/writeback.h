/*
 * The writeback trace events: Linux 6.1's include/trace/events/writeback.h names, fields
 * and TP_printk text. Each trace_<event>(...) call site costs one branch when the event
 * is off (include/cgwb/trace.h); the recorders and formatters are fs/trace-writeback.c.
 */
#ifndef CGWB_TRACE_WRITEBACK_H
#define CGWB_TRACE_WRITEBACK_H

#include <cgwb/trace.h>

struct bdi_writeback;
struct wb_writeback_work;
struct writeback_control;
struct inode;
struct page;
struct address_space;

extern struct trace_event trace_event_writeback_dirty_folio, trace_event_writeback_queue,
	trace_event_writeback_exec, trace_event_writeback_start, trace_event_writeback_written,
	trace_event_writeback_wait, trace_event_writeback_pages_written,
	trace_event_writeback_wake_background, trace_event_global_dirty_state,
	trace_event_bdi_dirty_ratelimit, trace_event_balance_dirty_pages,
	trace_event_inode_foreign_history, trace_event_inode_switch_wbs,
	trace_event_track_foreign_dirty, trace_event_flush_foreign,
	trace_event_writeback_write_inode_start, trace_event_writeback_write_inode,
	trace_event_writeback_mark_inode_dirty, trace_event_writeback_dirty_inode_start,
	trace_event_writeback_dirty_inode, trace_event_writeback_queue_io,
	trace_event_writeback_single_inode_start, trace_event_writeback_single_inode,
	trace_event_writeback_sb_inodes_requeue, trace_event_wbc_writepage;

#define trace_writeback_dirty_folio(...) TRACE_CALL(writeback_dirty_folio, __VA_ARGS__)
#define trace_writeback_queue(...) TRACE_CALL(writeback_queue, __VA_ARGS__)
#define trace_writeback_exec(...) TRACE_CALL(writeback_exec, __VA_ARGS__)
#define trace_writeback_start(...) TRACE_CALL(writeback_start, __VA_ARGS__)
#define trace_writeback_written(...) TRACE_CALL(writeback_written, __VA_ARGS__)
#define trace_writeback_wait(...) TRACE_CALL(writeback_wait, __VA_ARGS__)
#define trace_writeback_pages_written(...) TRACE_CALL(writeback_pages_written, __VA_ARGS__)
#define trace_writeback_wake_background(...) TRACE_CALL(writeback_wake_background, __VA_ARGS__)
#define trace_global_dirty_state(...) TRACE_CALL(global_dirty_state, __VA_ARGS__)
#define trace_bdi_dirty_ratelimit(...) TRACE_CALL(bdi_dirty_ratelimit, __VA_ARGS__)
#define trace_balance_dirty_pages(...) TRACE_CALL(balance_dirty_pages, __VA_ARGS__)
#define trace_inode_foreign_history(...) TRACE_CALL(inode_foreign_history, __VA_ARGS__)
#define trace_inode_switch_wbs(...) TRACE_CALL(inode_switch_wbs, __VA_ARGS__)
#define trace_track_foreign_dirty(...) TRACE_CALL(track_foreign_dirty, __VA_ARGS__)
#define trace_flush_foreign(...) TRACE_CALL(flush_foreign, __VA_ARGS__)
#define trace_writeback_write_inode_start(...) TRACE_CALL(writeback_write_inode_start, __VA_ARGS__)
#define trace_writeback_write_inode(...) TRACE_CALL(writeback_write_inode, __VA_ARGS__)
#define trace_writeback_mark_inode_dirty(...) TRACE_CALL(writeback_mark_inode_dirty, __VA_ARGS__)
#define trace_writeback_dirty_inode_start(...) TRACE_CALL(writeback_dirty_inode_start, __VA_ARGS__)
#define trace_writeback_dirty_inode(...) TRACE_CALL(writeback_dirty_inode, __VA_ARGS__)
#define trace_writeback_queue_io(...) TRACE_CALL(writeback_queue_io, __VA_ARGS__)
#define trace_writeback_single_inode_start(...) \
	TRACE_CALL(writeback_single_inode_start, __VA_ARGS__)
#define trace_writeback_single_inode(...) TRACE_CALL(writeback_single_inode, __VA_ARGS__)
#define trace_writeback_sb_inodes_requeue(...) TRACE_CALL(writeback_sb_inodes_requeue, __VA_ARGS__)
#define trace_wbc_writepage(...) TRACE_CALL(wbc_writepage, __VA_ARGS__)

/* The recorders behind the macros: call the macros, never these. */
void __trace_writeback_dirty_folio(struct page *page, struct address_space *mapping);
void __trace_writeback_queue(struct bdi_writeback *wb, struct wb_writeback_work *work);
void __trace_writeback_exec(struct bdi_writeback *wb, struct wb_writeback_work *work);
void __trace_writeback_start(struct bdi_writeback *wb, struct wb_writeback_work *work);
void __trace_writeback_written(struct bdi_writeback *wb, struct wb_writeback_work *work);
void __trace_writeback_wait(struct bdi_writeback *wb, struct wb_writeback_work *work);
void __trace_writeback_pages_written(long pages_written);
void __trace_writeback_wake_background(struct bdi_writeback *wb);
void __trace_global_dirty_state(unsigned long background_thresh, unsigned long dirty_thresh);
void __trace_bdi_dirty_ratelimit(struct bdi_writeback *wb, unsigned long dirty_rate,
				 unsigned long task_ratelimit);
/* Linux's arguments; pause, period and the times in jiffies, the rates in pages/s. */
void __trace_balance_dirty_pages(struct bdi_writeback *wb, unsigned long thresh,
				 unsigned long bg_thresh, unsigned long dirty,
				 unsigned long bdi_thresh, unsigned long bdi_dirty,
				 unsigned long dirty_ratelimit, unsigned long task_ratelimit,
				 unsigned long dirtied, unsigned long period, long pause,
				 unsigned long start_time);
void __trace_inode_foreign_history(struct inode *inode, struct writeback_control *wbc,
				   unsigned int history);
void __trace_inode_switch_wbs(struct inode *inode, struct bdi_writeback *old_wb,
			      struct bdi_writeback *new_wb);
void __trace_track_foreign_dirty(struct page *page, struct bdi_writeback *wb);
void __trace_flush_foreign(struct bdi_writeback *wb, unsigned int frn_bdi_id,
			   unsigned int frn_memcg_id);
void __trace_writeback_write_inode_start(struct inode *inode, struct writeback_control *wbc);
void __trace_writeback_write_inode(struct inode *inode, struct writeback_control *wbc);
void __trace_writeback_mark_inode_dirty(struct inode *inode, int flags);
void __trace_writeback_dirty_inode_start(struct inode *inode, int flags);
void __trace_writeback_dirty_inode(struct inode *inode, int flags);
void __trace_writeback_queue_io(struct bdi_writeback *wb, struct wb_writeback_work *work,
				unsigned long dirtied_before, int moved);
void __trace_writeback_single_inode_start(struct inode *inode, struct writeback_control *wbc,
					  unsigned long nr_to_write);
void __trace_writeback_single_inode(struct inode *inode, struct writeback_control *wbc,
				    unsigned long nr_to_write);
void __trace_writeback_sb_inodes_requeue(struct inode *inode);
struct backing_dev_info;
void __trace_wbc_writepage(struct writeback_control *wbc, struct backing_dev_info *bdi);

#endif
