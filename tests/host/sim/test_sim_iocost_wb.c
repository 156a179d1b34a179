/*
 * io.cost under writeback, in virtual time, through the whole stack: buffered writers in
 * two groups of weights 100 and 300 each write 64 MiB with fsync (dd bs=1M conv=fsync)
 * on a 32 MiB/s modelled disk with io.cost's model set to it. Their pages reach the disk
 * through each group's own wb, whose flusher waits for its group's budget, so the shares
 * follow the weights, and each wb's write bandwidth estimate (and so its dirty
 * throttling) follows its share. The same run without io.cost shares equally.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/backing-dev.h>
#include "host.h"
#include "sim.h"

TestSuite(sim_iocost_wb, .timeout = 600);

#define DISK_BPS (32 * MiB)

struct wb_shares {
	u64 bytes_a, bytes_b; /* io.stat's wbytes when the first dd ended */
	u64 bw_a, bw_b;       /* their wbs' write bandwidth estimates then, pages/s */
	double first_s;
};

static void iocost_setup(void)
{
	char line[128];

	snprintf(line, sizeof(line), "254:0 ctrl=user wbps=%llu wseqiops=1000000 wrandiops=1000000",
		 (unsigned long long)DISK_BPS);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/io.cost.model", line), 0);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/io.cost.qos", "254:0 enable=1 rpct=90 rlat=50000 "
							    "wpct=90 wlat=50000"),
		     0);
}

static void run_two_writers(bool iocost, u64 mib, struct wb_shares *r)
{
	struct sim_config cfg = {
		.mem_mib = 512,
		.disk_mib = (unsigned int)(2 * mib + 128),
		.disk_bps = DISK_BPS,
		.disk_latency_ns = 50 * NSEC_PER_USEC,
	};
	struct sim_dd a = {
		.path = "/mnt/a", .bytes = mib * MiB, .cpu_ns_per_page = 5000, .fsync = true
	};
	struct sim_dd b = {
		.path = "/mnt/b", .bytes = mib * MiB, .cpu_ns_per_page = 5000, .fsync = true
	};
	struct task_struct *ta, *tb;
	u64 t0;

	sim_boot(&cfg);
	sim_mkcg("a");
	sim_mkcg("b");
	cr_assert_eq(sim_echo("/sys/fs/cgroup/a/io.weight", "100"), 0);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/b/io.weight", "default 300"), 0);
	if (iocost)
		iocost_setup();
	t0 = host_now_ns();
	ta = sim_task_start("a", sim_dd_main, &a);
	tb = sim_task_start("b", sim_dd_main, &b);
	while (!a.done_ns && !b.done_ns)
		host_run_for(10 * NSEC_PER_MSEC);
	r->bytes_a = sim_cg_value("a", "io.stat", "wbytes");
	r->bytes_b = sim_cg_value("b", "io.stat", "wbytes");
	r->bw_a = sim_file_wb("/mnt/a")->write_bandwidth;
	r->bw_b = sim_file_wb("/mnt/b")->write_bandwidth;
	r->first_s = (double)((a.done_ns ? a.done_ns : b.done_ns) - t0) / SEC;
	cr_assert_eq(kthread_join(ta), 0, "a: %d", a.err);
	cr_assert_eq(kthread_join(tb), 0, "b: %d", b.err);
	sim_assert_counters("after the writers");
	cr_assert(!host_log_contains("WARNING"), "the kernel log has a warning:\n%s", host_log());
	sim_shutdown();
	cr_log_info("io.cost %s: first done at %.2f s, a %llu MiB, b %llu MiB, bw a %llu b %llu",
		    iocost ? "on" : "off", r->first_s, r->bytes_a / MiB, r->bytes_b / MiB, r->bw_a,
		    r->bw_b);
}

Test(sim_iocost_wb, buffered_writers_share_by_weight_through_their_wbs)
{
	struct wb_shares r;
	double ratio;

	run_two_writers(true, 64, &r);
	ratio = (double)r.bytes_b / (double)r.bytes_a;
	cr_assert(ratio >= 2.7 && ratio <= 3.3, "b/a %.2f (a %llu, b %llu MiB)", ratio,
		  r.bytes_a / MiB, r.bytes_b / MiB);
	/* the disk was kept busy: b's 64 MiB and a's third of it at 32 MiB/s */
	cr_assert_leq(r.first_s, 1.25 * (double)(r.bytes_a + r.bytes_b) / DISK_BPS + 1.0,
		      "first done at %.2f s", r.first_s);
}

/* The estimate starts at 100 MB/s and follows over seconds: a longer run. */
Test(sim_iocost_wb, each_wb_bandwidth_estimate_follows_its_share)
{
	struct wb_shares r;
	double bw_ratio;

	run_two_writers(true, 480, &r);
	bw_ratio = (double)r.bw_b / (double)r.bw_a;
	cr_assert(bw_ratio >= 2.4 && bw_ratio <= 3.6, "b/a %.2f (a %llu, b %llu pages/s)", bw_ratio,
		  r.bw_a, r.bw_b);
	cr_assert_lt(r.bw_a, DISK_BPS / PAGE_SIZE / 3, "a's estimate is below a third of the disk");
}

Test(sim_iocost_wb, without_io_cost_they_share_equally)
{
	struct wb_shares r;
	double ratio;

	run_two_writers(false, 64, &r);
	ratio = (double)r.bytes_b / (double)r.bytes_a;
	cr_assert(ratio > 0.75 && ratio < 1.33, "b/a %.2f", ratio);
}

/*
 * Eight groups of weights 100..800 at once: each one's bytes when the first ends are
 * within 15 % of its weight's fraction. A weight-100 group's 1 MiB writeback bio costs it
 * some 1.4 s of vtime: it must be able to save up for it while it waits (it once could
 * not, and the five lightest groups wrote 1 MiB each).
 */
Test(sim_iocost_wb, eight_groups_share_by_weight)
{
	struct sim_config cfg = { .mem_mib = 512,
				  .disk_mib = 700,
				  .disk_bps = DISK_BPS,
				  .disk_latency_ns = 50 * NSEC_PER_USEC };
	struct sim_dd w[8];
	struct task_struct *t[8];
	char name[16], path[64], weight[16];
	u64 bytes[8], sum = 0;
	bool done = false;

	sim_boot(&cfg);
	iocost_setup();
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "g%d", i + 1);
		sim_mkcg(name);
		snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/io.weight", name);
		snprintf(weight, sizeof(weight), "%d", (i + 1) * 100);
		cr_assert_eq(sim_echo(path, weight), 0);
	}
	for (int i = 0; i < 8; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		snprintf(w[i].path, sizeof(w[i].path), "/mnt/g%d", i + 1);
		w[i].bytes = 64 * MiB;
		w[i].cpu_ns_per_page = 5000;
		w[i].fsync = true;
		snprintf(name, sizeof(name), "g%d", i + 1);
		t[i] = sim_task_start(name, sim_dd_main, &w[i]);
	}
	while (!done) {
		host_run_for(10 * NSEC_PER_MSEC);
		for (int i = 0; i < 8; i++)
			done |= w[i].done_ns != 0;
	}
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "g%d", i + 1);
		bytes[i] = sim_cg_value(name, "io.stat", "wbytes");
		sum += bytes[i];
	}
	for (int i = 0; i < 8; i++) {
		double r = (double)bytes[i] / (double)sum * 3600 / ((i + 1) * 100);

		cr_log_info("g%d (weight %d): %llu MiB, share / weight's fraction %.2f", i + 1,
			    (i + 1) * 100, bytes[i] / MiB, r);
		cr_expect(r >= 0.85 && r <= 1.15, "g%d: share / fraction %.2f", i + 1, r);
	}
	for (int i = 0; i < 8; i++)
		cr_assert_eq(kthread_join(t[i]), 0);
	sim_assert_counters("after the writers");
	sim_shutdown();
}
