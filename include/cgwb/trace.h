/*
 * Tracing: Linux's trace events, recorded into a ring buffer and read through tracefs
 * (/sys/kernel/tracing, also /sys/kernel/debug/tracing) in Linux's text format.
 *
 * Cost model. Each event has a static `enabled` flag; a call site is a macro that tests it
 * (one predictable branch when off) and only then calls the out-of-line recorder. The
 * recorder copies the event's raw fields into a fixed-size trace_entry; nothing is
 * formatted until `trace` or `trace_pipe` is read, when the entry's event->print() turns
 * the fields into Linux's TP_printk text.
 *
 * Ring. A fixed array of entries written from any context with interrupts off (one CPU,
 * so that is the whole lock). When full, a write overwrites the oldest entry and counts it
 * lost. Two kinds of readers: `trace` walks the entries without consuming them (a reader's
 * position below the oldest entry jumps forward: what it missed was overwritten), and
 * `trace_pipe` consumes them, so `trace` no longer shows what the pipe has read.
 *
 * Events are declared once, each class's fields, TP_fast_assign and TP_printk together, in an
 * events header (include/cgwb/trace/writeback.h), as Linux's TRACE_EVENT does;
 * <cgwb/tracepoint.h> says how that header becomes the events, their recorders and formatters.
 */
#ifndef CGWB_TRACE_H
#define CGWB_TRACE_H

#include <cgwb/types.h>
#include <cgwb/spinlock.h>
#include <cgwb/list.h>
#include <cgwb/compiler.h>

struct seq_buf;
struct trace_entry;

struct trace_event {
	const char *name; /* Linux's event name: "writeback_start" */
	bool enabled;     /* events/<system>/<name>/enable */
	/* Print the TP_printk text (no newline) from the fields the recorder stored. */
	void (*print)(struct seq_buf *s, const struct trace_entry *e);
	struct list_head list; /* in its system's events */
};

/* balance_dirty_pages's fields, the most of any event, fit: the bdi name and 13 words */
#define TRACE_DATA_SIZE 144
#define TRACE_COMM_LEN 16

struct trace_entry {
	u64 ts_ns; /* trace_clock at the write */
	const struct trace_event *event;
	int pid;
	/* the flags column: irqs off ('d'), need-resched ('N'), in a hard interrupt ('h'),
	 * and the preemption depth (a hex digit; spinlocks held count) */
	bool irqs_off, need_resched, hardirq;
	u8 preempt_depth;
	u8 cpu; /* where it was written */
	char comm[TRACE_COMM_LEN];
	/* the event's fields: its class's struct trace_event_raw_<class> (<cgwb/tracepoint.h>) */
	unsigned char data[TRACE_DATA_SIZE] __aligned(8);
};

/*
 * The call-site test: one load and a predicted-not-taken branch when the event is off.
 * CGWB_NO_TRACE compiles every call site out (the benchmark's baseline); the arguments are
 * still type-checked.
 */
#define trace_event_enabled(ev) unlikely(READ_ONCE(trace_event_##ev.enabled))
#ifdef CGWB_NO_TRACE
#define TRACE_CALL(ev, ...)                        \
	do {                                       \
		if (0)                             \
			__trace_##ev(__VA_ARGS__); \
	} while (0)
#else
#define TRACE_CALL(ev, ...)                        \
	do {                                       \
		if (trace_event_enabled(ev))       \
			__trace_##ev(__VA_ARGS__); \
	} while (0)
#endif

/* ---------------------------------------------------------------- the ring */
struct trace_ring {
	struct trace_entry *slots;
	unsigned long nr; /* slots */
	u64 head;         /* sequence number of the next write */
	u64 tail;         /* sequence number of the oldest entry held */
	u64 lost;         /* entries overwritten before anyone read them */
	spinlock_t lock;  /* irq-safe: entries are written from interrupt handlers too */
};

/* 0 or -ENOMEM; an empty ring of nr entries (nr >= 1). */
int trace_ring_init(struct trace_ring *r, unsigned long nr);
void trace_ring_free(struct trace_ring *r);
/**
 * trace_ring_resize() - give a ring a new number of slots, dropping its content
 * @r: the ring
 * @nr: the number of entries it holds (buffer_size_kb's)
 *
 * Sequence numbers keep growing: a reader's position falls below the tail and resyncs.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for @nr 0; -ENOMEM (the ring is unchanged).
 */
int trace_ring_resize(struct trace_ring *r, unsigned long nr);
/* Any context. */
void trace_ring_write(struct trace_ring *r, const struct trace_entry *e);
/**
 * trace_ring_peek() - read the entry at a position, without consuming it (the trace file)
 * @r: the ring
 * @pos: a sequence number, 0 to start; one the ring has overwritten moves to the oldest
 *       entry; advanced past the entry read
 * @out: set to a copy of the entry
 *
 * Context: any context; takes the ring's irq-safe lock.
 * Return: true, or false when no entry is left at or after *@pos.
 */
bool trace_ring_peek(struct trace_ring *r, u64 *pos, struct trace_entry *out);
/**
 * trace_ring_consume() - read and remove the oldest entry (trace_pipe)
 * @r: the ring
 * @out: set to a copy of the entry
 *
 * Context: any context; takes the ring's irq-safe lock.
 * Return: true, or false when the ring is empty.
 */
bool trace_ring_consume(struct trace_ring *r, struct trace_entry *out);
/**
 * trace_ring_reset() - empty a ring and forget its lost count (a write to trace)
 * @r: the ring
 *
 * Context: any context; takes the ring's irq-safe lock.
 */
void trace_ring_reset(struct trace_ring *r);
unsigned long trace_ring_entries(const struct trace_ring *r);

/* ---------------------------------------------------------------- the global trace */
enum trace_clock_id { TRACE_CLOCK_LOCAL, TRACE_CLOCK_MONO };

extern struct trace_ring trace_global;
extern bool tracing_on; /* the tracing_on file: off stops recording, not events */

/**
 * trace_init() - allocate the global trace ring
 *
 * Before the first event may fire.
 *
 * Context: boot, process context; may sleep.
 * Return: 0, or -ENOMEM.
 */
int trace_init(void);
/**
 * trace_record() - stamp an event's entry and store it: the recorders' last step
 * @event: the event
 * @e: its entry, the fields filled; time, task, CPU and flags are set here
 *
 * Nothing is stored while tracing_on is off or before trace_init(). The entry also goes to
 * the stream if one runs, and trace_pipe's readers are woken.
 *
 * Context: any context, interrupts included; never sleeps.
 */
void trace_record(struct trace_event *event, struct trace_entry *e);
/**
 * trace_print_line() - print an entry as Linux's trace file does
 * @s: the buffer
 * @e: the entry
 *
 * "<comm>-<pid> [000] <flags> <secs>.<usecs>: <event>: <text>\n", the text from the event's
 * TP_printk.
 *
 * Context: process context; may sleep (@s grows).
 */
void trace_print_line(struct seq_buf *s, const struct trace_entry *e);
/**
 * trace_print_header() - print the header Linux prints at the top of trace
 * @s: the buffer
 * @r: the ring (its entries in buffer and written)
 *
 * "# tracer: nop", the entry counts, the flags legend and the column names. The "#P:" field
 * says 1 whatever the number of CPUs.
 *
 * Context: process context; may sleep (@s grows).
 */
void trace_print_header(struct seq_buf *s, const struct trace_ring *r);
/* Its last lines: the flags legend and the column names. */
void trace_print_columns(struct seq_buf *s);
/**
 * trace_set_events() - turn on the events of a list (Linux's trace_event= boot argument)
 * @list: comma-separated "system:event", "system:*" (or "system:", "system"), "event",
 *        "*:*"
 *
 * Known names are enabled even if others are not; each unknown one is logged.
 *
 * Context: boot, after the systems are registered.
 * Return: 0, or -EINVAL if a name matched no event.
 */
int trace_set_events(const char *list);
/**
 * trace_set_clr_event() - turn the events of one word of such a list on or off (set_event)
 * @word: the word, not NUL-terminated
 * @len: its length
 * @on: on or off
 *
 * Linux's __ftrace_set_clr_event().
 *
 * Context: any context; never sleeps.
 * Return: the number of events it named, or -EINVAL if none.
 */
int trace_set_clr_event(const char *word, size_t len, bool on);
/**
 * trace_wait_pipe() - wait until a ring holds an entry (trace_pipe's blocking read)
 * @r: the ring
 *
 * Context: process context; sleeps, interruptibly.
 * Return: 0, or -EINTR on a signal.
 */
int trace_wait_pipe(struct trace_ring *r);

/* ---------------------------------------------------------------- streaming */
/*
 * The stream (kernel/trace-stream.c): while it runs, every entry recorded is also stored in
 * a ring of its own, which one thread drains: it formats the lines (Linux's layout, as
 * trace_pipe gives them) and hands them to a sink, the virtio console in the kernel
 * (cgwb.trace_stream=hvc0), a host file in the simulator. `trace` and `trace_pipe` are
 * not affected. Entries recorded faster than the sink takes them overwrite the oldest ones
 * of the stream's ring and are counted; the stop drains everything else and reports them.
 */
struct trace_sink {
	const char *name; /* for the log: "hvc0" */
	/* Take len bytes of whole lines; process context, may take its time. */
	void (*write)(const char *buf, size_t len, void *data);
	void *data;
};

/**
 * trace_stream_start() - start streaming the trace into a sink
 * @sink: the sink (the virtio console, a host file), static
 * @nr: the entries of the stream's own ring
 *
 * The stream's thread first writes the header and the column names.
 *
 * Context: process context; may sleep.
 * Return: 0, -EBUSY if a stream runs already, or -ENOMEM.
 */
int trace_stream_start(const struct trace_sink *sink, unsigned long nr);
/**
 * trace_stream_stop() - drain and stop the stream
 *
 * Every entry recorded until now is written; the stream ends with a "# trace: N events
 * lost" line, and the log says the same.
 *
 * Context: process context; sleeps.
 * Return: N, the entries lost; or -ENODEV when no stream runs.
 */
long long trace_stream_stop(void);
/* trace_record()'s step for the stream: any context, nothing when no stream runs. */
void trace_stream_record(const struct trace_entry *e);

/*
 * A system of events ("writeback"), which whoever defines them registers at start-up:
 * trace_event= lists and set_event name them as "system:event". <cgwb/trace/define_trace.h>
 * defines it with the events.
 */
struct trace_system {
	const char *name;
	/* At registration: trace_add_event() for each event of the system. */
	void (*add_events)(struct trace_system *sys);
	struct list_head events; /* by name, as tracefs lists them (Linux's events/<system>/) */
	unsigned int nr;         /* events */
	struct list_head list;
};
/**
 * trace_register_system() - register a system of events
 * @sys: the system, static; its add_events() is called here; registering it twice does
 *       nothing
 *
 * Context: start-up; the list of systems is not locked.
 */
void trace_register_system(struct trace_system *sys);
/**
 * trace_add_event() - add an event to its system: add_events()'s step
 * @sys: the system
 * @ev: the event, kept in the order of the names
 *
 * Context: start-up (trace_register_system()).
 */
void trace_add_event(struct trace_system *sys, struct trace_event *ev);
#define for_each_system_event(ev, sys) list_for_each_entry(ev, &(sys)->events, list)
/**
 * for_each_trace_system() - call a function for each registered system (tracefs)
 * @fn: called with each system and @arg
 * @arg: passed to @fn
 *
 * Context: start-up, after the systems are registered (the list is not locked).
 */
void for_each_trace_system(void (*fn)(struct trace_system *sys, void *arg), void *arg);
/**
 * for_each_trace_event() - call a function for each event of each system (tracefs)
 * @fn: called with each system, each of its events, and @arg
 * @arg: passed to @fn
 *
 * Context: start-up, after the systems are registered (the list is not locked).
 */
void for_each_trace_event(void (*fn)(struct trace_system *sys, struct trace_event *ev, void *arg),
			  void *arg);

/* tracefs under /sys/kernel/tracing and /sys/kernel/debug/tracing (after sysfs_init). */
void tracefs_init(void);

#endif
