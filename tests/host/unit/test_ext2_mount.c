/*
 * ext2 mount and umount: every mke2fs geometry the issue names mounts, its superblock
 * counts show through statfs, the mount count goes up and the clean flag is down while
 * mounted and back after umount; unknown features are refused with a clear message, and
 * a device holding garbage or a bad superblock fails the mount cleanly.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include "host.h"
#include "test_ext2.h"

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext2_mount, .init = setup, .fini = teardown);

static unsigned long dumpe2fs_value(const char *field)
{
	char cmd[256];
	unsigned long v = ~0UL;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "dumpe2fs -h %s 2>/dev/null | sed -n 's/^%s *//p'",
		 ext2t_env.img, field);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	if (fscanf(p, "%lu", &v) != 1)
		v = ~0UL;
	pclose(p);
	return v;
}

static bool dumpe2fs_says(const char *field, const char *value)
{
	return ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q '^%s *%s$'", ext2t_env.img, field,
			value) == 0;
}

static const char *const geometry_opts[] = {
	"", "-b 1024", "-b 2048", "-b 4096", "-I 128", "-I 256", "-b 1024 -I 128", "-b 4096 -I 256",
};

ParameterizedTestParameters(ext2_mount, geometries)
{
	static int index[sizeof(geometry_opts) / sizeof(geometry_opts[0])];

	for (size_t i = 0; i < sizeof(index) / sizeof(index[0]); i++)
		index[i] = (int)i;
	return cr_make_param_array(int, index, sizeof(index) / sizeof(index[0]));
}

ParameterizedTest(int *geometry, ext2_mount, geometries)
{
	const char *const *opt = &geometry_opts[*geometry];
	u64 blocks0, inodes0;
	unsigned long mounts0;
	u64 bfree, ffree;

	ext2t_mkfs(*opt, 32 << 10);
	ext2t_disk_free(&blocks0, &inodes0);
	mounts0 = dumpe2fs_value("Mount count:");
	cr_assert_eq(ext2t_attach_mount(), 0);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	cr_expect(dumpe2fs_says("Filesystem state:", "not clean"), "clean while mounted "
								   "read-write");
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d", 0755), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/d/f", 1, 0, 100000), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/d/f", 1, 100000), 0);
	ext2t_umount();
	cr_expect_eq(dumpe2fs_value("Mount count:"), mounts0 + 1);
	cr_expect(dumpe2fs_says("Filesystem state:", "clean"), "not clean after umount");
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/d/f", 1, 100000), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/d/f"), 0);
	cr_assert_eq(do_rmdir(EXT2T_MNT "/d"), 0);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_disk_free(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	cr_expect(dumpe2fs_says("Filesystem features:", "ext_attr resize_inode dir_index filetype "
							"sparse_super large_file"));
}

/* Write a little-endian u32 into the image at offset. */
static void poke32(long offset, u32 value)
{
	ext2t_poke(offset, &value, 4);
}

static u32 peek32(long offset)
{
	u32 value = 0;

	ext2t_peek(offset, &value, 4);
	return value;
}

#define SB_INCOMPAT (1024 + 0x60)
#define SB_RO_COMPAT (1024 + 0x64)

Test(ext2_mount, unknown_incompat_refused)
{
	ext2t_mkfs("", 8 << 10);
	poke32(SB_INCOMPAT, peek32(SB_INCOMPAT) | 0x40 /* extents */);
	cr_assert_eq(ext2t_attach_mount(), -EINVAL);
	cr_expect(host_log_contains("unsupported optional features (40)"), "%s", host_log());
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", SB_RDONLY, NULL), -EINVAL);
}

Test(ext2_mount, unknown_ro_compat_read_only)
{
	ext2t_mkfs("", 8 << 10);
	poke32(SB_RO_COMPAT, peek32(SB_RO_COMPAT) | 0x400 /* metadata_csum */);
	cr_assert_eq(ext2t_attach_mount(), -EROFS);
	cr_expect(host_log_contains("couldn't mount RDWR because of unsupported optional features "
				    "(400)"));
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", SB_RDONLY, NULL), 0);
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT), 3); /* . .. lost+found */
	ext2t_umount();
}

Test(ext2_mount, bad_magic)
{
	ext2t_mkfs("", 8 << 10);
	poke32(1024 + 0x38, 0x1234);
	cr_assert_eq(ext2t_attach_mount(), -EIO);
	cr_expect(host_log_contains("bad magic number 0x1234"), "%s", host_log());
}

Test(ext2_mount, garbage)
{
	u8 buf[4096];

	for (int i = 0; i < 1024; i++) {
		ext2t_fill(buf, sizeof(buf), 7, (u64)i * sizeof(buf));
		ext2t_poke((long)i * (long)sizeof(buf), buf, sizeof(buf));
	}
	cr_assert_eq(ext2t_attach_mount(), -EIO);
	cr_expect(host_log_contains("EXT2-fs (vda): error"), "%s", host_log());
	cr_assert_eq(ext2t_mount(), -EIO); /* and again: nothing was left half set up */
}

Test(ext2_mount, corrupt_geometry)
{
	ext2t_mkfs("-b 1024", 8 << 10);
	poke32(1024 + 0x20, 0); /* s_blocks_per_group */
	cr_assert_eq(ext2t_attach_mount(), -EIO);
	cr_expect(host_log_contains("corrupt superblock: blocks per group 0"), "%s", host_log());
}

/* A whole image on a device too small for it (a truncated copy): EINVAL, as Linux's. */
Test(ext2_mount, image_larger_than_its_device)
{
	ext2t_mkfs("-b 1024", 8 << 10);
	cr_assert_eq(ext2t_sh("truncate -s 4M %s", ext2t_env.img), 0);
	cr_assert_eq(ext2t_attach_mount(), -EINVAL);
	cr_expect(host_log_contains("bad geometry: block count 8192 exceeds size of device (4096 "
				    "blocks)"),
		  "%s", host_log());
}

Test(ext2_mount, corrupt_group_descriptor)
{
	ext2t_mkfs("-b 1024", 8 << 10);
	poke32(2048 + 8, 0xfffff0); /* group 0's inode table, far away */
	cr_assert_eq(ext2t_attach_mount(), -EIO);
	cr_expect(host_log_contains("group descriptor 0: inode table at block 16777200"), "%s",
		  host_log());
}

/*
 * A device mounted a second time, as Linux: the same type and read-only flag share the
 * superblock (both mounts show the same files; the last umount shuts it down); another
 * type or flag is EBUSY.
 */
Test(ext2_mount, a_second_mount_shares_the_superblock)
{
	struct kstat st;

	ext2t_mkfs("-b 1024", 8 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0, "%s", host_log());
	cr_assert_eq(do_mkdir("/mnt2", 0755), 0);
	cr_assert_eq(do_mount("/dev/vda", "/mnt2", "ext2", 0, NULL), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/shared", 3, 0, 5000), 0);
	cr_assert_eq(vfs_stat("/mnt2/shared", &st), 0, "the second mount does not see the file");
	cr_expect_eq(st.size, 5000);
	cr_assert_eq(do_mount("/dev/vda", "/tmp", "ext2", SB_RDONLY, NULL), -EBUSY);
	cr_assert_eq(do_mount("/dev/vda", "/tmp", "ext4", 0, NULL), -EBUSY);
	cr_assert_eq(do_umount("/mnt2", 0), 0);
	cr_assert_eq(vfs_stat(EXT2T_MNT "/shared", &st), 0, "the first mount lost the file");
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/shared", 3, 5000);
}
