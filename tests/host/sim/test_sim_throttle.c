/*
 * Simulations of dirty throttling (balance_dirty_pages with the global and memcg
 * wb_domains), in virtual time on a modelled disk: the memcg domain bounds a group's dirty
 * and writeback pages, the stricter domain governs, the dirty ratelimit converges to the
 * wb's bandwidth shared by its dirtiers, and a group throttled by io.max cannot take the
 * dirty pool from another group.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/vmstat.h>
#include <cgwb/writeback.h>
#include "host.h"
#include "mm/internal.h"
#include "sim.h"
#include <math.h>
#include <cgwb/errno.h>

static const struct sim_config cfg = {
	.mem_mib = 256,
	.disk_mib = 1024,
	.disk_bps = 32 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

TestSuite(sim_throttle, .timeout = 600);

/* A memcg domain's figures as balance_dirty_pages() sees them now. */
struct domain_view {
	unsigned long dirty, thresh, bg_thresh, limit;
};

static void global_view(struct dirty_throttle_control *g)
{
	memset(g, 0, sizeof(*g));
	g->dom = &global_wb_domain;
	g->avail = global_dirtyable_memory();
	g->dirty = global_node_page_state_snapshot(NR_FILE_DIRTY) +
		   global_node_page_state_snapshot(NR_WRITEBACK);
	domain_dirty_limits(g);
}

static struct domain_view memcg_view(struct bdi_writeback *wb)
{
	struct dirty_throttle_control g, m = { 0 };
	unsigned long filepages, headroom, writeback;
	struct domain_view v;

	global_view(&g);
	m.gdtc = &g;
	m.dom = mem_cgroup_wb_domain(wb);
	cr_assert_not_null(m.dom, "a root wb has no memcg domain");
	mem_cgroup_wb_stats(wb, &filepages, &headroom, &m.dirty, &writeback);
	m.dirty += writeback;
	mdtc_calc_avail(&m, filepages, headroom);
	domain_dirty_limits(&m);
	v.dirty = m.dirty;
	v.thresh = m.thresh;
	v.bg_thresh = m.bg_thresh;
	v.limit = hard_dirty_limit(m.dom, m.thresh);
	return v;
}

static void check_log_clean(void)
{
	cr_assert(!host_log_contains("WARNING"), "the kernel log has a warning:\n%s", host_log());
}

/* Boot with a group cg (memory.max as given, or none). */
static void boot_with_group(const struct sim_config *c, const char *cg, const char *memory_max)
{
	char path[64];

	sim_boot(c);
	sim_mkcg(cg);
	if (memory_max) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/memory.max", cg);
		cr_assert_eq(sim_echo(path, memory_max), 0);
	}
}

/* Stop the writers, check the kernel log, shut down. */
static void finish(void)
{
	sim_writers_stop();
	check_log_clean();
	sim_shutdown();
}

static void wait_done(struct sim_writer *w)
{
	while (!sim_writer_done(w))
		host_run_for(MSEC);
}

/* ---------------------------------------------------------------- isolation */

struct isolation {
	double b_alone, b_with_a; /* MiB/s, dd conv=fsync style */
	double a_rate;            /* A's MiB/s */
	double a_peak_ratio;      /* max over samples of A's dirty+writeback / A's domain limit */
	double a_peak_global;     /* ... / the global domain's thresh */
	double a_ratelimit;       /* A's dirty_ratelimit, averaged from 60 MiB written on */
	unsigned long a_written_rate; /* A's wb completions over its window at 60 MiB */
	double a_pause_ms;            /* A's last pause (wb->last_pause), averaged likewise */
};

#define ISO_MB 96

static void iso_groups(const char *memory_max)
{
	sim_mkcg("A");
	sim_mkcg("B");
	if (memory_max) {
		cr_assert_eq(sim_echo("/sys/fs/cgroup/A/memory.max", memory_max), 0);
		cr_assert_eq(sim_echo("/sys/fs/cgroup/B/memory.max", memory_max), 0);
	}
	cr_assert_eq(sim_echo("/sys/fs/cgroup/A/io.max", "254:0 wbps=4194304"), 0);
}

static double mib_per_s(u64 bytes, u64 ns)
{
	return (double)bytes / MiB / ((double)ns / SEC);
}

/*
 * The isolation workload on a disk of disk_mib MiB/s: B writes 96 MiB alone (dd
 * conv=fsync), then A (io.max wbps = 4 MiB/s) and B write 96 MiB each at once.
 * bw_seconds: the dirty_bandwidth_seconds policy (0: Linux's behaviour).
 */
static void run_isolation(const char *memory_max, unsigned int disk_mib, unsigned int bw_seconds,
			  struct isolation *r)
{
	struct sim_config c = cfg;
	struct sim_writer *a, *b;
	unsigned long rl_sum = 0, rl_samples = 0, pause_sum = 0;
	char knob[16];

	memset(r, 0, sizeof(*r));
	c.disk_bps = disk_mib * MiB;
	sim_boot(&c);
	snprintf(knob, sizeof(knob), "%u", bw_seconds);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_bandwidth_seconds", knob), 0);
	iso_groups(memory_max);
	b = sim_writer_start("B", "/mnt/b1", MiB, ISO_MB * MiB, ISO_MB * MiB, 2000);
	sim_writer_fsync_at_end(b);
	wait_done(b);
	r->b_alone = mib_per_s(ISO_MB * MiB, sim_writer_elapsed_ns(b));
	sim_writers_stop();
	cr_assert_eq(do_unlink("/mnt/b1"), 0);
	ksys_sync();

	a = sim_writer_start("A", "/mnt/a", MiB, ISO_MB * MiB, ISO_MB * MiB, 2000);
	sim_writer_fsync_at_end(a);
	b = sim_writer_start("B", "/mnt/b2", MiB, ISO_MB * MiB, ISO_MB * MiB, 2000);
	sim_writer_fsync_at_end(b);
	for (int i = 0; !sim_writer_elapsed_ns(a) || !sim_writer_elapsed_ns(b); i++) {
		cr_assert_lt(i, 1200, "the writers did not finish in 120 s");
		host_run_for(100 * MSEC);
		if (sim_writer_elapsed_ns(a) || sim_writer_bytes(a) < MiB)
			continue;
		if (sim_writer_bytes(a) >= 60 * MiB) {
			struct bdi_writeback *wa = sim_file_wb("/mnt/a");

			if (!rl_samples)
				r->a_written_rate = wb_measured_bandwidth(wa, jiffies);
			rl_sum += wa->dirty_ratelimit;
			pause_sum += (unsigned long)max(wa->last_pause, 0L);
			rl_samples++;
		}
		struct domain_view v = memcg_view(sim_file_wb("/mnt/a"));
		struct dirty_throttle_control g;
		double ratio = (double)v.dirty / (double)v.limit;

		global_view(&g);
		r->a_peak_ratio = max(r->a_peak_ratio, ratio);
		r->a_peak_global = max(r->a_peak_global, (double)v.dirty / (double)g.thresh);
		if (getenv("SIM_TRACE") && i % 5 == 0) {
			struct bdi_writeback *wa = sim_file_wb("/mnt/a");

			fprintf(stderr,
				"t=%d A dirty+wb=%lu limit=%lu rl=%lu bw=%lu | B %llu MiB | "
				"global %lu+%lu\n",
				i * 100, v.dirty, v.limit, wa->dirty_ratelimit,
				wa->avg_write_bandwidth, sim_writer_bytes(b) / MiB,
				global_node_page_state_snapshot(NR_FILE_DIRTY),
				global_node_page_state_snapshot(NR_WRITEBACK));
		}
	}
	r->a_ratelimit = rl_samples ? (double)rl_sum / rl_samples : 0;
	r->a_pause_ms = rl_samples ? (double)jiffies_to_msecs(pause_sum) / rl_samples : 0;
	r->b_with_a = mib_per_s(ISO_MB * MiB, sim_writer_elapsed_ns(b));
	r->a_rate = mib_per_s(ISO_MB * MiB, sim_writer_elapsed_ns(a));
	finish();
	cr_log_info("isolation (memory.max %s, disk %u MiB/s, dirty_bandwidth_seconds %u): "
		    "B alone %.1f MiB/s, with A %.1f MiB/s (ratio %.2f), A %.2f MiB/s, A's peak "
		    "dirty+writeback %.2f of its domain limit, %.2f of the global thresh, its "
		    "dirty_ratelimit %.0f pages/s and pauses of %.0f ms late in the run",
		    memory_max ? memory_max : "max", disk_mib, bw_seconds, r->b_alone, r->b_with_a,
		    r->b_with_a / r->b_alone, r->a_rate, r->a_peak_ratio, r->a_peak_global,
		    r->a_ratelimit, r->a_pause_ms);
}

/* A's rate through its io.max limit of 4 MiB/s: within 2 % in every mode. */
static void check_a(const struct isolation *r)
{
	cr_assert(r->a_rate > 3.92 && r->a_rate < 4.08, "A wrote at %.2f MiB/s through 4 MiB/s",
		  r->a_rate);
}

/*
 * Linux mode, both groups with memory.max: A's memcg domain holds A's dirty and writeback
 * pages to about 20 % of its memory, so A cannot fill the global pool and B runs nearly as
 * fast as alone (Linux 6.1 on QEMU: 0.72 to 0.91).
 */
Test(sim_throttle, isolation_with_memory_max_b_keeps_most_of_its_throughput)
{
	struct isolation r;

	run_isolation("64M", 128, 0, &r);
	cr_assert_geq(r.b_with_a / r.b_alone, 0.90, "B kept %.2f of its alone-throughput",
		      r.b_with_a / r.b_alone);
	check_a(&r);
	cr_assert_leq(r.a_peak_ratio, 1.10, "A held %.2f x its domain limit", r.a_peak_ratio);
	cr_assert_lt(r.a_peak_global, 0.5, "A held %.2f of the global thresh", r.a_peak_global);
}

/*
 * Linux mode without memory.max: A's memcg domain is as large as the global one, so A's
 * dirty and writeback pages, draining at 4 MiB/s, take the whole global pool and B is
 * throttled by the global domain (Linux: 0.26 to 0.58).
 */
Test(sim_throttle, isolation_without_memory_max_a_takes_the_global_pool)
{
	struct isolation r;

	run_isolation(NULL, 128, 0, &r);
	cr_assert_lt(r.b_with_a / r.b_alone, 0.5, "B kept %.2f: A did not take the pool?",
		     r.b_with_a / r.b_alone);
	check_a(&r);
	cr_assert_leq(r.a_peak_ratio, 1.05, "A held %.2f x its domain limit", r.a_peak_ratio);
	cr_assert_gt(r.a_peak_global, 0.75, "A held only %.2f of the global thresh", r.a_peak_global);
}

/*
 * Past Linux (dirty_bandwidth_seconds = 3), no memory.max: A may hold only about 3 s of
 * its measured 4 MiB/s, the global pool stays with B, and A's dirty_ratelimit converges to
 * its bandwidth (within 25 %).
 */
Test(sim_throttle, past_linux_isolation_without_memory_max)
{
	struct isolation r;

	run_isolation(NULL, 128, 3, &r);
	cr_assert_geq(r.b_with_a / r.b_alone, 0.90, "B kept %.2f of its alone-throughput",
		      r.b_with_a / r.b_alone);
	check_a(&r);
	cr_assert_lt(r.a_peak_global, 0.4, "A held %.2f of the global thresh", r.a_peak_global);
	cr_assert_geq(r.a_pause_ms, 80, "A paused %.0f ms at a time", r.a_pause_ms);
	/*
	 * While the cap governs, the ratelimit is balanced against the measured bandwidth
	 * and converges to A's 1024 pages/s (Linux's avg_write_bandwidth would still be on
	 * its way down from 100 MB/s at this point of the run).
	 */
	cr_assert(r.a_ratelimit > 0.85 * 1024 && r.a_ratelimit < 1.15 * 1024,
		  "A's dirty_ratelimit %.0f pages/s for its 1024", r.a_ratelimit);
	cr_log_info("A's dirty_ratelimit %.0f pages/s, bandwidth 1024 (measured %lu)",
		    r.a_ratelimit, r.a_written_rate);
}

Test(sim_throttle, past_linux_isolation_with_memory_max)
{
	struct isolation r;

	run_isolation("64M", 128, 3, &r);
	cr_assert_geq(r.b_with_a / r.b_alone, 0.95, "B kept %.2f of its alone-throughput",
		      r.b_with_a / r.b_alone);
	check_a(&r);
	/* under the cap A's dirtier checks every max_pause / 2 or so (Linux's rule: ~50 ms) */
	cr_assert_geq(r.a_pause_ms, 80, "A paused %.0f ms at a time", r.a_pause_ms);
	cr_assert(r.a_ratelimit > 0.85 * 1024 && r.a_ratelimit < 1.15 * 1024,
		  "A's dirty_ratelimit %.0f pages/s for its 1024", r.a_ratelimit);
}

/*
 * Past Linux: a fresh group, and the same group back from 5 s idle, have no measured
 * bandwidth yet; the floor and their first completions let them write at disk speed.
 */
Test(sim_throttle, past_linux_policy_lets_a_fresh_fast_group_run)
{
	struct sim_config c = cfg;
	struct sim_writer *w;
	double first, again;

	c.disk_bps = 128 * MiB;
	boot_with_group(&c, "F", NULL);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_bandwidth_seconds", "3"), 0);
	w = sim_writer_start("F", "/mnt/f1", MiB, 96 * MiB, 96 * MiB, 2000);
	sim_writer_fsync_at_end(w);
	wait_done(w);
	first = mib_per_s(96 * MiB, sim_writer_elapsed_ns(w));
	sim_writers_stop();
	host_run_for(5 * SEC);
	w = sim_writer_start("F", "/mnt/f2", MiB, 32 * MiB, 32 * MiB, 2000);
	sim_writer_fsync_at_end(w);
	wait_done(w);
	again = mib_per_s(32 * MiB, sim_writer_elapsed_ns(w));
	cr_log_info("fresh group with the cap: %.1f MiB/s, after 5 s idle %.1f MiB/s (disk 128)",
		    first, again);
	cr_assert_geq(first, 0.9 * 128, "a fresh group wrote at %.1f MiB/s", first);
	cr_assert_geq(again, 0.85 * 128, "after idling the group wrote at %.1f MiB/s", again);
	finish();
}

/* ---------------------------------------------------------------- one group's dirty bound */

struct bound_run {
	unsigned long peak, limit_at_peak;
	double peak_ratio;
	double avg_dirty, avg_freerun, avg_limit; /* the last 5 s */
	unsigned long g_peak_dirty, g_freerun;    /* the global domain */
	double mib_s;
};

/*
 * A writer in group M (memory.max as given, or none) writes total bytes of new data at disk
 * speed; M's dirty + writeback pages are sampled every 10 ms against M's domain.
 */
static void run_bound(const char *memory_max, u64 total, struct bound_run *r)
{
	struct sim_writer *w;
	unsigned long sum_d = 0, sum_f = 0, sum_l = 0, n = 0;

	memset(r, 0, sizeof(*r));
	boot_with_group(&cfg, "M", memory_max);
	w = sim_writer_start("M", "/mnt/m", MiB, total, total, 2000);
	sim_writer_fsync_at_end(w);
	for (int i = 0; !sim_writer_elapsed_ns(w); i++) {
		cr_assert_lt(i, 60000, "the writer did not finish in 600 s");
		host_run_for(10 * MSEC);
		if (sim_writer_bytes(w) >= total)
			continue; /* the fsync */
		struct domain_view v = memcg_view(sim_file_wb("/mnt/m"));
		struct dirty_throttle_control g;

		global_view(&g);
		if (v.dirty > r->peak) {
			r->peak = v.dirty;
			r->limit_at_peak = v.limit;
		}
		r->peak_ratio = max(r->peak_ratio, (double)v.dirty / (double)v.limit);
		r->g_peak_dirty = max(r->g_peak_dirty, g.dirty);
		r->g_freerun = dirty_freerun_ceiling(g.thresh, g.bg_thresh);
		if (sim_writer_bytes(w) * 4 > total) { /* steady state: after the first quarter */
			sum_d += v.dirty;
			sum_f += dirty_freerun_ceiling(v.thresh, v.bg_thresh);
			sum_l += v.limit;
			n++;
		}
	}
	r->mib_s = mib_per_s(total, sim_writer_elapsed_ns(w));
	cr_assert_gt(n, 0);
	r->avg_dirty = (double)sum_d / n;
	r->avg_freerun = (double)sum_f / n;
	r->avg_limit = (double)sum_l / n;
	cr_assert_eq(sim_cg_value("M", "memory.events", "oom"), 0, "M went out of memory");
	cr_log_info("M (memory.max %s): peak dirty+writeback %lu pages = %.3f x its limit %lu; "
		    "steady average %.0f between freerun %.0f and limit %.0f; %.1f MiB/s",
		    memory_max ? memory_max : "max", r->peak, r->peak_ratio, r->limit_at_peak,
		    r->avg_dirty, r->avg_freerun, r->avg_limit, r->mib_s);
	finish();
}

/*
 * One dirtier in a memcg with memory.max = 64M writing 256 MiB: its dirty + writeback
 * pages never pass its domain's limit by more than 5 %, and on average sit between the
 * domain's freerun ceiling and its limit (near the setpoint).
 */
Test(sim_throttle, memcg_dirty_stays_within_its_domain_limit)
{
	struct bound_run r;

	run_bound("64M", 256 * MiB, &r);
	cr_assert_leq(r.peak_ratio, 1.05, "peak %lu pages, %.3f x the limit %lu", r.peak,
		      r.peak_ratio, r.limit_at_peak);
	cr_assert(r.avg_dirty >= 0.9 * r.avg_freerun && r.avg_dirty <= r.avg_limit,
		  "steady average %.0f not between freerun %.0f and limit %.0f", r.avg_dirty,
		  r.avg_freerun, r.avg_limit);
	/* 64 MiB is about 20 % of the memory.max: the limit is some 13 MiB */
	cr_assert(r.limit_at_peak > 2800 && r.limit_at_peak < 3400, "limit %lu pages",
		  r.limit_at_peak);
}

/*
 * The stricter domain governs: with memory.max = 64M the writer is throttled by its memcg
 * domain while the global dirty count stays below the global freerun ceiling.
 */
Test(sim_throttle, stricter_memcg_domain_wins_while_global_runs_free)
{
	struct bound_run r;

	run_bound("64M", 128 * MiB, &r);
	cr_assert_lt(r.g_peak_dirty, r.g_freerun, "the global domain reached %lu (freerun %lu)",
		     r.g_peak_dirty, r.g_freerun);
	cr_assert_geq(r.avg_dirty, 0.9 * r.avg_freerun, "M was not held near its setpoint");
}

/*
 * The same workload in a group without memory.max: its memcg domain is as large as the
 * global one (within 1 %), so the global domain governs and goes past its freerun ceiling.
 */
Test(sim_throttle, unlimited_group_is_governed_by_the_global_domain)
{
	struct dirty_throttle_control g;

	boot_with_group(&cfg, "M", NULL);
	struct sim_writer *w = sim_writer_start("M", "/mnt/m", MiB, 128 * MiB, 0, 2000);
	host_run_for(5 * SEC);
	struct domain_view v = memcg_view(sim_file_wb("/mnt/m"));
	global_view(&g);
	cr_assert_lt(labs((long)v.thresh - (long)g.thresh), (long)g.thresh / 100 + 1,
		     "memcg thresh %lu, global %lu", v.thresh, g.thresh);
	cr_assert_gt(sim_writer_bytes(w), 0);
	finish();
}

/* ---------------------------------------------------------------- estimators */

/*
 * Writing continuously at disk speed, the bandwidth estimate comes within 10 % (avg 15 %)
 * of the rate the disk really completes (from its start at 100 MB/s, with a time constant
 * of about 4 s: 20 s); after 5 s idle, the first estimates reflect the new activity only,
 * not the idle time.
 */
Test(sim_throttle, write_bandwidth_estimate_tracks_the_disk_and_ignores_idle_time)
{
	boot_with_group(&cfg, "G", NULL);
	sim_writer_start("G", "/mnt/g", MiB, 96 * MiB, 0, 2000);
	host_run_for(14 * SEC);
	struct bdi_writeback *wb = sim_file_wb("/mnt/g");
	s64 w0 = wb_stat_sum(wb, WB_WRITTEN);
	host_run_for(6 * SEC);
	double rate = (double)(wb_stat_sum(wb, WB_WRITTEN) - w0) / 6.0;
	cr_log_info("disk rate %.0f pages/s, write_bandwidth %lu, avg %lu", rate,
		    wb->write_bandwidth, wb->avg_write_bandwidth);
	cr_assert(fabs((double)wb->write_bandwidth - rate) <= 0.10 * rate,
		  "write_bandwidth %lu, disk %.0f pages/s", wb->write_bandwidth, rate);
	cr_assert(fabs((double)wb->avg_write_bandwidth - rate) <= 0.15 * rate,
		  "avg_write_bandwidth %lu, disk %.0f pages/s", wb->avg_write_bandwidth, rate);

	sim_writers_stop();
	ksys_sync();
	host_run_for(5 * SEC);
	sim_writer_start("G", "/mnt/g2", MiB, 96 * MiB, 0, 2000);
	unsigned long lowest = ULONG_MAX;
	for (int i = 0; i < 20; i++) {
		host_run_for(100 * MSEC);
		lowest = min(lowest, wb->avg_write_bandwidth);
	}
	cr_assert_geq(lowest, (unsigned long)(0.5 * rate),
		      "avg_write_bandwidth fell to %lu after idling", lowest);
	finish();
}

static double task_rate_pages(u64 bytes, u64 ns)
{
	return (double)bytes / PAGE_SIZE / ((double)ns / SEC);
}

/*
 * Two dirtiers on one wb of bandwidth B: after about 20 s dirty_ratelimit is within 25 %
 * of B / 2 and each dirtier's rate within 20 % of it.
 */
Test(sim_throttle, dirty_ratelimit_converges_to_bandwidth_per_dirtier)
{
	static const struct sim_config big = {
		.mem_mib = 512,
		.disk_mib = 1024,
		.disk_bps = 32 * MiB,
		.disk_latency_ns = 50 * NSEC_PER_USEC,
	};
	struct sim_writer *w[2];
	u64 b0[2];

	boot_with_group(&big, "G", NULL);
	w[0] = sim_writer_start("G", "/mnt/g0", 64 * 1024, 160 * MiB, 0, 2000);
	w[1] = sim_writer_start("G", "/mnt/g1", 64 * 1024, 160 * MiB, 0, 2000);
	host_run_for(20 * SEC);
	struct bdi_writeback *wb = sim_file_wb("/mnt/g0");
	s64 written0 = wb_stat_sum(wb, WB_WRITTEN);
	b0[0] = sim_writer_bytes(w[0]);
	b0[1] = sim_writer_bytes(w[1]);
	host_run_for(10 * SEC);
	double bw = (double)(wb_stat_sum(wb, WB_WRITTEN) - written0) / 10.0;
	double share = bw / 2;
	cr_log_info("B %.0f pages/s: dirty_ratelimit %lu (B/2 = %.0f), dirtiers %.0f and %.0f "
		    "pages/s",
		    bw, wb->dirty_ratelimit, share,
		    task_rate_pages(sim_writer_bytes(w[0]) - b0[0], 10 * SEC),
		    task_rate_pages(sim_writer_bytes(w[1]) - b0[1], 10 * SEC));
	cr_assert(fabs((double)wb->dirty_ratelimit - share) <= 0.25 * share,
		  "dirty_ratelimit %lu, B/2 %.0f", wb->dirty_ratelimit, share);
	for (int i = 0; i < 2; i++) {
		double r = task_rate_pages(sim_writer_bytes(w[i]) - b0[i], 10 * SEC);
		cr_assert(fabs(r - share) <= 0.20 * share, "dirtier %d at %.0f pages/s, B/2 %.0f",
			  i, r, share);
	}
	finish();
}

/* ---------------------------------------------------------------- freerun and background */

/* Below both domains' freerun ceilings a dirtier never sleeps: it takes only its CPU time. */
Test(sim_throttle, freerun_dirtier_never_sleeps)
{
	boot_with_group(&cfg, "M", "128M");
	/* 4 MiB: far below M's freerun ceiling of some 19 MiB */
	struct sim_writer *w = sim_writer_start("M", "/mnt/m", 64 * 1024, 4 * MiB, 4 * MiB, 2000);
	wait_done(w);
	u64 cpu_ns = 1024 * 2000ULL;
	cr_assert_lt(sim_writer_elapsed_ns(w), cpu_ns + 2 * MSEC,
		     "the writer took %llu ns for %llu ns of CPU: it slept",
		     sim_writer_elapsed_ns(w), cpu_ns);
	finish();
}

/*
 * Background writeback of a memcg's wb continues while the memcg's dirty pages exceed its
 * domain's background threshold, and stops once they are below it (the global domain
 * alone would not have started it: the machine is far below its thresholds).
 */
Test(sim_throttle, memcg_background_writeback_stops_at_its_bg_thresh)
{
	boot_with_group(&cfg, "M", "64M");
	struct sim_writer *w = sim_writer_start("M", "/mnt/m", 64 * 1024, 12 * MiB, 12 * MiB, 2000);
	while (sim_writer_bytes(w) < 12 * MiB)
		host_run_for(MSEC);
	host_run_for(3 * SEC);
	struct domain_view v = memcg_view(sim_file_wb("/mnt/m"));
	u64 dirty = sim_cg_value("M", "memory.stat", "file_dirty") / PAGE_SIZE;
	cr_log_info("M: %llu dirty pages 3 s after the writer, bg_thresh %lu", dirty, v.bg_thresh);
	cr_assert_leq(dirty, v.bg_thresh, "M still holds %llu dirty pages, bg_thresh %lu", dirty,
		      v.bg_thresh);
	cr_assert_gt(dirty, 0, "background writeback went on below the bg_thresh");
	host_run_for(10 * SEC);
	cr_assert_eq(sim_cg_value("M", "memory.stat", "file_dirty") / PAGE_SIZE, dirty,
		     "writeback went on before the pages expired");
	finish();
}

/* A new memory.max: the smoothed limit restarts from the domain's thresh at once. */
Test(sim_throttle, memory_max_write_resets_the_smoothed_limit)
{
	boot_with_group(&cfg, "M", "128M");
	sim_writer_start("M", "/mnt/m", MiB, 256 * MiB, 0, 2000);
	host_run_for(4 * SEC);
	struct bdi_writeback *wb = sim_file_wb("/mnt/m");
	struct wb_domain *dom = mem_cgroup_wb_domain(wb);
	unsigned long before = READ_ONCE(dom->dirty_limit);
	cr_assert_gt(before, 0, "the smoothed limit was never updated");
	cr_assert_eq(sim_echo("/sys/fs/cgroup/M/memory.max", "48M"), 0);
	cr_assert_eq(dom->dirty_limit, 0, "memory.max did not reset the smoothed limit");
	host_run_for(300 * MSEC);
	struct domain_view v = memcg_view(wb);
	cr_log_info("smoothed limit %lu before, %lu after; thresh now %lu", before,
		    dom->dirty_limit, v.thresh);
	cr_assert_lt(dom->dirty_limit, before / 2);
	cr_assert_leq(v.limit, v.thresh + v.thresh / 20);
	finish();
}

/*
 * Many short-lived tasks, each dirtying fewer pages than its first check would come
 * (32), in a group limited to 4 MiB/s: their pages are still throttled in aggregate (the
 * exited tasks' counts go to the next dirtiers), so the group's dirty pages stay within
 * its domain's limit and its dirtying rate follows its writeback rate.
 */
Test(sim_throttle, short_lived_dirtiers_are_throttled_in_aggregate)
{
	u64 total = 0, total_at_10s = 0, t0, next_sample = 0;
	double peak = 0;
	char path[32];

	boot_with_group(&cfg, "M", NULL);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/M/io.max", "254:0 wbps=4194304"), 0);
	t0 = host_now_ns();
	for (int i = 0; host_now_ns() - t0 < 30 * SEC; i++) {
		snprintf(path, sizeof(path), "/mnt/s%d", i % 2048);
		struct sim_writer *w =
			sim_writer_start("M", path, 64 * 1024, 64 * 1024, 64 * 1024, 2000);
		while (!sim_writer_done(w))
			host_run_for(100 * NSEC_PER_USEC);
		total += sim_writer_bytes(w);
		sim_writers_stop();
		if (!total_at_10s && host_now_ns() - t0 >= 10 * SEC)
			total_at_10s = total;
		if (host_now_ns() >= next_sample) {
			struct domain_view v = memcg_view(sim_file_wb(path));
			peak = max(peak, (double)v.dirty / (double)v.limit);
			next_sample = host_now_ns() + 10 * MSEC;
		}
	}
	double rate = (double)(total - total_at_10s) / MiB / 20.0;
	cr_log_info("short-lived dirtiers: %.2f MiB/s in aggregate (writeback 4 MiB/s), peak %.2f "
		    "of the domain limit",
		    rate, peak);
	cr_assert_leq(peak, 1.10, "M held %.2f x its domain limit", peak);
	cr_assert_leq(rate, 6.0, "short-lived dirtiers ran at %.2f MiB/s through a 4 MiB/s group",
		      rate);
	finish();
}

/* The harness: a missing key fails instead of reading as 0. */
Test(sim_throttle, missing_key_in_a_parsed_file_is_an_error)
{
	char stat[] = "file 4096\nfile_dirty 8192\nfile_writeback 0\n";
	char io[] = "254:0 rbytes=0 wbytes=65536 rios=0 wios=16\n";
	u64 v = 1;

	cr_assert_eq(sim_parse_key(stat, "file_dirty", &v), 0);
	cr_assert_eq(v, 8192);
	strcpy(stat, "file 4096\nfile_dirty 8192\nfile_writeback 0\n");
	cr_assert_eq(sim_parse_key(stat, "file_dirt", &v), -ENOENT, "a prefix is not the key");
	strcpy(stat, "file 4096\nfile_dirty 8192\nfile_writeback 0\n");
	cr_assert_eq(sim_parse_key(stat, "shmem", &v), -ENOENT);
	cr_assert_eq(sim_parse_key(io, "wbytes", &v), 0);
	cr_assert_eq(v, 65536);
	strcpy(io, "254:0 rbytes=0 wbytes=65536 rios=0 wios=16\n");
	cr_assert_eq(sim_parse_key(io, "dbytes", &v), -ENOENT);
}
