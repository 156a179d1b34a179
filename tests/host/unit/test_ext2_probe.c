/*
 * Which filesystem an image holds, read from its superblock as blkid does for mount(8):
 * images made by the host's mke2fs as each type and with features added or taken away,
 * then the VFS's answer for an attached disk (an ext3 image mounts as ext4; a raw disk is
 * none).
 */
#include <criterion/criterion.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include <cgwb/ext2.h>
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

TestSuite(ext2_probe, .init = setup, .fini = teardown);

/* mke2fs ARGS into the image, and what its superblock says. */
static const char *probe_image(const char *mkfs_args)
{
	static u8 sb[EXT2_SB_PROBE_BYTES];

	cr_assert_eq(ext2t_sh("mke2fs -q -F %s %s 8192k > /dev/null 2>&1", mkfs_args, ext2t_env.img),
		     0, "mke2fs %s", mkfs_args);
	ext2t_peek(EXT2_SB_PROBE_OFFSET, sb, sizeof(sb));
	return ext2_probe_fstype(sb);
}

static void expect_type(const char *mkfs_args, const char *want)
{
	const char *got = probe_image(mkfs_args);

	cr_assert(got && !strcmp(got, want), "mke2fs %s: %s, not %s", mkfs_args, got ? got : "none",
		  want);
}

Test(ext2_probe, each_type_by_the_features_it_needs)
{
	expect_type("-t ext2", "ext2");
	expect_type("-t ext3", "ext3");
	expect_type("-t ext4", "ext4");
	expect_type("-t ext4 -O ^has_journal", "ext4");
	expect_type("-t ext2 -O extent", "ext4");
	expect_type("-t ext3 -O dir_nlink", "ext4");
	expect_type("-t ext2 -O has_journal", "ext3");
	expect_type("-t ext2 -b 1024 -O ^resize_inode", "ext2");
}

Test(ext2_probe, an_external_journal_and_garbage_are_none)
{
	static u8 zeros[EXT2_SB_PROBE_BYTES];

	cr_assert_null(probe_image("-O journal_dev -b 4096"));
	cr_assert_null(ext2_probe_fstype(zeros));
}

Test(ext2_probe, the_vfs_names_the_type_to_mount)
{
	const char *type;
	int err = 0;

	cr_assert_not_null(probe_image("-t ext3"));
	ext2t_attach();
	type = blkdev_probe_fstype("vda", &err);
	cr_assert(type && !strcmp(type, "ext4"), "an ext3 image mounts as ext4, not %s",
		  type ? type : "none");
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, type, 0, NULL), 0);
	ext2t_umount();
	cr_assert_null(blkdev_probe_fstype("vdz", &err));
	cr_assert_eq(err, -ENOENT, "no such disk: %d", err);
}

Test(ext2_probe, a_disk_without_a_filesystem_is_einval)
{
	int err = 0;

	cr_assert_eq(ext2t_sh("head -c 8388608 /dev/zero > %s", ext2t_env.img), 0);
	ext2t_attach();
	cr_assert_null(blkdev_probe_fstype("vda", &err));
	cr_assert_eq(err, -EINVAL);
}
