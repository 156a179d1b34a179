/*
 * tracefs: the files of Linux's /sys/kernel/tracing over the global trace
 * (include/cgwb/trace.h), built twice, under /sys/kernel/tracing and under
 * /sys/kernel/debug/tracing, over the same state.
 *
 *	trace                 the header and every entry, not consumed; O_TRUNC or a write clears it
 *	trace_pipe            a stream: each read waits for entries and consumes them
 *	tracing_on            0 stops recording (events stay enabled), any other number resumes it
 *	set_event             the enabled events, "<system>:<name>" a line; a write enables the
 *	                      events it names ("!name" disables), an open with O_TRUNC first
 *	                      disables all (`>` replaces the set, `>>` adds to it)
 *	buffer_size_kb        the ring's size; a write resizes it and drops the content
 *	trace_clock           [local] mono
 *	events/enable, events/<system>/enable, events/<system>/<event>/enable, for every
 *	system registered at start-up (writeback, raw_syscalls)
 */
#include <cgwb/trace.h>
#include <cgwb/pseudofs.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include "sysfs.h"

static enum trace_clock_id trace_clock = TRACE_CLOCK_LOCAL;

static int parse_bool(const char *buf, bool *val)
{
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || v > 1)
		return -EINVAL;
	*val = v;
	return 0;
}

static int trace_show(struct seq_buf *s, void *private)
{
	struct trace_entry e;
	u64 pos = 0;

	trace_print_header(s, &trace_global);
	while (trace_ring_peek(&trace_global, &pos, &e))
		trace_print_line(s, &e);
	return 0;
}

/* As Linux: an open with O_TRUNC (`: > trace`) clears, and so does any write (`echo > trace`). */
static int trace_truncate(void *private)
{
	trace_ring_reset(&trace_global);
	return 0;
}

static int trace_store(const char *buf, size_t len, void *private)
{
	return trace_truncate(private);
}

static int trace_pipe_show(struct seq_buf *s, void *private)
{
	struct trace_entry e;
	int err = trace_wait_pipe(&trace_global);

	if (err)
		return err;
	while (trace_ring_consume(&trace_global, &e))
		trace_print_line(s, &e);
	return 0;
}

static int tracing_on_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%d\n", READ_ONCE(tracing_on)) < 0 ? -ENOMEM : 0;
}

/* As Linux's rb_simple_write(): any number, and every one but 0 turns tracing on. */
static int tracing_on_store(const char *buf, size_t len, void *private)
{
	u64 val;

	if (kstrtoull(buf, 10, &val))
		return -EINVAL;
	WRITE_ONCE(tracing_on, val != 0);
	return 0;
}

static int buffer_size_show(struct seq_buf *s, void *private)
{
	seq_printf(s, "%lu\n", DIV_ROUND_UP(trace_global.nr * sizeof(struct trace_entry), 1024));
	return 0;
}

static int buffer_size_store(const char *buf, size_t len, void *private)
{
	u64 kb;

	if (kstrtoull(buf, 10, &kb) || !kb || kb > 64 * 1024)
		return -EINVAL;
	return trace_ring_resize(&trace_global,
				 (unsigned long)(kb * 1024 / sizeof(struct trace_entry)) ?: 1);
}

static int trace_clock_show(struct seq_buf *s, void *private)
{
	seq_puts(s, trace_clock == TRACE_CLOCK_LOCAL ? "[local] mono\n" : "local [mono]\n");
	return 0;
}

static int trace_clock_store(const char *buf, size_t len, void *private)
{
	char name[8];

	strlcpy(name, buf, sizeof(name));
	strim(name);
	if (!strcmp(name, "local"))
		trace_clock = TRACE_CLOCK_LOCAL;
	else if (!strcmp(name, "mono"))
		trace_clock = TRACE_CLOCK_MONO;
	else
		return -EINVAL;
	return 0;
}

/* An event's enable file (private: the event) or the system's (private: NULL). */
/*
 * The enable files: one event's (private: the event), one system's (the system) and
 * events/enable (NULL: every event of every system).
 */
struct enable_count {
	const struct trace_system *sys; /* NULL: every system */
	unsigned int on, all;
	int set; /* -1: count only; else the value to store */
};

static void enable_one(struct trace_system *sys, struct trace_event *ev, void *arg)
{
	struct enable_count *c = arg;

	if (c->sys && c->sys != sys)
		return;
	if (c->set >= 0)
		WRITE_ONCE(ev->enabled, c->set);
	c->on += READ_ONCE(ev->enabled);
	c->all++;
}

static int enable_count_show(struct seq_buf *s, const struct trace_system *sys)
{
	struct enable_count c = { .sys = sys, .set = -1 };

	for_each_trace_event(enable_one, &c);
	/* Linux's "X": some on, some off */
	seq_puts(s, !c.on ? "0\n" : c.on == c.all ? "1\n" : "X\n");
	return 0;
}

static int enable_set(const char *buf, const struct trace_system *sys)
{
	struct enable_count c = { .sys = sys };
	bool on;
	int err = parse_bool(buf, &on);

	if (err)
		return err;
	c.set = on;
	for_each_trace_event(enable_one, &c);
	return 0;
}

static int system_enable_show(struct seq_buf *s, void *private)
{
	return enable_count_show(s, private);
}

static int system_enable_store(const char *buf, size_t len, void *private)
{
	return enable_set(buf, private);
}

static int event_enable_show(struct seq_buf *s, void *private)
{
	const struct trace_event *ev = private;

	return seq_printf(s, "%d\n", READ_ONCE(ev->enabled)) < 0 ? -ENOMEM : 0;
}

static int event_enable_store(const char *buf, size_t len, void *private)
{
	struct trace_event *ev = private;
	bool on;
	int err = parse_bool(buf, &on);

	if (!err)
		WRITE_ONCE(ev->enabled, on);
	return err;
}

static void show_enabled(struct trace_system *sys, struct trace_event *ev, void *arg)
{
	if (READ_ONCE(ev->enabled))
		seq_printf(arg, "%s:%s\n", sys->name, ev->name);
}

static int set_event_show(struct seq_buf *s, void *private)
{
	for_each_trace_event(show_enabled, s);
	return 0;
}

static void disable_one(struct trace_system *sys, struct trace_event *ev, void *arg)
{
	WRITE_ONCE(ev->enabled, false);
}

/* Linux's ftrace_event_set_open(): opening for writing with O_TRUNC clears the set. */
static int set_event_truncate(void *private)
{
	for_each_trace_event(disable_one, NULL);
	return 0;
}

/* Words separated by blanks, each an event list word, "!" first to disable. */
static int set_event_store(const char *buf, size_t len, void *private)
{
	static const char blanks[] = " \t\n";
	int err = 0;

	while (len) {
		size_t skip = 0, n = 0;

		while (skip < len && strchr(blanks, buf[skip]) && buf[skip])
			skip++;
		buf += skip;
		len -= skip;
		while (n < len && buf[n] && !strchr(blanks, buf[n]))
			n++;
		if (!n)
			break;
		bool off = buf[0] == '!';
		int ret = trace_set_clr_event(buf + off, n - off, !off);
		if (ret < 0)
			err = err ?: ret;
		buf += n;
		len -= n;
	}
	return err;
}

static void add_file(struct pseudo_node *dir, const char *name, umode_t mode, pseudo_show_t show,
		     pseudo_store_t store, void *private)
{
	BUG_ON(IS_ERR(pseudo_create_file(dir, name, mode, show, store, private)));
}

static void add_event_dir(struct trace_system *sys, struct trace_event *ev, void *arg)
{
	struct pseudo_node *sysdir = pseudo_mkdir_p(arg, sys->name), *evdir; /* the system's */

	BUG_ON(IS_ERR(sysdir));
	evdir = pseudo_mkdir(sysdir, ev->name);
	BUG_ON(IS_ERR(evdir));
	add_file(evdir, "enable", 0644, event_enable_show, event_enable_store, ev);
}

static void add_system_dir(struct trace_system *sys, void *arg)
{
	struct pseudo_node *sysdir = pseudo_mkdir(arg, sys->name);

	BUG_ON(IS_ERR(sysdir));
	add_file(sysdir, "enable", 0644, system_enable_show, system_enable_store, sys);
}

static void tracefs_build(struct pseudo_node *dir)
{
	struct pseudo_node *trace, *node, *events;

	trace = pseudo_create_file(dir, "trace", 0644, trace_show, trace_store, NULL);
	BUG_ON(IS_ERR(trace));
	pseudo_set_truncate(trace, trace_truncate);
	BUG_ON(IS_ERR(pseudo_create_stream(dir, "trace_pipe", 0444, trace_pipe_show, NULL)));
	add_file(dir, "tracing_on", 0644, tracing_on_show, tracing_on_store, NULL);
	node = pseudo_create_file(dir, "set_event", 0644, set_event_show, set_event_store, NULL);
	BUG_ON(IS_ERR(node));
	pseudo_set_truncate(node, set_event_truncate);
	add_file(dir, "buffer_size_kb", 0644, buffer_size_show, buffer_size_store, NULL);
	add_file(dir, "trace_clock", 0644, trace_clock_show, trace_clock_store, NULL);
	events = pseudo_mkdir(dir, "events");
	BUG_ON(IS_ERR(events));
	add_file(events, "enable", 0644, system_enable_show, system_enable_store, NULL);
	for_each_trace_system(add_system_dir, events);
	for_each_trace_event(add_event_dir, events);
}

void tracefs_init(void)
{
	/* without a ring the events record nothing and the files show an empty trace */
	if (trace_init())
		pr_err("tracing: no memory for the trace buffer\n");
	tracefs_build(pseudo_mkdir_p(pseudo_sysfs_root(), "kernel/tracing"));
	tracefs_build(pseudo_mkdir_p(pseudo_debugfs_root(), "tracing"));
}
