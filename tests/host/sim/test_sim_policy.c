/*
 * The dirty-throttling policies in virtual time: the template ("fixed") holds each group to
 * its limit; the bandwidth policy counts what a group dirties in another group's inode,
 * keeps its estimate when writeback takes longer than its window, and Linux's law clears
 * dirty_exceeded once the pool is back below freerun.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/writeback.h>
#include "host.h"
#include "sim.h"
#include "mm/dirty-policy.h"

TestSuite(sim_policy, .timeout = 600);

static const struct sim_config slow_disk = {
	.mem_mib = 256,
	.disk_mib = 1024,
	.disk_bps = 16 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

static unsigned long wb_held(struct bdi_writeback *wb)
{
	return (unsigned long)(wb_stat_sum(wb, WB_RECLAIMABLE) + wb_stat_sum(wb, WB_WRITEBACK));
}

/* What a memory cgroup has dirty or under writeback, wherever its pages are. */
static unsigned long memcg_held(const char *cg)
{
	return (unsigned long)(sim_cg_value(cg, "memory.stat", "file_dirty") +
			       sim_cg_value(cg, "memory.stat", "file_writeback")) /
	       PAGE_SIZE;
}

/* Run until w is done, the most pages f(cg) gave on the way. */
static unsigned long peak_until_done(struct sim_writer *w, unsigned long (*f)(const char *),
				     const char *cg)
{
	unsigned long peak = 0;

	for (int i = 0; !sim_writer_done(w); i++) {
		cr_assert_lt(i, 120000, "the writer did not finish in 120 s");
		host_run_for(MSEC);
		peak = max(peak, f(cg));
	}
	return peak;
}

static unsigned long group_wb_held(const char *cg)
{
	char path[32];

	snprintf(path, sizeof(path), "/mnt/%s", cg);
	return wb_held(sim_file_wb(path));
}

/*
 * The template: with dirty_fixed_kbytes = 2048 a group holds at most 512 pages (and the
 * pages dirtied before its next check, at most half the room left), and still writes at the
 * disk's speed; the root's writer is not held to it.
 */
Test(sim_policy, fixed_policy_holds_each_group_to_its_kbytes)
{
	struct sim_writer *w;
	unsigned long peak;
	double mib_s;

	sim_boot(&slow_disk);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_policy", "fixed"), 0);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_fixed_kbytes", "2048"), 0);
	sim_mkcg("g");
	w = sim_writer_start("g", "/mnt/g", MiB, 32 * MiB, 32 * MiB, 2000);
	sim_writer_fsync_at_end(w);
	peak = peak_until_done(w, group_wb_held, "g");
	mib_s = 32.0 / ((double)sim_writer_elapsed_ns(w) / SEC);
	cr_log_info("fixed policy: the group held at most %lu pages (limit 512), %.1f MiB/s "
		    "(disk 16)",
		    peak, mib_s);
	/* a writer checks after each folio it dirties: one folio past the poll threshold */
	cr_assert_leq(peak, 512 + DIRTY_POLL_THRESH + (1UL << MAX_PAGECACHE_ORDER),
		      "the group held %lu pages", peak);
	cr_assert_geq(mib_s, 0.9 * 16, "the group wrote at %.1f MiB/s", mib_s);
	sim_writers_stop();

	w = sim_writer_start(NULL, "/mnt/root", MiB, 32 * MiB, 32 * MiB, 2000);
	peak = 0;
	while (!sim_writer_done(w)) {
		host_run_for(MSEC);
		peak = max(peak, wb_held(sim_file_wb("/mnt/root")));
	}
	cr_log_info("fixed policy: the root's writer held up to %lu pages", peak);
	cr_assert_gt(peak, 4 * 512, "the root's writer was held to the groups' limit");
	sim_shutdown();
}

/*
 * A group (X, io.max 1 MiB/s) writing new pages into an inode that another group (Y, as
 * slow) owns: the pages are X's memcg's but Y's wb's. Under the bandwidth policy they
 * count against X's cap (3 s of 1 MiB/s, at least 1/32 of the global threshold); under
 * Linux's law X's own wb holds nothing and X dirties far more.
 */
static unsigned long foreign_peak(const char *policy, unsigned long *cap)
{
	struct sim_writer *w;
	unsigned long peak, bg, thresh;

	sim_boot(&slow_disk);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_policy", policy), 0);
	sim_mkcg("X");
	sim_mkcg("Y");
	cr_assert_eq(sim_echo("/sys/fs/cgroup/X/io.max", "254:0 wbps=1048576"), 0);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/Y/io.max", "254:0 wbps=1048576"), 0);
	cr_assert_eq(sim_write_range("Y", "/mnt/y", 0, 64 * 1024), 64 * 1024);
	cr_assert_eq(sim_memcg_id("Y"), (int)mem_cgroup_id(wb_memcg(sim_file_wb("/mnt/y"))),
		     "the inode is Y's");
	w = sim_writer_start("X", "/mnt/y", MiB, 24 * MiB, 24 * MiB, 2000);
	peak = 0;
	/* the first 2 s: the inode stays Y's (a switch needs more of X's IO time) */
	for (int i = 0; i < 2000 && !sim_writer_done(w); i++) {
		host_run_for(MSEC);
		peak = max(peak, memcg_held("X"));
	}
	global_dirty_limits(&bg, &thresh);
	*cap = max(3 * 256UL, thresh / 32);
	sim_shutdown();
	return peak;
}

Test(sim_policy, a_group_writing_into_another_groups_inode_is_held_to_its_cap)
{
	unsigned long cap, peak = foreign_peak("bandwidth", &cap);

	cr_log_info("X's pages in Y's inode under the bandwidth policy: at most %lu (cap %lu)",
		    peak, cap);
	cr_assert_leq(peak, cap + 2 * DIRTY_POLL_THRESH, "X held %lu pages, its cap is %lu", peak,
		      cap);
}

/* The same under Linux's law, for contrast: nothing bounds X's pages but the domains. */
Test(sim_policy, under_linux_law_a_group_writing_into_another_groups_inode_holds_more)
{
	unsigned long cap, peak = foreign_peak("linux", &cap);

	cr_log_info("X's pages in Y's inode under Linux's law: at most %lu", peak);
	cr_assert_geq(peak, 4 * cap, "X held only %lu pages under Linux's law", peak);
}

/*
 * No ratchet: with dirty_bandwidth_seconds = 10 a group at io.max 1 MiB/s holds about 10 s
 * of writes, so a page waits ~10 s for the device, far longer than the 1.6 s window. The
 * window still sees the completions at 1 MiB/s: the estimate stays there, and so does
 * the group's rate.
 */
Test(sim_policy, measured_bandwidth_holds_when_writeback_outlasts_the_window)
{
	double lo = 1e9, hi = 0, sum = 0;
	int samples = 0;
	u64 wb0 = 0;

	sim_boot(&slow_disk);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_bandwidth_seconds", "10"), 0);
	sim_mkcg("s");
	cr_assert_eq(sim_echo("/sys/fs/cgroup/s/io.max", "254:0 wbps=1048576"), 0);
	sim_writer_start("s", "/mnt/s", MiB, 64 * MiB, 64 * MiB, 2000);
	for (int t = 1; t <= 40; t++) {
		host_run_for(SEC);
		if (t == 10)
			wb0 = sim_cg_value("s", "io.stat", "wbytes");
		if (t >= 10) {
			double bw = (double)wb_measured_bandwidth(sim_file_wb("/mnt/s"), jiffies);

			lo = bw < lo ? bw : lo;
			hi = bw > hi ? bw : hi;
			sum += bw;
			samples++;
		}
	}
	{
		double rate = (double)(sim_cg_value("s", "io.stat", "wbytes") - wb0) / MiB / 30;
		unsigned long held = wb_held(sim_file_wb("/mnt/s"));

		double mean = sum / samples;

		cr_log_info("10 s of 1 MiB/s held (%lu pages now): measured %.0f pages/s on "
			    "average "
			    "(%.0f-%.0f) from 10 s to 40 s, %.3f MiB/s written",
			    held, mean, lo, hi, rate);
		cr_assert_geq(held, 5 * 256, "the group held only %lu pages", held);
		/* completions come a bio (up to 256 pages) at a time: one more or less per window */
		cr_assert(mean >= 0.9 * 256 && mean <= 1.1 * 256, "measured %.0f pages/s", mean);
		cr_assert_geq(lo, 0.5 * 256, "the estimate fell to %.0f pages/s", lo);
		/* io.max lets whole bios go: one (1 MiB) more or less in the 30 s */
		cr_assert(rate > 1 - 1.05 / 30 && rate < 1 + 1.05 / 30,
			  "the group wrote %.3f MiB/s", rate);
	}
	sim_writers_stop();
	sim_shutdown();
}

/*
 * dirty_exceeded (a wb over its share with its domain over the threshold: its dirtiers
 * check every 8 pages) is cleared by a dirtier that finds every domain below freerun, as
 * Linux clears it on the way out of balance_dirty_pages().
 */
Test(sim_policy, dirty_exceeded_is_cleared_below_freerun)
{
	struct bdi_writeback *wb;

	sim_boot(&slow_disk);
	cr_assert_eq(sim_write_range(NULL, "/mnt/a", 0, 64 * 1024), 64 * 1024);
	wb = sim_file_wb("/mnt/a");
	wb->dirty_exceeded = 1;
	cr_assert_eq(sim_write_range(NULL, "/mnt/a", 64 * 1024, 256 * 1024), 256 * 1024);
	cr_assert_not(wb->dirty_exceeded, "a dirtier below freerun left dirty_exceeded set");
	sim_shutdown();
}
