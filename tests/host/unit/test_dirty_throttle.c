/*
 * The dirty throttling control law against worked values (Linux's formulas, HZ = 1000,
 * 4 KiB pages): a domain's thresholds, a memcg domain's avail, a wb's share of a
 * threshold, the position ratio (domain cubic, wb line, reserve area, strictlimit), the
 * pause bounds, the bandwidth and ratelimit estimators, the smoothed limit, the period of
 * the completion shares, and the bdi ratio knobs' rules.
 *
 * The example machine: global avail 262144 pages with 12000 dirty; memcg M with avail
 * 55536 and 10000 dirty (8000 + 2000 writeback), all in M's wb, which has share 1 in M's
 * domain and 1/2 in the global one, avg_write_bandwidth 25600 and dirty_ratelimit 12800.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <cgwb/writeback.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/errno.h>
#include "host.h"
#include "mm/dirty-policy.h"

static struct backing_dev_info bdi;
static struct bdi_writeback wb;
static struct wb_domain dom;
static struct fprop_local share;

static void setup(void)
{
	host_platform_init(16 << 20);
	bdi.min_ratio = 0;
	bdi.max_ratio = 100 * BDI_RATIO_SCALE;
	bdi.max_prop_frac = FPROP_FRAC_BASE;
	wb.bdi = &bdi;
	cr_assert_eq(percpu_counter_init_many(wb.stat, 0, GFP_KERNEL, NR_WB_STAT_ITEMS), 0);
	wb.avg_write_bandwidth = wb.write_bandwidth = 25600;
	wb.dirty_ratelimit = wb.balanced_dirty_ratelimit = 12800;
	wb_domain_init(&dom);
	fprop_local_init(&share);
}

static void teardown(void)
{
	wb_domain_exit(&dom);
	percpu_counter_destroy_many(wb.stat, NR_WB_STAT_ITEMS);
	host_platform_exit();
}

TestSuite(dirty_throttle, .init = setup, .fini = teardown);

/* A dtc of the example's memcg domain, or of the global one with mdtc = false. */
static struct dirty_throttle_control example_dtc(bool memcg, struct dirty_throttle_control *gdtc)
{
	struct dirty_throttle_control dtc = {
		.dom = &dom,
		.wb = &wb,
		.wb_completions = &share,
		.gdtc = memcg ? gdtc : NULL,
		.avail = memcg ? 55536 : 262144,
		.dirty = memcg ? 10000 : 12000,
		.wb_dirty = 10000,
	};
	domain_dirty_limits(&dtc);
	return dtc;
}

/* The wb's share of dom's completions: exactly num / den. */
static void set_share(s64 num, s64 den)
{
	dom.completions.events = den;
	share.events = num;
	share.period = dom.completions.period;
}

Test(dirty_throttle, domain_thresholds_of_the_global_and_the_memcg_example)
{
	struct dirty_throttle_control g = example_dtc(false, NULL), m = example_dtc(true, &g);

	cr_assert_eq(g.thresh, 52416);
	cr_assert_eq(g.bg_thresh, 26176);
	cr_assert_eq(m.thresh, 11104);
	cr_assert_eq(m.bg_thresh, 5545);
	cr_assert_eq(dirty_freerun_ceiling(m.thresh, m.bg_thresh), 8324);
}

Test(dirty_throttle, byte_limits_become_ratios_of_global_avail_in_a_memcg)
{
	struct dirty_throttle_control g = example_dtc(false, NULL), m;

	vm_dirty_bytes = 64ULL << 20; /* 16384 pages */
	dirty_background_bytes = 16ULL << 20;
	g.avail = 262144;
	domain_dirty_limits(&g);
	cr_assert_eq(g.thresh, 16384);
	cr_assert_eq(g.bg_thresh, 4096);
	/* ratio = ceil(bytes / global avail) per PAGE_SIZE: 256 and 64 */
	m = example_dtc(true, &g);
	cr_assert_eq(m.thresh, 256UL * 55536 / 4096);
	cr_assert_eq(m.bg_thresh, 64UL * 55536 / 4096);
	vm_dirty_bytes = dirty_background_bytes = 0;
}

Test(dirty_throttle, bg_thresh_is_halved_when_not_below_thresh)
{
	struct dirty_throttle_control g = { .avail = 262144 };

	dirty_background_ratio = 30;
	domain_dirty_limits(&g);
	cr_assert_eq(g.thresh, 52416);
	cr_assert_eq(g.bg_thresh, 52416 / 2);
	dirty_background_ratio = 10;
}

Test(dirty_throttle, memcg_avail_is_its_file_pages_plus_capped_headroom)
{
	struct dirty_throttle_control g = { .avail = 262144, .dirty = 12000 };
	struct dirty_throttle_control m = { .gdtc = &g, .dirty = 10000 };

	mdtc_calc_avail(&m, 50000, 5536);
	cr_assert_eq(m.avail, 55536);
	/* no limit anywhere: the other clean memory of the system caps it */
	mdtc_calc_avail(&m, 50000, PAGE_COUNTER_MAX);
	cr_assert_eq(m.avail, 50000 + (262144 - 12000) - (50000 - 10000));
	/* dirtier than its file pages (writeback counted): no clean pages of its own */
	m.dirty = 60000;
	mdtc_calc_avail(&m, 50000, 1000);
	cr_assert_eq(m.avail, 51000);
}

Test(dirty_throttle, pos_ratio_cubic_at_freerun_setpoint_and_limit)
{
	/* M's domain: freerun 8324, setpoint 9714, limit 11104 */
	cr_assert_eq(pos_ratio_polynom(9714, 9714, 11104), 1024);
	cr_assert_eq(pos_ratio_polynom(9714, 8324, 11104), 2045);
	/* 0 in exact arithmetic; the integer cubic leaves 2, and the limit test makes it 0 */
	cr_assert_eq(pos_ratio_polynom(9714, 11104, 11104), 2);
	cr_assert_eq(pos_ratio_polynom(9714, 10000, 11104), 1015);
	cr_assert_eq(pos_ratio_polynom(9714, 10400, 11104), 901);
	cr_assert_eq(pos_ratio_polynom(9714, 10800, 11104), 537);
	cr_assert_eq(pos_ratio_polynom(9714, 11000, 11104), 217);
	/* clamped to [0, 2.0] far outside */
	cr_assert_eq(pos_ratio_polynom(9714, 0, 11104), 2048);
	cr_assert_eq(pos_ratio_polynom(9714, 20000, 11104), 0);
}

Test(dirty_throttle, memcg_wins_in_the_worked_example)
{
	struct dirty_throttle_control g = example_dtc(false, NULL), m = example_dtc(true, &g);

	/* M's domain: share 1, its floor (11104 - 10000) / 8 = 138 is lower */
	set_share(1000, 1000);
	wb_dirty_limits(&m);
	m.wb_dirty = 10000;
	cr_assert_eq(m.wb_thresh, 11104);
	wb_position_ratio(&m);
	cr_assert_eq(m.limit, 11104);
	cr_assert_eq(m.pos_ratio, 1013);

	/* the global domain: share 1/2; the reserve area lifts it to 2983 */
	set_share(1000, 2000);
	wb_dirty_limits(&g);
	g.wb_dirty = 10000;
	cr_assert_eq(g.wb_thresh, 26208);
	wb_position_ratio(&g);
	cr_assert_eq(g.pos_ratio, 2983);
	cr_assert_lt(m.pos_ratio, g.pos_ratio, "the memcg domain governs");
	cr_assert_eq((u64)wb.dirty_ratelimit * m.pos_ratio >> RATELIMIT_CALC_SHIFT, 12662);
}

/*
 * Every pause follows the lowest pos_ratio: the memcg domain's or the global one's,
 * whichever is lower, and a policy's domain below both.
 */
Test(dirty_throttle, the_pause_follows_the_lowest_pos_ratio)
{
	struct dirty_throttle_control g = example_dtc(false, NULL), m = example_dtc(true, &g);
	struct dirty_throttle_control p = {
		.wb = &wb,
		.policy = &dirty_policy_fixed,
		.thresh = 4000,
		.bg_thresh = 2000,
	};
	struct dirty_throttle_control *s, *d;

	set_share(1000, 2000);
	wb_stat_mod(&wb, WB_RECLAIMABLE, 10000);
	s = dirty_throttle_select(&g, &m, NULL, false, &d);
	cr_assert_lt(m.pos_ratio, g.pos_ratio, "the memcg domain is nearer its limit");
	cr_assert_eq(s, &m);
	cr_assert_eq(d, &m);
	/* the global pool near its limit: the global domain governs */
	g.dirty = g.thresh - 200;
	s = dirty_throttle_select(&g, &m, NULL, false, &d);
	cr_assert_lt(g.pos_ratio, m.pos_ratio);
	cr_assert_eq(s, &g);
	/* a policy's domain at 7/8 of its limit (1.0) is above both: they still govern */
	p.wb_dirty = 3500;
	s = dirty_throttle_select(&g, &m, &p, false, &d);
	cr_assert_eq(p.pos_ratio, 1024);
	cr_assert_eq(s, &g);
	/* past its limit it governs, and the lower domain is still known for the trace */
	p.wb_dirty = 4000;
	s = dirty_throttle_select(&g, &m, &p, false, &d);
	cr_assert_eq(s, &p);
	cr_assert_eq(d, &g);
	wb_stat_mod(&wb, WB_RECLAIMABLE, -10000);
}

/* At the hard limit (task_ratelimit 0) a dirtier sleeps max_pause, whatever it dirtied. */
Test(dirty_throttle, above_the_hard_limit_a_task_sleeps_max_pause)
{
	unsigned long now = 5000;
	long pause = 0;

	current->dirty_paused_when = now - 3;
	cr_assert(dirty_pause(0, 32, 10, 120, &now, &pause));
	cr_assert_eq(pause, 120);
	cr_assert_eq(now, 5000, "no debt is carried at the limit");
	/* below it: the time the pages should have taken, less the think time, capped */
	cr_assert(dirty_pause(1000, 100, 10, 120, &now, &pause));
	cr_assert_eq(pause, 100 * HZ / 1000 - 3);
	cr_assert(dirty_pause(100, 100, 10, 120, &now, &pause));
	cr_assert_eq(pause, 120);
	cr_assert_eq(now, 5000 + min(HZ - 3 - 120, 120), "the rest of the debt moves on");
}

/* The pages allowed between checks shrink with the task's rate, so no pause passes max_pause. */
Test(dirty_throttle, nr_dirtied_pause_follows_the_task_ratelimit)
{
	int last = INT_MAX;

	wb.avg_write_bandwidth = 25600;
	wb.dirty_ratelimit = 12800;
	for (unsigned long task = 12800; task >= 50; task /= 2) {
		int pages = 0;

		wb_min_pause(&wb, 200, task, 12800, &pages);
		cr_assert_leq(pages, last, "task_ratelimit %lu: %d pages, more than before", task,
			      pages);
		cr_assert_leq((unsigned long)pages * HZ / task, 200,
			      "task_ratelimit %lu: %d pages take past max_pause", task, pages);
		last = pages;
	}
	cr_assert_lt(last, DIRTY_POLL_THRESH, "a slow task checks often");
}

/* M's pos_ratio along its dirty count (the wb holds all of it). */
Test(dirty_throttle, memcg_pos_ratio_table)
{
	static const unsigned long dirty[] = { 8324, 9714, 10400, 10800, 11000, 11104, 12000 };
	static const unsigned long want[] = { 2058, 1023, 897, 534, 215, 0, 0 };
	struct dirty_throttle_control g = example_dtc(false, NULL), m = example_dtc(true, &g);

	for (size_t i = 0; i < ARRAY_SIZE(dirty); i++) {
		m.dirty = m.wb_dirty = dirty[i];
		m.wb_thresh = 11104;
		m.wb_bg_thresh = 5545;
		wb_position_ratio(&m);
		cr_assert_eq(m.pos_ratio, want[i], "dirty %lu: pos_ratio %lu, want %lu", dirty[i],
			     m.pos_ratio, want[i]);
	}
}

Test(dirty_throttle, wb_line_floor_is_a_quarter_and_reserve_area_at_most_8x)
{
	struct dirty_throttle_control g = example_dtc(false, NULL);

	/* at the domain setpoint the cubic is 1.0; the wb far above its share: 1/4 */
	g.dirty = (dirty_freerun_ceiling(g.thresh, g.bg_thresh) + g.thresh) / 2;
	g.wb_thresh = 1000;
	g.wb_dirty = 1000000;
	wb_position_ratio(&g);
	cr_assert_eq(g.pos_ratio, 1024 / 4);
	/* a wb with almost nothing dirty: 8 x the line's value */
	g.wb_thresh = 26208;
	g.wb_dirty = 1;
	wb_position_ratio(&g);
	u64 x = ((u64)26208 << 16) / (52416 | 1);
	unsigned long wb_setpoint = (unsigned long)((u64)g.dirty * x >> 16);
	unsigned long span = (unsigned long)(((u64)52416 - 26208 + 8 * 25600) * x >> 16);
	unsigned long line = (unsigned long)(1024ULL * (wb_setpoint + span - 1) / (span | 1));
	cr_assert_eq(g.pos_ratio, line * 8);
	/* inside the reserve area, at 1/4 of its thresh: the line's value, doubled */
	g.wb_dirty = 6552;
	wb_position_ratio(&g);
	line = (unsigned long)(1024ULL * (wb_setpoint + span - 6552) / (span | 1));
	cr_assert_eq(g.pos_ratio, line * 13104 / 6552);
}

/*
 * Linux 6.1's floor for a wb idle for a while: its line is drawn for at least an eighth of
 * the room left below the limit (its wb_thresh, 0, stays). Without it a wb with no share
 * was held to a quarter of the domain's ratio from its first page.
 */
Test(dirty_throttle, an_idle_wbs_line_is_drawn_for_an_eighth_of_the_room)
{
	struct dirty_throttle_control g = example_dtc(false, NULL);
	unsigned long limit = 52416, floor = (limit - 12000) / 8;
	long long cubic =
		pos_ratio_polynom((dirty_freerun_ceiling(52416, 26176) + limit) / 2, 12000, limit);

	dom.dirty_limit = limit;
	g.wb_thresh = 0;
	g.wb_dirty = floor / 2; /* the edge of the reserve area of the floor's line */
	wb_position_ratio(&g);
	u64 x = ((u64)floor << 16) / (52416 | 1);
	unsigned long setpoint = (dirty_freerun_ceiling(52416, 26176) + limit) / 2;
	unsigned long wb_setpoint = (unsigned long)((u64)setpoint * x >> 16);
	unsigned long span = (unsigned long)(((u64)52416 - floor + 8 * 25600) * x >> 16);
	long long line = cubic * (long long)(wb_setpoint + span - g.wb_dirty) / (long long)(span | 1);
	cr_assert_eq(g.pos_ratio, (unsigned long)line, "%lu, not the floor's line %lld",
		     g.pos_ratio, line);
	cr_assert_gt(g.pos_ratio, (unsigned long)cubic / 4);
}

/* strictlimit: a wb with under 8 pages dirty goes at twice the domain's ratio (6.1) */
Test(dirty_throttle, strictlimit_ramps_up_a_wb_with_almost_nothing_dirty)
{
	struct dirty_throttle_control g = example_dtc(false, NULL);

	bdi.capabilities |= BDI_CAP_STRICTLIMIT;
	g.dirty = 50000; /* above the setpoint: the cubic below 1.0 */
	g.wb_thresh = 2000;
	g.wb_bg_thresh = 1000;
	g.wb_dirty = 7;
	wb_position_ratio(&g);
	long long cubic =
		pos_ratio_polynom((dirty_freerun_ceiling(52416, 26176) + 52416) / 2, 50000, 52416);
	cr_assert_lt(cubic, 1024);
	cr_assert_eq(g.pos_ratio, (unsigned long)(2 * cubic));
	g.dirty = 1000; /* far below freerun: 2.0 is the most */
	wb_position_ratio(&g);
	cr_assert_eq(g.pos_ratio, 2048);
}

Test(dirty_throttle, strictlimit_uses_the_wbs_own_cubic)
{
	struct dirty_throttle_control g = example_dtc(false, NULL);

	bdi.capabilities |= BDI_CAP_STRICTLIMIT;
	g.dirty = 1000; /* the domain far below freerun: cubic 2.0 */
	g.wb_thresh = 2000;
	g.wb_bg_thresh = 1000;
	g.wb_dirty = 1500; /* the wb's freerun ceiling: its cubic is 1.0 */
	wb_position_ratio(&g);
	cr_assert_eq(g.pos_ratio, 1024);
	g.wb_dirty = 2000; /* at its own thresh */
	wb_position_ratio(&g);
	cr_assert_eq(g.pos_ratio, 0);
	g.wb_dirty = 1800;
	wb_position_ratio(&g);
	cr_assert_eq(g.pos_ratio, (unsigned long)pos_ratio_polynom(1500, 1800, 2000));
}

Test(dirty_throttle, wb_calc_thresh_share_min_and_max_ratio)
{
	struct dirty_throttle_control g = example_dtc(false, NULL);

	set_share(1000, 4000);
	g.dirty = g.thresh - 200; /* no room left: no inactive-device floor */
	cr_assert_eq(__wb_calc_thresh(&g, 52416), 52416 / 4);
	/* a 10 % guarantee: the shared part shrinks by the sum of guarantees */
	bdi.min_ratio = 10 * BDI_RATIO_SCALE;
	bdi_min_ratio = 10 * BDI_RATIO_SCALE;
	cr_assert_eq(__wb_calc_thresh(&g, 52416), 52416 * 9 / 10 / 4 + 52416 / 10);
	/* scaled by the wb's part of the bdi's bandwidth: 1/4 of it */
	bdi.tot_write_bandwidth = 4 * wb.avg_write_bandwidth;
	cr_assert_eq(__wb_calc_thresh(&g, 52416), 52416 * 9 / 10 / 4 + 52416 * 25 / 1000);
	bdi.tot_write_bandwidth = 0;
	bdi.min_ratio = bdi_min_ratio = 0;
	/* a 20 % cap */
	bdi.max_ratio = 20 * BDI_RATIO_SCALE;
	set_share(3000, 4000);
	cr_assert_eq(__wb_calc_thresh(&g, 52416), 52416 * 20 / 100);
	/* an idle wb's share is 0, room left or not: its floor is the position ratio's (6.1) */
	bdi.max_ratio = 100 * BDI_RATIO_SCALE;
	set_share(0, 4000);
	g.dirty = 12000;
	cr_assert_eq(__wb_calc_thresh(&g, 52416), 0);
	bdi.capabilities |= BDI_CAP_STRICTLIMIT;
	cr_assert_eq(__wb_calc_thresh(&g, 52416), 0);
}

Test(dirty_throttle, pause_bounds_of_the_example)
{
	int nr_dirtied_pause = 0;
	long max_pause = wb_max_pause(&wb, 10000);

	cr_assert_eq(max_pause, 50);
	cr_assert_eq(wb_min_pause(&wb, max_pause, 12662, 12800, &nr_dirtied_pause), 10);
	cr_assert_eq(nr_dirtied_pause, 237);
	/* bounds: never above MAX_PAUSE, at least one jiffy */
	cr_assert_eq(wb_max_pause(&wb, 100000000), MAX_PAUSE);
	cr_assert_eq(wb_max_pause(&wb, 0), 1);
}

Test(dirty_throttle, min_pause_of_a_slow_wb_keeps_32_pages_per_check)
{
	int pages = 0;
	long t;

	wb.avg_write_bandwidth = 1024; /* 4 MiB/s */
	wb.dirty_ratelimit = 1024;
	/* 10 ms at 1024 pages/s is 10 pages: too few, so the pause grows to 32 pages' worth */
	t = wb_min_pause(&wb, 200, 1024, 1024, &pages);
	cr_assert_eq(pages, DIRTY_POLL_THRESH);
	cr_assert_eq(t, 1 + (HZ * DIRTY_POLL_THRESH / 1024) / 2);
	/* task_ratelimit 0 (at the limit): no pages until the next check */
	t = wb_min_pause(&wb, 200, 0, 1024, &pages);
	cr_assert_eq(pages, 0);
	cr_assert_eq(t, 200);
}

/* The bandwidth policy: while the cap governs, a check every max_pause / 2, not 10 ms. */
Test(dirty_throttle, min_pause_under_the_bandwidth_cap_is_half_the_max_pause)
{
	/* a cap of 3 s at 4 MiB/s, half full: room for 1536 pages */
	struct dirty_throttle_control p = { .wb = &wb, .thresh = 3072, .wb_dirty = 1536 };
	int pages = 0;
	long t;

	wb.avg_write_bandwidth = 1024; /* 4 MiB/s */
	wb.dirty_ratelimit = 1024;
	/* 101 ms at 1024 pages/s: 101 pages per check (Linux: 32 every 31 ms) */
	t = wb_bw_cap_min_pause(&p, 200, 1024, 1024, &pages);
	cr_assert_eq(pages, 101);
	cr_assert_eq(t, 1 + 101 / 2);
	/* the task's rate far below the wb's: the pause would pass max_pause, fewer pages */
	t = wb_bw_cap_min_pause(&p, 200, 256, 1024, &pages);
	cr_assert_eq(pages, 256 * 200 / 1024);
	cr_assert_eq(t, 1 + 200 / 2);
	/* at the limit: the step its pause makes room for (Linux: nothing until the next check) */
	t = wb_bw_cap_min_pause(&p, 200, 0, 1024, &pages);
	cr_assert_eq(pages, DIRTY_POLL_THRESH);
	cr_assert_eq(t, 200);
	/* too slow for 32 pages in 101 ms (1 MiB/s): Linux's rules */
	wb.dirty_ratelimit = 256;
	t = wb_bw_cap_min_pause(&p, 200, 256, 256, &pages);
	cr_assert_eq(pages, DIRTY_POLL_THRESH);
	cr_assert_eq(t, 1 + (HZ * DIRTY_POLL_THRESH / 256) / 2);
	/* a new wb's rate (100 MB/s) would allow 2500 pages: at most half the room, 60 */
	wb.dirty_ratelimit = INIT_BW;
	p.wb_dirty = 2952;
	t = wb_bw_cap_min_pause(&p, 200, INIT_BW, INIT_BW, &pages);
	cr_assert_eq(pages, 60);
}

Test(dirty_throttle, poll_interval_is_about_the_root_of_the_room)
{
	cr_assert_eq(dirty_poll_interval(0, 1 << 20), 1 << 10);
	cr_assert_eq(dirty_poll_interval(12000, 52416), 1 << 7); /* ilog2(40416) = 15 */
	cr_assert_eq(dirty_poll_interval(60000, 52416), 1);
}

/* 10240 pages per 200 ms: the estimate climbs from 25600 toward 51200 with ~4 s constant. */
Test(dirty_throttle, write_bandwidth_sequence)
{
	static const unsigned long bw[] = { 26850, 28038, 29168, 30243 };
	static const unsigned long avg[] = { 25600, 25756, 26041, 26431 };
	unsigned long written = 0;

	wb.write_bandwidth = wb.avg_write_bandwidth = 25600;
	for (size_t i = 0; i < ARRAY_SIZE(bw); i++) {
		written += 10240;
		wb_update_write_bandwidth(&wb, 200, written);
		wb.written_stamp = written;
		cr_assert_eq(wb.write_bandwidth, bw[i], "update %zu: bw %lu", i, wb.write_bandwidth);
		cr_assert_eq(wb.avg_write_bandwidth, avg[i], "update %zu: avg %lu", i,
			     wb.avg_write_bandwidth);
	}
	/* after more than a period, the sample replaces the estimate; never 0 */
	wb_update_write_bandwidth(&wb, 5000, written);
	cr_assert_eq(wb.write_bandwidth, 0);
	cr_assert_eq(wb.avg_write_bandwidth, 1);
}

/*
 * Two dirtiers at task_ratelimit = dirty_ratelimit x 0.5 on a 25600 pages/s wb above the
 * setpoint: balanced is 12800 and dirty_ratelimit steps down 24800, 24050, 23346...
 */
Test(dirty_throttle, dirty_ratelimit_steps_toward_balanced)
{
	static const unsigned long want[] = { 25600, 24800, 24050, 23346, 22687, 22069 };
	struct dirty_throttle_control g = example_dtc(false, NULL);
	unsigned long dirtied = 0;

	g.dirty = g.thresh - 1; /* above the setpoint */
	g.pos_ratio = 512;
	wb.dirty_ratelimit = wb.balanced_dirty_ratelimit = 25600;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		unsigned long task_rl = wb.dirty_ratelimit * 512 >> RATELIMIT_CALC_SHIFT;

		wb.dirtied_stamp = dirtied;
		dirtied += 2 * task_rl * 200 / HZ;
		wb_update_dirty_ratelimit(&g, dirtied, 200);
		cr_assert_eq(wb.dirty_ratelimit, want[i], "update %zu: %lu", i, wb.dirty_ratelimit);
	}
	cr_assert_eq(wb.balanced_dirty_ratelimit, 12801);
}

/* Below the setpoint the rate never goes down, above it never up. */
Test(dirty_throttle, dirty_ratelimit_moves_only_when_position_agrees)
{
	struct dirty_throttle_control g = example_dtc(false, NULL);

	g.dirty = 0; /* below the setpoint */
	g.pos_ratio = 1024;
	wb.dirty_ratelimit = wb.balanced_dirty_ratelimit = 12800;
	wb.dirtied_stamp = 0;
	/* dirtying twice as fast as the disk: balanced is lower, but the position says "up" */
	wb_update_dirty_ratelimit(&g, 51200 / 5, 200);
	cr_assert_eq(wb.dirty_ratelimit, 12800);
	cr_assert_eq(wb.balanced_dirty_ratelimit, 6400);
}

Test(dirty_throttle, smoothed_limit_follows_thresh_up_at_once_and_down_by_1_32)
{
	struct dirty_throttle_control d = { .dom = &dom, .thresh = 60000, .dirty = 30000 };
	unsigned long now = 1000, limit;

	dom.dirty_limit_tstamp = 0;
	domain_update_dirty_limit(&d, now);
	cr_assert_eq(dom.dirty_limit, 60000, "up at once");
	d.thresh = 40000;
	limit = 60000;
	for (int k = 0; k < 20; k++) {
		domain_update_dirty_limit(&d, now + 100); /* too early: no change */
		cr_assert_eq(dom.dirty_limit, limit);
		now += BANDWIDTH_INTERVAL;
		domain_update_dirty_limit(&d, now);
		limit -= (limit - 40000) >> 5;
		cr_assert_eq(dom.dirty_limit, limit, "update %d", k);
		cr_assert_eq(hard_dirty_limit(&dom, d.thresh), limit);
	}
	/* never below the dirty pages */
	d.dirty = limit - 10;
	now += BANDWIDTH_INTERVAL;
	domain_update_dirty_limit(&d, now);
	cr_assert_eq(dom.dirty_limit, limit - (10 >> 5));
	/* a new memory.max: the limit restarts from thresh */
	wb_domain_size_changed(&dom);
	cr_assert_eq(hard_dirty_limit(&dom, 40000), 40000);
}

/* A share's weight halves once per 3 s period (not twice). */
Test(dirty_throttle, completion_shares_halve_every_3_seconds)
{
	struct fprop_local a, b;
	unsigned long num, den;

	fprop_local_init(&a);
	fprop_local_init(&b);
	wb_domain_writeout_add(&dom, &a, FPROP_FRAC_BASE, 1000);
	wb_domain_writeout_add(&dom, &b, FPROP_FRAC_BASE, 1000);
	host_run_for(3 * NSEC_PER_SEC - NSEC_PER_MSEC * 10);
	fprop_fraction(&dom.completions, &a, &num, &den);
	cr_assert_eq(num, 1000, "no period yet");
	host_run_for(NSEC_PER_MSEC * 20);
	wb_domain_writeout_add(&dom, &b, FPROP_FRAC_BASE, 1000);
	fprop_fraction(&dom.completions, &a, &num, &den);
	cr_assert_eq(num, 500);
	cr_assert_eq(den, 1000 + 1000);
	/* nothing more: four more periods in 12 s, the ratio stays */
	host_run_for(12 * NSEC_PER_SEC);
	fprop_fraction(&dom.completions, &a, &num, &den);
	cr_assert_eq(num, 500 >> 4);
	cr_assert_eq(den, 2000 >> 4);
	/* once everything has decayed the timer stops */
	host_run_for(60 * NSEC_PER_SEC);
	cr_assert_eq(dom.period_time, 0, "the period timer did not stop when all had decayed");
}

Test(dirty_throttle, bdi_ratio_rules)
{
	struct backing_dev_info other = { .max_ratio = 100 * BDI_RATIO_SCALE };

	bdi.min_ratio = 0;
	bdi_min_ratio = 0;
	cr_assert_eq(bdi_set_min_ratio(&bdi, 101), -EINVAL);
	cr_assert_eq(bdi_set_max_ratio(&bdi, 101), -EINVAL);
	cr_assert_eq(bdi_set_min_ratio(&bdi, 60), 0);
	cr_assert_eq(bdi_min_ratio, 60 * BDI_RATIO_SCALE);
	/* the guarantees of all bdis must stay below 100 % */
	cr_assert_eq(bdi_set_min_ratio(&other, 40), -EINVAL);
	cr_assert_eq(bdi_set_min_ratio(&other, 39), 0);
	cr_assert_eq(bdi_min_ratio, 99 * BDI_RATIO_SCALE);
	/* max below min, min above max */
	cr_assert_eq(bdi_set_max_ratio(&bdi, 50), -EINVAL);
	cr_assert_eq(bdi_set_max_ratio(&other, 39), 0);
	cr_assert_eq(other.max_prop_frac, FPROP_FRAC_BASE * 39 / 100);
	cr_assert_eq(bdi_set_min_ratio(&other, 40), -EINVAL);
	/* lowering gives the guarantee back */
	cr_assert_eq(bdi_set_min_ratio(&bdi, 0), 0);
	cr_assert_eq(bdi_min_ratio, 39 * BDI_RATIO_SCALE);
	cr_assert_eq(bdi_set_strict_limit(&bdi, 2), -EINVAL);
	cr_assert_eq(bdi_set_strict_limit(&bdi, 1), 0);
	cr_assert(bdi.capabilities & BDI_CAP_STRICTLIMIT);
}

Test(dirty_throttle, bdi_bytes_are_ratios_of_the_global_threshold)
{
	unsigned long bg, thresh;

	global_dirty_limits(&bg, &thresh);
	cr_assert_gt(thresh, 100);
	bdi.min_ratio = bdi_min_ratio = 0;
	unsigned int half = (unsigned int)((u64)(thresh / 2) * 100 * BDI_RATIO_SCALE / thresh);

	cr_assert_eq(bdi_set_max_bytes(&bdi, (u64)thresh * PAGE_SIZE / 2), 0);
	cr_assert_eq(bdi.max_ratio, half);
	cr_assert_eq(bdi_get_max_bytes(&bdi), (u64)thresh * PAGE_SIZE * half / BDI_RATIO_SCALE / 100);
	cr_assert_eq(bdi_set_min_bytes(&bdi, (u64)thresh * PAGE_SIZE), -EINVAL,
		     "a guarantee of the whole threshold");
	cr_assert_eq(bdi_set_max_bytes(&bdi, (u64)thresh * PAGE_SIZE * 2), -EINVAL);
}

/* The recent bandwidth the policies measure: completions over the last 8 intervals. */
Test(dirty_throttle, measured_bandwidth_is_the_window_of_completions)
{
	unsigned long now = 10000;

	wb_bw_window_reset(&wb, now, 0);
	cr_assert_eq(wb_measured_bandwidth(&wb, now + 100), 0, "nothing completed yet");
	/* 8 intervals of 200 ms at 1024 pages/s */
	for (int i = 1; i <= 8; i++) {
		wb_stat_mod(&wb, WB_WRITTEN, 205);
		wb_bw_window_add(&wb, now + 200 * i, (unsigned long)wb_stat_sum(&wb, WB_WRITTEN));
	}
	wb_stat_mod(&wb, WB_WRITTEN, 205);
	cr_assert_eq(wb_measured_bandwidth(&wb, now + 1800), 205 * 8 * 1000 / 1600);
	/* the oldest sample is forgotten: faster completions show within one window */
	for (int i = 9; i <= 16; i++) {
		wb_stat_mod(&wb, WB_WRITTEN, 2050);
		wb_bw_window_add(&wb, now + 200 * i, (unsigned long)wb_stat_sum(&wb, WB_WRITTEN));
	}
	cr_assert_eq(wb_measured_bandwidth(&wb, now + 3200), 2050 * 7 * 1000 / 1400);
}

/*
 * The bandwidth policy's cap: N x the measured bandwidth, at least the floor; a slow wb
 * (held by io.max below the budget) no more than an equal part of the budget.
 */
Test(dirty_throttle, bandwidth_cap_is_n_seconds_of_bandwidth_within_the_shared_budget)
{
	const unsigned long thresh = 52416, budget = bw_slow_budget(thresh);

	cr_assert_eq(budget, thresh * 25 / 100, "25 %% of the global threshold by default");
	/* 3 s of 1024 pages/s (4 MiB/s), slow alone or not slow */
	cr_assert_eq(bw_cap(1024, 3, thresh, budget, 1), 3 * 1024);
	cr_assert_eq(bw_cap(1024, 3, thresh, budget, 0), 3 * 1024);
	/* 4 slow wbs of 1024 pages/s: 12288 pages together, within the budget: 3 s each */
	cr_assert_eq(bw_cap(1024, 3, thresh, budget, 4), 3 * 1024);
	/* 32 of them would hold 98304: an equal part of the budget each */
	cr_assert_eq(bw_cap(1024, 3, thresh, budget, 32), budget / 32);
	/* a wb not held by io.max below the budget: its own 3 s however many slow ones */
	cr_assert_eq(bw_cap(25600, 3, thresh, budget, 0), 3 * 25600);
	/* no completions yet: 1/32 of the threshold, or a slow wb's part of the budget */
	cr_assert_eq(bw_cap(0, 3, thresh, budget, 0), thresh / 32);
	cr_assert_eq(bw_cap(0, 3, thresh, budget, 128), budget / 128);
	/* never below the floor (1 MiB/s: 3 s is 768 pages, the floor 1638) */
	cr_assert_eq(bw_cap(256, 3, thresh, budget, 1), thresh / 32);
}

/* The slow wbs' caps shrink linearly from 3/4 of the budget to nothing at the budget. */
Test(dirty_throttle, bandwidth_caps_shrink_as_the_slow_pool_fills)
{
	cr_assert_eq(bw_pool_shrink(800, 4000, 2000), 800);
	cr_assert_eq(bw_pool_shrink(800, 4000, 3000), 800);
	cr_assert_eq(bw_pool_shrink(800, 4000, 3500), 400);
	cr_assert_eq(bw_pool_shrink(800, 4000, 3999), 1);
	cr_assert_eq(bw_pool_shrink(800, 4000, 4000), 1);
	cr_assert_eq(bw_pool_shrink(800, 4000, 9000), 1);
}

/* The policy's domain: the cubic from cap/2 (background) to cap, 1.0 at 7/8 of it. */
Test(dirty_throttle, policy_domain_position_is_the_cubic_of_its_limits)
{
	struct dirty_throttle_control p = { .thresh = 4000, .bg_thresh = 2000 };

	p.wb_dirty = 3500;
	dirty_policy_cubic(&p);
	cr_assert_eq(p.setpoint, 3500);
	cr_assert_eq(p.pos_ratio, 1024);
	p.wb_dirty = 3000;
	dirty_policy_cubic(&p);
	cr_assert_eq(p.pos_ratio, (unsigned long)pos_ratio_polynom(3500, 3000, 4000));
	p.wb_dirty = 4000;
	dirty_policy_cubic(&p);
	cr_assert_eq(p.pos_ratio, 0);
	p.wb_dirty = 9000;
	dirty_policy_cubic(&p);
	cr_assert_eq(p.pos_ratio, 0);
}

/* ---------------------------------------------------------------- per-CPU wb counters */

static void wb_stat_mod_on(unsigned int cpu, enum wb_stat_item item, s64 n)
{
	host_set_cpu(cpu);
	wb_stat_mod(&wb, item, n);
	host_set_cpu(0);
}

/* Linux's batch, 8 x (1 + log2 CPUs), and the read's worst error, CPUs x batch. */
Test(dirty_throttle, wb_stat_batch_and_error_follow_the_cpus)
{
	static const unsigned long batch[] = { 0, 8, 16, 16, 24, 24, 24, 24, 32 };

	for (unsigned int n = 1; n <= 8; n++) {
		host_set_nr_cpus(n);
		cr_assert_eq(WB_STAT_BATCH, batch[n], "%u CPUs", n);
		cr_assert_eq(wb_stat_error(), n * batch[n], "%u CPUs", n);
	}
}

/*
 * Pages dirtied and written on every CPU: whatever the order, the read of a counter is off
 * by less than wb_stat_error() and the sum is exact.
 */
Test(dirty_throttle, wb_stat_read_stays_within_wb_stat_error_of_the_sum)
{
	u64 seed = 42;
	s64 dirty = 0;

	host_set_nr_cpus(4);
	for (int i = 0; i < 5000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned int cpu = (unsigned int)(seed >> 33) % 4;
		/* a page dirtied on one CPU is often cleaned for IO on another */
		s64 n = dirty > 0 && (seed >> 40) % 3 == 0 ? -1 : 1;

		wb_stat_mod_on(cpu, WB_RECLAIMABLE, n);
		dirty += n;
		cr_assert_lt(llabs(dirty - percpu_counter_read(&wb.stat[WB_RECLAIMABLE])),
			     (long long)wb_stat_error());
		cr_assert_eq(wb_stat_sum(&wb, WB_RECLAIMABLE), dirty);
	}
}

/*
 * The stacked-bdi case Linux guards against: a wb with a small share (55 pages of a memcg
 * domain over its limit) holds 248 dirty pages, all parked in the CPUs' parts (31 on each
 * of 8), so its counters read 0. On the read it would look under its share and not be
 * throttled as exceeding it; wb_dirty_limits() sums, since the share is under twice the
 * error (256 pages), and balance_dirty_pages() sees it over.
 */
Test(dirty_throttle, a_small_share_is_checked_against_the_exact_count)
{
	struct dirty_throttle_control g = example_dtc(false, NULL), m = example_dtc(true, &g);
	struct dirty_throttle_control *s, *d;

	host_set_nr_cpus(8);
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		wb_stat_mod_on(cpu, WB_RECLAIMABLE, 31);
	cr_assert_eq(wb_stat(&wb, WB_RECLAIMABLE), 0, "the read misses every part");
	set_share(1, 200);
	m.dirty = m.thresh + 100;
	s = dirty_throttle_select(&g, &m, NULL, false, &d);
	cr_assert_lt(m.wb_thresh, 2 * wb_stat_error());
	cr_assert_eq(m.wb_dirty, 248, "wb_dirty %lu: the read, not the sum", m.wb_dirty);
	cr_assert(m.dirty_exceeded, "over its share of a domain over its limit");
	cr_assert_eq(s, &m);
	/* the other way round: parts below 0 that the read has not seen (pages cleaned) */
	wb_stat_mod_on(0, WB_RECLAIMABLE, 217); /* CPU 0 folds: 248 in the shared count */
	wb_stat_mod_on(0, WB_RECLAIMABLE, -31);
	for (unsigned int cpu = 1; cpu < 8; cpu++)
		wb_stat_mod_on(cpu, WB_RECLAIMABLE, -62);
	cr_assert_eq(wb_stat(&wb, WB_RECLAIMABLE), 248);
	cr_assert_eq(wb_stat_sum(&wb, WB_RECLAIMABLE), 0);
	s = dirty_throttle_select(&g, &m, NULL, false, &d);
	cr_assert_eq(m.wb_dirty, 0);
	cr_assert_not(m.dirty_exceeded, "throttled for pages it has not got");
}

/* A share large against the error is compared with the cheap read, as Linux. */
Test(dirty_throttle, a_large_share_is_checked_against_the_read)
{
	struct dirty_throttle_control g = example_dtc(false, NULL), m = example_dtc(true, &g);
	struct dirty_throttle_control *d;

	host_set_nr_cpus(2);
	wb_stat_mod(&wb, WB_RECLAIMABLE, 10000);
	wb_stat_mod_on(1, WB_RECLAIMABLE, 15);
	set_share(1000, 2000);
	dirty_throttle_select(&g, &m, NULL, false, &d);
	cr_assert_geq(m.wb_thresh, 2 * wb_stat_error());
	cr_assert_eq(m.wb_dirty, 10000, "the 15 pages parked on CPU 1 are within the error");
	wb_stat_mod_on(1, WB_RECLAIMABLE, -15);
	wb_stat_mod(&wb, WB_RECLAIMABLE, -10000);
}

/* A wb count taken below 0 (a page counted out twice) is reported once it folds. */
Test(dirty_throttle, a_wb_count_below_zero_is_reported)
{
	unsigned long warnings = warn_count;

	host_set_nr_cpus(1); /* the read may be 8 pages below the count */
	wb_stat_mod(&wb, WB_WRITEBACK, -7);
	cr_assert_eq(warn_count, warnings, "within the parts' reach");
	wb_stat_mod(&wb, WB_WRITEBACK, -2);
	cr_assert_eq(warn_count, warnings + 1);
	cr_assert(host_log_contains("WARNING: "));
}
