/*
 * Many slow tenants, in virtual time: N groups, each held to 1 MiB/s of writes by io.max,
 * each dirtying 16 MiB without fsync, and an unlimited group B writing 96 MiB with fsync
 * (dd conv=fsync) while they are at it. B's rate beside them over its rate alone is the
 * figure; each tenant must still write at its io.max rate.
 *
 * In Linux's mode the tenants dirty their 16 MiB at once, as far as the global pool lets
 * them, and the pool stays full of pages that drain at 1 MiB/s each: B is throttled by the
 * global domain. The bandwidth policy holds what the slow wbs may keep together, so the
 * pool stays with B.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/vmstat.h>
#include <cgwb/writeback.h>
#include "host.h"
#include "sim.h"
#include "mm/dirty-policy.h"

TestSuite(sim_tenants, .timeout = 1800);

#define TENANT_MIB 16
#define B_MIB 96
#define WINDOW_S 6

/* Set once the figures are taken: the tenants end after their current write. */
static bool tenants_stop;

struct tenants_result {
	double b_alone, b_beside;             /* B's MiB/s */
	double slow_min, slow_max, slow_mean; /* the tenants' write rates, MiB/s */
	unsigned long peak_slow;              /* most pages the tenants held together */
	unsigned long g_thresh;               /* the global thresh at the end */
	unsigned long budget; /* the bandwidth policy's for the slow wbs, at the end */
	double sleeps_per_s;  /* how often a tenant slept, its mean over the window */
};

static const u64 cpu_ns_per_page = 2000;

/* B writes B_MIB with fsync as a task of group B: its MiB/s. */
static double b_write(const char *path)
{
	struct sim_dd b = { .bytes = B_MIB * MiB, .cpu_ns_per_page = cpu_ns_per_page, .fsync = true };

	snprintf(b.path, sizeof(b.path), "%s", path);
	cr_assert_eq(sim_run_in("B", sim_dd_main, &b), 0, "B's write: %d", b.err);
	return (double)B_MIB / ((double)(b.done_ns - b.start_ns) / SEC);
}

/* What the tenants' wbs hold (the root wb, which holds every group's metadata, aside). */
static unsigned long slow_pages(unsigned int n)
{
	unsigned long sum = 0;
	char path[32];

	for (unsigned int i = 0; i < n; i++) {
		struct bdi_writeback *wb;

		snprintf(path, sizeof(path), "/mnt/t%u", i + 1);
		wb = sim_file_wb(path);
		if (!wb_is_root(wb))
			sum += (unsigned long)(wb_stat_sum(wb, WB_RECLAIMABLE) +
					       wb_stat_sum(wb, WB_WRITEBACK));
	}
	return sum;
}

static void dump(unsigned int n, int ms)
{
	char path[32];

	fprintf(stderr, "t=%d global dirty %lu wb %lu | held/bw:", ms,
		global_node_page_state_snapshot(NR_FILE_DIRTY),
		global_node_page_state_snapshot(NR_WRITEBACK));
	for (unsigned int i = 0; i < n; i++) {
		struct bdi_writeback *wb;

		snprintf(path, sizeof(path), "/mnt/t%u", i + 1);
		wb = sim_file_wb(path);
		fprintf(stderr, " %lld/%lu",
			wb_stat_sum(wb, WB_RECLAIMABLE) + wb_stat_sum(wb, WB_WRITEBACK),
			wb_measured_bandwidth(wb, jiffies));
	}
	fprintf(stderr, "\n");
}

/*
 * n tenants start in a policy ("linux", or "bandwidth" at its defaults); once they have
 * run 1.5 s, B writes beside them; the tenants' io.stat wbytes are read at B's start and
 * WINDOW_S later, as the QEMU workload does (there 2 s after they start); then they are told to
 * stop.
 */
static void run_tenants(unsigned int n, const char *policy, struct tenants_result *r)
{
	struct sim_config cfg = {
		.mem_mib = 512,
		.disk_mib = 4096,
		.disk_bps = 2048 * MiB,
		.disk_latency_ns = 50 * NSEC_PER_USEC,
	};
	struct sim_dd *t = calloc(n, sizeof(*t));
	struct task_struct **tasks = calloc(n, sizeof(*tasks));
	u64 *w0 = calloc(n, sizeof(*w0));
	unsigned long *s0 = calloc(n, sizeof(*s0));
	unsigned long bg, thresh;
	char name[48];
	u64 t0, t1;

	cr_assert(t && tasks && w0 && s0);
	memset(r, 0, sizeof(*r));
	tenants_stop = false;
	sim_boot(&cfg);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_policy", policy), 0);
	sim_mkcg("B");
	r->b_alone = b_write("/mnt/b0");
	cr_assert_eq(do_unlink("/mnt/b0"), 0);
	ksys_sync();
	for (unsigned int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "t%u", i + 1);
		sim_mkcg(name);
		snprintf(name, sizeof(name), "/sys/fs/cgroup/t%u/io.max", i + 1);
		cr_assert_eq(sim_echo(name, "254:0 wbps=1048576"), 0);
	}
	for (unsigned int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "t%u", i + 1);
		snprintf(t[i].path, sizeof(t[i].path), "/mnt/t%u", i + 1);
		t[i].bytes = TENANT_MIB * MiB;
		t[i].cpu_ns_per_page = cpu_ns_per_page;
		t[i].stop = &tenants_stop;
		tasks[i] = sim_task_start(name, sim_dd_main, &t[i]);
	}
	for (int ms = 0; ms < 1500; ms += 10) {
		host_run_for(10 * MSEC);
		if (ms >= 20) /* once every tenant has created its file */
			r->peak_slow = max(r->peak_slow, slow_pages(n));
		if (getenv("SIM_TRACE") && ms % 200 == 100)
			dump(n, ms);
	}
	for (unsigned int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "t%u", i + 1);
		w0[i] = sim_cg_value(name, "io.stat", "wbytes");
		s0[i] = READ_ONCE(tasks[i]->nr_switches);
	}
	t0 = host_now_ns();
	r->b_beside = b_write("/mnt/b1");
	while (host_now_ns() < t0 + WINDOW_S * SEC) {
		host_run_for(10 * MSEC);
		r->peak_slow = max(r->peak_slow, slow_pages(n));
	}
	t1 = host_now_ns();
	r->slow_min = 1e9;
	for (unsigned int i = 0; i < n; i++) {
		double rate;

		snprintf(name, sizeof(name), "t%u", i + 1);
		rate = (double)(sim_cg_value(name, "io.stat", "wbytes") - w0[i]) / MiB /
		       ((double)(t1 - t0) / SEC);
		r->slow_min = rate < r->slow_min ? rate : r->slow_min;
		r->slow_max = rate > r->slow_max ? rate : r->slow_max;
		r->slow_mean += rate / n;
		r->sleeps_per_s += (double)(READ_ONCE(tasks[i]->nr_switches) - s0[i]) /
				   ((double)(t1 - t0) / SEC) / n;
	}
	global_dirty_limits(&bg, &thresh);
	r->g_thresh = thresh;
	r->budget = bw_slow_budget(thresh);
	tenants_stop = true;
	for (unsigned int i = 0; i < n; i++)
		cr_assert_eq(kthread_join(tasks[i]), 0, "tenant %u failed: %d", i + 1, t[i].err);
	ksys_sync();
	sim_assert_counters("after the tenants");
	cr_assert(!host_log_contains("WARNING"), "the kernel log has a warning:\n%s", host_log());
	sim_shutdown();
	cr_log_info("%u tenants at 1 MiB/s, policy %s: B alone %.1f MiB/s, beside them %.1f "
		    "(ratio %.3f); tenants %.3f MiB/s on average (%.3f-%.3f) over %d s from B's "
		    "start, sleeping %.0f times a second; they held at most %lu pages together "
		    "(global thresh %lu, budget %lu)",
		    n, policy, r->b_alone, r->b_beside, r->b_beside / r->b_alone, r->slow_mean,
		    r->slow_min, r->slow_max, WINDOW_S, r->sleeps_per_s, r->peak_slow, r->g_thresh,
		    r->budget);
	free(s0);
	free(w0);
	free(tasks);
	free(t);
}

/*
 * Each tenant writes at its io.max rate: the mean within margin; one tenant's bytes over
 * the window move by up to a bio (1 MiB of its WINDOW_S MiB) with where the window falls.
 */
static void check_tenants_rate(const struct tenants_result *r, double margin)
{
	const double one_bio = 1.0 / WINDOW_S;

	cr_assert(r->slow_mean > 1 - margin && r->slow_mean < 1 + margin,
		  "the tenants wrote %.3f MiB/s on average through 1 MiB/s", r->slow_mean);
	cr_assert(r->slow_min > 1 - one_bio && r->slow_max < 1 + one_bio,
		  "a tenant wrote %.3f-%.3f MiB/s", r->slow_min, r->slow_max);
}

/*
 * Linux's mode: the tenants dirty as far as the global pool lets them and keep it full
 * with pages that drain at 1 MiB/s each; B is throttled by the global domain.
 */
static void check_linux_mode(unsigned int n)
{
	struct tenants_result r;

	run_tenants(n, "linux", &r);
	/*
	 * Their queued bios are up to 1 MiB each and the throttler lets them go together, so
	 * the window's mean moves by 3 % with where it falls (the whole run's is exact).
	 */
	check_tenants_rate(&r, 0.05);
	cr_assert_geq(r.peak_slow, r.g_thresh * 9 / 10, "the tenants held only %lu of %lu",
		      r.peak_slow, r.g_thresh);
	cr_assert_lt(r.b_beside / r.b_alone, 0.25, "B kept %.2f: the pool was not full?",
		     r.b_beside / r.b_alone);
}

/*
 * The bandwidth policy: the tenants hold the shared budget at most (and, at their first
 * checks, the pages each may dirty before one: DIRTY_POLL_THRESH); B keeps 0.8 of its
 * speed, against the 7/8 of the disk the tenants leave it. A tenant held at its cap
 * sleeps until its wb has made room for what its limit writes in MAX_PAUSE and dirties
 * that before it looks again: at 1 MiB/s, 5 steps a second (8 when a step was
 * DIRTY_POLL_THRESH pages), and max_sleeps leaves room for its other sleeps. With 128 the
 * budget leaves each some 40 pages, and a step is half of what the wb holds (so that its
 * disk stays busy through the pause): about twice as many as 8. (Every wake-up
 * runs the whole of balance_dirty_pages() and may wake the flusher: the simulator charges
 * no CPU for it, a real machine does.)
 */
/* A tenant's steps a second at its cap: one per MAX_PAUSE. */
#define STEPS_PER_S ((double)HZ / MAX_PAUSE)
/* The same when a step is DIRTY_POLL_THRESH pages, at 1 MiB/s. */
#define SMALL_STEPS_PER_S ((double)(MiB >> PAGE_SHIFT) / DIRTY_POLL_THRESH)

static void check_policy(unsigned int n, double max_sleeps)
{
	struct tenants_result r;

	run_tenants(n, "bandwidth", &r);
	cr_assert_lt(r.sleeps_per_s, max_sleeps, "a tenant slept %.0f times a second",
		     r.sleeps_per_s);
	/* bios as large as a tenant's run of held pages (its budget, 190 pages at 32): the
	 * window's mean moves by up to 3 % with where it falls */
	check_tenants_rate(&r, 0.03);
	cr_assert_leq(r.peak_slow, r.budget + n * DIRTY_POLL_THRESH,
		      "the tenants held %lu pages, their budget is %lu", r.peak_slow, r.budget);
	cr_assert_geq(r.b_beside / r.b_alone, 0.8, "B kept %.2f of its speed",
		      r.b_beside / r.b_alone);
}

Test(sim_tenants, linux_mode_twelve_tenants_fill_the_pool)
{
	check_linux_mode(12);
}

Test(sim_tenants, linux_mode_thirty_two_tenants_fill_the_pool)
{
	check_linux_mode(32);
}

Test(sim_tenants, linux_mode_one_hundred_twenty_eight_tenants_fill_the_pool)
{
	check_linux_mode(128);
}

Test(sim_tenants, bandwidth_policy_holds_thirty_two_tenants_to_their_budget)
{
	check_policy(32, STEPS_PER_S * 3 / 2);
}

Test(sim_tenants, bandwidth_policy_holds_one_hundred_twenty_eight_tenants_to_their_budget)
{
	check_policy(128, SMALL_STEPS_PER_S * 3);
}
