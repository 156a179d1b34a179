/*
 * Laptop mode in virtual time (/proc/sys/vm/laptop_mode): dirtiers start no background
 * writeback below the freerun ceiling; a disk quiet for laptop_mode seconds after its
 * last IO gets every wb's dirty data written at once, the groups' too, where without it
 * nothing writes them before their expiry (30 s). The groups write and fsync a MiB first:
 * a wb with no completions has no share of the background threshold, and the flusher's
 * next round would write its pages anyway (Linux 6.1's wb_over_bg_thresh()).
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/writeback.h>
#include <stdio.h>
#include "host.h"
#include "sim.h"

TestSuite(sim_laptop, .timeout = 300);

static const struct sim_config cfg = {
	.mem_mib = 512,
	.disk_mib = 512,
	.disk_bps = 64 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

static u64 written(const char *cg)
{
	return sim_cg_value(cg, "io.stat", "wbytes");
}

/* A little IO the disk completes: 4 KiB written and fsync'd in the root. */
static void some_io(void)
{
	struct file *f;

	cr_assert_eq(sim_write_range(NULL, "/mnt/c", 0, 4096), 4096);
	f = filp_open("/mnt/c", O_RDWR, 0);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(vfs_fsync(f, 0), 0);
	fput(f);
}

/* A MiB written and fsync'd in group cg: its wb's share of the completions. */
static void prime(const char *cg, const char *path)
{
	struct sim_dd dd = { .bytes = MiB, .fsync = true };

	snprintf(dd.path, sizeof(dd.path), "%s", path);
	cr_assert_eq(sim_run_in(cg, sim_dd_main, &dd), 0);
}

/*
 * A and B each dirty 4 MiB, far below their background threshold, then the disk does IO.
 * Returns what the groups had written before (their primes, with their metadata).
 */
static u64 dirty_then_io(void)
{
	u64 primed;

	sim_mkcg("A");
	sim_mkcg("B");
	prime("A", "/mnt/pa");
	prime("B", "/mnt/pb");
	primed = written("A") + written("B");
	cr_assert_eq(sim_write_range("A", "/mnt/a", 0, 4 * MiB), (long)(4 * MiB));
	cr_assert_eq(sim_write_range("B", "/mnt/b", 0, 4 * MiB), (long)(4 * MiB));
	host_run_for(SEC);
	cr_assert_eq(written("A") + written("B"), primed, "nothing more is written so soon");
	some_io();
	return primed;
}

Test(sim_laptop, a_quiet_disk_gets_every_wbs_dirty_data_laptop_mode_after_its_last_io)
{
	sim_boot(&cfg);
	cr_assert_eq(sim_echo("/proc/sys/vm/laptop_mode", "5"), 0);
	u64 primed = dirty_then_io();
	host_run_for(3 * SEC);
	cr_assert_eq(written("A") + written("B"), primed, "the timer runs 5 s after the last IO");
	host_run_for(3 * SEC);
	cr_assert_geq(written("A"), 5 * MiB, "A's wb written by the timer");
	cr_assert_geq(written("B"), 5 * MiB, "B's wb written by the timer");
	sim_shutdown();
}

Test(sim_laptop, without_it_the_same_pages_wait_for_their_expiry)
{
	sim_boot(&cfg);
	u64 primed = dirty_then_io();
	host_run_for(6 * SEC);
	cr_assert_eq(written("A") + written("B"), primed, "written before their expiry");
	sim_shutdown();
}

/* Dirty pages between the background threshold and the freerun ceiling, in one group. */
static u64 dirty_above_background(void)
{
	unsigned long bg, thresh;
	u64 bytes;

	global_dirty_limits(&bg, &thresh);
	bytes = (u64)(bg + (bg + thresh) / 2) / 2 * PAGE_SIZE; /* halfway to the freerun ceiling */
	sim_mkcg("A");
	cr_assert_eq(sim_write_range("A", "/mnt/a", 0, bytes), (long)bytes);
	return bytes;
}

Test(sim_laptop, dirtiers_start_no_background_writeback)
{
	sim_boot(&cfg);
	cr_assert_eq(sim_echo("/proc/sys/vm/laptop_mode", "5"), 0);
	dirty_above_background();
	host_run_for(3 * SEC);
	cr_assert_eq(written("A"), 0, "background writeback started: %llu bytes written",
		     (unsigned long long)written("A"));
	cr_assert_eq(sim_echo("/proc/sys/vm/laptop_mode", "0"), 0);
	sim_shutdown();
}

Test(sim_laptop, without_it_dirtiers_start_background_writeback)
{
	sim_boot(&cfg);
	dirty_above_background();
	host_run_for(3 * SEC);
	cr_assert_gt(written("A"), 0);
	sim_shutdown();
}
