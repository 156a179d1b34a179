/*
 * Tracing set up by the boot arguments (trace-boot.h). The stream starts before the events
 * are enabled, so that it holds them from the first; kernel_poweroff() ends it.
 */
#include <cgwb/trace.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/mm.h>
#include <cgwb/bug.h>
#include <cgwb/virtio_console.h>
#include <cgwb/platform.h>
#include "trace-boot.h"

/*
 * The stream's ring: 1/64 of RAM (8 MiB, some 45000 entries, of 512 MiB), at most 24 MiB.
 * It holds a burst until the drain thread next runs: a buffered write at full speed with
 * every event on records some 250000 entries a second under QEMU, while the thread, one
 * task among the writers, gets the CPU once per round of 10 ms time slices. A bigger ring
 * costs boot time (8 MiB: some 40 ms under TCG).
 */
#define STREAM_RAM_SHARE 64
#define STREAM_ENTRIES_MIN 1024
#define STREAM_ENTRIES_MAX (128UL * 1024)

static void hvc0_write(const char *buf, size_t len, void *data)
{
	int err = virtio_console_write(buf, len);

	/* the device broke the queue: nothing more goes out, the lines are gone */
	WARN_ON_ONCE(err);
}

static const struct trace_sink hvc0_sink = { .name = "hvc0", .write = hvc0_write };

static void trace_stream_boot(const char *port)
{
	unsigned long nr =
		clamp((totalram_pages << PAGE_SHIFT) / STREAM_RAM_SHARE / sizeof(struct trace_entry),
		      (unsigned long)STREAM_ENTRIES_MIN, STREAM_ENTRIES_MAX);
	int err;

	if (strcmp(port, "hvc0") || !virtio_console_present()) {
		pr_err("cgwb.trace_stream=%s: no such port (hvc0, a virtio console, can stream)\n",
		       port);
		return;
	}
	/* a smaller ring rather than none on a small machine */
	while ((err = trace_stream_start(&hvc0_sink, nr)) == -ENOMEM && nr > STREAM_ENTRIES_MIN)
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
