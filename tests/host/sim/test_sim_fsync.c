/*
 * fsync beside a writer that keeps appending to the same file, in virtual time: a group
 * held to 4 MiB/s by io.max writes 480 MiB with dd; 5 s in, fsync of that file. fsync
 * writes and waits for what the file held when it began (the pages dirty or under
 * writeback then, at the group's rate), not for what the writer appends meanwhile: it
 * used to return only when all of it was written back. Linux's tagged writeback bounds it
 * so. The flusher, writing what the writer dirties meanwhile, shares the group's rate with
 * fsync: it takes up to twice what it found at that rate.
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/vmstat.h>
#include <cgwb/sched.h>
#include "host.h"
#include "sim.h"

#define RATE (4 * MiB)
#define FILE_MIB 480

static const struct sim_config cfg = {
	.mem_mib = 512,
	.disk_mib = 1024,
	.disk_bps = 512 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

Test(sim_fsync, fsync_beside_an_appending_writer_waits_for_what_it_found, .timeout = 600)
{
	struct sim_dd dd = { .path = "/mnt/f", .bytes = FILE_MIB * MiB, .cpu_ns_per_page = 500 };
	struct task_struct *w;
	struct file *f;
	u64 pending, t0, took;
	int err;

	sim_boot(&cfg);
	sim_mkcg("A");
	cr_assert_eq(sim_echo("/sys/fs/cgroup/A/io.max", "254:0 wbps=4194304"), 0);
	w = sim_task_start("A", sim_dd_main, &dd);
	host_run_for(5 * SEC);
	pending = (global_node_page_state(NR_FILE_DIRTY) + global_node_page_state(NR_WRITEBACK))
		  << PAGE_SHIFT;
	f = filp_open("/mnt/f", O_RDONLY, 0);
	cr_assert(!IS_ERR(f));
	t0 = host_now_ns();
	err = vfs_fsync(f, 0);
	took = host_now_ns() - t0;
	fput(f);
	cr_assert_eq(err, 0);
	cr_log_info("fsync beside an appender at 4 MiB/s: %.1f s for %llu MiB pending when it "
		    "began (the writer's %u MiB take %u s)",
		    (double)took / SEC, (unsigned long long)(pending / MiB), FILE_MIB, FILE_MIB / 4);
	/* what it found, at the group's rate, shared with the flusher writing beyond it */
	cr_expect_lt(took, 2 * pending * SEC / RATE + 2 * SEC,
		     "fsync took %.1f s for %llu MiB pending", (double)took / SEC,
		     (unsigned long long)(pending / MiB));
	cr_assert_eq(kthread_join(w), 0);
	sim_shutdown();
}
