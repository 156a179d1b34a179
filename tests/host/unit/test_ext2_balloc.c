/*
 * Block allocation's locks and counters (fs/ext2/balloc.c, reserve.c, delalloc.c): the
 * per-CPU free counters stay equal to the sum of the group descriptors' counts through
 * files written and deleted over several groups, and through allocations and frees on two
 * virtual CPUs in two groups; the superblock written at umount carries them; an
 * allocation in one group needs no other group's lock, and statfs needs none; a file's
 * window moving to another group leaves nothing reserved behind; a delayed-allocation
 * write near a full disk is refused exactly at the slack.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"
#include "../../../fs/ext2/ext2.h"

static void setup(void)
{
	host_set_nr_cpus(2); /* before the mount sizes its counters */
	ext2t_boot(64);
}

static void teardown(void)
{
	host_set_cpu(0);
	ext2t_shutdown();
}

TestSuite(ext2_balloc, .init = setup, .fini = teardown, .timeout = 60);

/* The inode of path, referenced: the caller iput()s it. */
static struct inode *inode_of(const char *path)
{
	struct inode *inode;
	struct path p;

	cr_assert_eq(kern_path(path, LOOKUP_FOLLOW, &p), 0);
	inode = igrab(d_inode(p.dentry));
	path_put(&p);
	return inode;
}

static void expect_counters_exact(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	cr_expect_eq(percpu_counter_sum(&sbi->s_freeblocks_counter), ext2_count_free_blocks(sb),
		     "free blocks: counter %lld, descriptors %u",
		     (long long)percpu_counter_sum(&sbi->s_freeblocks_counter),
		     ext2_count_free_blocks(sb));
	cr_expect_eq(percpu_counter_sum(&sbi->s_freeinodes_counter), ext2_count_free_inodes(sb),
		     "free inodes: counter %lld, descriptors %u",
		     (long long)percpu_counter_sum(&sbi->s_freeinodes_counter),
		     ext2_count_free_inodes(sb));
	cr_expect_eq(percpu_counter_sum(&sbi->s_dirtyclusters_counter), 0);
}

/* ext2_new_blocks() of one block near goal, as the block map calls it. */
static u32 new_block(struct inode *inode, u32 goal)
{
	unsigned long count = 1;
	int err;
	u32 b;

	mutex_lock(&EXT2_I(inode)->truncate_mutex);
	b = ext2_new_blocks(inode, goal, &count, &err, 0);
	mutex_unlock(&EXT2_I(inode)->truncate_mutex);
	cr_assert_neq(b, 0, "allocation near %u failed: %d", goal, err);
	cr_assert_eq(count, 1);
	return b;
}

static unsigned int group_of(struct super_block *sb, u32 block)
{
	return (block - EXT2_SB(sb)->s_first_data_block) / EXT2_SB(sb)->s_blocks_per_group;
}

/* 16 MiB in groups of 2048 1 KiB blocks: 8 groups; files written, some deleted. */
Test(ext2_balloc, counters_equal_descriptors_after_files)
{
	struct super_block *sb;
	u64 bfree, ffree, disk_blocks, disk_inodes;
	char path[32];

	ext2t_mkfs("-b 1024 -g 2048", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	sb = ext2t_sb();
	cr_assert_geq(EXT2_SB(sb)->s_groups_count, 8);
	expect_counters_exact(sb);
	for (unsigned int i = 0; i < 12; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/f%u", i);
		/* 3 MiB files spill over groups */
		int err = ext2t_write_pattern(path, i, 0, i % 4 ? 256 << 10 : 3 << 20);

		cr_assert_eq(err, 0, "writing %s: %d", path, err);
	}
	for (unsigned int i = 0; i < 12; i += 2) {
		snprintf(path, sizeof(path), EXT2T_MNT "/f%u", i);
		cr_assert_eq(do_unlink(path), 0);
	}
	ksys_sync();
	expect_counters_exact(sb);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, ext2_count_free_blocks(sb));
	cr_expect_eq(ffree, ext2_count_free_inodes(sb));
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_disk_free(&disk_blocks, &disk_inodes);
	cr_expect_eq(disk_blocks, bfree, "the superblock says %llu free, statfs said %llu",
		     (unsigned long long)disk_blocks, (unsigned long long)bfree);
	cr_expect_eq(disk_inodes, ffree);
}

/*
 * Two CPUs allocate in two groups, block by block, and free on the other CPU: more than a
 * batch each, so the counter's parts fold, and its sum stays the descriptors'. One group's
 * lock held by someone else does not hold up an allocation in another group, or statfs.
 */
Test(ext2_balloc, two_cpus_two_groups)
{
	static u32 blocks[2][200];
	struct inode *inode[2];
	struct super_block *sb;
	struct ext2_sb_info *sbi;
	u32 goal[2];
	u64 bfree, ffree;
	spinlock_t *held;

	ext2t_mkfs("-b 1024 -g 2048", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/a", O_CREAT, 0, "a", 1), 0);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/b", O_CREAT, 0, "b", 1), 0);
	sb = ext2t_sb();
	sbi = EXT2_SB(sb);
	inode[0] = inode_of(EXT2T_MNT "/a");
	inode[1] = inode_of(EXT2T_MNT "/b");
	goal[0] = ext2_group_first_block(sb, 2) + 600;
	goal[1] = ext2_group_first_block(sb, 5) + 600;
	cr_assert_neq(sb_bgl_lock(sbi, 2), sb_bgl_lock(sbi, 5));
	/*
	 * The bitmaps read on CPU 0 first: a virtual CPU other than 0 must not sleep (it has
	 * no run queue of its own), and reading a bitmap may. Cached, the rest does not.
	 */
	for (unsigned int cpu = 0; cpu < 2; cpu++)
		blocks[cpu][0] = new_block(inode[cpu], goal[cpu]);
	for (unsigned int n = 1; n < 200; n++) {
		for (unsigned int cpu = 0; cpu < 2; cpu++) {
			host_set_cpu(cpu);
			blocks[cpu][n] = new_block(inode[cpu], goal[cpu] + n);
			cr_assert_eq(group_of(sb, blocks[cpu][n]), cpu ? 5 : 2);
		}
	}
	host_set_cpu(0);
	cr_expect_neq(percpu_counter_read(&sbi->s_freeblocks_counter),
		      percpu_counter_sum(&sbi->s_freeblocks_counter),
		      "nothing left in the CPUs' parts: the test tests no folding");
	expect_counters_exact(sb);

	/* group 5's lock taken by another CPU: a ticket drawn, never served */
	held = sb_bgl_lock(sbi, 5);
	held->next++;
	u32 extra = new_block(inode[0], goal[0] + 300);
	cr_expect_eq(group_of(sb, extra), 2);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, ext2_count_free_blocks(sb));
	held->next--;

	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		host_set_cpu(1 - cpu); /* freed on the other CPU */
		for (unsigned int n = 0; n < 200; n++)
			ext2_free_blocks(inode[cpu], blocks[cpu][n], 1);
	}
	host_set_cpu(0);
	ext2_free_blocks(inode[0], extra, 1);
	expect_counters_exact(sb);
	iput(inode[0]);
	iput(inode[1]);
	ext2t_umount();
	ext2t_fsck_clean();
}

static unsigned int reserved_bits(struct super_block *sb, unsigned int group)
{
	return sb->s_blocksize * 8 -
	       ext2_count_zero_bits(EXT2_SB(sb)->s_rsv_map[group], sb->s_blocksize * 8);
}

/* A file's window moves from group 1 to group 6: group 1's map keeps nothing of it. */
Test(ext2_balloc, window_moved_to_another_group_is_cleared)
{
	struct inode *inode;
	struct super_block *sb;
	u32 b, b1;

	ext2t_mkfs("-b 1024 -g 2048", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/f", O_CREAT, 0, "f", 1), 0);
	sb = ext2t_sb();
	inode = inode_of(EXT2T_MNT "/f");
	b1 = new_block(inode, ext2_group_first_block(sb, 1) + 700);
	cr_assert_eq(group_of(sb, b1), 1);
	cr_assert_gt(reserved_bits(sb, 1), 0, "no window was made: the test tests nothing");
	b = new_block(inode, ext2_group_first_block(sb, 6) + 700);
	cr_assert_eq(group_of(sb, b), 6);
	cr_expect_eq(reserved_bits(sb, 1), 0, "%u bits of the old window left in group 1",
		     reserved_bits(sb, 1));
	cr_expect_gt(reserved_bits(sb, 6), 0);
	ext2_discard_reservation(inode);
	cr_expect_eq(reserved_bits(sb, 6), 0);
	ext2_free_blocks(inode, b1, 1);
	ext2_free_blocks(inode, b, 1);
	iput(inode);
	cr_assert_eq(do_unlink(EXT2T_MNT "/f"), 0);
	ext2t_umount();
	ext2t_fsck_clean();
}

/*
 * Delayed allocation fills the disk page by page: each write is accepted exactly while
 * statfs's free count (free less delayed, the counters' sums) leaves the slack, and
 * refused from the first that would eat into it. The reservations wait in the CPU's part
 * of the delayed counter up to a batch (32) at a time, so a check on the counters' cheap
 * reads alone would accept up to 31 blocks too many. (Writes sleep: only CPU 0 may.)
 */
Test(ext2_balloc, delalloc_refuses_exactly_at_the_slack)
{
	static char page[4096];
	struct super_block *sb;
	u64 bfree, ffree, slack;
	int err = 0;

	ext4t_make_image("-b 4096");
	ext2t_attach();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "delalloc"), 0, "%s", host_log());
	sb = ext2t_sb();
	slack = min((u64)EXT2_SB(sb)->s_blocks_count / 50, (u64)4096);
	for (loff_t pos = 0; !err; pos += sizeof(page)) {
		ext2t_statfs(&bfree, &ffree);
		err = ext2t_write(EXT2T_MNT "/fill", O_CREAT, pos, page, sizeof(page));
		if (bfree >= slack + 1)
			cr_assert_eq(err, 0, "refused at %llu free, slack %llu",
				     (unsigned long long)bfree, (unsigned long long)slack);
		else
			cr_assert_eq(err, -ENOSPC, "accepted at %llu free, slack %llu",
				     (unsigned long long)bfree, (unsigned long long)slack);
	}
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, slack, "the disk filled to %llu free blocks, not the slack (%llu)",
		     (unsigned long long)bfree, (unsigned long long)slack);
	ksys_sync();
	expect_counters_exact(sb);
	ext2t_umount();
	ext2t_fsck_clean();
}
