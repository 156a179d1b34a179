/*
 * The trace stream (include/cgwb/trace.h): the events' lines sent out of the machine as
 * they happen, to a virtio console in QEMU or to a file in the host simulator.
 *
 * Policy. Recording stays as cheap as for the trace file: trace_stream_record() copies the
 * raw entry into the stream's own ring and nothing more. One thread, "trace-stream",
 * formats and writes: it wakes every STREAM_POLL_MS, or at once when the ring is an eighth
 * full, drains it, and writes in batches of about STREAM_BATCH bytes so that a slow sink
 * sees few large writes. It holds no lock of the stream's while writing, so recorders, the
 * console and everyone else go on meanwhile. When events come faster than the thread gets
 * them out, the ring overwrites its oldest entries and counts them (trace_ring_write());
 * the count ends the stream.
 *
 * Lifetime. trace_stream_start() allocates the ring and starts the thread;
 * trace_stream_stop() tells the thread to finish: it stops the recording into the ring
 * (stream.on, tested with interrupts off, so no recorder is between its test and its write
 * when the thread goes on), drains the rest, writes the last line and exits; the caller
 * joins it and frees the ring. Start and stop run in process context, one at a time.
 */
#include <cgwb/trace.h>
#include <cgwb/seq_buf.h>
#include <cgwb/irqflags.h>
#include <cgwb/printk.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/jiffies.h>

#define STREAM_POLL_MS 10
#define STREAM_BATCH 4096

static struct {
	struct trace_ring ring;
	bool on;       /* recorders store into ring (tested with irqs off) */
	bool stopping; /* the thread is to drain, end the stream and exit */
	const struct trace_sink *sink;
	struct task_struct *task;
	struct seq_buf out; /* the thread's batch of lines */
	u64 lost;           /* the final count, for trace_stream_stop() */
} stream;

static DECLARE_WAIT_QUEUE_HEAD(stream_wait);

void trace_stream_record(const struct trace_entry *e)
{
	unsigned long flags;

	local_irq_save(flags);
	if (stream.on) {
		trace_ring_write(&stream.ring, e);
		/* wake early before the ring fills; otherwise the poll finds the entries */
		if (trace_ring_entries(&stream.ring) >= stream.ring.nr / 8 &&
		    waitqueue_active(&stream_wait))
			wake_up(&stream_wait);
	}
	local_irq_restore(flags);
}

static void stream_flush(void)
{
	if (stream.out.len)
		stream.sink->write(stream.out.buf, stream.out.len, stream.sink->data);
	stream.out.len = 0;
}

static void stream_drain(void)
{
	struct trace_entry e;

	while (trace_ring_consume(&stream.ring, &e)) {
		trace_print_line(&stream.out, &e);
		if (stream.out.len >= STREAM_BATCH) {
			stream_flush();
			cond_resched();
		}
	}
	stream_flush();
}

static int stream_thread(void *unused)
{
	unsigned long flags;

	while (!READ_ONCE(stream.stopping)) {
		wait_event_timeout(stream_wait,
				   READ_ONCE(stream.stopping) ||
					   trace_ring_entries(&stream.ring) >= stream.ring.nr / 8,
				   msecs_to_jiffies(STREAM_POLL_MS));
		stream_drain();
	}
	local_irq_save(flags);
	stream.on = false;
	local_irq_restore(flags);
	stream_drain();
	stream.lost = stream.ring.lost;
	seq_printf(&stream.out, "# trace: %llu events lost\n", (unsigned long long)stream.lost);
	stream_flush();
	return 0;
}

int trace_stream_start(const struct trace_sink *sink, unsigned long nr)
{
	int err;

	if (stream.task)
		return -EBUSY;
	err = trace_ring_init(&stream.ring, nr);
	if (err)
		return err;
	stream.sink = sink;
	stream.stopping = false;
	seq_buf_init(&stream.out);
	/* Linux's trace_pipe has no header; a stream read as a file gets the columns' names */
	seq_puts(&stream.out, "# tracer: nop\n#\n");
	trace_print_columns(&stream.out);
	stream.task = kthread_create(stream_thread, NULL, "trace-stream");
	if (!stream.task) {
		seq_buf_free(&stream.out);
		trace_ring_free(&stream.ring);
		return -ENOMEM;
	}
	WRITE_ONCE(stream.on, true);
	wake_up_process(stream.task);
	pr_info("trace: streaming to %s (%lu entries)\n", sink->name, nr);
	return 0;
}

long long trace_stream_stop(void)
{
	if (!stream.task)
		return -ENODEV;
	WRITE_ONCE(stream.stopping, true);
	wake_up(&stream_wait);
	kthread_join(stream.task);
	stream.task = NULL;
	BUG_ON(stream.on);
	trace_ring_free(&stream.ring);
	seq_buf_free(&stream.out);
	pr_info("trace: %llu events lost\n", (unsigned long long)stream.lost);
	return (long long)stream.lost;
}
