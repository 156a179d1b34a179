/*
 * ext4's data=ordered commit beside a throttled group, in virtual time: an ext3 image
 * mounted as ext4 with nodelalloc, so blocks are allocated as the pages are written and a
 * commit writes the data of the blocks its transaction allocated before its log. Group A
 * appends to a file for 60 s held to 4 MiB/s; 2 s in, group B starts writing 4 KiB and
 * fsyncing it every 100 ms. B's fsync commits A's blocks too, and with them A's data:
 * written as A's IO and waited for behind A's limit, B's first fsync waited for all A had
 * dirtied (about 100 MiB, 25 s). The commit's data goes out at once and A pays for it
 * afterwards: B waits for the disk, not for A's limit, and A's rate over the 60 s stays
 * at its limit. A transaction gathers at most 2 MiB of such data (A asks for the commit
 * past it), so B's worst fsync is two commits of that at most, not A's first 80 MiB at
 * once (1.2 s, 150 times B's median, without the bound).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include "host.h"
#include "sim.h"

TestSuite(sim_ordered, .timeout = 900);

#define A_RATE (4 * MiB)
#define DISK_BPS (64 * MiB)
#define ORDERED_MAX (2 * MiB) /* a transaction's ordered data (fs/ext4/ext4_jbd2.c) */

static const struct sim_config ext3_nodelalloc = {
	.mem_mib = 512,
	.disk_mib = 1024,
	.disk_bps = DISK_BPS,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
	.mkfs = "ext3",
	.fstype = "ext4",
	.mount_opts = "nodelalloc",
};

#define LOG_MAX 1024

/* B's log: 4 KiB appended, then fsync, every 100 ms while *stop is false */
struct fsync_log {
	const bool *stop;
	unsigned int n;
	u64 worst_ns, sum_ns;
	u64 took_ns[LOG_MAX];
	int err;
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 log_median_ns(struct fsync_log *log)
{
	unsigned int n = min(log->n, (unsigned int)LOG_MAX);

	qsort(log->took_ns, n, sizeof(u64), cmp_u64);
	return n ? log->took_ns[n / 2] : 0;
}

static int fsync_log_main(void *arg)
{
	struct fsync_log *log = arg;
	struct file *f = filp_open("/mnt/log", O_WRONLY | O_CREAT, 0644);
	char *buf = kzalloc(4096, GFP_KERNEL);

	if (IS_ERR(f) || !buf) {
		log->err = IS_ERR(f) ? (int)PTR_ERR(f) : -ENOMEM;
		kfree(buf);
		return log->err;
	}
	while (!READ_ONCE(*log->stop)) {
		u64 t0 = host_now_ns(), took;
		ssize_t n = file_write(f, buf, 4096);

		if (n != 4096 || (log->err = vfs_fsync(f, 0))) {
			log->err = log->err ?: (n < 0 ? (int)n : -EIO);
			break;
		}
		took = host_now_ns() - t0;
		log->worst_ns = max(log->worst_ns, took);
		log->sum_ns += took;
		if (log->n < LOG_MAX)
			log->took_ns[log->n] = took;
		log->n++;
		msleep(100);
	}
	fput(f);
	kfree(buf);
	return log->err;
}

/* A held to 4 MiB/s by io.max, or by io.cost's budget with a model of a 4 MiB/s disk */
static void hold_a(bool iocost)
{
	if (!iocost) {
		cr_assert_eq(sim_echo("/sys/fs/cgroup/A/io.max", "254:0 wbps=4194304"), 0);
		return;
	}
	cr_assert_eq(sim_echo("/sys/fs/cgroup/io.cost.model", "254:0 ctrl=user wbps=4194304 "
							      "wseqiops=1000000 wrandiops=1000000 "
							      "rbps=4194304 rseqiops=1000000 "
							      "rrandiops=1000000"),
		     0);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/io.cost.qos", "254:0 enable=1 ctrl=user min=100 "
							    "max=100"),
		     0);
}

static void commit_beside_a_held_group(bool iocost)
{
	bool stop = false;
	struct sim_dd a = {
		.path = "/mnt/a", .bytes = 900 * MiB, .cpu_ns_per_page = 100000, .stop = &stop
	};
	static struct fsync_log log;
	struct task_struct *ta, *tb;
	u64 w10, w60, median;
	double rate;

	log = (struct fsync_log){ .stop = &stop };
	sim_boot(&ext3_nodelalloc);
	sim_mkcg("A");
	sim_mkcg("B");
	hold_a(iocost);
	ta = sim_task_start("A", sim_dd_main, &a);
	host_run_for(2 * SEC);
	tb = sim_task_start("B", fsync_log_main, &log);
	host_run_for(8 * SEC);
	w10 = sim_cg_value("A", "io.stat", "wbytes");
	host_run_for(50 * SEC);
	w60 = sim_cg_value("A", "io.stat", "wbytes");
	WRITE_ONCE(stop, true);
	cr_assert_eq(kthread_join(tb), 0);
	cr_assert_eq(kthread_join(ta), 0);
	rate = (double)w60 / 60;
	median = log_median_ns(&log);
	cr_log_info("B's fsyncs beside A at 4 MiB/s (%s): %u, worst %.3f s, median %.4f s, mean "
		    "%.4f s; A wrote %llu MiB by 10 s, %.3f MiB/s over 60 s",
		    iocost ? "io.cost" : "io.max", log.n, (double)log.worst_ns / SEC,
		    (double)median / SEC, (double)log.sum_ns / log.n / SEC,
		    (unsigned long long)(w10 / MiB), rate / MiB);
	cr_expect_gt(log.n, 400, "B managed %u fsyncs in 58 s", log.n);
	/* what A had dirtied when B began, at the disk's speed: not at A's limit */
	cr_expect_lt(log.worst_ns, 3 * SEC, "B's worst fsync: %.2f s", (double)log.worst_ns / SEC);
	/*
	 * What a transaction may gather of A's data, not all A has dirtied: the commit under
	 * way when B asks and B's own, each with 2 MiB of A's at most, at the disk's speed.
	 */
	cr_expect_lt(log.worst_ns, 2 * ORDERED_MAX * SEC / DISK_BPS + 20 * NSEC_PER_MSEC,
		     "B's worst fsync %.3f s, its median %.4f s", (double)log.worst_ns / SEC,
		     (double)median / SEC);
	cr_expect(rate > 0.95 * A_RATE && rate < 1.05 * A_RATE,
		  "A's rate %.3f MiB/s, its limit 4 MiB/s", rate / MiB);
	sim_shutdown();
}

Test(sim_ordered, a_commit_does_not_wait_behind_a_throttled_group_and_it_pays_later)
{
	commit_beside_a_held_group(false);
}

Test(sim_ordered, a_commit_does_not_wait_behind_io_cost_and_the_group_pays_later)
{
	commit_beside_a_held_group(true);
}

/*
 * The bound is for data a commit would take past its group's limits: a group that nothing
 * holds dirties as much as the dirty limits let it, as the root does, while the flusher
 * writes at the disk's speed (a commit every 2 MiB would have written its data as it came,
 * its dirty pages never above a few MiB).
 */
Test(sim_ordered, a_group_nothing_holds_is_not_bounded)
{
	struct sim_dd c = { .path = "/mnt/c", .bytes = 256 * MiB, .cpu_ns_per_page = 20000 };
	struct task_struct *tc;
	u64 peak = 0;

	sim_boot(&ext3_nodelalloc);
	sim_mkcg("C");
	tc = sim_task_start("C", sim_dd_main, &c);
	for (int i = 0; i < 200; i++) {
		host_run_for(10 * NSEC_PER_MSEC);
		peak = max(peak, sim_cg_value("C", "memory.stat", "file_dirty"));
	}
	cr_assert_eq(kthread_join(tc), 0);
	cr_log_info("C's dirty pages peaked at %llu MiB", (unsigned long long)(peak / MiB));
	cr_expect_gt(peak, 16 * MiB, "C's dirty pages peaked at %llu KiB",
		     (unsigned long long)(peak / 1024));
	sim_shutdown();
}
