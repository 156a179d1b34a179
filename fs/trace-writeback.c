/*
 * The writeback trace events (include/cgwb/trace/writeback.h). Each event has a recorder,
 * which copies Linux's TP_STRUCT__entry fields (computed as Linux's TP_fast_assign does)
 * into a trace_entry, and a formatter, which prints Linux's TP_printk text from them when
 * the trace is read. Fields go into e->field[] in TP_STRUCT__entry's order; the bdi name
 * goes into e->name. Events of one Linux class share their recorder and formatter.
 *
 * cgroup_ino is the cgroup's id (1 for the root), as Linux's cgroup_ino() is the id of the
 * cgroup's kernfs node.
 */
#include <cgwb/trace/writeback.h>
#include <cgwb/memcontrol.h>
#include <cgwb/pseudofs.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include "internal.h"

#define F(i) (e->field[i])
#define KBps(x) ((x) << (PAGE_SHIFT - 10))

static unsigned long wb_cgroup_ino(struct bdi_writeback *wb)
{
	return wb_memcg(wb)->css.cgroup->id;
}

static unsigned long wbc_cgroup_ino(struct writeback_control *wbc)
{
	return wbc->wb ? wb_cgroup_ino(wbc->wb) : 1;
}

static void set_name(struct trace_entry *e, struct backing_dev_info *bdi)
{
	strlcpy(e->name, bdi ? bdi->dev_name : "(unknown)", sizeof(e->name));
}

/* ---------------------------------------------------------------- writeback_folio_template */
static void print_folio(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: ino=%lu index=%lu", e->name, (unsigned long)F(0), (unsigned long)F(1));
}
struct trace_event trace_event_writeback_dirty_folio = { "writeback_dirty_folio", false, print_folio };

void __trace_writeback_dirty_folio(struct page *page, struct address_space *mapping)
{
	struct trace_entry e;

	set_name(&e, mapping ? inode_to_bdi(mapping->host) : NULL);
	e.field[0] = mapping ? mapping->host->i_ino : 0;
	e.field[1] = page->index;
	trace_record(&trace_event_writeback_dirty_folio, &e);
}

/* ---------------------------------------------------------------- writeback_work_class */
static void print_work(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s,
		   "bdi %s: sb_dev %u:%u nr_pages=%ld sync_mode=%d kupdate=%d range_cyclic=%d "
		   "background=%d reason=%s cgroup_ino=%lu",
		   e->name, MAJOR(F(1)), MINOR(F(1)), (long)F(0), (int)F(2), (int)F(3), (int)F(4),
		   (int)F(5), wb_reason_name((enum wb_reason)F(6)), (unsigned long)F(7));
}
struct trace_event trace_event_writeback_queue = { "writeback_queue", false, print_work };
struct trace_event trace_event_writeback_exec = { "writeback_exec", false, print_work };
struct trace_event trace_event_writeback_start = { "writeback_start", false, print_work };
struct trace_event trace_event_writeback_written = { "writeback_written", false, print_work };
struct trace_event trace_event_writeback_wait = { "writeback_wait", false, print_work };

static void record_work(struct trace_event *ev, struct bdi_writeback *wb,
			struct wb_writeback_work *work)
{
	struct trace_entry e;

	set_name(&e, wb->bdi);
	e.field[0] = (u64)work->nr_pages;
	e.field[1] = work->sb ? work->sb->s_dev : 0;
	e.field[2] = work->sync_mode;
	e.field[3] = work->for_kupdate;
	e.field[4] = work->range_cyclic;
	e.field[5] = work->for_background;
	e.field[6] = work->reason;
	e.field[7] = wb_cgroup_ino(wb);
	trace_record(ev, &e);
}

void __trace_writeback_queue(struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	record_work(&trace_event_writeback_queue, wb, work);
}

void __trace_writeback_exec(struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	record_work(&trace_event_writeback_exec, wb, work);
}

void __trace_writeback_start(struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	record_work(&trace_event_writeback_start, wb, work);
}

void __trace_writeback_written(struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	record_work(&trace_event_writeback_written, wb, work);
}

void __trace_writeback_wait(struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	record_work(&trace_event_writeback_wait, wb, work);
}

/* ---------------------------------------------------------------- writeback_pages_written */
static void print_pages_written(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "%ld", (long)F(0));
}
struct trace_event trace_event_writeback_pages_written = { "writeback_pages_written", false,
							   print_pages_written };

void __trace_writeback_pages_written(long pages_written)
{
	struct trace_entry e;

	e.name[0] = 0;
	e.field[0] = (u64)pages_written;
	trace_record(&trace_event_writeback_pages_written, &e);
}

/* ---------------------------------------------------------------- writeback_class */
static void print_wb(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: cgroup_ino=%lu", e->name, (unsigned long)F(0));
}
struct trace_event trace_event_writeback_wake_background = { "writeback_wake_background", false,
							     print_wb };

void __trace_writeback_wake_background(struct bdi_writeback *wb)
{
	struct trace_entry e;

	set_name(&e, wb->bdi);
	e.field[0] = wb_cgroup_ino(wb);
	trace_record(&trace_event_writeback_wake_background, &e);
}

/* ---------------------------------------------------------------- global_dirty_state */
static void print_global_dirty_state(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s,
		   "dirty=%lu writeback=%lu bg_thresh=%lu thresh=%lu limit=%lu dirtied=%lu "
		   "written=%lu",
		   (unsigned long)F(0), (unsigned long)F(1), (unsigned long)F(2), (unsigned long)F(3),
		   (unsigned long)F(4), (unsigned long)F(5), (unsigned long)F(6));
}
struct trace_event trace_event_global_dirty_state = { "global_dirty_state", false,
						      print_global_dirty_state };

void __trace_global_dirty_state(unsigned long background_thresh, unsigned long dirty_thresh)
{
	struct trace_entry e;

	e.name[0] = 0;
	e.field[0] = global_node_page_state(NR_FILE_DIRTY);
	e.field[1] = global_node_page_state(NR_WRITEBACK);
	e.field[2] = background_thresh;
	e.field[3] = dirty_thresh;
	e.field[4] = global_wb_domain.dirty_limit;
	e.field[5] = global_node_page_state(NR_DIRTIED);
	e.field[6] = global_node_page_state(NR_WRITTEN);
	trace_record(&trace_event_global_dirty_state, &e);
}

/* ---------------------------------------------------------------- bdi_dirty_ratelimit */
static void print_bdi_dirty_ratelimit(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s,
		   "bdi %s: write_bw=%lu awrite_bw=%lu dirty_rate=%lu dirty_ratelimit=%lu "
		   "task_ratelimit=%lu balanced_dirty_ratelimit=%lu cgroup_ino=%lu",
		   e->name, (unsigned long)F(0), (unsigned long)F(1), (unsigned long)F(2),
		   (unsigned long)F(3), (unsigned long)F(4), (unsigned long)F(5),
		   (unsigned long)F(6));
}
struct trace_event trace_event_bdi_dirty_ratelimit = { "bdi_dirty_ratelimit", false,
						       print_bdi_dirty_ratelimit };

void __trace_bdi_dirty_ratelimit(struct bdi_writeback *wb, unsigned long dirty_rate,
				 unsigned long task_ratelimit)
{
	struct trace_entry e;

	set_name(&e, wb->bdi);
	e.field[0] = KBps(wb->write_bandwidth);
	e.field[1] = KBps(wb->avg_write_bandwidth);
	e.field[2] = KBps(dirty_rate);
	e.field[3] = KBps(wb->dirty_ratelimit);
	e.field[4] = KBps(task_ratelimit);
	e.field[5] = KBps(wb->balanced_dirty_ratelimit);
	e.field[6] = wb_cgroup_ino(wb);
	trace_record(&trace_event_bdi_dirty_ratelimit, &e);
}

/* ---------------------------------------------------------------- balance_dirty_pages */
static void print_balance_dirty_pages(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s,
		   "bdi %s: limit=%lu setpoint=%lu dirty=%lu bdi_setpoint=%lu bdi_dirty=%lu "
		   "dirty_ratelimit=%lu task_ratelimit=%lu dirtied=%u dirtied_pause=%u "
		   "paused=%lu pause=%ld period=%lu think=%ld cgroup_ino=%lu",
		   e->name, (unsigned long)F(0), (unsigned long)F(1), (unsigned long)F(2),
		   (unsigned long)F(3), (unsigned long)F(4), (unsigned long)F(5),
		   (unsigned long)F(6), (unsigned int)F(7), (unsigned int)F(8), (unsigned long)F(9),
		   (long)F(10), (unsigned long)F(11), (long)F(12), (unsigned long)F(13));
}
struct trace_event trace_event_balance_dirty_pages = { "balance_dirty_pages", false,
						       print_balance_dirty_pages };

void __trace_balance_dirty_pages(struct bdi_writeback *wb, unsigned long thresh,
				 unsigned long bg_thresh, unsigned long dirty,
				 unsigned long bdi_thresh, unsigned long bdi_dirty,
				 unsigned long dirty_ratelimit, unsigned long task_ratelimit,
				 unsigned long dirtied, unsigned long period, long pause,
				 unsigned long start_time)
{
	unsigned long freerun = (thresh + bg_thresh) / 2;
	unsigned long limit = global_wb_domain.dirty_limit;
	unsigned long setpoint = (limit + freerun) / 2;
	struct trace_entry e;

	set_name(&e, wb->bdi);
	e.field[0] = limit;
	e.field[1] = setpoint;
	e.field[2] = dirty;
	e.field[3] = setpoint * bdi_thresh / (thresh + 1);
	e.field[4] = bdi_dirty;
	e.field[5] = KBps(dirty_ratelimit);
	e.field[6] = KBps(task_ratelimit);
	e.field[7] = (unsigned int)dirtied;
	e.field[8] = (unsigned int)current->nr_dirtied_pause;
	e.field[9] = (jiffies - start_time) * 1000 / HZ;
	e.field[10] = (u64)(pause * 1000 / HZ);
	e.field[11] = period * 1000 / HZ;
	e.field[12] = (u64)(current->dirty_paused_when == 0 ?
				    0 :
				    (long)(jiffies - current->dirty_paused_when) * 1000 / HZ);
	e.field[13] = wb_cgroup_ino(wb);
	trace_record(&trace_event_balance_dirty_pages, &e);
}

/* ---------------------------------------------------------------- cgroup writeback */
static void print_foreign_history(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: ino=%lu cgroup_ino=%lu history=0x%x", e->name, (unsigned long)F(0),
		   (unsigned long)F(1), (unsigned int)F(2));
}
struct trace_event trace_event_inode_foreign_history = { "inode_foreign_history", false,
							 print_foreign_history };

void __trace_inode_foreign_history(struct inode *inode, struct writeback_control *wbc,
				   unsigned int history)
{
	struct trace_entry e;

	set_name(&e, inode_to_bdi(inode));
	e.field[0] = inode->i_ino;
	e.field[1] = wbc_cgroup_ino(wbc);
	e.field[2] = history;
	trace_record(&trace_event_inode_foreign_history, &e);
}

static void print_switch_wbs(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: ino=%lu old_cgroup_ino=%lu new_cgroup_ino=%lu", e->name,
		   (unsigned long)F(0), (unsigned long)F(1), (unsigned long)F(2));
}
struct trace_event trace_event_inode_switch_wbs = { "inode_switch_wbs", false, print_switch_wbs };

void __trace_inode_switch_wbs(struct inode *inode, struct bdi_writeback *old_wb,
			      struct bdi_writeback *new_wb)
{
	struct trace_entry e;

	set_name(&e, old_wb->bdi);
	e.field[0] = inode->i_ino;
	e.field[1] = wb_cgroup_ino(old_wb);
	e.field[2] = wb_cgroup_ino(new_wb);
	trace_record(&trace_event_inode_switch_wbs, &e);
}

static void print_track_foreign(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s[%llu]: ino=%lu memcg_id=%u cgroup_ino=%lu page_cgroup_ino=%lu",
		   e->name, (unsigned long long)F(0), (unsigned long)F(1), (unsigned int)F(2),
		   (unsigned long)F(3), (unsigned long)F(4));
}
struct trace_event trace_event_track_foreign_dirty = { "track_foreign_dirty", false,
						       print_track_foreign };

void __trace_track_foreign_dirty(struct page *page, struct bdi_writeback *wb)
{
	struct mem_cgroup *page_mcg = page_memcg(page);
	struct trace_entry e;

	set_name(&e, wb->bdi);
	e.field[0] = wb->bdi->id;
	e.field[1] = page->mapping ? page->mapping->host->i_ino : 0;
	e.field[2] = (unsigned int)wb_memcg(wb)->css.id;
	e.field[3] = wb_cgroup_ino(wb);
	e.field[4] = page_mcg ? page_mcg->css.cgroup->id : 1;
	trace_record(&trace_event_track_foreign_dirty, &e);
}

static void print_flush_foreign(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: cgroup_ino=%lu frn_bdi_id=%u frn_memcg_id=%u", e->name,
		   (unsigned long)F(0), (unsigned int)F(1), (unsigned int)F(2));
}
struct trace_event trace_event_flush_foreign = { "flush_foreign", false, print_flush_foreign };

void __trace_flush_foreign(struct bdi_writeback *wb, unsigned int frn_bdi_id,
			   unsigned int frn_memcg_id)
{
	struct trace_entry e;

	set_name(&e, wb->bdi);
	e.field[0] = wb_cgroup_ino(wb);
	e.field[1] = frn_bdi_id;
	e.field[2] = frn_memcg_id;
	trace_record(&trace_event_flush_foreign, &e);
}

/* ---------------------------------------------------------------- writeback_write_inode_template */
static void print_write_inode(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: ino=%lu sync_mode=%d cgroup_ino=%lu", e->name, (unsigned long)F(0),
		   (int)F(1), (unsigned long)F(2));
}
struct trace_event trace_event_writeback_write_inode_start = { "writeback_write_inode_start", false,
							       print_write_inode };
struct trace_event trace_event_writeback_write_inode = { "writeback_write_inode", false,
							 print_write_inode };

static void record_write_inode(struct trace_event *ev, struct inode *inode,
			       struct writeback_control *wbc)
{
	struct trace_entry e;

	set_name(&e, inode_to_bdi(inode));
	e.field[0] = inode->i_ino;
	e.field[1] = wbc->sync_mode;
	e.field[2] = wbc_cgroup_ino(wbc);
	trace_record(ev, &e);
}

void __trace_writeback_write_inode_start(struct inode *inode, struct writeback_control *wbc)
{
	record_write_inode(&trace_event_writeback_write_inode_start, inode, wbc);
}

void __trace_writeback_write_inode(struct inode *inode, struct writeback_control *wbc)
{
	record_write_inode(&trace_event_writeback_write_inode, inode, wbc);
}

/* ---------------------------------------------------------------- inode state */
/* Linux's show_inode_state(): the set flags' names joined by "|", unknown bits in hex. */
static void print_inode_state(struct seq_buf *s, unsigned long state)
{
	static const struct {
		unsigned long flag;
		const char *name;
	} names[] = {
		{ I_DIRTY_SYNC, "I_DIRTY_SYNC" },
		{ I_DIRTY_DATASYNC, "I_DIRTY_DATASYNC" },
		{ I_DIRTY_PAGES, "I_DIRTY_PAGES" },
		{ I_NEW, "I_NEW" },
		{ I_WILL_FREE, "I_WILL_FREE" },
		{ I_FREEING, "I_FREEING" },
		{ I_CLEAR, "I_CLEAR" },
		{ I_SYNC, "I_SYNC" },
		{ I_DIRTY_TIME, "I_DIRTY_TIME" },
		{ I_REFERENCED, "I_REFERENCED" },
	};
	const char *sep = "";

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (state & names[i].flag) {
			seq_printf(s, "%s%s", sep, names[i].name);
			state &= ~names[i].flag;
			sep = "|";
		}
	}
	if (state)
		seq_printf(s, "%s0x%lx", sep, state);
}

/* ---------------------------------------------------------------- writeback_dirty_inode_template */
static void print_dirty_inode(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: ino=%lu state=", e->name, (unsigned long)F(0));
	print_inode_state(s, (unsigned long)F(1));
	seq_puts(s, " flags=");
	print_inode_state(s, (unsigned long)F(2));
}
struct trace_event trace_event_writeback_mark_inode_dirty = { "writeback_mark_inode_dirty", false,
							      print_dirty_inode };
struct trace_event trace_event_writeback_dirty_inode_start = { "writeback_dirty_inode_start", false,
							       print_dirty_inode };
struct trace_event trace_event_writeback_dirty_inode = { "writeback_dirty_inode", false,
							 print_dirty_inode };

static void record_dirty_inode(struct trace_event *ev, struct inode *inode, int flags)
{
	struct trace_entry e;

	set_name(&e, inode_to_bdi(inode));
	e.field[0] = inode->i_ino;
	e.field[1] = inode->i_state;
	e.field[2] = (unsigned long)flags;
	trace_record(ev, &e);
}

void __trace_writeback_mark_inode_dirty(struct inode *inode, int flags)
{
	record_dirty_inode(&trace_event_writeback_mark_inode_dirty, inode, flags);
}

void __trace_writeback_dirty_inode_start(struct inode *inode, int flags)
{
	record_dirty_inode(&trace_event_writeback_dirty_inode_start, inode, flags);
}

void __trace_writeback_dirty_inode(struct inode *inode, int flags)
{
	record_dirty_inode(&trace_event_writeback_dirty_inode, inode, flags);
}

/* ---------------------------------------------------------------- writeback_queue_io */
static void print_queue_io(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: older=%lu age=%ld enqueue=%d reason=%s cgroup_ino=%lu", e->name,
		   (unsigned long)F(0), (long)F(1), (int)F(2), wb_reason_name((enum wb_reason)F(3)),
		   (unsigned long)F(4));
}
struct trace_event trace_event_writeback_queue_io = { "writeback_queue_io", false, print_queue_io };

void __trace_writeback_queue_io(struct bdi_writeback *wb, struct wb_writeback_work *work,
				unsigned long dirtied_before, int moved)
{
	struct trace_entry e;

	set_name(&e, wb->bdi);
	e.field[0] = dirtied_before;
	e.field[1] = (u64)((long)(jiffies - dirtied_before) * 1000 / HZ);
	e.field[2] = (u64)moved;
	e.field[3] = work->reason;
	e.field[4] = wb_cgroup_ino(wb);
	trace_record(&trace_event_writeback_queue_io, &e);
}

/* ---------------------------------------------------------------- writeback_single_inode_template */
/* age is computed when the line is printed, as Linux's TP_printk does: from jiffies then */
static void print_single_inode(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: ino=%lu state=", e->name, (unsigned long)F(0));
	print_inode_state(s, (unsigned long)F(1));
	seq_printf(s, " dirtied_when=%lu age=%lu index=%lu to_write=%ld wrote=%lu cgroup_ino=%lu",
		   (unsigned long)F(2), (jiffies - (unsigned long)F(2)) / HZ, (unsigned long)F(3),
		   (long)F(4), (unsigned long)F(5), (unsigned long)F(6));
}
struct trace_event trace_event_writeback_single_inode_start = { "writeback_single_inode_start",
								false, print_single_inode };
struct trace_event trace_event_writeback_single_inode = { "writeback_single_inode", false,
							  print_single_inode };

static void record_single_inode(struct trace_event *ev, struct inode *inode,
				struct writeback_control *wbc, unsigned long nr_to_write)
{
	struct trace_entry e;

	set_name(&e, inode_to_bdi(inode));
	e.field[0] = inode->i_ino;
	e.field[1] = inode->i_state;
	e.field[2] = inode->dirtied_when;
	e.field[3] = inode->i_mapping->writeback_index;
	e.field[4] = nr_to_write;
	e.field[5] = nr_to_write - (unsigned long)wbc->nr_to_write;
	e.field[6] = wbc_cgroup_ino(wbc);
	trace_record(ev, &e);
}

void __trace_writeback_single_inode_start(struct inode *inode, struct writeback_control *wbc,
					  unsigned long nr_to_write)
{
	record_single_inode(&trace_event_writeback_single_inode_start, inode, wbc, nr_to_write);
}

void __trace_writeback_single_inode(struct inode *inode, struct writeback_control *wbc,
				    unsigned long nr_to_write)
{
	record_single_inode(&trace_event_writeback_single_inode, inode, wbc, nr_to_write);
}

/* ---------------------------------------------------------------- writeback_sb_inodes_requeue */
static void print_requeue(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "bdi %s: ino=%lu state=", e->name, (unsigned long)F(0));
	print_inode_state(s, (unsigned long)F(1));
	seq_printf(s, " dirtied_when=%lu age=%lu cgroup_ino=%lu", (unsigned long)F(2),
		   (jiffies - (unsigned long)F(2)) / HZ, (unsigned long)F(3));
}
struct trace_event trace_event_writeback_sb_inodes_requeue = { "writeback_sb_inodes_requeue", false,
							       print_requeue };

void __trace_writeback_sb_inodes_requeue(struct inode *inode)
{
	struct trace_entry e;

	set_name(&e, inode_to_bdi(inode));
	e.field[0] = inode->i_ino;
	e.field[1] = inode->i_state;
	e.field[2] = inode->dirtied_when;
	e.field[3] = inode->i_wb ? wb_cgroup_ino(inode->i_wb) : 1;
	trace_record(&trace_event_writeback_sb_inodes_requeue, &e);
}

/* ---------------------------------------------------------------- wbc_class */
static void print_wbc(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s,
		   "bdi %s: towrt=%ld skip=%ld mode=%d kupd=%d bgrd=%d reclm=%d cyclic=%d "
		   "start=0x%lx end=0x%lx cgroup_ino=%lu",
		   e->name, (long)F(0), (long)F(1), (int)F(2), (int)F(3), (int)F(4), (int)F(5),
		   (int)F(6), (unsigned long)F(7), (unsigned long)F(8), (unsigned long)F(9));
}
struct trace_event trace_event_wbc_writepage = { "wbc_writepage", false, print_wbc };

void __trace_wbc_writepage(struct writeback_control *wbc, struct backing_dev_info *bdi)
{
	struct trace_entry e;

	set_name(&e, bdi);
	e.field[0] = (u64)wbc->nr_to_write;
	e.field[1] = (u64)wbc->pages_skipped;
	e.field[2] = wbc->sync_mode;
	e.field[3] = wbc->for_kupdate;
	e.field[4] = wbc->for_background;
	e.field[5] = wbc->for_reclaim;
	e.field[6] = wbc->range_cyclic;
	e.field[7] = (u64)wbc->range_start;
	e.field[8] = (u64)wbc->range_end;
	e.field[9] = wbc_cgroup_ino(wbc);
	trace_record(&trace_event_wbc_writepage, &e);
}

/* tracefs lists them alphabetically, as Linux's events/writeback/ does */
struct trace_event *const writeback_trace_events[] = {
	&trace_event_balance_dirty_pages,
	&trace_event_bdi_dirty_ratelimit,
	&trace_event_flush_foreign,
	&trace_event_global_dirty_state,
	&trace_event_inode_foreign_history,
	&trace_event_inode_switch_wbs,
	&trace_event_track_foreign_dirty,
	&trace_event_wbc_writepage,
	&trace_event_writeback_dirty_folio,
	&trace_event_writeback_dirty_inode,
	&trace_event_writeback_dirty_inode_start,
	&trace_event_writeback_exec,
	&trace_event_writeback_mark_inode_dirty,
	&trace_event_writeback_pages_written,
	&trace_event_writeback_queue,
	&trace_event_writeback_queue_io,
	&trace_event_writeback_sb_inodes_requeue,
	&trace_event_writeback_single_inode,
	&trace_event_writeback_single_inode_start,
	&trace_event_writeback_start,
	&trace_event_writeback_wait,
	&trace_event_writeback_wake_background,
	&trace_event_writeback_write_inode,
	&trace_event_writeback_write_inode_start,
	&trace_event_writeback_written,
};
const unsigned int nr_writeback_trace_events = ARRAY_SIZE(writeback_trace_events);

struct trace_system writeback_trace_system = {
	.name = "writeback",
	.events = writeback_trace_events,
	.nr = ARRAY_SIZE(writeback_trace_events),
};
