/*
 * Tracing: the ring buffer (wrap, lost entries, the two kinds of readers), the line format
 * of the writeback events against lines in Linux 6.1's format for the same field values,
 * and the tracefs files (enable, tracing_on, set_event, trace, trace_pipe, buffer_size_kb).
 */
#include "vfs_test.h"
#include <cgwb/trace/writeback.h>
#include <cgwb/pseudofs.h>
#include <cgwb/string.h>

TestSuite(trace, .init = vfs_test_setup, .fini = vfs_test_teardown);

/* writeback_pages_written's one field, which the ring tests number their entries by */
static long *pages(struct trace_entry *e)
{
	return &((struct trace_event_raw_writeback_pages_written *)e->data)->pages;
}

static struct trace_entry entry(long value)
{
	struct trace_entry e = { .event = &trace_event_writeback_pages_written };

	*pages(&e) = value;
	return e;
}

Test(trace, ring_wraps_and_counts_lost)
{
	struct trace_ring r;
	struct trace_entry e = entry(0);
	u64 pos = 0;

	cr_assert_eq(trace_ring_init(&r, 4), 0);
	for (long i = 0; i < 6; i++) {
		*pages(&e) = i;
		trace_ring_write(&r, &e);
	}
	cr_assert_eq(trace_ring_entries(&r), 4);
	cr_assert_eq(r.lost, 2, "the two oldest were overwritten");
	for (long want = 2; want < 6; want++) {
		cr_assert(trace_ring_peek(&r, &pos, &e));
		cr_assert_eq(*pages(&e), want);
	}
	cr_assert_not(trace_ring_peek(&r, &pos, &e));
	trace_ring_reset(&r);
	cr_assert_eq(trace_ring_entries(&r), 0);
	cr_assert_eq(r.lost, 0);
	trace_ring_free(&r);
}

Test(trace, trace_reads_and_trace_pipe_consumes)
{
	struct trace_ring r;
	struct trace_entry e = entry(0);
	u64 pos = 0, pos2 = 0;

	cr_assert_eq(trace_ring_init(&r, 4), 0);
	for (long i = 0; i < 3; i++) {
		*pages(&e) = i;
		trace_ring_write(&r, &e);
	}
	/* a non-consuming reader, twice: the same entries */
	for (int pass = 0; pass < 2; pass++) {
		u64 p = 0;
		long n = 0;

		while (trace_ring_peek(&r, &p, &e))
			cr_assert_eq(*pages(&e), n++);
		cr_assert_eq(n, 3);
	}
	cr_assert(trace_ring_peek(&r, &pos, &e));
	cr_assert_eq(*pages(&e), 0);
	/* the consuming reader takes the oldest two; the other reader skips past them */
	cr_assert(trace_ring_consume(&r, &e));
	cr_assert_eq(*pages(&e), 0);
	cr_assert(trace_ring_consume(&r, &e));
	cr_assert_eq(*pages(&e), 1);
	cr_assert_eq(trace_ring_entries(&r), 1);
	cr_assert(trace_ring_peek(&r, &pos, &e));
	cr_assert_eq(*pages(&e), 2, "a reader behind the consumer resumes at the oldest left");
	/* wrapping under a slow reader: it resumes at the oldest entry still held */
	for (long i = 3; i < 10; i++) {
		*pages(&e) = i;
		trace_ring_write(&r, &e);
	}
	cr_assert(trace_ring_peek(&r, &pos2, &e));
	cr_assert_eq(*pages(&e), 6);
	cr_assert_eq(r.lost, 4, "2..5 overwritten");
	cr_assert(trace_ring_consume(&r, &e));
	cr_assert_eq(*pages(&e), 6);
	trace_ring_free(&r);
}

/* One formatted line of event ev whose fields are the size bytes at fields, as trace prints it. */
static void format(char *out, size_t size, struct trace_event *ev, const void *fields,
		   size_t fields_size)
{
	struct trace_entry e = { .ts_ns = 3038145123ULL, .event = ev, .pid = 24 };
	struct seq_buf s;

	strlcpy(e.comm, "kworker/u2:1", sizeof(e.comm));
	cr_assert_leq(fields_size, sizeof(e.data));
	memcpy(e.data, fields, fields_size);
	seq_buf_init(&s);
	trace_print_line(&s, &e);
	cr_assert_eq(s.err, 0);
	strlcpy(out, s.buf, size);
	seq_buf_free(&s);
}

/* The events CHECK_LINE has checked: each must be, with all the fields of its class. */
static const struct trace_event *checked[64];
static unsigned int nr_checked;

/* Event ev of class class, whose fields are named (.ino = 12, ...), prints want. */
#define CHECK_LINE(class, ev, want, ...)                                                           \
	do {                                                                                       \
		const struct trace_event_raw_##class f = { __VA_ARGS__ };                          \
		char got[512];                                                                     \
		format(got, sizeof(got), &trace_event_##ev, &f, sizeof(f));                        \
		cr_assert_str_eq(got,                                                              \
				 "    kworker/u2:1-24      [000] .....     3.038145: " want "\n"); \
		cr_assert_lt(nr_checked, ARRAY_SIZE(checked));                                     \
		checked[nr_checked++] = &trace_event_##ev;                                         \
	} while (0)

static bool was_checked(const struct trace_event *ev)
{
	for (unsigned int i = 0; i < nr_checked; i++)
		if (checked[i] == ev)
			return true;
	return false;
}

/* Every field of each class is given a value of its own, so that each shows in the text. */
#define WORK_FIELDS                                                                         \
	.name = "254:0", .nr_pages = 1024, .sb_dev = MKDEV(254, 0), .sync_mode = 1,         \
	.for_kupdate = 0, .range_cyclic = 0, .for_background = 0, .reason = WB_REASON_SYNC, \
	.cgroup_ino = 5
#define WORK_TEXT                                                                                  \
	"bdi 254:0: sb_dev 254:0 nr_pages=1024 sync_mode=1 kupdate=0 range_cyclic=0 background=0 " \
	"reason=sync cgroup_ino=5"
#define WRITE_INODE_FIELDS .name = "254:0", .ino = 12, .sync_mode = 1, .cgroup_ino = 23
#define WRITE_INODE_TEXT "bdi 254:0: ino=12 sync_mode=1 cgroup_ino=23"
#define DIRTY_INODE_FIELDS                                                          \
	.name = "254:0", .ino = 12, .state = I_DIRTY_SYNC | I_DIRTY_PAGES | I_SYNC, \
	.flags = I_DIRTY_PAGES
#define DIRTY_INODE_TEXT \
	"bdi 254:0: ino=12 state=I_DIRTY_SYNC|I_DIRTY_PAGES|I_SYNC flags=I_DIRTY_PAGES"

/* The expected text is Linux 6.1's TP_printk output for the same values. */
static void check_lines(void)
{
	CHECK_LINE(inode_foreign_history, inode_foreign_history,
		   "inode_foreign_history: bdi 254:0: ino=12 cgroup_ino=23 history=0x1",
		   .name = "254:0", .ino = 12, .cgroup_ino = 23, .history = 1);
	CHECK_LINE(inode_switch_wbs, inode_switch_wbs,
		   "inode_switch_wbs: bdi 254:0: ino=12 old_cgroup_ino=23 new_cgroup_ino=31",
		   .name = "254:0", .ino = 12, .old_cgroup_ino = 23, .new_cgroup_ino = 31);
	CHECK_LINE(writeback_work_class, writeback_start,
		   "writeback_start: bdi 254:0: sb_dev 0:0 nr_pages=9223372036854775807 "
		   "sync_mode=0 "
		   "kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=1",
		   .name = "254:0", .nr_pages = 0x7fffffffffffffffL, .range_cyclic = 1,
		   .for_background = 1, .reason = WB_REASON_BACKGROUND, .cgroup_ino = 1);
	CHECK_LINE(writeback_work_class, writeback_queue, "writeback_queue: " WORK_TEXT, WORK_FIELDS);
	CHECK_LINE(writeback_work_class, writeback_exec, "writeback_exec: " WORK_TEXT, WORK_FIELDS);
	CHECK_LINE(writeback_work_class, writeback_written, "writeback_written: " WORK_TEXT,
		   WORK_FIELDS);
	CHECK_LINE(writeback_work_class, writeback_wait, "writeback_wait: " WORK_TEXT, WORK_FIELDS);
	CHECK_LINE(writeback_work_class, writeback_queue,
		   "writeback_queue: bdi 254:0: sb_dev 254:3 nr_pages=-1 sync_mode=0 kupdate=1 "
		   "range_cyclic=1 background=1 reason=periodic cgroup_ino=7",
		   .name = "254:0", .nr_pages = -1, .sb_dev = MKDEV(254, 3), .for_kupdate = 1,
		   .range_cyclic = 1, .for_background = 1, .reason = WB_REASON_PERIODIC,
		   .cgroup_ino = 7);
	CHECK_LINE(global_dirty_state, global_dirty_state,
		   "global_dirty_state: dirty=1234 writeback=56 bg_thresh=2000 thresh=4000 "
		   "limit=4100 "
		   "dirtied=99999 written=98765",
		   .nr_dirty = 1234, .nr_writeback = 56, .background_thresh = 2000,
		   .dirty_thresh = 4000, .dirty_limit = 4100, .nr_dirtied = 99999,
		   .nr_written = 98765);
	CHECK_LINE(bdi_dirty_ratelimit, bdi_dirty_ratelimit,
		   "bdi_dirty_ratelimit: bdi 254:0: write_bw=102400 awrite_bw=98304 "
		   "dirty_rate=51200 "
		   "dirty_ratelimit=40960 task_ratelimit=38000 balanced_dirty_ratelimit=41000 "
		   "cgroup_ino=7",
		   .bdi = "254:0", .write_bw = 102400, .avg_write_bw = 98304, .dirty_rate = 51200,
		   .dirty_ratelimit = 40960, .task_ratelimit = 38000,
		   .balanced_dirty_ratelimit = 41000, .cgroup_ino = 7);
	CHECK_LINE(balance_dirty_pages, balance_dirty_pages,
		   "balance_dirty_pages: bdi 254:0: limit=4100 setpoint=3575 dirty=3600 "
		   "bdi_setpoint=1787 bdi_dirty=1800 dirty_ratelimit=40960 task_ratelimit=38000 "
		   "dirtied=32 dirtied_pause=31 paused=2 pause=12 period=13 think=1 cgroup_ino=7",
		   .bdi = "254:0", .limit = 4100, .setpoint = 3575, .dirty = 3600,
		   .bdi_setpoint = 1787, .bdi_dirty = 1800, .dirty_ratelimit = 40960,
		   .task_ratelimit = 38000, .dirtied = 32, .dirtied_pause = 31, .paused = 2,
		   .pause = 12, .period = 13, .think = 1, .cgroup_ino = 7);
	CHECK_LINE(balance_dirty_pages, balance_dirty_pages,
		   "balance_dirty_pages: bdi 254:0: limit=10 setpoint=8 dirty=9 bdi_setpoint=4 "
		   "bdi_dirty=5 dirty_ratelimit=4 task_ratelimit=0 dirtied=1 dirtied_pause=1 "
		   "paused=0 "
		   "pause=-3 period=0 think=-7 cgroup_ino=1",
		   .bdi = "254:0", .limit = 10, .setpoint = 8, .dirty = 9, .bdi_setpoint = 4,
		   .bdi_dirty = 5, .dirty_ratelimit = 4, .dirtied = 1, .dirtied_pause = 1,
		   .pause = -3, .think = -7, .cgroup_ino = 1);
	CHECK_LINE(track_foreign_dirty, track_foreign_dirty,
		   "track_foreign_dirty: bdi 254:0[1]: ino=12 memcg_id=3 cgroup_ino=23 "
		   "page_cgroup_ino=31",
		   .name = "254:0", .bdi_id = 1, .ino = 12, .memcg_id = 3, .cgroup_ino = 23,
		   .page_cgroup_ino = 31);
	CHECK_LINE(flush_foreign, flush_foreign,
		   "flush_foreign: bdi 254:0: cgroup_ino=31 frn_bdi_id=1 frn_memcg_id=3",
		   .name = "254:0", .cgroup_ino = 31, .frn_bdi_id = 1, .frn_memcg_id = 3);
	CHECK_LINE(writeback_class, writeback_wake_background,
		   "writeback_wake_background: bdi 254:0: cgroup_ino=1", .name = "254:0",
		   .cgroup_ino = 1);
	CHECK_LINE(writeback_folio_template, writeback_dirty_folio,
		   "writeback_dirty_folio: bdi 254:0: ino=12 index=4095", .name = "254:0",
		   .ino = 12, .index = 4095);
	CHECK_LINE(writeback_write_inode_template, writeback_write_inode,
		   "writeback_write_inode: " WRITE_INODE_TEXT, WRITE_INODE_FIELDS);
	CHECK_LINE(writeback_write_inode_template, writeback_write_inode_start,
		   "writeback_write_inode_start: " WRITE_INODE_TEXT, WRITE_INODE_FIELDS);
	CHECK_LINE(writeback_pages_written, writeback_pages_written,
		   "writeback_pages_written: 4096", .pages = 4096);
	CHECK_LINE(writeback_dirty_inode_template, writeback_mark_inode_dirty,
		   "writeback_mark_inode_dirty: " DIRTY_INODE_TEXT, DIRTY_INODE_FIELDS);
	CHECK_LINE(writeback_dirty_inode_template, writeback_dirty_inode_start,
		   "writeback_dirty_inode_start: " DIRTY_INODE_TEXT, DIRTY_INODE_FIELDS);
	CHECK_LINE(writeback_dirty_inode_template, writeback_dirty_inode,
		   "writeback_dirty_inode: bdi 254:0: ino=12 state= "
		   "flags=I_DIRTY_SYNC|I_DIRTY_DATASYNC|0x10000",
		   .name = "254:0", .ino = 12, .flags = I_DIRTY_SYNC | I_DIRTY_DATASYNC | 0x10000);
	CHECK_LINE(writeback_queue_io, writeback_queue_io,
		   "writeback_queue_io: bdi 254:0: older=4294937296 age=30000 enqueue=3 "
		   "reason=periodic "
		   "cgroup_ino=1",
		   .name = "254:0", .older = 4294937296UL, .age = 30000, .moved = 3,
		   .reason = WB_REASON_PERIODIC, .cgroup_ino = 1);
	CHECK_LINE(wbc_class, wbc_writepage,
		   "wbc_writepage: bdi 254:0: towrt=1024 skip=2 mode=1 kupd=0 bgrd=1 reclm=0 "
		   "cyclic=1 "
		   "start=0x0 end=0x7fffffffffffffff cgroup_ino=23",
		   .name = "254:0", .nr_to_write = 1024, .pages_skipped = 2, .sync_mode = 1,
		   .for_background = 1, .range_cyclic = 1, .range_end = 0x7fffffffffffffffL,
		   .cgroup_ino = 23);
	CHECK_LINE(wbc_class, wbc_writepage,
		   "wbc_writepage: bdi 254:0: towrt=-3 skip=0 mode=0 kupd=1 bgrd=0 reclm=1 "
		   "cyclic=0 start=0x1000 end=0x1fff cgroup_ino=1",
		   .name = "254:0", .nr_to_write = -3, .for_kupdate = 1, .for_reclaim = 1,
		   .range_start = 0x1000, .range_end = 0x1fff, .cgroup_ino = 1);
}

Test(trace, lines_in_linux_format)
{
	check_lines();
}

/* A line whose text (text_fmt) holds the inode's dirtied_when once. */
static void check_aged(struct trace_event *ev, const void *fields, size_t size,
		       const char *text_fmt, unsigned long dirtied_when)
{
	char got[512], text[400], want[512];

	format(got, sizeof(got), ev, fields, size);
	snprintf(text, sizeof(text), text_fmt, dirtied_when);
	snprintf(want, sizeof(want), "    kworker/u2:1-24      [000] .....     3.038145: %s\n", text);
	cr_assert_str_eq(got, want);
	cr_assert_lt(nr_checked, ARRAY_SIZE(checked));
	checked[nr_checked++] = ev;
}

/* The inode's age is computed as the line is printed, from jiffies then, as in Linux. */
static void check_aged_lines(void)
{
	unsigned long when = jiffies - 3 * HZ;
	const struct trace_event_raw_writeback_single_inode_template single = { .name = "254:0",
										.ino = 12,
										.state = I_DIRTY_PAGES,
										.dirtied_when = when,
										.writeback_index = 5,
										.nr_to_write = 1024,
										.wrote = 1000,
										.cgroup_ino = 23 };
	const struct trace_event_raw_writeback_sb_inodes_requeue requeue = { .name = "254:0",
									     .ino = 12,
									     .state = I_DIRTY_PAGES |
										      I_SYNC,
									     .dirtied_when = when,
									     .cgroup_ino = 23 };

	check_aged(&trace_event_writeback_single_inode, &single, sizeof(single),
		   "writeback_single_inode: bdi 254:0: ino=12 state=I_DIRTY_PAGES dirtied_when=%lu "
		   "age=3 index=5 to_write=1024 wrote=1000 cgroup_ino=23",
		   when);
	check_aged(&trace_event_writeback_single_inode_start, &single, sizeof(single),
		   "writeback_single_inode_start: bdi 254:0: ino=12 state=I_DIRTY_PAGES "
		   "dirtied_when=%lu age=3 index=5 to_write=1024 wrote=1000 cgroup_ino=23",
		   when);
	check_aged(&trace_event_writeback_sb_inodes_requeue, &requeue, sizeof(requeue),
		   "writeback_sb_inodes_requeue: bdi 254:0: ino=12 state=I_DIRTY_PAGES|I_SYNC "
		   "dirtied_when=%lu age=3 cgroup_ino=23",
		   when);
}

Test(trace, inode_age_at_print_time)
{
	check_aged_lines();
}

/*
 * Each event of the system has its line checked above: a new event, or one whose class
 * changed, needs its expected text here.
 */
Test(trace, every_event_has_its_line_checked)
{
	struct trace_event *ev;
	unsigned int nr = 0;

	check_lines();
	check_aged_lines();
	for_each_system_event(ev, &writeback_trace_system) {
		cr_assert(was_checked(ev), "%s: no line checked", ev->name);
		nr++;
	}
	cr_assert_eq(nr, writeback_trace_system.nr);
	cr_assert_eq(nr, 25, "Linux 6.1's writeback events that cgwb records");
}

/* The names of the masks set, in the table's order, what is left in hex; "" for none. */
Test(trace, print_flags_as_linux)
{
	static const struct trace_print_flags names[] = {
		{ 1, "A" }, { 2, "B" }, { 6, "BC" }, { 0, NULL }
	};
	struct trace_print_tmp tmp, *p = &tmp;
	const char *a, *b, *c;

	/* the formatter's buffer is on its stack: whatever was there before */
	memset(tmp.buf, 0x0e, sizeof(tmp.buf));
	tmp.len = 0;
	a = trace_print_flags_seq(p, "|", 1 | 2 | 4 | 0x10, names);
	b = __print_flags(0UL, "|", { 1, "A" });
	c = __print_flags(4UL, ",", { 1, "A" }, { 4, "C" });

	cr_assert_str_eq(a, "A|B|0x14", "BC's mask is not all set once B is taken");
	cr_assert_str_eq(b, "");
	cr_assert_str_eq(c, "C");
	/* a string longer than the buffer is cut, and the buffer stays terminated */
	for (int i = 0; i < 40; i++)
		__print_flags(~0UL, "|", { 1, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
	cr_assert_eq(tmp.len, sizeof(tmp.buf) - 1);
	cr_assert_eq(tmp.buf[sizeof(tmp.buf) - 1], 0);
}

Test(trace, flags_column_and_header)
{
	struct trace_entry e = entry(7);
	struct seq_buf s;

	e.ts_ns = 12345678901ULL;
	e.irqs_off = true;
	e.pid = 1;
	strlcpy(e.comm, "init", sizeof(e.comm));
	seq_buf_init(&s);
	trace_print_line(&s, &e);
	cr_assert_str_eq(s.buf, "            init-1       [000] d....    12.345678: "
				"writeback_pages_written: 7\n");
	/* need-resched, a hard interrupt, two spinlocks held: as Linux prints them */
	e.need_resched = e.hardirq = true;
	e.preempt_depth = 2;
	s.len = 0;
	trace_print_line(&s, &e);
	cr_assert_str_eq(s.buf, "            init-1       [000] dNh2.    12.345678: "
				"writeback_pages_written: 7\n");
	s.len = 0;
	trace_print_header(&s, &trace_global);
	cr_assert(str_has_prefix(s.buf, "# tracer: nop\n#\n# entries-in-buffer/entries-written: "
					"0/0   #P:1\n"));
	cr_assert(strstr(s.buf, "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"));
	seq_buf_free(&s);
}

static long count_lines(const char *buf, const char *needle)
{
	long n = 0;

	for (const char *p = buf; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

Test(trace, enable_files_gate_the_events)
{
	static char buf[16384];
	const char *ev = "/sys/kernel/tracing/events/writeback/writeback_pages_written/enable";
	struct trace_event *e;

	/* off: the call site records nothing */
	trace_writeback_pages_written(11);
	cr_assert_eq(trace_ring_entries(&trace_global), 0);
	cr_assert_gt(vt_read(ev, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "0\n");

	cr_assert_eq(vt_write(ev, "1\n", O_TRUNC), 2);
	cr_assert(trace_event_writeback_pages_written.enabled);
	vt_read("/sys/kernel/tracing/events/writeback/enable", buf, sizeof(buf));
	cr_assert_str_eq(buf, "X\n", "some events on, some off");
	trace_writeback_pages_written(11);
	cr_assert_eq(trace_ring_entries(&trace_global), 1);

	/* tracing_on 0 stops recording, the events stay enabled */
	cr_assert_eq(vt_write("/sys/kernel/tracing/tracing_on", "0", O_TRUNC), 1);
	trace_writeback_pages_written(12);
	cr_assert_eq(trace_ring_entries(&trace_global), 1);
	cr_assert_eq(vt_write("/sys/kernel/tracing/tracing_on", "1", O_TRUNC), 1);

	/* the system's enable turns them all on and off; bad input is refused */
	cr_assert_eq(vt_write("/sys/kernel/debug/tracing/events/writeback/enable", "1", O_TRUNC), 1);
	for_each_system_event(e, &writeback_trace_system)
		cr_assert(e->enabled, "%s", e->name);
	vt_read("/sys/kernel/tracing/events/enable", buf, sizeof(buf));
	cr_assert_str_eq(buf, "1\n");
	cr_assert_eq(vt_write("/sys/kernel/tracing/events/enable", "0", O_TRUNC), 1);
	for_each_system_event(e, &writeback_trace_system)
		cr_assert_not(e->enabled);
	cr_assert_eq(vt_write(ev, "2", O_TRUNC), -EINVAL);
	cr_assert_eq(vt_write(ev, "on", O_TRUNC), -EINVAL);
	trace_writeback_pages_written(13);
	cr_assert_eq(trace_ring_entries(&trace_global), 1);
}

Test(trace, trace_file_trace_pipe_and_buffer_size)
{
	static char buf[16384];

	trace_event_writeback_pages_written.enabled = true;
	trace_writeback_pages_written(41);
	trace_writeback_pages_written(42);

	/* the same trace under both paths, not consumed by reading */
	for (int i = 0; i < 2; i++) {
		cr_assert_gt(vt_read(i ? "/sys/kernel/debug/tracing/trace" :
					 "/sys/kernel/tracing/trace",
				     buf, sizeof(buf)),
			     0);
		cr_assert(str_has_prefix(buf, "# tracer: nop\n"));
		cr_assert(strstr(buf, "entries-in-buffer/entries-written: 2/2"));
		cr_assert(strstr(buf, "] .....     0.") || strstr(buf, "] d....     0.") ||
				  strstr(buf, "] d..1.     0.") || strstr(buf, "] ...1.     0."),
			  "%s", buf);
		cr_assert(strstr(buf, ": writeback_pages_written: 41\n"));
		cr_assert_eq(count_lines(buf, "writeback_pages_written:"), 2);
	}
	/* trace_pipe consumes: trace is left with the header only (one read: it is a stream) */
	struct file *pipe = filp_open("/sys/kernel/tracing/trace_pipe", O_RDONLY, 0);

	cr_assert(!IS_ERR(pipe));
	long n = file_read(pipe, buf, sizeof(buf) - 1);

	fput(pipe);
	cr_assert_gt(n, 0);
	buf[n] = 0;
	cr_assert_eq(count_lines(buf, "writeback_pages_written:"), 2);
	cr_assert_null(strstr(buf, "# tracer"), "trace_pipe has no header");
	vt_read("/sys/kernel/tracing/trace", buf, sizeof(buf));
	cr_assert_eq(count_lines(buf, "writeback_pages_written:"), 0);

	/* a write of nothing (a newline) clears trace */
	trace_writeback_pages_written(43);
	cr_assert_eq(vt_write("/sys/kernel/tracing/trace", "\n", O_TRUNC), 1);
	cr_assert_eq(trace_ring_entries(&trace_global), 0);

	/* buffer_size_kb: the ring's size; a resize empties it */
	trace_writeback_pages_written(44);
	cr_assert_eq(vt_write("/sys/kernel/tracing/buffer_size_kb", "1", O_TRUNC), 1);
	vt_read("/sys/kernel/tracing/buffer_size_kb", buf, sizeof(buf));
	cr_assert_str_eq(buf, "1\n", "1 KiB holds %lu entries of %zu bytes", trace_global.nr,
			 sizeof(struct trace_entry));
	cr_assert_eq(trace_ring_entries(&trace_global), 0);
	cr_assert_eq(vt_write("/sys/kernel/tracing/buffer_size_kb", "0", O_TRUNC), -EINVAL);
	cr_assert_eq(vt_write("/sys/kernel/tracing/buffer_size_kb", "64", O_TRUNC), 2);
	vt_read("/sys/kernel/tracing/buffer_size_kb", buf, sizeof(buf));
	cr_assert_eq(strtoul(buf, NULL, 10), 64);

	vt_read("/sys/kernel/tracing/trace_clock", buf, sizeof(buf));
	cr_assert_str_eq(buf, "[local] mono\n");
	cr_assert_eq(vt_write("/sys/kernel/tracing/trace_clock", "mono\n", O_TRUNC), 5);
	vt_read("/sys/kernel/tracing/trace_clock", buf, sizeof(buf));
	cr_assert_str_eq(buf, "local [mono]\n");
	cr_assert_eq(vt_write("/sys/kernel/tracing/trace_clock", "global", O_TRUNC), -EINVAL);
}

/* `: > trace`: the shell's redirection opens with O_TRUNC and writes nothing; Linux clears. */
Test(trace, open_with_o_trunc_clears)
{
	static const char *const path[] = { "/sys/kernel/tracing/trace", "/sys/kernel/debug/"
									 "tracing/trace" };
	struct file *f;

	trace_event_writeback_pages_written.enabled = true;
	for (int i = 0; i < 2; i++) {
		trace_writeback_pages_written(7);
		trace_writeback_pages_written(8);
		/* an open for writing without O_TRUNC keeps the content */
		f = filp_open(path[i], O_WRONLY, 0);
		cr_assert(!IS_ERR(f));
		fput(f);
		cr_assert_eq(trace_ring_entries(&trace_global), 2);
		f = filp_open(path[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		cr_assert(!IS_ERR(f), "%s: %ld", path[i], PTR_ERR(f));
		cr_assert_eq(trace_ring_entries(&trace_global), 0, "%s: cleared at open", path[i]);
		fput(f);
	}
	/* files that do not act on truncation still accept O_TRUNC and keep their state */
	f = filp_open("/sys/kernel/tracing/tracing_on", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert(!IS_ERR(f));
	fput(f);
	cr_assert_eq(READ_ONCE(tracing_on), true);
}

static unsigned int nr_enabled(void)
{
	struct trace_event *ev;
	unsigned int n = 0;

	for_each_system_event(ev, &writeback_trace_system)
		n += ev->enabled;
	return n;
}

static void all_off(void)
{
	struct trace_event *ev;

	for_each_system_event(ev, &writeback_trace_system)
		ev->enabled = false;
}

/* trace_event=LIST, Linux's boot argument: system:event, system:*, system:, system, event, *:* */
Test(trace, trace_event_lists_in_linux_syntax)
{
	static const char *const everything[] = { "writeback:*", "writeback:", "writeback", "*:*",
						  "*" };

	for (size_t i = 0; i < ARRAY_SIZE(everything); i++) {
		all_off();
		cr_assert_eq(trace_set_events(everything[i]), 0, "%s", everything[i]);
		cr_assert_eq(nr_enabled(), writeback_trace_system.nr, "%s", everything[i]);
	}
	all_off();
	cr_assert_eq(trace_set_events("writeback:balance_dirty_pages,global_dirty_state"), 0);
	cr_assert_eq(nr_enabled(), 2);
	cr_assert(trace_event_balance_dirty_pages.enabled);
	cr_assert(trace_event_global_dirty_state.enabled);
	/* a prefix is not a name; an unknown name or system is refused, the rest still applies */
	all_off();
	cr_assert_eq(trace_set_events("writeback:balance_dirty,sched:*,writeback:wbc_writepage"),
		     -EINVAL);
	cr_assert_eq(nr_enabled(), 1);
	cr_assert(trace_event_wbc_writepage.enabled);
	cr_assert(host_log_contains("trace_event: no event writeback:balance_dirty\n"));
	cr_assert(host_log_contains("trace_event: no event sched:*\n"));
	/* empty items are nothing */
	all_off();
	cr_assert_eq(trace_set_events(",writeback:writeback_start,,"), 0);
	cr_assert_eq(nr_enabled(), 1);
	cr_assert_eq(trace_set_events(""), 0);
}

/* As Linux's rb_simple_write(): every number but 0 turns recording on. */
Test(trace, tracing_on_takes_any_nonzero_number)
{
	static char buf[64];
	const char *on = "/sys/kernel/tracing/tracing_on";

	trace_event_writeback_pages_written.enabled = true;
	cr_assert_eq(vt_write(on, "0\n", O_TRUNC), 2);
	trace_writeback_pages_written(1);
	cr_assert_eq(trace_ring_entries(&trace_global), 0);
	cr_assert_eq(vt_write(on, "2\n", O_TRUNC), 2);
	vt_read(on, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1\n");
	trace_writeback_pages_written(2);
	cr_assert_eq(trace_ring_entries(&trace_global), 1);
	cr_assert_eq(vt_write(on, "0", O_TRUNC), 1);
	cr_assert_eq(vt_write("/sys/kernel/debug/tracing/tracing_on", "4096", O_TRUNC), 4);
	cr_assert(READ_ONCE(tracing_on));
	/* not a number: refused, nothing changes */
	cr_assert_eq(vt_write(on, "0", O_TRUNC), 1);
	cr_assert_eq(vt_write(on, "on", O_TRUNC), -EINVAL);
	cr_assert_eq(vt_write(on, "-1", O_TRUNC), -EINVAL);
	cr_assert_not(READ_ONCE(tracing_on));
	WRITE_ONCE(tracing_on, true);
}

/*
 * set_event, Linux's format: a write enables the events it names ("!" disables), an open
 * with O_TRUNC (the shell's >) clears the set first, >> adds; a read lists "system:event".
 */
Test(trace, set_event_in_linux_format)
{
	static const char *const path[] = { "/sys/kernel/tracing/set_event", "/sys/kernel/debug/"
									     "tracing/set_event" };
	static char buf[4096];

	for (int i = 0; i < 2; i++) {
		const char *p = path[i];

		all_off();
		cr_assert_eq(vt_read(p, buf, sizeof(buf)), 0, "nothing enabled: empty");
		cr_assert_gt(vt_write(p, "writeback:balance_dirty_pages\n", O_TRUNC), 0);
		vt_read(p, buf, sizeof(buf));
		cr_assert_str_eq(buf, "writeback:balance_dirty_pages\n");
		cr_assert_gt(vt_write(p, "writeback_start global_dirty_state\n", O_APPEND), 0);
		cr_assert_eq(nr_enabled(), 3);
		cr_assert_gt(vt_write(p, "!writeback:balance_dirty_pages", O_APPEND), 0);
		cr_assert_not(trace_event_balance_dirty_pages.enabled);
		vt_read(p, buf, sizeof(buf));
		/* listed in the events' order, as Linux lists them */
		cr_assert_str_eq(buf, "writeback:global_dirty_state\nwriteback:writeback_start\n");
		vt_read("/sys/kernel/tracing/events/writeback/writeback_start/enable", buf,
			sizeof(buf));
		cr_assert_str_eq(buf, "1\n", "the enable file tells the same");

		/* > replaces the set */
		cr_assert_gt(vt_write(p, "wbc_writepage\n", O_TRUNC), 0);
		cr_assert_eq(nr_enabled(), 1);
		cr_assert(trace_event_wbc_writepage.enabled);
		/* an unknown event is refused; the set stays */
		cr_assert_eq(vt_write(p, "writeback:no_such_event\n", O_APPEND), -EINVAL);
		cr_assert_eq(vt_write(p, "sched:sched_switch\n", O_APPEND), -EINVAL);
		cr_assert_eq(nr_enabled(), 1);
		/* the system, then nothing (echo > set_event) */
		cr_assert_gt(vt_write(p, "writeback:*", O_TRUNC), 0);
		cr_assert_eq(nr_enabled(), writeback_trace_system.nr);
		cr_assert_eq(vt_write(p, "\n", O_TRUNC), 1);
		cr_assert_eq(nr_enabled(), 0);
	}
}

static char sink_text[8192];
static size_t sink_len;

static void sink_write(const char *buf, size_t len, void *data)
{
	cr_assert_lt(sink_len + len, sizeof(sink_text));
	memcpy(sink_text + sink_len, buf, len);
	sink_len += len;
	sink_text[sink_len] = 0;
}

/*
 * The stream: entries recorded while its thread has not run wait in its ring; past the
 * ring's size the oldest are overwritten and counted; the stop drains the rest, ends with
 * the count and logs it. `trace` keeps everything, untouched by the stream.
 */
Test(trace, stream_drains_at_stop_and_counts_the_overwritten)
{
	static const struct trace_sink sink = { .name = "test", .write = sink_write };
	const char *last;

	trace_event_writeback_pages_written.enabled = true;
	cr_assert_eq(trace_stream_stop(), -ENODEV, "no stream yet");
	cr_assert_eq(trace_stream_start(&sink, 4), 0);
	cr_assert_eq(trace_stream_start(&sink, 4), -EBUSY);
	for (int i = 1; i <= 10; i++)
		trace_writeback_pages_written(i); /* the thread cannot run meanwhile */
	cr_assert_eq(trace_stream_stop(), 6);
	cr_assert(str_has_prefix(sink_text, "# tracer: nop\n#\n"), "%s", sink_text);
	cr_assert(strstr(sink_text, "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"));
	cr_assert_eq(count_lines(sink_text, ": writeback_pages_written: "), 4, "%s", sink_text);
	cr_assert_null(strstr(sink_text, ": writeback_pages_written: 6\n"), "overwritten");
	cr_assert(strstr(sink_text, ": writeback_pages_written: 7\n"), "the newest four");
	cr_assert(strstr(sink_text, ": writeback_pages_written: 10\n"));
	last = sink_text + sink_len - strlen("# trace: 6 events lost\n");
	cr_assert_str_eq(last, "# trace: 6 events lost\n");
	cr_assert(host_log_contains("trace: 6 events lost"));
	cr_assert_eq(trace_ring_entries(&trace_global), 10, "trace holds all ten");
	/* stopped: events go on into trace only */
	trace_writeback_pages_written(11);
	cr_assert_eq(count_lines(sink_text, ": writeback_pages_written: "), 4);
}

struct pipe_reader {
	char buf[2][4096];
	long n[2]; /* bytes of each read, or -errno */
	int reads; /* done so far */
};

/* Two reads of one open trace_pipe, as `cat trace_pipe` makes them. */
static int read_trace_pipe(void *arg)
{
	struct pipe_reader *r = arg;
	struct file *f = filp_open("/sys/kernel/tracing/trace_pipe", O_RDONLY, 0);

	cr_assert(!IS_ERR(f));
	for (int i = 0; i < 2; i++) {
		r->n[i] = file_read(f, r->buf[i], sizeof(r->buf[i]) - 1);
		r->buf[i][r->n[i] > 0 ? r->n[i] : 0] = 0;
		r->reads++;
	}
	fput(f);
	return 0;
}

/* trace_pipe is a stream: each read sleeps until an event is recorded, then consumes it. */
Test(trace, trace_pipe_blocks_until_an_event)
{
	static struct pipe_reader r;

	trace_event_writeback_pages_written.enabled = true;
	cr_assert_not_null(kthread_run(read_trace_pipe, &r, "reader"));
	host_run_until_idle();
	cr_assert_eq(r.reads, 0, "the reader waits while the ring is empty");
	trace_writeback_pages_written(77);
	host_run_until_idle();
	cr_assert_eq(r.reads, 1, "an event woke the reader, which waits again");
	cr_assert_gt(r.n[0], 0);
	cr_assert(strstr(r.buf[0], ": writeback_pages_written: 77\n"), "%s", r.buf[0]);
	cr_assert_eq(trace_ring_entries(&trace_global), 0, "and was consumed");
	trace_writeback_pages_written(78);
	host_run_until_idle();
	cr_assert_eq(r.reads, 2);
	cr_assert(strstr(r.buf[1], ": writeback_pages_written: 78\n"), "%s", r.buf[1]);
	cr_assert_null(strstr(r.buf[1], ": 77\n"), "the first entry is not read twice");
}
