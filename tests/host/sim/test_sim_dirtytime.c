/*
 * Lazy timestamps in virtual time: an inode whose only dirtiness is I_DIRTY_TIME makes its
 * wb's IO no dirtier, so only the periodic wake of such wbs (every
 * dirtytime_expire_seconds) gets it written once expired, as Linux's
 * wakeup_dirtytime_writeback(), and the kupdate pass must run for it though nothing else
 * is dirty anywhere. A new interval applies at once.
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/writeback.h>
#include <cgwb/file.h>
#include "host.h"
#include "sim.h"

TestSuite(sim_dirtytime, .timeout = 120);

static const struct sim_config cfg = {
	.mem_mib = 256,
	.disk_mib = 256,
	.disk_bps = 64 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

static bool lazily_dirty(struct inode *inode)
{
	return READ_ONCE(inode->i_state) & I_DIRTY_TIME;
}

Test(sim_dirtytime, lazy_timestamps_alone_are_written_once_expired)
{
	struct inode *inode;
	struct file *f;

	sim_boot(&cfg);
	sim_mkcg("A"); /* A's wb holds the inode and nothing else */
	cr_assert_eq(sim_write_range("A", "/mnt/t", 0, 4096), 4096);
	f = filp_open("/mnt/t", O_RDWR, 0);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(vfs_fsync(f, 0), 0);
	inode = f->f_inode;
	host_run_for(40 * SEC); /* A's flusher has gone quiet: its directory written at expiry */
	ksys_sync(); /* nothing dirty anywhere: the pass must run for the timestamps alone */
	inode->i_atime = current_time(inode);
	__mark_inode_dirty(inode, I_DIRTY_TIME);
	cr_assert(lazily_dirty(inode));
	cr_assert_eq(sim_echo("/proc/sys/vm/dirtytime_expire_seconds", "3"), 0);
	host_run_for(SEC);
	cr_assert(lazily_dirty(inode), "written before it expired");
	host_run_for(8 * SEC); /* a wake every 3 s; the kupdate pass runs 5 s after its last */
	cr_assert_not(lazily_dirty(inode), "the lazy timestamps were never written");
	cr_assert_not(READ_ONCE(inode->i_state) & I_DIRTY_ALL);
	fput(f);
	sim_shutdown();
}

/*
 * mount -o lazytime: a write that changes no size leaves the inode dirty for its times
 * only (I_DIRTY_TIME, Linux's generic_update_time()); fsync makes them the inode's and
 * writes them, fdatasync does not.
 */
Test(sim_dirtytime, lazytime_writes_dirty_only_the_timestamps_until_fsync)
{
	char buf[4096] = { 0 };
	struct inode *inode;
	struct file *f;

	sim_boot(&cfg);
	cr_assert_eq(do_umount("/mnt", 0), 0);
	cr_assert_eq(do_mount("/dev/vda", "/mnt", "ext2", SB_LAZYTIME, NULL), 0);
	cr_assert_eq(sim_write_range(NULL, "/mnt/t", 0, 4096), 4096);
	ksys_sync();
	f = filp_open("/mnt/t", O_RDWR, 0);
	cr_assert(!IS_ERR(f));
	inode = f->f_inode;
	cr_assert_not(READ_ONCE(inode->i_state) & I_DIRTY_ALL);
	cr_assert_eq(file_write(f, buf, sizeof(buf)), (ssize_t)sizeof(buf)); /* at 0: no new size */
	cr_assert(lazily_dirty(inode), "the new mtime is not lazily dirty");
	cr_assert_not(READ_ONCE(inode->i_state) & I_DIRTY_INODE, "the inode itself was dirtied");
	cr_assert_eq(vfs_fsync(f, 1), 0);
	cr_assert(lazily_dirty(inode), "fdatasync wrote the times");
	cr_assert_eq(vfs_fsync(f, 0), 0);
	cr_assert_not(READ_ONCE(inode->i_state) & I_DIRTY_ALL, "fsync left the inode dirty");
	fput(f);
	sim_shutdown();
}
