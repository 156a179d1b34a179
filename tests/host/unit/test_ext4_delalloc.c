/*
 * Delayed allocation and unwritten extents at writeback (fs/ext2/delalloc.c, io_end.c,
 * fs/ext4/extents_convert.c), on Debian `mke2fs -t ext4` images with their journal, judged
 * on the host by e2fsck and debugfs: a file written in order gets long extents, written
 * (converted) ones; a full disk fails write(2) itself and loses nothing already written;
 * truncate and unlink give delayed reservations back; a write into an unwritten extent
 * converts exactly what it wrote; an unwritten extent over old data reads as zeros, the
 * state a crash before the conversion leaves; small files written back together lie side by
 * side and go down together; a page waits for its own IO's conversion only (reclaim,
 * fsync). Mounted with -o delalloc (not the default yet).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"
#include <cgwb/jbd2.h>
#include <cgwb/vmscan.h>
#include <cgwb/sched.h>
#include "../../../fs/ext2/data.h"

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext4_delalloc, .init = setup, .fini = teardown);

/* The image attached and mounted as ext4 with delayed allocation. */
static int da_mount(unsigned long flags)
{
	ext2t_attach();
	return do_mount("/dev/vda", EXT2T_MNT, "ext4", flags, "delalloc");
}

/* 8 MiB written in order: reserved (statfs) until writeback, then in at most 2 extents. */
Test(ext4_delalloc, sequential_file_long_extents)
{
	u64 free0, free1, ffree;

	ext4t_make_image("-b 4096");
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	ext2t_statfs(&free0, &ffree);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/seq", 77, 0, 8u << 20), 0);
	ext2t_statfs(&free1, &ffree);
	cr_expect_geq(free0 - free1, 2048, "statfs does not count the delayed blocks (%llu)",
		      (unsigned long long)(free0 - free1));
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/seq", 77, 8u << 20);
	cr_expect_geq(ext4t_extents_matching("/seq", "1"), 1);
	cr_expect_leq(ext4t_extents_matching("/seq", "1"), 2, "8 MiB in order in %llu extents",
		      ext4t_extents_matching("/seq", "1"));
	cr_expect_eq(ext4t_extents_matching("/seq", "/Uninit/"), 0, "an extent left unwritten");
	cr_expect(!host_log_contains("WARNING"), "%s", host_log());
}

/* The first physical block of path (debugfs bmap), 0 if it has none. */
static u64 first_block(const char *path)
{
	unsigned long long b = 0;

	ext2t_sh_number(&b, "debugfs -R 'bmap %s 0' %s 2>/dev/null", path, ext2t_env.img);
	return b;
}

/*
 * Small files written back together lie side by side (no reservation window each: as
 * ext4's mballoc, a small file has no stream of its own) and go down in a few large
 * requests (writeback plugs across inodes, as Linux's wb_writeback()), behind one journal
 * commit (->sync_fs's; none per inode). With a window each they lay one block in 8 and
 * every file was a request of its own; with a commit per inode, 273 requests.
 */
Test(ext4_delalloc, small_files_written_back_together_lie_side_by_side)
{
	enum { FILES = 32 };
	struct filedisk_stats st;
	u64 lo = ~0ULL, hi = 0;
	char path[32];
	u32 commits;

	ext4t_make_image("-b 4096");
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	for (u32 i = 0; i < FILES; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/s%u", i);
		cr_assert_eq(ext2t_write_pattern(path, i, 0, 4096), 0);
	}
	filedisk_reset_stats(ext2t_env.disk);
	commits = EXT2_SB(ext2t_sb())->s_journal->j_commit_sequence;
	ksys_sync();
	commits = EXT2_SB(ext2t_sb())->s_journal->j_commit_sequence - commits;
	filedisk_get_stats(ext2t_env.disk, &st);
	cr_expect_leq(commits, 2, "sync(2) committed %u times: once per inode?", commits);
	cr_expect_leq(st.writes, FILES / 2, "%lu write requests for %d files of one block",
		      st.writes, FILES);
	ext2t_umount();
	ext2t_fsck_clean();
	for (u32 i = 0; i < FILES; i++) {
		snprintf(path, sizeof(path), "/s%u", i);
		u64 b = first_block(path);

		cr_assert_neq(b, 0, "%s has no block", path);
		lo = min(lo, b);
		hi = max(hi, b);
		ext2t_expect_dump_pattern(path, i, 4096);
	}
	cr_expect_eq(hi - lo + 1, FILES, "%d one-block files over blocks [%llu, %llu]", FILES,
		     (unsigned long long)lo, (unsigned long long)hi);
}

/* A full disk: write(2) gets -ENOSPC, and everything it accepted reaches the disk. */
Test(ext4_delalloc, enospc_at_write_time)
{
	loff_t size;
	int err = 0;

	ext4t_make_image("-b 1024");
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	for (loff_t pos = 0; !err && pos < (64 << 20); pos += 64 << 10)
		err = ext2t_write_pattern(EXT2T_MNT "/fill", 5, pos, 64 << 10);
	cr_assert_eq(err, -ENOSPC, "the write ended with %d", err);
	size = ext2t_size(EXT2T_MNT "/fill");
	cr_assert_gt(size, 8 << 20, "only %lld bytes fitted", (long long)size);
	ext2t_umount();
	cr_expect(!host_log_contains("failed"), "writeback failed: %s", host_log());
	ext2t_fsck_clean();
	cr_assert_eq(da_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(ext2t_check_pattern(EXT2T_MNT "/fill", 5, (u64)size), 0);
	ext2t_umount();
}

/* Truncate and unlink before writeback: every delayed block's reservation goes back. */
Test(ext4_delalloc, truncate_delayed_pages)
{
	u64 free0, free1, ffree;

	ext4t_make_image("-b 1024");
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/keep", 3, 0, 10), 0); /* the inode's block */
	ext2t_statfs(&free0, &ffree);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/t", 8, 0, 1 << 20), 0);
	ext2t_statfs(&free1, &ffree);
	cr_expect_geq(free0 - free1, 1024);
	cr_assert_eq(do_truncate(EXT2T_MNT "/t", 5000), 0);
	ext2t_statfs(&free1, &ffree);
	cr_expect_eq(free0 - free1, 5, "after truncating to 5000 bytes: %llu blocks held",
		     (unsigned long long)(free0 - free1));
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/u", 9, 0, 300000), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/u"), 0);
	ext2t_statfs(&free1, &ffree);
	cr_expect_eq(free0 - free1, 5, "an unlinked file's delayed blocks are held");
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/t", 8, 5000);
}

/*
 * An unwritten extent (debugfs fallocate) whose blocks hold old bytes: it reads as zeros,
 * as after a crash between the data IO and the conversion. A write into its middle is
 * converted alone: unwritten, written, unwritten; the rest still zeros.
 */
Test(ext4_delalloc, write_into_unwritten_extent)
{
	unsigned long long pblk = 0;
	u8 *buf = calloc(1, 102400);
	ssize_t got = 0;

	ext4t_make_image("-b 1024");
	cr_assert_eq(ext2t_sh("printf 'write /dev/null fa\\nfallocate fa 0 99\\nsif fa size "
			      "102400\\n' "
			      "| debugfs -w -f - %s >/dev/null 2>&1",
			      ext2t_env.img),
		     0);
	cr_assert(ext2t_sh_number(&pblk, "debugfs -R 'bmap /fa 0' %s 2>/dev/null", ext2t_env.img));
	cr_assert_eq(ext2t_sh("head -c 102400 /dev/zero | tr '\\0' S | dd of=%s bs=1024 seek=%llu "
			      "conv=notrunc status=none",
			      ext2t_env.img, pblk),
		     0);
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_read(EXT2T_MNT "/fa", 0, buf, 102400, &got), 0);
	cr_assert_eq(got, 102400);
	for (size_t i = 0; i < 102400; i++)
		cr_assert_eq(buf[i], 0, "byte %zu of an unwritten extent reads %#x", i, buf[i]);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/fa", 6, 30720, 20480), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_expect_eq(ext4t_extents_matching("/fa", "1"), 3);
	cr_expect_eq(ext4t_extents_matching("/fa", "/Uninit/"), 2);
	cr_expect_eq(ext2t_sh("debugfs -R 'ex /fa' %s 2>/dev/null | grep -q ' 30 -    49 .* 20 *$'",
			      ext2t_env.img),
		     0, "the written extent is not blocks 30-49");
	memset(buf, 0, 102400);
	ext2t_fill(buf + 30720, 20480, 6, 30720);
	ext2t_expect_dump("/fa", buf, 102400);
	free(buf);
}

static struct inode *inode_of(const char *path)
{
	struct path p;
	struct inode *inode;

	cr_assert_eq(kern_path(path, LOOKUP_FOLLOW, &p), 0, "%s", path);
	inode = igrab(p.dentry->d_inode);
	path_put(&p);
	cr_assert_not_null(inode);
	return inode;
}

/*
 * Reclaim keeps a page only while its own IO waits for conversion: beside another IO of
 * the same inode still pending, the pages converted earlier go (a file that a throttled
 * group kept writing held all its clean pages, and memory ran out).
 */
Test(ext4_delalloc, converted_pages_go_beside_a_pending_conversion)
{
	struct ext2_io_end *pending;
	struct inode *inode;

	ext4t_make_image("-b 4096");
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 4, 0, 256 << 10), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/f"), 0);
	inode = inode_of(EXT2T_MNT "/f");
	cr_assert_eq(inode->i_mapping->nrpages, 64);
	pending = ext2_io_end_alloc(inode);
	cr_assert_not_null(pending);
	drop_pagecache();
	cr_expect_eq(inode->i_mapping->nrpages, 0, "%lu converted pages kept",
		     inode->i_mapping->nrpages);
	ext2_io_end_put(pending, 0);
	iput(inode);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/f", 4, 256 << 10);
}

static bool fsync_returned;

static int fsync_main(void *arg)
{
	int err = ext2t_fsync(arg);

	WRITE_ONCE(fsync_returned, true);
	return err;
}

/*
 * fsync waits for the conversion of the IOs begun before it, not for those a writer keeps
 * starting after it (which starved fsync for as long as the writer wrote).
 */
Test(ext4_delalloc, fsync_waits_only_for_conversions_begun_before_it)
{
	struct ext2_io_end *before, *after;
	struct task_struct *t;
	struct inode *inode;

	ext4t_make_image("-b 4096");
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 5, 0, 64 << 10), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/f"), 0);
	inode = inode_of(EXT2T_MNT "/f");
	before = ext2_io_end_alloc(inode);
	cr_assert_not_null(before);
	t = kthread_run(fsync_main, (void *)(EXT2T_MNT "/f"), "fsync");
	cr_assert(!IS_ERR_OR_NULL(t));
	host_run_for(50 * NSEC_PER_MSEC);
	cr_assert(!READ_ONCE(fsync_returned), "fsync did not wait for the conversion before it");
	after = ext2_io_end_alloc(inode);
	cr_assert_not_null(after);
	ext2_io_end_put(before, 0);
	host_run_for(50 * NSEC_PER_MSEC);
	cr_expect(READ_ONCE(fsync_returned), "fsync waits for a conversion begun after it");
	ext2_io_end_put(after, 0);
	cr_expect_eq(kthread_join(t), 0);
	iput(inode);
	ext2t_umount();
	ext2t_fsck_clean();
}

/*
 * A disk filled by a delayed write, then directories made: their blocks may not come out
 * of what the delayed write was promised. mkdir gets -ENOSPC, and writeback loses nothing
 * write(2) accepted (the directories took those blocks, and the data was lost).
 */
Test(ext4_delalloc, mkdir_beside_delayed_blocks_gets_enospc_not_their_blocks)
{
	char name[64];
	loff_t size;
	int err = 0, made = 0;

	ext4t_make_image("-b 4096");
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	for (loff_t pos = 0; !err && pos < (64 << 20); pos += 64 << 10)
		err = ext2t_write_pattern(EXT2T_MNT "/fill", 7, pos, 64 << 10);
	cr_assert_eq(err, -ENOSPC, "the write ended with %d", err);
	size = ext2t_size(EXT2T_MNT "/fill");
	for (int i = 0; i < 600; i++) {
		snprintf(name, sizeof(name), EXT2T_MNT "/d%d", i);
		err = do_mkdir(name, 0755);
		if (err)
			break;
		made++;
	}
	cr_expect_eq(err, -ENOSPC, "mkdir #%d ended with %d", made, err);
	ext2t_umount();
	cr_expect(!host_log_contains("failed"), "writeback failed: %s", host_log());
	ext2t_fsck_clean();
	cr_assert_eq(da_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(ext2t_check_pattern(EXT2T_MNT "/fill", 7, (u64)size), 0);
	ext2t_umount();
}

/*
 * Writeback of an inode already on its way out (a flusher that started before the last
 * iput, iput_final at umount): its IO cannot hold the inode, and must not fail for it
 * (it gave -EIO and lost the data); the eviction waits for the conversion instead.
 */
Test(ext4_delalloc, writeback_of_an_inode_being_evicted_converts)
{
	struct inode *inode;
	int err;

	ext4t_make_image("-b 4096");
	cr_assert_eq(da_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 8, 0, 128 << 10), 0);
	inode = inode_of(EXT2T_MNT "/f");
	spin_lock(&inode->i_lock);
	inode->i_state |= I_WILL_FREE; /* what iput_final sets around write_inode_now() */
	spin_unlock(&inode->i_lock);
	err = filemap_write_and_wait(inode->i_mapping);
	spin_lock(&inode->i_lock);
	inode->i_state &= ~I_WILL_FREE;
	spin_unlock(&inode->i_lock);
	cr_expect_eq(err, 0, "writeback of an inode being freed: %d", err);
	iput(inode);
	ext2t_umount();
	cr_expect(!host_log_contains("failed"), "%s", host_log());
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/f", 8, 128 << 10);
}
