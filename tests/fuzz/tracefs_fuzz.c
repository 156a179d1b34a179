/*
 * libFuzzer harness: writes to tracefs (/sys/kernel/tracing) between trace events.
 *
 * Every writable file of the tree is found at start (tracing_on, buffer_size_kb,
 * trace_clock, trace, events/enable, each event's enable, and whatever else is there, such
 * as set_event). An input is a list of steps, each [what][length][bytes]: `what` picks a
 * file, which gets the bytes written (truncating) and is read back, or, past the files,
 * fires `length` writeback events the way the kernel's tracepoints do (only the enabled
 * ones are recorded). After the steps, `trace` is read. Errors are fine; a crash, a
 * sanitizer report or a broken promise of the files is a finding:
 *   - what is read is text;
 *   - tracing_on and an event's enable read 0 or 1, a system's enable 0, 1 or X, which
 *     agrees with its events' (events/enable and events/writeback/enable alike: one system);
 *   - buffer_size_kb reads a positive number, trace_clock names one clock in brackets;
 *   - `trace` starts with its "# tracer: nop" header, never holds more events than the
 *     ring, and none while nothing was enabled and recording.
 * Before each input what the last one touched gets back its value at start and the ring
 * is emptied, so an input means the same on every run.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/trace/writeback.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "host.h"
#include "fuzz_files.h"

#define TRACING "/sys/kernel/tracing"
#define MAX_FILES 64
#define MAX_DEPTH 4
#define READ_MAX (256u << 10) /* of `trace`: a few thousand events */
#define MAX_EVENTS 2048u      /* fired per input: a ring of the default size wraps */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static struct fuzz_knob knobs[MAX_FILES];
static int nr_knobs;
static bool touched_events, touched_top, fired;
static char *read_buf;

static long read_knob(const char *path)
{
	long n = fuzz_read(path, read_buf, READ_MAX);

	if (n >= 0)
		fuzz_check_text(path, read_buf, n);
	return n;
}

/* Does a write to it change which events are on (events/, set_event*)? */
static bool is_events_knob(const struct fuzz_knob *k)
{
	return str_has_prefix(k->path, TRACING "/events/") || str_has_prefix(k->path, TRACING "/set"
											      "_eve"
											      "nt");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	host_platform_init(64 << 20);
	storage_init();
	vfs_init();
	read_buf = kmalloc(READ_MAX, GFP_KERNEL);
	BUG_ON(!read_buf);
	fuzz_find_knobs(TRACING, MAX_DEPTH, NULL, knobs, &nr_knobs, MAX_FILES);
	/* on stderr, as libFuzzer's own lines: an input's bytes pick one of these */
	for (int i = 0; i < nr_knobs; i++)
		fprintf(stderr, "tracefs-fuzz: file %d: %s\n", i, knobs[i].path);
	BUG_ON(nr_knobs < 5);
	return 0;
}

/* What the last input touched back to its value at start, an empty ring. */
static void restore(void)
{
	for (int i = 0; i < nr_knobs; i++) {
		const char *s = knobs[i].initial;

		if (s && (is_events_knob(&knobs[i]) ? touched_events : touched_top))
			fuzz_write(knobs[i].path, s, strlen(s));
	}
	if (fired || touched_top)
		BUG_ON(fuzz_write(TRACING "/trace", "", 0) < 0);
	touched_events = touched_top = fired = false;
}

/* The writeback event after ev (the first after NULL), round and round. */
static struct trace_event *next_event(struct trace_event *ev)
{
	struct list_head *events = &writeback_trace_system.events;
	struct list_head *next = ev ? ev->list.next : events->next;

	if (next == events)
		next = next->next;
	return list_entry(next, struct trace_event, list);
}

/* Events as the kernel's tracepoints record them (only those enabled): was one recorded? */
static bool fire_events(unsigned int n)
{
	struct trace_event *ev = NULL;
	bool recorded = false;

	for (unsigned int i = 0; i < n; i++) {
		/* the bdi name, where the event's fields start with one */
		struct trace_entry e = { .data = "fuzz" };

		ev = next_event(ev);
		if (!READ_ONCE(ev->enabled))
			continue;
		recorded |= READ_ONCE(tracing_on);
		trace_record(ev, &e);
	}
	fired = true;
	return recorded;
}

static long long read_flag(const char *path, bool system)
{
	if (read_knob(path) < 0)
		panic("%s: unreadable", path);
	if (system && !strcmp(read_buf, "X\n"))
		return 2;
	if (strcmp(read_buf, "0\n") && strcmp(read_buf, "1\n"))
		panic("%s reads '%s', not 0 or 1%s", path, read_buf, system ? " or X" : "");
	return read_buf[0] - '0';
}

/* The events' enable files against their system's. */
static void check_enables(void)
{
	unsigned int on = 0, nr = writeback_trace_system.nr;
	struct trace_event *ev;
	char path[160];
	long long want;

	for_each_system_event(ev, &writeback_trace_system) {
		snprintf(path, sizeof(path), TRACING "/events/writeback/%s/enable", ev->name);
		on += read_flag(path, false);
	}
	want = !on ? 0 : on == nr ? 1 : 2;
	if (read_flag(TRACING "/events/writeback/enable", true) != want ||
	    read_flag(TRACING "/events/enable", true) != want)
		panic("%u of %u events on, the system's enable says otherwise", on, nr);
}

static void check_knob(const struct fuzz_knob *k)
{
	if (fuzz_ends_with(k->path, "/tracing_on")) {
		read_flag(k->path, false);
	} else if (fuzz_ends_with(k->path, "/buffer_size_kb")) {
		if (fuzz_read_number(k->path) <= 0)
			panic("%s: not a positive size", k->path);
	} else if (fuzz_ends_with(k->path, "/trace_clock")) {
		char *open;

		if (read_knob(k->path) < 0 || !(open = strchr(read_buf, '[')) ||
		    strchr(open + 1, '[') || !strchr(open, ']'))
			panic("%s reads '%s'", k->path, read_buf);
	}
}

/* `trace`: its header, then at most the ring's worth of events, none if none could be. */
static void check_trace(bool could_record)
{
	long long kb = fuzz_read_number(TRACING "/buffer_size_kb");
	unsigned long lines = 0;
	long n = read_knob(TRACING "/trace");

	if (n < 0)
		panic("trace: unreadable: %ld", n);
	if (!str_has_prefix(read_buf, "# tracer: nop\n"))
		panic("trace starts with '%.40s'", read_buf);
	for (const char *p = read_buf; (p = strchr(p, '\n')); p++)
		lines += p[1] && p[1] != '#';
	if (lines > (unsigned long long)kb * 1024 / sizeof(struct trace_entry) + 1)
		panic("trace: %lu events in a ring of %lld KiB", lines, kb);
	if (lines && !could_record)
		panic("trace: %lu events while none was recorded", lines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	bool could_record = false;
	unsigned int events = 0;

	if (size > 4096)
		return -1;
	restore();
	while (end - p >= 2) {
		unsigned int what = p[0] % (unsigned int)(nr_knobs + 1);
		size_t len = min((size_t)p[1], (size_t)(end - p - 2));

		if (what == (unsigned int)nr_knobs) {
			unsigned int n = min((unsigned int)p[1], MAX_EVENTS - events);

			could_record |= fire_events(n);
			events += n;
			p += 2;
			continue;
		}
		touched_events |= is_events_knob(&knobs[what]);
		touched_top |= !is_events_knob(&knobs[what]);
		fuzz_write(knobs[what].path, p + 2, len);
		p += 2 + len;
		if (knobs[what].initial && read_knob(knobs[what].path) < 0)
			panic("%s: unreadable after a write", knobs[what].path);
		check_knob(&knobs[what]);
	}
	check_enables();
	check_trace(could_record);
	return 0;
}
