/*
 * The throttler's token bucket (cg/io/blk-throttle-slice.c) with a hand-driven clock:
 * allowance per elapsed time with slice rounding, the wait of a bio over budget, slice
 * renewal and extension, trimming, the parent's "with credit" slice, and the long-run rate
 * of a group that takes all it is allowed.
 */
#include <criterion/criterion.h>
#include <cgwb/bio.h>
#include <cgwb/string.h>
#include "../../../block/blk-throttle.h"

#define MiB (1024ULL * 1024)

static struct throtl_grp tg;

static void setup(void)
{
	memset(&tg, 0, sizeof(tg));
	for (int rw = 0; rw < 2; rw++) {
		tg.bps[rw] = U64_MAX;
		tg.iops[rw] = UINT_MAX;
	}
}

TestSuite(throtl_slice, .init = setup);

/* What the group's path does for a bio that may go: charge, then trim. */
static void charge(int rw, unsigned int size, unsigned long now)
{
	struct bio bio = { .bi_opf = rw ? REQ_OP_WRITE : REQ_OP_READ, .bi_size = size };

	throtl_charge_bio(&tg, &bio);
	cr_assert(bio.bi_flags & BIO_THROTTLED);
	throtl_trim_slice(&tg, rw, now);
}

Test(throtl_slice, allowance_is_rate_times_time_without_overflow)
{
	cr_assert_eq(throtl_bytes_allowed(MiB, 100), 104857); /* 104857.6 */
	cr_assert_eq(throtl_bytes_allowed(1500, 1), 1);
	cr_assert_eq(throtl_bytes_allowed(MiB, 0), 0);
	cr_assert_eq(throtl_bytes_allowed(U64_MAX - 1, 100), (U64_MAX - 1) / 10);
	cr_assert_eq(throtl_bytes_allowed(U64_MAX - 1, 2 * HZ), U64_MAX, "saturates");
	cr_assert_eq(throtl_bytes_allowed(4 * MiB, 10UL * HZ), 40 * MiB);
	cr_assert_eq(throtl_ios_allowed(100, 100), 10);
	cr_assert_eq(throtl_ios_allowed(5, 100), 0);
	cr_assert_eq(throtl_ios_allowed(UINT_MAX - 1, 100000), UINT_MAX, "saturates");
}

Test(throtl_slice, unlimited_direction_always_passes)
{
	unsigned long wait = 99;

	tg.bps[THROTL_READ] = MiB;
	cr_assert(tg_may_dispatch_size(&tg, THROTL_WRITE, 1U << 30, 5000, &wait));
	cr_assert_eq(wait, 0);
}

/* A fresh slice is worth one whole slice: 100 ms at 1 MiB/s = 104857 bytes at once. */
Test(throtl_slice, fresh_slice_allows_one_slice_of_bytes)
{
	unsigned long wait;

	tg.bps[THROTL_WRITE] = MiB;
	cr_assert(tg_may_dispatch_size(&tg, THROTL_WRITE, 104857, 1000, &wait));
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 1000, "a new slice starts now");
	cr_assert_eq(tg.slice_end[THROTL_WRITE], 1100);
	/* one byte more: the excess takes max(1, 1 x HZ / bps) jiffies, plus the rest of the slice */
	cr_assert_not(tg_may_dispatch_size(&tg, THROTL_WRITE, 104858, 1000, &wait));
	cr_assert_eq(wait, 1 + 100);
}

Test(throtl_slice, wait_covers_the_excess_and_the_rounding)
{
	unsigned long wait;

	tg.bps[THROTL_WRITE] = MiB;
	cr_assert(tg_may_dispatch_size(&tg, THROTL_WRITE, 100 * 1024, 1000, NULL));
	charge(THROTL_WRITE, 100 * 1024, 1000);
	/* 50 ms in: allowance still 104857 (rounded to the slice end), 106496 wanted */
	cr_assert_not(tg_may_dispatch_size(&tg, THROTL_WRITE, 4096, 1050, &wait));
	cr_assert_eq(wait, 1 + 50, "1639 bytes over: 1 jiffy, and 50 to the slice end");
	cr_assert_eq(tg.slice_end[THROTL_WRITE], 1200, "one slice from now, rounded");
	/* a 1 MiB bio at 1 MiB/s waits about a second */
	cr_assert_not(tg_may_dispatch_size(&tg, THROTL_WRITE, MiB, 1050, &wait));
	cr_assert_eq(wait, (102400 + MiB - 104857) * HZ / MiB + 50);
	cr_assert_eq(tg.slice_end[THROTL_WRITE], 2100);
}

Test(throtl_slice, iops_wait_is_one_io_interval)
{
	unsigned long wait;

	tg.iops[THROTL_READ] = 10;
	cr_assert(tg_may_dispatch_size(&tg, THROTL_READ, 4096, 2000, &wait));
	charge(THROTL_READ, 4096, 2000);
	/* 10/s over one slice is one IO; the next is a full IO interval away */
	cr_assert_not(tg_may_dispatch_size(&tg, THROTL_READ, 4096, 2000, &wait));
	cr_assert_eq(wait, HZ / 10 + 1);
}

/*
 * At an exact slice boundary a plain round-up would say "wait 0" for an IO over budget,
 * and the dispatch timer would retry it forever without the clock moving.
 */
Test(throtl_slice, iops_wait_is_never_zero_at_a_slice_boundary)
{
	unsigned long wait;

	tg.iops[THROTL_READ] = 20;
	tg.slice_start[THROTL_READ] = 2000;
	tg.slice_end[THROTL_READ] = 2200;
	tg.io_disp[THROTL_READ] = 4;
	cr_assert_not(tg_may_dispatch_size(&tg, THROTL_READ, 4096, 2100, &wait));
	cr_assert_eq(wait, 100);
}

Test(throtl_slice, bytes_and_ios_both_bind)
{
	unsigned long wait;

	tg.bps[THROTL_WRITE] = 10 * MiB;
	tg.iops[THROTL_WRITE] = 10;
	cr_assert(tg_may_dispatch_size(&tg, THROTL_WRITE, 4096, 0, &wait));
	charge(THROTL_WRITE, 4096, 0);
	cr_assert_not(tg_may_dispatch_size(&tg, THROTL_WRITE, 4096, 0, &wait), "iops bind");
	cr_assert_eq(wait, HZ / 10 + 1);
	tg.iops[THROTL_WRITE] = 1000;
	cr_assert_not(tg_may_dispatch_size(&tg, THROTL_WRITE, 2 * MiB, 0, &wait), "bytes bind");
	cr_assert_gt(wait, 100);
}

Test(throtl_slice, trim_forgets_whole_slices_only)
{
	tg.bps[THROTL_WRITE] = MiB;
	tg.iops[THROTL_WRITE] = 100;
	tg.slice_start[THROTL_WRITE] = 1000;
	tg.slice_end[THROTL_WRITE] = 1300;
	tg.bytes_disp[THROTL_WRITE] = 300000;
	tg.io_disp[THROTL_WRITE] = 25;
	throtl_trim_slice(&tg, THROTL_WRITE, 1250);
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 1200, "two whole slices gone");
	cr_assert_eq(tg.bytes_disp[THROTL_WRITE], 300000 - 209715);
	cr_assert_eq(tg.io_disp[THROTL_WRITE], 25 - 20);
	cr_assert_eq(tg.slice_end[THROTL_WRITE], 1400, "one slice ahead, rounded");
	/* never below zero */
	throtl_trim_slice(&tg, THROTL_WRITE, 1390);
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 1300);
	cr_assert_eq(tg.bytes_disp[THROTL_WRITE], 0);
	cr_assert_eq(tg.io_disp[THROTL_WRITE], 0);
}

Test(throtl_slice, trim_leaves_an_ended_slice_alone)
{
	tg.bps[THROTL_WRITE] = MiB;
	tg.slice_start[THROTL_WRITE] = 1000;
	tg.slice_end[THROTL_WRITE] = 1100;
	tg.bytes_disp[THROTL_WRITE] = 5000;
	throtl_trim_slice(&tg, THROTL_WRITE, 1500);
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 1000);
	cr_assert_eq(tg.bytes_disp[THROTL_WRITE], 5000);
}

/*
 * Debt (an expedited bio charged past the budget): a trim keeps the slice open until the
 * allowance covers it, else the next renewal would forget it, and a bio then waits it out.
 */
Test(throtl_slice, trim_keeps_the_slice_open_until_a_debt_is_paid)
{
	unsigned long wait = 0;

	tg.bps[THROTL_WRITE] = MiB;
	tg.slice_start[THROTL_WRITE] = 1000;
	tg.slice_end[THROTL_WRITE] = 1100;
	tg.bytes_disp[THROTL_WRITE] = 10 * MiB;
	cr_assert_eq(throtl_debt_end(&tg, THROTL_WRITE), 1000 + 10 * HZ);
	throtl_trim_slice(&tg, THROTL_WRITE, 1050);
	cr_assert_geq(tg.slice_end[THROTL_WRITE], 1000 + 10 * HZ);
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 1000);
	cr_assert_eq(tg.bytes_disp[THROTL_WRITE], 10 * MiB);
	cr_assert_not(tg_may_dispatch_size(&tg, THROTL_WRITE, 4096, 1050, &wait));
	cr_assert_geq(wait, 10 * HZ - 50, "waits the debt out: %lu jiffies", wait);
	/* paid: the slice renews at its end, as any other */
	cr_assert(tg_may_dispatch_size(&tg, THROTL_WRITE, 4096, 1000 + 10 * HZ + THROTL_SLICE, NULL));
}

Test(throtl_slice, slice_renews_only_when_nothing_waits)
{
	tg.bps[THROTL_WRITE] = MiB;
	tg.slice_start[THROTL_WRITE] = 1000;
	tg.slice_end[THROTL_WRITE] = 1100;
	tg.bytes_disp[THROTL_WRITE] = 90000;
	tg.service_queue.nr_queued[THROTL_WRITE] = 1;
	tg_may_dispatch_size(&tg, THROTL_WRITE, 4096, 1500, NULL);
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 1000, "queued: extended, not renewed");
	cr_assert_eq(tg.slice_end[THROTL_WRITE], 1600);
	cr_assert_eq(tg.bytes_disp[THROTL_WRITE], 90000);
	tg.service_queue.nr_queued[THROTL_WRITE] = 0;
	tg_may_dispatch_size(&tg, THROTL_WRITE, 4096, 1700, NULL);
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 1700, "idle: a new slice");
	cr_assert_eq(tg.bytes_disp[THROTL_WRITE], 0);
}

Test(throtl_slice, parent_slice_with_credit_backdates)
{
	tg.slice_start[THROTL_WRITE] = 500;
	tg.bytes_disp[THROTL_WRITE] = 777;
	throtl_start_new_slice_with_credit(&tg, THROTL_WRITE, 800, 1000);
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 800, "from the child's slice start");
	cr_assert_eq(tg.slice_end[THROTL_WRITE], 1100);
	cr_assert_eq(tg.bytes_disp[THROTL_WRITE], 0);
	throtl_start_new_slice_with_credit(&tg, THROTL_WRITE, 700, 1000);
	cr_assert_eq(tg.slice_start[THROTL_WRITE], 800, "never moves back past its own start");
}

/*
 * A group taking every byte it is allowed, one jiffy at a time, for 10 s: the total stays
 * within the rate plus one slice of burst plus one bio, and at most one bio short of it.
 */
static u64 greedy_run(int rw, u64 bps, unsigned int iops, unsigned int size, u64 *ios)
{
	u64 bytes = 0;

	tg.bps[rw] = bps;
	tg.iops[rw] = iops;
	*ios = 0;
	for (unsigned long now = 1; now <= 10UL * HZ; now++) {
		while (tg_may_dispatch_size(&tg, rw, size, now, NULL)) {
			charge(rw, size, now);
			bytes += size;
			(*ios)++;
		}
	}
	return bytes;
}

Test(throtl_slice, long_run_rate_is_the_limit)
{
	u64 ios, w = 4 * MiB;
	u64 bytes = greedy_run(THROTL_WRITE, w, UINT_MAX, 64 * 1024, &ios);

	cr_assert_leq(bytes, w * 10 + w / 10 + 64 * 1024, "%llu", bytes);
	cr_assert_geq(bytes, w * 10 - 64 * 1024, "%llu", bytes);
}

Test(throtl_slice, long_run_iops_is_the_limit)
{
	u64 ios;

	greedy_run(THROTL_READ, U64_MAX, 250, 4096, &ios);
	cr_assert_leq(ios, 2500 + 25 + 1, "%llu", ios);
	cr_assert_geq(ios, 2500 - 1, "%llu", ios);
}
