/*
 * Expedited writeback (blkcg_expedite_begin(), what ext4's data=ordered commit does with a
 * file's data), in virtual time on ext2: a group's file is being written back behind its
 * io.max limit or its io.cost budget; writing and waiting for that file expedited takes
 * the disk's time, not the limit's, the bios already held included; and the group pays
 * for it afterwards, as debt.
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/pagemap.h>
#include "host.h"
#include "sim.h"

TestSuite(sim_expedite, .timeout = 600);

static const struct sim_config cfg = {
	.mem_mib = 512,
	.disk_mib = 512,
	.disk_bps = 64 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

/* Write back path's file expedited, as a commit does; returns how long it took. */
static u64 expedited_write_and_wait(const char *path)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	struct address_space *mapping;
	u64 t0 = host_now_ns();

	cr_assert(!IS_ERR(f));
	mapping = f->f_inode->i_mapping;
	blkcg_expedite_begin(f->f_inode->i_sb->s_bdev, mapping);
	cr_assert_eq(filemap_write_and_wait(mapping), 0);
	blkcg_expedite_end(mapping);
	fput(f);
	return host_now_ns() - t0;
}

/*
 * A at io.max 1 MiB/s writes 32 MiB with fsync. 2 s in, most of it is dirty or held by
 * the throttler: expedited, it all goes in about the disk's half second. Then A owes
 * about 30 s, and its next small fsync'd write waits for that.
 */
Test(sim_expedite, io_max_held_bios_go_at_once_and_the_group_pays_after)
{
	struct sim_dd a = { .path = "/mnt/a", .bytes = 32 * MiB, .cpu_ns_per_page = 500, .fsync = true };
	struct sim_dd a2 = { .path = "/mnt/a2", .bytes = MiB, .fsync = true };
	struct task_struct *t;
	u64 took, t0;

	sim_boot(&cfg);
	sim_mkcg("A");
	cr_assert_eq(sim_echo("/sys/fs/cgroup/A/io.max", "254:0 wbps=1048576"), 0);
	t = sim_task_start("A", sim_dd_main, &a);
	host_run_for(2 * SEC);
	cr_assert_lt(sim_cg_value("A", "io.stat", "wbytes"), 8 * MiB);
	took = expedited_write_and_wait("/mnt/a");
	cr_log_info("expedited past io.max: %.2f s for A's 32 MiB", (double)took / SEC);
	cr_expect_lt(took, 2 * SEC, "expedited writeback took %.2f s", (double)took / SEC);
	cr_expect_geq(sim_cg_value("A", "io.stat", "wbytes"), 32 * MiB, "charged to A");
	/*
	 * The debt: A's next IO (its fsync's metadata, then another MiB) goes when the limit
	 * covers the 32 MiB it took, about 30 s on.
	 */
	t0 = host_now_ns();
	cr_assert_eq(kthread_join(t), 0);
	cr_assert_eq(sim_run_in("A", sim_dd_main, &a2), 0);
	took = host_now_ns() - t0;
	cr_log_info("A's fsync and next MiB after the debt: %.1f s", (double)took / SEC);
	cr_expect_gt(took, 25 * SEC, "A's next IO went after %.1f s", (double)took / SEC);
	cr_expect_lt(took, 36 * SEC, "A's next IO went after %.1f s", (double)took / SEC);
	sim_shutdown();
}

/*
 * Under io.cost: the model says the disk takes 1 MiB/s and vrate is held at 100 %, so A,
 * alone, writes 32 MiB with fsync at its budget, 1 MiB/s, its flusher waiting with its
 * bios. Expedited, A's file goes at the disk's speed; the cost is A's debt, and A is in
 * debt (cost.indebt grows) until it is paid, about 30 s on.
 */
Test(sim_expedite, io_cost_waiting_bios_go_at_once_as_debt)
{
	struct sim_dd a = { .path = "/mnt/a", .bytes = 32 * MiB, .cpu_ns_per_page = 500, .fsync = true };
	struct task_struct *t;
	u64 took, indebt;

	sim_boot(&cfg);
	sim_mkcg("A");
	cr_assert_eq(sim_echo("/sys/fs/cgroup/io.cost.model", "254:0 ctrl=user wbps=1048576 "
							      "wseqiops=1000000 wrandiops=1000000 "
							      "rbps=1048576 rseqiops=1000000 "
							      "rrandiops=1000000"),
		     0);
	cr_assert_eq(sim_echo("/sys/fs/cgroup/io.cost.qos", "254:0 enable=1 ctrl=user min=100 "
							    "max=100"),
		     0);
	t = sim_task_start("A", sim_dd_main, &a);
	host_run_for(2 * SEC);
	cr_assert_lt(sim_cg_value("A", "io.stat", "wbytes"), 8 * MiB);
	cr_assert_lt(sim_cg_value("A", "io.stat", "cost.indebt"), USEC_PER_SEC / 10,
		     "only metadata went as debt so far");
	took = expedited_write_and_wait("/mnt/a");
	cr_log_info("expedited past io.cost: %.2f s for A's 32 MiB", (double)took / SEC);
	cr_expect_lt(took, 2 * SEC, "expedited writeback took %.2f s", (double)took / SEC);
	cr_expect_geq(sim_cg_value("A", "io.stat", "wbytes"), 32 * MiB, "charged to A");
	host_run_for(5 * SEC);
	indebt = sim_cg_value("A", "io.stat", "cost.indebt");
	cr_log_info("A in debt for %.1f s of the 5 after", (double)indebt / USEC_PER_SEC);
	cr_expect_gt(indebt, 4 * USEC_PER_SEC, "A owes it");
	cr_assert_eq(kthread_join(t), 0);
	sim_shutdown();
}
