/*
 * Corrupt ext4 images: one byte changed where only a checksum can tell (the superblock, a
 * group descriptor, an inode, an extent tree block, a directory leaf, an htree root) must
 * fail the mount or the read with -EIO and a message saying which checksum, never return
 * data; and on an image without metadata_csum, extent trees whose structure is wrong (a
 * bad magic, extents pointing into the inode table or outside the disk, out of order) are
 * refused by the checks of every node.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include <cgwb/buffer_head.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"

#define BS 1024

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext4_corrupt, .init = setup, .fini = teardown);

static void flip(long offset)
{
	u8 b;

	ext2t_peek(offset, &b, 1);
	b ^= 0x5a;
	ext2t_poke(offset, &b, 1);
}

/* A number a shell pipeline over debugfs's output prints. */
static long debugfs_number(const char *request, const char *filter)
{
	unsigned long long v;

	cr_assert(ext2t_sh_number(&v, "debugfs -R '%s' %s 2>/dev/null | %s", request, ext2t_env.img,
				  filter),
		  "debugfs %s | %s", request, filter);
	return (long)v;
}

/* Byte offset of path's on-disk inode. */
static long inode_offset(const char *path)
{
	char req[96];
	long block, off;

	snprintf(req, sizeof(req), "imap %s", path);
	block = debugfs_number(req, "sed -n 's/.*located at block \\([0-9]*\\),.*/\\1/p'");
	off = debugfs_number(req, "sed -n 's/.*offset \\(0x[0-9a-f]*\\).*/\\1/p' | "
				  "xargs printf '%d\\n'");
	return block * BS + off;
}

/* The block holding logical block 0 of path. */
static long first_block(const char *path)
{
	char req[96];

	snprintf(req, sizeof(req), "bmap %s 0", path);
	return debugfs_number(req, "cat");
}

/* The extent tree block /sparse's root points at (" 0/ 1 1/ 1 0 - N LEAF N"). */
static long sparse_leaf(void)
{
	return debugfs_number("ex /sparse", "awk 'NR==2 {print $8}'");
}

static void expect_log(const char *what)
{
	cr_expect(host_log_contains(what), "no \"%s\" in:\n%s", what, host_log());
}

Test(ext4_corrupt, superblock_checksum)
{
	ext4t_make_image("-b 1024");
	flip(1024 + 0x78); /* s_volume_name */
	cr_assert_eq(ext4t_mount(SB_RDONLY), -EIO);
	expect_log("invalid superblock checksum");
}

Test(ext4_corrupt, group_descriptor_checksum)
{
	ext4t_make_image("-b 1024");
	flip(2 * BS + 64 + 0x0e); /* group 1's free inodes count */
	cr_assert_eq(ext4t_mount(SB_RDONLY), -EIO);
	expect_log("group descriptor 1: checksum invalid");
}

Test(ext4_corrupt, gdt_csum_descriptor_checksum)
{
	ext4t_make_image("-b 1024 -O ^metadata_csum,uninit_bg");
	flip(2 * BS + 64 + 0x0e); /* group 1's free inodes count */
	cr_assert_eq(ext4t_mount(SB_RDONLY), -EIO);
	expect_log("group descriptor 1: checksum invalid");
}

Test(ext4_corrupt, inode_checksum)
{
	ext4t_make_image("-b 1024");
	flip(inode_offset("/f5") + 0x10); /* i_mtime */
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(ext2t_size(EXT2T_MNT "/f5"), -EIO);
	expect_log("inode #");
	expect_log("checksum invalid");
	cr_expect_eq(ext2t_check_pattern(EXT2T_MNT "/f4", 104, 4097), 0);
	ext2t_umount();
}

Test(ext4_corrupt, extent_block_checksum)
{
	static u8 buf[4096];
	ssize_t got;

	ext4t_make_image("-b 1024");
	flip(sparse_leaf() * BS + 1000); /* an unused slot: only the checksum covers it */
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(ext2t_read(EXT2T_MNT "/sparse", 0, buf, sizeof(buf), &got), -EIO);
	expect_log("extent tree block checksum invalid");
	ext2t_umount();
}

/*
 * An extent tree block is checked once per read from the disk (Linux's buffer_verified):
 * writeback maps every page through the tree. A change to the cached copy is then not
 * checked again, and a copy read anew from the disk is.
 */
Test(ext4_corrupt, extent_block_checked_once_per_read)
{
	static u8 buf[4096];
	struct buffer_head *bh;
	struct path p;
	ssize_t got;
	long leaf;

	ext4t_make_image("-b 1024");
	leaf = sparse_leaf();
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_assert_eq(ext2t_read(EXT2T_MNT "/sparse", 0, buf, sizeof(buf), &got), 0);
	cr_assert_eq(kern_path(EXT2T_MNT, LOOKUP_FOLLOW, &p), 0);
	bh = sb_bread(p.dentry->d_sb, (sector_t)leaf);
	path_put(&p);
	cr_assert(bh && buffer_verified(bh), "the leaf a read went through is marked checked");

	flip(leaf * BS + 1000); /* on the disk, and the same byte in the cached copy */
	bh->b_data[1000] ^= 0x5a;
	/* each read at a piece not read before: the page cache does not have it */
	cr_expect_eq(ext2t_read(EXT2T_MNT "/sparse", 65536, buf, sizeof(buf), &got), 0,
		     "a checked block is not checked again: %s", host_log());
	cr_expect(!host_log_contains("checksum invalid"));

	clear_buffer_uptodate(bh); /* the next look reads it from the disk again */
	brelse(bh);
	cr_expect_eq(ext2t_read(EXT2T_MNT "/sparse", 2 * 65536, buf, sizeof(buf), &got), -EIO);
	expect_log("extent tree block checksum invalid");
	ext2t_umount();
}

Test(ext4_corrupt, directory_leaf_checksum)
{
	ext4t_make_image("-b 1024");
	flip(first_block("/dir") * BS + BS - 20); /* slack of the last entry, before the tail */
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/dir"), -EIO);
	expect_log("directory leaf block checksum invalid");
	ext2t_umount();
}

/* A directory block too: checked once per read from the disk (ext2_dir_bread). */
Test(ext4_corrupt, directory_block_checked_once_per_read)
{
	long block, off;
	struct buffer_head *bh;
	struct path p;

	ext4t_make_image("-b 1024");
	block = first_block("/dir");
	off = BS - 20; /* slack of the last entry, before the tail */
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_assert_gt(ext2t_count_entries(EXT2T_MNT "/dir"), 0);
	cr_assert_eq(kern_path(EXT2T_MNT, LOOKUP_FOLLOW, &p), 0);
	bh = sb_bread(p.dentry->d_sb, (sector_t)block);
	path_put(&p);
	cr_assert(bh && buffer_verified(bh), "the block a readdir went through is marked checked");

	flip(block * BS + off);
	bh->b_data[off] ^= 0x5a;
	cr_expect_gt(ext2t_count_entries(EXT2T_MNT "/dir"), 0, "checked again: %s", host_log());

	clear_buffer_uptodate(bh); /* read from the disk at the next look */
	brelse(bh);
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/dir"), -EIO);
	expect_log("directory leaf block checksum invalid");
	ext2t_umount();
}

Test(ext4_corrupt, htree_root_checksum)
{
	ext4t_make_image("-b 1024");
	flip(first_block("/big") * BS + 40); /* the second dx entry's hash */
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/big"), -EIO, "%s", host_log());
	expect_log("htree block checksum invalid");
	ext2t_umount();
}

/* Without checksums, the structure checks are what stands between the disk and a read. */
static void expect_bad_extent(long offset, const void *bytes, size_t len, const char *why)
{
	static u8 buf[4096];
	ssize_t got;

	ext2t_poke(offset, bytes, len);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect_eq(ext2t_read(EXT2T_MNT "/sparse", 65536, buf, sizeof(buf), &got), -EIO);
	expect_log(why);
	ext2t_umount();
}

Test(ext4_corrupt, extent_bad_magic)
{
	static const u8 bad[2] = { 0x0b, 0xf3 };

	ext4t_make_image("-b 1024 -O ^metadata_csum");
	expect_bad_extent(sparse_leaf() * BS, bad, 2, "invalid magic");
}

Test(ext4_corrupt, extent_into_metadata)
{
	u8 start[4] = { 5, 0, 0, 0 }; /* block 5: group descriptors / reserved GDT blocks */

	ext4t_make_image("-b 1024 -O ^metadata_csum");
	/* the leaf's second extent (logical 64, the chunk read) starts at block 5 */
	expect_bad_extent(sparse_leaf() * BS + 12 + 12 + 8, start, 4,
			  "invalid extent (physical blocks)");
}

Test(ext4_corrupt, extent_out_of_range)
{
	u8 start[4] = { 0, 0, 0, 0x40 }; /* far past the 32 MiB disk */

	ext4t_make_image("-b 1024 -O ^metadata_csum");
	expect_bad_extent(sparse_leaf() * BS + 12 + 12 + 8, start, 4,
			  "invalid extent (physical blocks)");
}

Test(ext4_corrupt, extents_out_of_order)
{
	u8 lblk[4] = { 0, 0, 0, 0 }; /* the second extent at logical 0, as the first */

	ext4t_make_image("-b 1024 -O ^metadata_csum");
	expect_bad_extent(sparse_leaf() * BS + 12 + 12, lblk, 4,
			  "extents overlap or are out of order");
}

/* The journal's blocks are the filesystem's own: a file pointing there is corrupt. */
Test(ext4_corrupt, extent_into_journal)
{
	unsigned long long jblock;
	u8 start[4];

	ext4t_make_image("-b 1024 -O ^metadata_csum");
	cr_assert(ext2t_sh_number(&jblock, "debugfs -R 'bmap <8> 100' %s 2>/dev/null", ext2t_env.img));
	memcpy(start, &(u32){ (u32)jblock }, 4);
	expect_bad_extent(sparse_leaf() * BS + 12 + 12 + 8, start, 4,
			  "invalid extent (physical blocks)");
}

/*
 * A flex group size out of range (2^255 groups, found by the fuzzer: an undefined shift in
 * inode placement) is ignored, as Linux's ext4_fill_flex_info() ignores it: files and
 * directories are still made, each group placed on its own.
 */
Test(ext4_corrupt, flex_group_size_out_of_range_is_ignored)
{
	struct kstat st;

	ext4t_make_image("-b 1024");
	ext4t_set_super_value("log_groups_per_flex", "255");
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d", 0755), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/d/f", 3, 0, 4096), 0);
	cr_expect_eq(vfs_stat(EXT2T_MNT "/d/f", &st), 0);
	ext2t_umount();
}

/*
 * A corrupt htree index logs a warning at every lookup that meets it; as Linux's, they are
 * rate-limited per filesystem (10 in 5 s), and the next interval counts what was dropped
 * (600 lines for one `ls -R` before).
 */
Test(ext4_corrupt, htree_warnings_are_rate_limited)
{
	struct kstat st;
	char name[96];
	u8 bad_version = 99;

	ext4t_make_image("-b 1024 -O ^metadata_csum");
	ext2t_poke(first_block("/big") * BS + 28, &bad_version, 1); /* dx_root_info.hash_version */
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), EXT2T_MNT "/big/no-such-name-%d", i);
		cr_assert_eq(vfs_stat(name, &st), -ENOENT);
	}
	cr_expect_leq(host_log_count("unrecognised hash version"), 10, "%s", host_log());
	host_run_for(6 * NSEC_PER_SEC);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/big/one-more", &st), -ENOENT);
	cr_expect(host_log_contains("EXT4-fs: 90 callbacks suppressed"), "%s", host_log());
	ext2t_umount();
}
