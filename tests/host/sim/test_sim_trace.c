/*
 * The writeback trace events from real runs of the stack in virtual time: a group's writer
 * throttled by balance_dirty_pages() leaves balance_dirty_pages, bdi_dirty_ratelimit and
 * writeback_start/written lines for its own cgroup in `trace`, in Linux's format, with
 * values the control law allows; the ring wraps and says how many entries it lost. The
 * stream to a host file (sim_trace_to) holds the same lines as `trace`, and its count.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/cgroup.h>
#include <cgwb/trace.h>
#include <cgwb/trace/writeback.h>
#include <cgwb/errno.h>
#include <unistd.h>
#include "host.h"
#include "sim.h"

TestSuite(sim_trace, .timeout = 600);

static const struct sim_config cfg = {
	.mem_mib = 256,
	.disk_mib = 512,
	.disk_bps = 32 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

#define TRACE_DIR "/sys/kernel/tracing/"

static char *read_all(const char *path, size_t size)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	char *buf = malloc(size);
	long n, total = 0;

	cr_assert(!IS_ERR(f), "open %s", path);
	cr_assert_not_null(buf);
	while ((size_t)total < size - 1 &&
	       (n = file_read(f, buf + total, size - 1 - (size_t)total)) > 0)
		total += n;
	buf[total] = 0;
	fput(f);
	return buf;
}

struct bdp_line {
	unsigned long limit, setpoint, dirty, task_ratelimit, cgroup_ino;
	long pause;
};

static bool parse_bdp(const char *line, struct bdp_line *b)
{
	const char *p = strstr(line, ": balance_dirty_pages: bdi 254:0: ");

	return p && sscanf(p,
			   ": balance_dirty_pages: bdi 254:0: limit=%lu setpoint=%lu dirty=%lu "
			   "bdi_setpoint=%*u bdi_dirty=%*u dirty_ratelimit=%*u task_ratelimit=%lu "
			   "dirtied=%*u dirtied_pause=%*u paused=%*u pause=%ld period=%*u "
			   "think=%*d cgroup_ino=%lu",
			   &b->limit, &b->setpoint, &b->dirty, &b->task_ratelimit, &b->pause,
			   &b->cgroup_ino) == 6;
}

Test(sim_trace, throttled_writer_leaves_linux_lines)
{
	static const char *const events[] = { "balance_dirty_pages", "bdi_dirty_ratelimit",
					      "writeback_start", "writeback_written" };
	unsigned long ino, bdp = 0, ratelimit = 0, started = 0, in_buf, written;
	struct sim_writer *w;
	char path[128], *buf, *line, *save;
	double last_ts = 0;

	sim_boot(&cfg);
	sim_mkcg("G");
	/* a small ring, so that the run wraps it */
	cr_assert_eq(sim_echo(TRACE_DIR "buffer_size_kb", "16"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(events); i++) {
		snprintf(path, sizeof(path), TRACE_DIR "events/writeback/%s/enable", events[i]);
		cr_assert_eq(sim_echo(path, "1"), 0);
	}
	w = sim_writer_start("G", "/mnt/g", MiB, 160 * MiB, 160 * MiB, 2000);
	sim_writer_fsync_at_end(w);
	while (!sim_writer_done(w))
		host_run_for(MSEC);
	ino = wb_memcg(sim_file_wb("/mnt/g"))->css.cgroup->id;
	cr_assert_neq(ino, 1, "the group's wb, not the root's");

	buf = read_all(TRACE_DIR "trace", 4 << 20);
	cr_assert_eq(sscanf(buf, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %lu/%lu",
			    &in_buf, &written),
		     2);
	cr_assert_eq(in_buf, trace_global.nr, "the ring is full: %lu of %lu, %lu written", in_buf,
		     trace_global.nr, written);
	cr_assert_gt(written, in_buf, "and lost the oldest entries: %lu written", written);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct bdp_line b;
		double ts;
		char ev[40];

		if (line[0] == '#')
			continue;
		cr_assert_eq(sscanf(line, "%*s [000] %*5c %lf: %39[a-z_]:", &ts, ev), 2, "%s", line);
		cr_assert_geq(ts, last_ts, "timestamps in order: %s", line);
		last_ts = ts;
		if (!strcmp(ev, "balance_dirty_pages")) {
			cr_assert(parse_bdp(line, &b), "%s", line);
			cr_assert_eq(b.cgroup_ino, ino, "%s", line);
			cr_assert_leq(b.setpoint, b.limit, "%s", line);
			cr_assert_leq(b.pause, 200, "Linux's MAX_PAUSE is 200 ms: %s", line);
			bdp++;
		} else if (!strcmp(ev, "bdi_dirty_ratelimit")) {
			ratelimit++;
		} else if (!strcmp(ev, "writeback_start")) {
			started++;
		} else {
			cr_assert_str_eq(ev, "writeback_written", "only enabled events: %s", line);
		}
	}
	cr_log_info("trace: %lu balance_dirty_pages, %lu bdi_dirty_ratelimit, %lu writeback_start "
		    "of %lu held, %lu written",
		    bdp, ratelimit, started, in_buf, written);
	cr_assert_gt(bdp, 0);
	cr_assert_gt(ratelimit, 0);
	cr_assert_gt(started, 0);
	free(buf);
	sim_writers_stop();
	sim_shutdown();
}

/* The lines of text that are not comments, in order, NUL-separated in place; their number. */
static size_t trace_lines(char *text, char **lines, size_t max)
{
	size_t n = 0;
	char *save, *line;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		cr_assert_lt(n, max, "more lines than expected");
		lines[n++] = line;
	}
	return n;
}

static char *read_host_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long size;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc((size_t)size + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
	buf[size] = 0;
	fclose(f);
	return buf;
}

/*
 * What scripts/run-qemu --trace gives for QEMU, the simulator gives with sim_trace_to(): the
 * events of the list, from the same tracepoints, in the same text as `trace` (compared line
 * by line with a ring big enough to hold the run), stamped with virtual time, the lost count
 * last.
 */
Test(sim_trace, stream_to_a_host_file)
{
	enum { MAX_LINES = 20000 };
	char path[] = "/tmp/cgwb-sim-trace.XXXXXX";
	static char *streamed[MAX_LINES], *held[MAX_LINES];
	size_t nr_streamed, nr_held, bdp = 0;
	char *stream_text, *trace_text, *last;
	struct sim_writer *w;
	double ts = 0, last_ts = 0;
	u64 now, elapsed;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	sim_boot(&cfg);
	sim_mkcg("G");
	cr_assert_eq(sim_echo(TRACE_DIR "buffer_size_kb", "3072"), 0);
	sim_trace_to(path, "writeback:balance_dirty_pages,writeback:global_dirty_state,"
			   "writeback:writeback_written");
	cr_assert_eq(trace_event_writeback_dirty_folio.enabled, false, "only the list's events");
	w = sim_writer_start("G", "/mnt/g", MiB, 64 * MiB, 64 * MiB, 2000);
	sim_writer_fsync_at_end(w);
	while (!sim_writer_done(w))
		host_run_for(MSEC);
	cr_assert_eq(sim_echo(TRACE_DIR "tracing_on", "0"), 0, "the same entries in both");
	trace_text = read_all(TRACE_DIR "trace", 32 << 20);
	now = host_now_ns();
	elapsed = sim_writer_elapsed_ns(w);
	sim_shutdown();

	stream_text = read_host_file(path);
	unlink(path);
	cr_assert(!strncmp(stream_text, "# tracer: nop\n", 14), "%.80s", stream_text);
	last = strrchr(stream_text, '#');
	cr_assert_str_eq(last, "# trace: 0 events lost\n", "the last line counts the lost");
	nr_streamed = trace_lines(stream_text, streamed, MAX_LINES);
	nr_held = trace_lines(trace_text, held, MAX_LINES);
	cr_assert_gt(nr_streamed, 100, "%zu lines", nr_streamed);
	cr_assert_eq(nr_streamed, nr_held, "streamed %zu, trace holds %zu", nr_streamed, nr_held);
	for (size_t i = 0; i < nr_streamed; i++) {
		char ev[40];

		cr_assert_str_eq(streamed[i], held[i], "line %zu", i);
		cr_assert_eq(sscanf(streamed[i], "%*s [000] %*5c %lf: %39[a-z_]:", &ts, ev), 2,
			     "%s", streamed[i]);
		cr_assert_geq(ts, last_ts, "virtual time goes forward: %s", streamed[i]);
		last_ts = ts;
		bdp += !strcmp(ev, "balance_dirty_pages");
		cr_assert(!strcmp(ev, "balance_dirty_pages") || !strcmp(ev, "global_dirty_state") ||
				  !strcmp(ev, "writeback_written"),
			  "only the listed events: %s", streamed[i]);
	}
	cr_assert_gt(bdp, 0, "the writer was throttled");
	/* the virtual clock's time (the same stamps as `trace`'s, compared above) */
	cr_assert_leq(last_ts * 1e9, (double)now, "virtual timestamps: %f", last_ts);
	cr_assert_gt(last_ts, 0.1, "virtual timestamps: the last is %f, the writer took %llu ns",
		     last_ts, (unsigned long long)elapsed);
	free(stream_text);
	free(trace_text);
}

/*
 * inode_foreign_history, as Linux has it: only from a round that votes and only with some
 * foreign history. An owner writing its own file leaves none; another group rewriting it
 * (its own pages, after the cache is dropped) leaves lines whose history is never 0.
 */
Test(sim_trace, foreign_history_lines_only_for_foreign_votes)
{
	unsigned long lines = 0;
	char *buf, *line, *save;

	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_echo(TRACE_DIR "events/writeback/inode_foreign_history/enable", "1"), 0);
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, 16 * MiB), 16 * MiB);
	ksys_sync();
	buf = read_all(TRACE_DIR "trace", 1 << 20);
	cr_assert_null(strstr(buf, "inode_foreign_history:"), "the owner's own rounds:\n%s", buf);
	free(buf);
	cr_assert_eq(sim_echo("/proc/sys/vm/drop_caches", "1"), 0);
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(sim_write_range("B", "/mnt/f", 0, 16 * MiB), 16 * MiB);
		ksys_sync();
	}
	buf = read_all(TRACE_DIR "trace", 1 << 20);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *h = strstr(line, "history=0x");

		if (!strstr(line, "inode_foreign_history:"))
			continue;
		cr_assert_not_null(h, "%s", line);
		cr_assert_neq(strtoul(h + 10, NULL, 16), 0, "a line with no history: %s", line);
		lines++;
	}
	free(buf);
	cr_log_info("foreign rounds traced: %lu", lines);
	cr_assert_gt(lines, 0, "B's rewrites voted without a trace line");
	sim_shutdown();
}
