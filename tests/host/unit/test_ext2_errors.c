/*
 * Errors leave a mark: a failed metadata write sets the error state and count in the
 * superblock (so a plain e2fsck looks), syncfs and umount report it once, and errors=
 * chooses what happens next. The disk fails on request (filedisk_set_failing).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include "host.h"
#include "test_ext2.h"

static void setup(void)
{
	ext2t_boot(64);
	ext2t_mkfs("-b 1024", 4 << 10);
	ext2t_attach();
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext2_errors, .init = setup, .fini = teardown);

static unsigned long dumpe2fs_value(const char *key)
{
	unsigned long long v;

	ext2t_sh_number(&v, "dumpe2fs -h %s 2>/dev/null | sed -n 's/^%s: *\\([0-9]*\\).*/\\1/p'",
			ext2t_env.img, key);
	return (unsigned long)v;
}

static bool state_says_errors(void)
{
	return ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q '^Filesystem state: *clean with "
			"errors'",
			ext2t_env.img) == 0;
}

/* A new file's inode and directory entry, written while the disk fails. */
static void dirty_metadata_on_failing_disk(const char *name)
{
	char path[64];

	/* bitmaps, directory and the next inode table block in the cache: nothing left to read */
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/%s.warm%d", name, i);
		cr_assert_eq(ext2t_write(path, O_CREAT, 0, "w", 1), 0);
	}
	snprintf(path, sizeof(path), EXT2T_MNT "/%s", name);
	filedisk_set_failing(ext2t_env.disk, true);
	int err = ext2t_write(path, O_CREAT, 0, "x", 1);
	cr_assert_eq(err, 0, "create on the failing disk: %d\n%s", err, host_log());
}

Test(ext2_errors, failed_metadata_write_is_recorded_and_reported_once)
{
	cr_assert_eq(ext2t_mount(), 0);
	dirty_metadata_on_failing_disk("f");
	cr_expect_eq(vfs_syncfs(EXT2T_MNT), -EIO, "syncfs did not report the failed writes");
	filedisk_set_failing(ext2t_env.disk, false);
	cr_expect(host_log_contains("IO error writing metadata to the device"), "%s", host_log());
	cr_expect_eq(vfs_syncfs(EXT2T_MNT), 0, "the error was reported twice\n%s", host_log());
	cr_assert_eq(do_umount(EXT2T_MNT, 0), 0, "umount reported an error syncfs had reported");
	cr_expect(state_says_errors(), "the superblock says clean: a plain e2fsck would skip it");
	cr_expect_geq(dumpe2fs_value("FS Error count"), 1);
	cr_expect_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q '^Last error function: "
			      "*ext2_sync_fs'",
			      ext2t_env.img),
		     0, "no last error function on disk");
}

Test(ext2_errors, umount_reports_an_error_nobody_was_told_of)
{
	cr_assert_eq(ext2t_mount(), 0);
	dirty_metadata_on_failing_disk("g");
	ksys_sync(); /* sync(2) reports nothing */
	filedisk_set_failing(ext2t_env.disk, false);
	cr_expect_eq(do_umount(EXT2T_MNT, 0), -EIO);
	cr_expect(state_says_errors());
	/* unmounted all the same */
	cr_assert_eq(ext2t_mount(), 0);
	ext2t_umount();
}

Test(ext2_errors, errors_option_parsing)
{
	cr_expect_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", 0, "errors=sometimes"), -EINVAL);
	cr_expect(host_log_contains("unrecognized mount option \"errors=sometimes\""), "%s",
		  host_log());
	cr_expect_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", 0, "nosuch"), -EINVAL);
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", 0, "errors=continue"), 0);
	ext2t_umount();
	cr_expect(!state_says_errors(), "a refused mount left a mark");
}

/* errors=remount-ro: after the first error, writes fail with EROFS; continue: they go on. */
static int write_after_error(const char *opts)
{
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext2", 0, (void *)opts), 0);
	dirty_metadata_on_failing_disk("h");
	cr_expect_eq(vfs_syncfs(EXT2T_MNT), -EIO);
	filedisk_set_failing(ext2t_env.disk, false);
	int err = ext2t_write(EXT2T_MNT "/after", O_CREAT, 0, "y", 1);
	do_umount(EXT2T_MNT, 0);
	return err;
}

Test(ext2_errors, remount_ro_after_error)
{
	cr_expect_eq(write_after_error("errors=remount-ro"), -EROFS);
	cr_expect(host_log_contains("remounting filesystem read-only"), "%s", host_log());
}

Test(ext2_errors, continue_after_error)
{
	cr_expect_eq(write_after_error("errors=continue"), 0);
}

/* The superblock's default is taken without an option; "panic" from a disk only goes read-only. */
Test(ext2_errors, superblock_panic_default_degrades_to_read_only)
{
	cr_assert_eq(ext2t_sh("tune2fs -e panic %s > /dev/null 2>&1", ext2t_env.img), 0);
	cr_expect_eq(write_after_error(NULL), -EROFS);
}
