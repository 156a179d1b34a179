/*
 * ext4's data=ordered commit beside a throttled group, in virtual time: an ext3 image
 * mounted as ext4 with nodelalloc, so blocks are allocated as the pages are written and a
 * commit writes the data of the blocks its transaction allocated before its log. Group A
 * appends to a file for 60 s held to 4 MiB/s; 2 s in, group B starts writing 4 KiB and
 * fsyncing it every 100 ms. B's fsync commits A's blocks too, and with them A's data:
 * written as A's IO and waited for behind A's limit, B's first fsync waited for all A had
 * dirtied (about 100 MiB, 25 s). The commit's data goes out at once and A pays for it
 * afterwards: B waits for the disk, not for A's limit, and A's rate over the 60 s stays
 * at its limit (A's first 80 MiB went at once, with B's first commit; A paid for them in
 * the next 20 s).
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include "host.h"
#include "sim.h"

TestSuite(sim_ordered, .timeout = 900);

#define A_RATE (4 * MiB)
#define DISK_BPS (64 * MiB)

static const struct sim_config ext3_nodelalloc = {
	.mem_mib = 512,
	.disk_mib = 1024,
	.disk_bps = DISK_BPS,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
	.mkfs = "ext3",
	.fstype = "ext4",
	.mount_opts = "nodelalloc",
};

/* B's log: 4 KiB appended, then fsync, every 100 ms while *stop is false */
struct fsync_log {
	const bool *stop;
	unsigned int n;
	u64 worst_ns, sum_ns;
	int err;
};

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
		log->n++;
		msleep(100);
	}
	fput(f);
	kfree(buf);
	return log->err;
}

Test(sim_ordered, a_commit_does_not_wait_behind_a_throttled_group_and_it_pays_later)
{
	bool stop = false;
	struct sim_dd a = {
		.path = "/mnt/a", .bytes = 900 * MiB, .cpu_ns_per_page = 100000, .stop = &stop
	};
	struct fsync_log log = { .stop = &stop };
	struct task_struct *ta, *tb;
	u64 w10, w60;
	double rate;

	sim_boot(&ext3_nodelalloc);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_echo("/sys/fs/cgroup/A/io.max", "254:0 wbps=4194304"), 0);
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
	cr_log_info("B's fsyncs beside A at 4 MiB/s: %u, worst %.2f s, mean %.3f s; A wrote "
		    "%llu MiB by 10 s, %.3f MiB/s over 60 s",
		    log.n, (double)log.worst_ns / SEC, (double)log.sum_ns / log.n / SEC,
		    (unsigned long long)(w10 / MiB), rate / MiB);
	cr_expect_gt(log.n, 400, "B managed %u fsyncs in 58 s", log.n);
	/* what A had dirtied when B began, at the disk's speed: not at A's limit */
	cr_expect_lt(log.worst_ns, 3 * SEC, "B's worst fsync: %.2f s", (double)log.worst_ns / SEC);
	cr_expect(rate > 0.95 * A_RATE && rate < 1.05 * A_RATE,
		  "A's rate %.3f MiB/s, its limit 4 MiB/s", rate / MiB);
	sim_shutdown();
}
