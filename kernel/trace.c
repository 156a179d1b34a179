/*
 * The global trace (include/cgwb/trace.h): one ring every event writes to, the clock and
 * task stamped on each entry, and Linux's text layout for reading it back.
 *
 * Recording never sleeps and never allocates (events fire under spinlocks and from
 * interrupt handlers); a trace_pipe reader is woken only when one waits.
 */
#include <cgwb/trace.h>
#include <cgwb/seq_buf.h>
#include <cgwb/irqflags.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>

/* 4 MiB of entries would not fit the smaller machines; Linux's default is per CPU anyway. */
#define TRACE_DEFAULT_ENTRIES 2048

struct trace_ring trace_global;
bool tracing_on = true;
static DECLARE_WAIT_QUEUE_HEAD(trace_pipe_wait);

int trace_init(void)
{
	return trace_ring_init(&trace_global, TRACE_DEFAULT_ENTRIES);
}

void trace_record(struct trace_event *event, struct trace_entry *e)
{
	if (!READ_ONCE(tracing_on) || !trace_global.slots)
		return;
	/* both clocks read the monotonic nanosecond clock: the TSC, one for every CPU */
	e->ts_ns = ktime_get_ns();
	e->event = event;
	e->irqs_off = irqs_disabled();
	e->need_resched = need_resched();
	e->hardirq = in_interrupt();
	e->preempt_depth = (u8)min(preempt_count() & 0xffff, 15);
	e->cpu = (u8)raw_smp_processor_id();
	if (current) {
		e->pid = current->pid;
		strlcpy(e->comm, current->comm, sizeof(e->comm));
	} else {
		e->pid = 0;
		strlcpy(e->comm, "<idle>", sizeof(e->comm));
	}
	trace_ring_write(&trace_global, e);
	trace_stream_record(e);
	if (waitqueue_active(&trace_pipe_wait))
		wake_up_all(&trace_pipe_wait);
}

static LIST_HEAD(trace_systems);

void trace_register_system(struct trace_system *sys)
{
	struct trace_system *s;

	list_for_each_entry(s, &trace_systems, list)
		if (s == sys)
			return; /* its floor started twice (the host tests) */
	INIT_LIST_HEAD(&sys->events);
	sys->nr = 0;
	sys->add_events(sys);
	list_add_tail(&sys->list, &trace_systems);
}

void trace_add_event(struct trace_system *sys, struct trace_event *ev)
{
	struct trace_event *pos;

	list_for_each_entry(pos, &sys->events, list)
		if (strcmp(ev->name, pos->name) < 0)
			break;
	list_add_tail(&ev->list, &pos->list);
	sys->nr++;
}

void for_each_trace_event(void (*fn)(struct trace_system *sys, struct trace_event *ev, void *arg),
			  void *arg)
{
	struct trace_system *sys;
	struct trace_event *ev;

	list_for_each_entry(sys, &trace_systems, list)
		for_each_system_event(ev, sys)
			fn(sys, ev, arg);
}

void for_each_trace_system(void (*fn)(struct trace_system *sys, void *arg), void *arg)
{
	struct trace_system *sys;

	list_for_each_entry(sys, &trace_systems, list)
		fn(sys, arg);
}

static bool word_is(const char *word, size_t len, const char *name)
{
	return len == strlen(name) && !strncmp(word, name, len);
}

/*
 * Does one word of a trace_event= list name ev of sys? Linux's rules
 * (ftrace_set_clr_event()): "system:event" with "*" or nothing for every event of the
 * system, and a word without a colon names a system or an event.
 */
static bool event_matches(const char *word, size_t len, const struct trace_system *sys,
			  const struct trace_event *ev)
{
	const char *colon = memchr(word, ':', len);
	const char *name = word;
	size_t name_len = len, sys_len;

	if (colon) {
		sys_len = (size_t)(colon - word);
		if (!word_is(word, sys_len, "*") && !word_is(word, sys_len, sys->name))
			return false;
		name = colon + 1;
		name_len = len - sys_len - 1;
		if (!name_len || word_is(name, name_len, "*"))
			return true;
	} else if (word_is(word, len, "*") || word_is(word, len, sys->name)) {
		return true;
	}
	return word_is(name, name_len, ev->name);
}

int trace_set_clr_event(const char *word, size_t len, bool on)
{
	const struct trace_system *sys;
	struct trace_event *ev;
	unsigned int matched = 0;

	list_for_each_entry(sys, &trace_systems, list) {
		for_each_system_event(ev, sys) {
			if (event_matches(word, len, sys, ev)) {
				WRITE_ONCE(ev->enabled, on);
				matched++;
			}
		}
	}
	return matched ? (int)matched : -EINVAL;
}

int trace_set_events(const char *list)
{
	int err = 0;

	while (*list) {
		size_t len = strcspn(list, ",");

		if (len && trace_set_clr_event(list, len, true) < 0) {
			pr_err("trace_event: no event %.*s\n", (int)len, list);
			err = err ?: -EINVAL;
		}
		list += len;
		if (*list == ',')
			list++;
	}
	return err;
}

int trace_wait_pipe(struct trace_ring *r)
{
	return wait_event_interruptible(trace_pipe_wait, trace_ring_entries(r) > 0);
}

void trace_print_line(struct seq_buf *s, const struct trace_entry *e)
{
	u64 usecs = e->ts_ns / 1000;

	/* Linux's print_trace_fmt(): comm right-aligned in 16, pid left-aligned in 7, CPU,
	 * the five latency flags (irqs-off, need-resched, hardirq/softirq, preempt-depth,
	 * migrate-disable), the timestamp in seconds and microseconds */
	seq_printf(s, "%16s-%-7d [%03u] %c%c%c%c. %5llu.%06llu: %s: ", e->comm, e->pid, e->cpu,
		   e->irqs_off ? 'd' : '.', e->need_resched ? 'N' : '.', e->hardirq ? 'h' : '.',
		   e->preempt_depth ? "0123456789abcdef"[e->preempt_depth] : '.', usecs / 1000000,
		   usecs % 1000000, e->event->name);
	e->event->print(s, e);
	seq_putc(s, '\n');
}

void trace_print_header(struct seq_buf *s, const struct trace_ring *r)
{
	unsigned long entries = trace_ring_entries(r);

	seq_puts(s, "# tracer: nop\n#\n");
	seq_printf(s, "# entries-in-buffer/entries-written: %lu/%llu   #P:1\n#\n", entries,
		   (unsigned long long)(entries + r->lost));
	trace_print_columns(s);
}

void trace_print_columns(struct seq_buf *s)
{
	seq_puts(s, "#                                _-----=> irqs-off/BH-disabled\n"
		    "#                               / _----=> need-resched\n"
		    "#                              | / _---=> hardirq/softirq\n"
		    "#                              || / _--=> preempt-depth\n"
		    "#                              ||| / _-=> migrate-disable\n"
		    "#                              |||| /     delay\n"
		    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		    "#              | |         |   |||||     |         |\n");
}
