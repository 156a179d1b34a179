/*
 * Tracing set up by the boot arguments (trace-boot.h). The stream starts before the events
 * are enabled, so that it holds them from the first; kernel_poweroff() ends it.
 */
#include <cgwb/trace.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/mm.h>
#include "../arch/x86.h"
#include "cmdline.h"
#include "trace-boot.h"

/*
 * The stream's ring: 1/64 of RAM (8 MiB, some 45000 entries, of 512 MiB), at most 24 MiB.
 * It holds a burst of events until the drain has caught up: the serial port carries some
 * 9000 lines a second under QEMU, while a buffered write at full speed with every event on
 * makes about twice that (the per-write inode events, writeback_dirty_folio...). A bigger
 * ring would cost boot time (8 MiB: some 70 ms under TCG) for bursts few runs have.
 */
#define STREAM_RAM_SHARE 64
#define STREAM_ENTRIES_MIN 1024
#define STREAM_ENTRIES_MAX (128UL * 1024)

static void com2_write(const char *buf, size_t len, void *data)
{
	serial2_write(buf, len);
}

static const struct trace_sink com2_sink = { .name = "ttyS1", .write = com2_write };

static void trace_stream_boot(const char *port)
{
	unsigned long nr =
		clamp((totalram_pages << PAGE_SHIFT) / STREAM_RAM_SHARE / sizeof(struct trace_entry),
		      (unsigned long)STREAM_ENTRIES_MIN, STREAM_ENTRIES_MAX);
	int err;

	if (strcmp(port, "ttyS1")) {
		pr_err("cgwb.trace_stream=%s: only ttyS1 can carry the stream\n", port);
		return;
	}
	if (!serial2_init()) {
		pr_err("cgwb.trace_stream: no second serial port (ttyS1): nothing is streamed\n");
		return;
	}
	/* a smaller ring rather than none on a small machine */
	while ((err = trace_stream_start(&com2_sink, nr)) == -ENOMEM && nr > STREAM_ENTRIES_MIN)
		nr /= 2;
	if (err)
		pr_err("trace: the stream did not start (%d)\n", err);
}

void trace_boot_init(void)
{
	const char *v;

	if ((v = cmdline_get("cgwb.trace_stream")))
		trace_stream_boot(v);
	if ((v = cmdline_get("trace_event")))
		trace_set_events(v);
}
