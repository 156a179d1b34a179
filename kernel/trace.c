/*
 * The global trace (include/cgwb/trace.h): one ring every event writes to, the clock and
 * task stamped on each entry, and Linux's text layout for reading it back.
 *
 * Recording never sleeps and never allocates (events fire under spinlocks and from
 * interrupt handlers); a trace_pipe reader is woken only when one waits.
 */
#include <cgwb/trace.h>
#include <cgwb/pseudofs.h>
#include <cgwb/irqflags.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>

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
	/* both clocks read the monotonic nanosecond clock: one CPU, nothing to reconcile */
	e->ts_ns = ktime_get_ns();
	e->event = event;
	e->irqs_off = irqs_disabled();
	if (current) {
		e->pid = current->pid;
		strlcpy(e->comm, current->comm, sizeof(e->comm));
	} else {
		e->pid = 0;
		strlcpy(e->comm, "<idle>", sizeof(e->comm));
	}
	trace_ring_write(&trace_global, e);
	if (waitqueue_active(&trace_pipe_wait))
		wake_up_all(&trace_pipe_wait);
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
	seq_printf(s, "%16s-%-7d [000] %c.... %5llu.%06llu: %s: ", e->comm, e->pid,
		   e->irqs_off ? 'd' : '.', usecs / 1000000, usecs % 1000000, e->event->name);
	e->event->print(s, e);
	seq_putc(s, '\n');
}

void trace_print_header(struct seq_buf *s, const struct trace_ring *r)
{
	unsigned long entries = trace_ring_entries(r);

	seq_puts(s, "# tracer: nop\n#\n");
	seq_printf(s, "# entries-in-buffer/entries-written: %lu/%llu   #P:1\n#\n", entries,
		   (unsigned long long)(entries + r->lost));
	seq_puts(s, "#                                _-----=> irqs-off/BH-disabled\n"
		    "#                               / _----=> need-resched\n"
		    "#                              | / _---=> hardirq/softirq\n"
		    "#                              || / _--=> preempt-depth\n"
		    "#                              ||| / _-=> migrate-disable\n"
		    "#                              |||| /     delay\n"
		    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		    "#              | |         |   |||||     |         |\n");
}
