/*
 * ext4 images as Debian 12's `mke2fs -t ext4 -d` makes them (has_journal extent huge_file
 * flex_bg metadata_csum 64bit dir_nlink extra_isize), mounted as type ext4 and read back:
 * files of every size byte for byte (one sparse enough that its extent tree has a level of
 * index blocks), hashed directories, fast and slow symlinks. The mount writes nothing.
 * Then the policy: the image mounts read-write (through its journal), "ext2"
 * refuses the image as Linux's ext2 does, unknown incompat features refuse the mount,
 * unknown ro_compat ones allow it read-only, a journal that needs recovery refuses it; and
 * a wrong checksum in the superblock, a group descriptor, an inode, an extent block or a
 * directory block is an error, never data.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"
#include "filedisk.h"

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext4_read, .init = setup, .fini = teardown);

static const char *const block_opts[] = { "-b 1024", "-b 4096" };

ParameterizedTestParameters(ext4_read, tree)
{
	static int index[] = { 0, 1 };

	return cr_make_param_array(int, index, 2);
}

ParameterizedTest(int *opt, ext4_read, tree)
{
	unsigned long long depth;

	ext4t_make_image(block_opts[*opt]);
	/* "Level Entries ..." then " 0/ 1   1/  1 ...": the tree's depth after the slash */
	cr_assert(ext2t_sh_number(&depth,
				  "debugfs -R 'ex /sparse' %s 2>/dev/null | "
				  "awk 'NR==2 {print $2}'",
				  ext2t_env.img));
	cr_assert_gt(depth, 0, "the sparse file's extent tree has no index level");
	cr_assert_eq(ext2t_sh("debugfs -R 'htree /big' %s 2>&1 | grep -q 'Number of entries'",
			      ext2t_env.img),
		     0, "the big directory is not hashed");
	cr_assert_eq(ext2t_sh("cp %s %s/before.img", ext2t_env.img, ext2t_env.dir), 0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	ext4t_check_tree();
	ext4t_check_sparse();
	ext2t_umount();
	cr_expect_eq(ext2t_sh("cmp -s %s %s/before.img", ext2t_env.img, ext2t_env.dir), 0,
		     "a read-only mount changed the image");
	ext2t_fsck_clean();
}

/* A Debian image mounted as it would be by default: read-write, through its journal. */
Test(ext4_read, debian_image_read_write)
{
	ext4t_make_image("");
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	ext4t_check_tree();
	ext2t_umount();
	ext2t_fsck_clean();
}

/* Linux's ext2 refuses ext4 with exactly this; so does ours. */
Test(ext4_read, ext2_type_refuses_ext4)
{
	ext4t_make_image("");
	ext2t_attach();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", SB_RDONLY, NULL), -EINVAL);
	cr_expect(host_log_contains("EXT2-fs (vda): error: couldn't mount because of unsupported "
				    "optional features (2c0)"),
		  "%s", host_log());
}

Test(ext4_read, unknown_incompat_refused)
{
	ext4t_make_image("-O ^has_journal");
	/* filetype extent 64bit flex_bg + inline_data (0x8000), which this driver lacks */
	ext4t_set_super_value("feature_incompat", "0x82c2");
	cr_assert_eq(ext4t_mount(SB_RDONLY), -EINVAL);
	cr_expect(host_log_contains("couldn't mount because of unsupported optional features "
				    "(8000)"),
		  "%s", host_log());
}

Test(ext4_read, unknown_ro_compat_read_only)
{
	ext4t_make_image("-O ^has_journal");
	/* sparse_super large_file huge_file dir_nlink extra_isize metadata_csum + 0x8000 */
	ext4t_set_super_value("feature_ro_compat", "0x846b");
	cr_assert_eq(ext4t_mount(0), -EROFS);
	cr_expect(host_log_contains("couldn't mount RDWR because of unsupported optional features "
				    "(8000)"),
		  "%s", host_log());
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	ext4t_check_tree();
	ext2t_umount();
}

Test(ext4_read, needs_recovery_without_journal_refused)
{
	ext4t_make_image("-O ^has_journal");
	cr_assert_eq(ext2t_sh("debugfs -w -R 'feature needs_recovery' %s > /dev/null 2>&1",
			      ext2t_env.img),
		     0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), -EINVAL);
	cr_expect(host_log_contains("needs_recovery without a journal"), "%s", host_log());
}

/* needs_recovery over an empty journal: nothing to replay, the flag goes. */
Test(ext4_read, needs_recovery_empty_journal)
{
	ext4t_make_image("");
	cr_assert_eq(ext2t_sh("debugfs -w -R 'feature needs_recovery' %s > /dev/null 2>&1",
			      ext2t_env.img),
		     0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	ext4t_check_tree();
	ext2t_umount();
	cr_expect_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q needs_recovery", ext2t_env.img),
		     1);
	ext2t_fsck_clean();
}

/* The same image through both types: ext4 mounts ext2 images, read-write, as ext2 does. */
Test(ext4_read, ext2_image_as_ext4)
{
	ext2t_mkfs("-b 1024", 8 << 10);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 3, 0, 200000), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_mount(), 0);
	cr_expect_eq(ext2t_check_pattern(EXT2T_MNT "/f", 3, 200000), 0);
	ext2t_umount();
}

/* Older ext4 images: uninit_bg (gdt_csum, crc16 descriptors) instead of metadata_csum. */
Test(ext4_read, uninit_bg_image)
{
	ext4t_make_image("-b 1024 -O ^metadata_csum,uninit_bg");
	cr_assert_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q uninit_bg", ext2t_env.img), 0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	ext4t_check_tree();
	ext4t_check_sparse();
	ext2t_umount();
	ext2t_fsck_clean();
}

/* Nanoseconds and the seconds past 2038 live in the inode's extra space. */
Test(ext4_read, extra_timestamps)
{
	struct kstat st;

	ext4t_make_image("-b 1024 -O ^has_journal");
	/* mtime: 0x5fef0ec0 + epoch 1 (2^32 s later, in 2157), 123456789 ns (in that order:
	 * debugfs's "mtime" rewrites the extra field too) */
	cr_assert_eq(ext2t_sh("debugfs -w -R 'sif /f1 mtime 0x5fef0ec0' %s > /dev/null 2>&1",
			      ext2t_env.img),
		     0);
	cr_assert_eq(ext2t_sh("debugfs -w -R 'sif /f1 mtime_extra %u' %s > /dev/null 2>&1",
			      123456789u << 2 | 1, ext2t_env.img),
		     0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_assert_eq(vfs_lstat(EXT2T_MNT "/f1", &st), 0);
	cr_expect_eq(st.mtime.tv_sec, 0x5fef0ec0LL + (1LL << 32));
	cr_expect_eq(st.mtime.tv_nsec, 123456789);
	ext2t_umount();
}

/* df as Linux's ext4 says it: the overhead mke2fs recorded, the descriptors' free counts. */
Test(ext4_read, statfs_as_linux)
{
	unsigned long long blocks, overhead, free_blocks, free_inodes;
	struct kstatfs st;
	struct path p;

	ext4t_make_image("-b 1024");
	cr_assert(ext2t_sh_number(&blocks,
				  "dumpe2fs -h %s 2>/dev/null | sed -n 's/^Block count: *//p'",
				  ext2t_env.img));
	cr_assert(ext2t_sh_number(&overhead,
				  "dumpe2fs -h %s 2>/dev/null | sed -n 's/^Overhead clusters: "
				  "*//p'",
				  ext2t_env.img));
	cr_assert(ext2t_sh_number(&free_blocks,
				  "dumpe2fs -h %s 2>/dev/null | sed -n 's/^Free blocks: *//p'",
				  ext2t_env.img));
	cr_assert(ext2t_sh_number(&free_inodes,
				  "dumpe2fs -h %s 2>/dev/null | sed -n 's/^Free inodes: *//p'",
				  ext2t_env.img));
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_assert_eq(kern_path(EXT2T_MNT, LOOKUP_FOLLOW, &p), 0);
	cr_assert_eq(vfs_statfs(&p, &st), 0);
	path_put(&p);
	cr_expect_eq(st.f_blocks, blocks - overhead);
	cr_expect_eq(st.f_bfree, free_blocks);
	cr_expect_eq(st.f_ffree, free_inodes);
	ext2t_umount();
}

/* An extent maps a whole run at once: a cold sequential read goes in readahead-sized requests. */
Test(ext4_read, cold_read_in_large_requests)
{
	struct filedisk_stats st;
	const u64 size = 3 << 20; /* /f7 */

	ext4t_make_image("-b 4096");
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	filedisk_reset_stats(ext2t_env.disk);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/f7", 107, size), 0);
	filedisk_get_stats(ext2t_env.disk, &st);
	cr_expect_geq(st.max_request_bytes, 128 << 10, "largest read request %u bytes",
		      st.max_request_bytes);
	cr_expect_leq(st.reads, size / (64 << 10) + 20, "%lu read requests for 3 MiB", st.reads);
	ext2t_umount();
}

/* 128-byte inodes: no extra space, the checksum's low half only. */
Test(ext4_read, small_inodes)
{
	ext4t_make_image("-b 1024 -I 128");
	cr_assert_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q 'Inode size:.*128'",
			      ext2t_env.img),
		     0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	ext4t_check_tree();
	ext4t_check_sparse();
	ext2t_umount();
}

/* metadata_csum_seed: the seed kept in the superblock, so the uuid can change alone. */
Test(ext4_read, csum_seed_after_uuid_change)
{
	ext4t_make_image("-b 1024 -O metadata_csum_seed");
	cr_assert_eq(ext2t_sh("tune2fs -U 76543210-89ab-cdef-0123-456789abcdef %s > /dev/null 2>&1",
			      ext2t_env.img),
		     0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	ext4t_check_tree();
	ext2t_umount();
}

/* A read-only ext4 mount cannot become read-write by remount: the mount's checks apply. */
Test(ext4_read, remount_rw_refused)
{
	struct path p;
	int flags = 0;

	ext4t_make_image("-b 1024");
	ext4t_set_super_value("feature_ro_compat", "0x846b"); /* + an unknown 0x8000 */
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_assert_eq(kern_path(EXT2T_MNT, LOOKUP_FOLLOW, &p), 0);
	cr_expect_eq(p.mnt->mnt_sb->s_op->remount_fs(p.mnt->mnt_sb, &flags, NULL), -EROFS);
	cr_expect(p.mnt->mnt_sb->s_flags & SB_RDONLY);
	path_put(&p);
	cr_expect(host_log_contains("couldn't mount RDWR because of unsupported optional features "
				    "(8000)"),
		  "%s", host_log());
	ext2t_umount();
}
