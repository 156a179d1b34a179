/*
 * Simulations of per-cgroup writeback (issue: one writeback context per cgroup), in virtual
 * time on a modelled disk: io.max limits a group's writeback, another group's inodes go
 * through its own wb, the counters agree at every step, and removing a group hands its
 * inodes to the parent without losing a dirty page.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/vmstat.h>
#include <cgwb/vmscan.h>
#include <cgwb/writeback.h>
#include <cgwb/rcupdate.h>
#include <cgwb/sched.h>
#include "host.h"
#include "sim.h"

static const struct sim_config cfg = {
	.mem_mib = 192,
	.disk_mib = 512,
	.disk_bps = 32 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

static void teardown(void)
{
	sim_shutdown();
}

TestSuite(sim_cgwb, .fini = teardown, .timeout = 600);

#define SAMPLES 300 /* 30 s at 100 ms */

/*
 * A writes through io.max wbps far below the disk while B's file holds 16 MiB of dirty
 * pages. Writing B's file back (fsync, through B's wb and B's io cgroup) runs at disk
 * speed although A's flusher has a queue of throttled bios (a wb stuck behind io.max never
 * delays another), and A's writeback converges to its limit.
 */
Test(sim_cgwb, io_max_limits_a_groups_writeback_and_not_its_neighbour)
{
	const u64 limit = 2 * MiB;
	static u64 a_bytes[SAMPLES + 1];
	char line[64];

	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	snprintf(line, sizeof(line), "254:0 wbps=%llu", limit);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/A/io.max", line), 0);

	struct sim_writer *b = sim_writer_start("B", "/mnt/b", 64 * 1024, 16 * MiB, 16 * MiB, 2000);
	while (sim_writer_bytes(b) < 16 * MiB)
		host_run_for(MSEC);
	/* new data all the time (not the same pages redirtied): writeback has work to do */
	sim_writer_start("A", "/mnt/a", 64 * 1024, 192 * MiB, 0, 2000);
	host_run_for(2 * SEC); /* A's dirty pool and its throttle queue fill up */
	cr_assert_gt(wb_stat_sum(sim_file_wb("/mnt/a"), WB_WRITEBACK), 256,
		     "A has no queue of throttled IO");
	cr_assert_eq(sim_cg_value("B", "io.stat", "wbytes"), 0, "B's pages were written early");

	u64 t0 = host_now_ns();
	struct file *fb = filp_open("/mnt/b", O_RDWR, 0);
	cr_assert(!IS_ERR(fb));
	cr_assert_eq(vfs_fsync(fb, 1), 0);
	fput(fb);
	u64 took_ms = (host_now_ns() - t0) / MSEC;
	cr_log_info("fsync of B's 16 MiB took %llu ms with A throttled", took_ms);
	cr_assert_geq(sim_cg_value("B", "io.stat", "wbytes"), 16 * MiB);
	cr_assert_leq(took_ms, 800, "B's 16 MiB took %llu ms on a 32 MiB/s disk (A's rate: 8 s)",
		      took_ms);

	struct bdi_writeback *wb_a = sim_file_wb("/mnt/a"), *wb_b = sim_file_wb("/mnt/b");
	cr_assert_neq(wb_a, wb_b);
	cr_assert_neq(wb_b, &sim_bdi()->wb);
	cr_assert_eq(mem_cgroup_id(wb_memcg(wb_b)), sim_memcg_id("B"));
	cr_assert_eq(wb_stat_sum(wb_b, WB_WRITTEN) * PAGE_SIZE, 16 * MiB,
		     "B's pages were written under another wb");

	for (int i = 0; i <= SAMPLES; i++) {
		char when[32];

		snprintf(when, sizeof(when), "t=%d ms", i * 100);
		sim_assert_counters(when);
		a_bytes[i] = sim_cg_value("A", "io.stat", "wbytes");
		if (getenv("SIM_TRACE") && i % 10 == 0) {
			unsigned long bg, th;
			global_dirty_limits(&bg, &th);
			struct bdi_writeback *w = sim_file_wb("/mnt/a");
			fprintf(stderr,
				"t=%d A io=%llu bw=%lu rec=%lld wb=%lld dirty=%lu wbk=%lu bg=%lu "
				"th=%lu run=%d\n",
				i * 100, a_bytes[i], w->avg_write_bandwidth,
				wb_stat_sum(w, WB_RECLAIMABLE), wb_stat_sum(w, WB_WRITEBACK),
				global_node_page_state_snapshot(NR_FILE_DIRTY),
				global_node_page_state_snapshot(NR_WRITEBACK), bg, th,
				writeback_in_progress(w));
		}
		if (i < SAMPLES)
			host_run_for(100 * MSEC);
	}
	/* A converges to its limit: the last 20 s average within 5% */
	double a_rate = (double)(a_bytes[SAMPLES] - a_bytes[100]) / 20.0;
	cr_log_info("A wrote back at %.0f B/s (limit %llu)", a_rate, limit);
	cr_assert(a_rate > 0.95 * (double)limit && a_rate < 1.05 * (double)limit,
		  "A wrote back at %.0f B/s, limit %llu", a_rate, limit);
	/* and in every 1 s window never above limit x (1 + 0.1) + one bio (blk-throttle's slice) */
	for (int i = 100; i + 10 <= SAMPLES; i++)
		cr_assert_leq(a_bytes[i + 10] - a_bytes[i], limit + limit / 10 + MiB,
			      "A wrote %llu bytes in the second after t=%d ms",
			      a_bytes[i + 10] - a_bytes[i], i * 100);
}

Test(sim_cgwb, removing_a_group_moves_its_inodes_to_the_parent_and_loses_nothing)
{
	static char buf[64 * 1024];

	sim_boot(&cfg);
	sim_mkcg("C");
	struct sim_writer *w = sim_writer_start("C", "/mnt/c", 64 * 1024, 64 * MiB, 8 * MiB, 2000);
	while (sim_writer_bytes(w) < 8 * MiB)
		host_run_for(10 * MSEC);
	sim_writers_stop();
	sim_assert_counters("after the writer");
	struct bdi_writeback *wb_c = sim_file_wb("/mnt/c");
	cr_assert_neq(wb_c, &sim_bdi()->wb, "the file was dirtied in C: it belongs to C's wb");
	cr_assert_eq(nr_cgwbs(), 1);

	/*
	 * The group goes while its inode is still dirty: its wb dies but keeps the inode until
	 * periodic writeback (30 s expiry) has written it, then hands it to the parent.
	 */
	cr_assert_eq(do_rmdir("/sys/fs/cgroup/C"), 0);
	cr_assert_eq(sim_file_wb("/mnt/c"), wb_c,
		     "a dirty inode left a dying wb before being written");
	for (int i = 0; i < 600 && (nr_cgwbs() || sim_file_wb("/mnt/c") != &sim_bdi()->wb); i++) {
		sim_assert_counters("after rmdir");
		host_run_for(100 * MSEC);
	}
	cr_assert_eq(sim_file_wb("/mnt/c"), &sim_bdi()->wb,
		     "the inode was not moved to the parent's wb");
	cr_assert_eq(nr_cgwbs(), 0, "the dead group's wb was not released");
	ksys_sync();
	sim_assert_counters("after sync");
	cr_assert_eq(global_node_page_state_snapshot(NR_FILE_DIRTY), 0);

	/* every byte made it to disk: drop the cache and read it back */
	drop_pagecache();
	struct file *f = filp_open("/mnt/c", O_RDONLY, 0);
	cr_assert(!IS_ERR(f));
	u64 total = 0;
	ssize_t n;
	while ((n = file_read(f, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			cr_assert_eq((u8)buf[i], 0x5a, "byte %llu", total + (u64)i);
		total += (u64)n;
	}
	fput(f);
	cr_assert_eq(total, 8 * MiB);
}

#define NR_REMOVED 5
#define REMOVED_BYTES (16 * MiB)

static int sync_main(void *arg)
{
	(void)arg;
	ksys_sync();
	return 0;
}

/*
 * Removing a group does not lift its io.max for what it leaves behind. Five times in a
 * row a fresh group P<i>/g limited to 1 MiB/s writes 16 MiB and is removed at once; then
 * everything is synced. Each group's pages (counted in io.stat of its parent P<i>, which
 * stays) are written at its limit: over the whole drain within 2 %, and in any second
 * within one slice's allowance and a bio. Its wb is then released and the inode moves on
 * to P<i>'s wb. The acceptance the old behaviour failed: 80 MiB went out in 1.55 s.
 */
Test(sim_cgwb, removed_groups_still_write_back_at_their_io_max)
{
	static const struct sim_config roomy = {
		.mem_mib = 512,
		.disk_mib = 512,
		.disk_bps = 32 * MiB,
		.disk_latency_ns = 50 * NSEC_PER_USEC,
	};
	const u64 limit = MiB;
	static u64 bytes[NR_REMOVED][4096];
	char path[64], cg[32], line[64];
	int n = 0;

	sim_boot(&roomy);
	/* no writeback before the sync: each group's drain is seen from its first byte */
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_bytes", "314572800"), 0);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_background_bytes", "209715200"), 0);
	snprintf(line, sizeof(line), "254:0 wbps=%llu", limit);
	for (int i = 0; i < NR_REMOVED; i++) {
		snprintf(cg, sizeof(cg), "P%d", i);
		sim_mkcg(cg);
		snprintf(path, sizeof(path), "/sys/fs/cgroup/P%d/cgroup.subtree_control", i);
		cr_assert_eq(sim_echo(path, "+memory +io"), 0);
		snprintf(cg, sizeof(cg), "P%d/g", i);
		sim_mkcg(cg);
		snprintf(path, sizeof(path), "/sys/fs/cgroup/P%d/g/io.max", i);
		cr_assert_eq(sim_echo(path, line), 0);
		snprintf(path, sizeof(path), "/mnt/f%d", i);
		cr_assert_eq(sim_write_range(cg, path, 0, REMOVED_BYTES), (long)REMOVED_BYTES);
		snprintf(path, sizeof(path), "/sys/fs/cgroup/P%d/g", i);
		cr_assert_eq(do_rmdir(path), 0);
	}
	kthread_detach(sim_task_start(NULL, sync_main, NULL));

	/* sample every 10 ms until every group's 16 MiB is on disk */
	for (bool all = false; !all; n++) {
		cr_assert_lt(n, 4096, "the removed groups' 80 MiB took over 40 s");
		all = true;
		for (int i = 0; i < NR_REMOVED; i++) {
			snprintf(cg, sizeof(cg), "P%d", i);
			bytes[i][n] = sim_cg_value(cg, "io.stat", "wbytes");
			all &= bytes[i][n] >= REMOVED_BYTES;
		}
		if (n % 10 == 0)
			sim_assert_counters("draining removed groups");
		host_run_for(10 * MSEC);
	}
	for (int i = 0; i < NR_REMOVED; i++) {
		int first = 0, last = n - 1;

		cr_assert_eq(bytes[i][0], 0, "group %d's pages were written before the sync", i);
		while (!bytes[i][first])
			first++;
		while (last > 0 && bytes[i][last - 1] >= REMOVED_BYTES)
			last--;
		/* from the last sample without IO to the first with all of it */
		double secs = (double)(last - first + 1) / 100;
		double rate = (double)REMOVED_BYTES / secs;
		cr_log_info("removed group %d: 16 MiB in %.2f s, %.0f B/s (io.max %llu)", i, secs,
			    rate, limit);
		cr_assert_leq(rate, 1.02 * (double)limit, "removed group %d wrote at %.0f B/s", i,
			      rate);
		for (int t = first; t + 100 < n; t++)
			cr_assert_leq(bytes[i][t + 100] - bytes[i][t], limit + limit / 10 + MiB,
				      "removed group %d wrote %llu bytes in a second", i,
				      bytes[i][t + 100] - bytes[i][t]);
	}
	fprintf(stderr, "removed groups: %d x 16 MiB at io.max 1 MiB/s drained in %.2f s\n",
		NR_REMOVED, (double)n / 100);

	/* then on as before: the dead wbs go and their inodes move to P<i>'s */
	for (int i = 0; i < 600 && nr_cgwbs() > NR_REMOVED; i++)
		host_run_for(100 * MSEC);
	cr_assert_eq(nr_cgwbs(), NR_REMOVED, "the removed groups' wbs were not released");
	for (int i = 0; i < NR_REMOVED; i++) {
		snprintf(path, sizeof(path), "/mnt/f%d", i);
		snprintf(cg, sizeof(cg), "P%d", i);
		cr_assert_eq(mem_cgroup_id(wb_memcg(sim_file_wb(path))), sim_memcg_id(cg));
	}
	sim_assert_counters("after the drain");
}

static int wb_create_main(void *arg)
{
	struct bdi_writeback **wbp = arg;

	*wbp = wb_get_create(sim_bdi(), mem_cgroup_from_task(current), GFP_KERNEL);
	if (!*wbp)
		return -ENOMEM;
	wb_put(*wbp); /* the index keeps it */
	return 0;
}

/*
 * A lockless lookup (wb_get_lookup(): xa_load(), then wb_tryget(), under RCU) may hold a wb
 * that a kill on another CPU takes out of the index and whose last put releases it. The wb
 * must stay readable until the reader's section ends, and its tryget must fail. CPU 1 is
 * that reader, parked in its section with the wb it found; CPU 0 removes the group.
 */
Test(sim_cgwb, a_released_wb_is_freed_a_grace_period_later)
{
	struct bdi_writeback *wb, *found;

	sim_boot(&cfg);
	sim_mkcg("R");
	cr_assert_eq(sim_run_in("R", wb_create_main, &wb), 0);
	cr_assert_eq(nr_cgwbs(), 1);
	host_set_nr_cpus(2);
	host_rcu_cpu_online(1, true);
	rcu_read_lock();
	found = xa_load(&sim_bdi()->cgwb_tree, (unsigned long)sim_memcg_id("R"));
	rcu_read_unlock();
	cr_assert_eq(found, wb, "CPU 1's lookup did not find the wb");

	cr_assert_eq(do_rmdir("/sys/fs/cgroup/R"), 0);
	for (int i = 0; i < 100 && nr_cgwbs(); i++)
		host_run_for(10 * MSEC);
	cr_assert_eq(nr_cgwbs(), 0, "the dead group's wb was not released");
	cr_assert_not(host_mem_is_freed(wb), "a wb was freed under a read-side section");
	host_set_cpu(1);
	bool got = wb_tryget(found);
	host_set_cpu(0);
	cr_assert_not(got, "a released wb was got");

	for (int i = 0; i < 10 && !host_mem_is_freed(wb); i++) {
		host_rcu_quiescent(1);
		host_run_for(10 * MSEC);
	}
	cr_assert(host_mem_is_freed(wb), "a released wb was not freed after a grace period");
	host_rcu_cpu_online(1, false);
}
