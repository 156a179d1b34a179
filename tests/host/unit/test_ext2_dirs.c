/*
 * ext2 directories, links and special files: directories of many blocks with entries
 * added and removed (rec_len slack reused), link counts of directories and files, fast
 * and slow symlinks, device nodes and fifos, and an htree directory built by e2fsck that
 * is read as linear and loses its index flag once changed.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
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

TestSuite(ext2_dirs, .init = setup, .fini = teardown);

static void entry_name(char *buf, size_t size, const char *dir, int i)
{
	int len = 1 + (i * 7) % 60;

	snprintf(buf, size, "%s/%04d-", dir, i);
	for (int k = 0; k < len; k++)
		strncat(buf, "abcdefghijklmnopqrstuvwxyz" + (i + k) % 26, 1);
}

static unsigned int nlink_of(const char *path)
{
	struct kstat st;

	cr_assert_eq(vfs_lstat(path, &st), 0, "stat %s", path);
	return st.nlink;
}

static void create_empty(const char *path)
{
	cr_assert_eq(ext2t_write(path, 0, 0, "", 0), 0, "create %s", path);
}

Test(ext2_dirs, many_entries)
{
	enum { N = 700 };
	char path[160];
	u64 blocks0, inodes0, bfree, ffree;

	ext2t_mkfs("-b 1024", 16 << 10);
	ext2t_disk_free(&blocks0, &inodes0);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d", 0755), 0);
	for (int i = 0; i < N; i++) {
		entry_name(path, sizeof(path), EXT2T_MNT "/d", i);
		create_empty(path);
	}
	cr_assert_gt(ext2t_size(EXT2T_MNT "/d"), 20 << 10, "the directory spans many blocks");
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/d"), N + 2);
	for (int i = 0; i < N; i += 2) {
		entry_name(path, sizeof(path), EXT2T_MNT "/d", i);
		cr_assert_eq(do_unlink(path), 0, "%s", path);
	}
	loff_t dir_size = ext2t_size(EXT2T_MNT "/d");
	for (int i = 0; i < N; i += 2) { /* the same names again: they fit in the holes left */
		entry_name(path, sizeof(path), EXT2T_MNT "/d", i);
		create_empty(path);
	}
	cr_expect_eq(ext2t_size(EXT2T_MNT "/d"), dir_size);
	entry_name(path, sizeof(path), EXT2T_MNT "/d", 1);
	cr_assert_eq(ext2t_write(path, O_EXCL, 0, "", 0), -EEXIST);
	cr_assert_eq(do_rmdir(EXT2T_MNT "/d"), -ENOTEMPTY);
	for (int i = 0; i < N; i++) {
		entry_name(path, sizeof(path), EXT2T_MNT "/d", i);
		cr_assert_geq(ext2t_size(path), 0, "%s", path);
	}
	ext2t_umount();
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_mount(), 0);
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/d"), N + 2);
	for (int i = 0; i < N; i++) {
		entry_name(path, sizeof(path), EXT2T_MNT "/d", i);
		cr_assert_eq(do_unlink(path), 0, "%s", path);
	}
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/d"), 2);
	cr_assert_eq(do_rmdir(EXT2T_MNT "/d"), 0);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	ext2t_umount();
	ext2t_fsck_clean();
}

Test(ext2_dirs, link_counts)
{
	ext2t_mkfs("", 8 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	unsigned int root = nlink_of(EXT2T_MNT);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/a", 0755), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/a/b", 0755), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/a/c", 0755), 0);
	cr_expect_eq(nlink_of(EXT2T_MNT), root + 1);
	cr_expect_eq(nlink_of(EXT2T_MNT "/a"), 4);
	cr_expect_eq(nlink_of(EXT2T_MNT "/a/b"), 2);
	cr_assert_eq(do_rmdir(EXT2T_MNT "/a/b"), 0);
	cr_expect_eq(nlink_of(EXT2T_MNT "/a"), 3);
	cr_assert_eq(do_rename(EXT2T_MNT "/a/c", EXT2T_MNT "/c"), 0);
	cr_expect_eq(nlink_of(EXT2T_MNT "/a"), 2);
	cr_expect_eq(nlink_of(EXT2T_MNT), root + 2);
	create_empty(EXT2T_MNT "/a/f");
	cr_assert_eq(do_link(EXT2T_MNT "/a/f", EXT2T_MNT "/c/g"), 0);
	cr_expect_eq(nlink_of(EXT2T_MNT "/a/f"), 2);
	cr_assert_eq(do_link(EXT2T_MNT "/a", EXT2T_MNT "/c/h"), -EPERM);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_mount(), 0);
	cr_expect_eq(nlink_of(EXT2T_MNT "/c/g"), 2);
	cr_assert_eq(do_unlink(EXT2T_MNT "/a/f"), 0);
	cr_expect_eq(nlink_of(EXT2T_MNT "/c/g"), 1);
	ext2t_umount();
	ext2t_fsck_clean();
}

static void expect_link(const char *path, const char *target)
{
	char buf[1100];
	int n = do_readlink(path, buf, sizeof(buf));

	cr_assert_eq(n, (int)strlen(target), "readlink %s: %d", path, n);
	cr_expect_str_eq(buf, target);
}

Test(ext2_dirs, symlinks_and_nodes)
{
	char slow[1001], data[100];
	u64 blocks0, inodes0, bfree, ffree;
	ssize_t got;

	memset(slow, 'x', sizeof(slow) - 1);
	slow[sizeof(slow) - 1] = 0;
	memcpy(slow, "/mnt/", 5);
	ext2t_mkfs("-b 1024", 8 << 10);
	ext2t_disk_free(&blocks0, &inodes0);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/target", 5, 0, 100), 0);
	cr_assert_eq(do_symlink("target", EXT2T_MNT "/fast"), 0);
	cr_assert_eq(do_symlink("0123456789012345678901234567890123456789012345678901234567/x",
				EXT2T_MNT "/sixty"),
		     0);
	cr_assert_eq(do_symlink(slow, EXT2T_MNT "/slow"), 0);
	cr_assert_eq(do_mknod(EXT2T_MNT "/fifo", S_IFIFO | 0644, 0), 0);
	cr_assert_eq(do_mknod(EXT2T_MNT "/null", S_IFCHR | 0666, MKDEV(1, 3)), 0);
	cr_assert_eq(do_mknod(EXT2T_MNT "/big", S_IFBLK | 0600, MKDEV(300, 70000)), 0);
	expect_link(EXT2T_MNT "/fast", "target");
	expect_link(EXT2T_MNT "/slow", slow);
	cr_assert_eq(ext2t_read(EXT2T_MNT "/fast", 0, data, sizeof(data), &got), 0);
	cr_assert_eq(got, 100);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_sh("debugfs -R 'stat /fast' %s 2>/dev/null | grep -q 'Fast link dest: "
			      "\"target\"'",
			      ext2t_env.img),
		     0);
	cr_assert_eq(ext2t_sh("debugfs -R 'stat /big' %s 2>/dev/null | grep -q 'Device major/minor "
			      "number: 300:70000'",
			      ext2t_env.img),
		     0);
	cr_assert_eq(ext2t_mount(), 0);
	expect_link(EXT2T_MNT "/fast", "target");
	expect_link(EXT2T_MNT "/sixty", "0123456789012345678901234567890123456789012345678901234567"
					"/x");
	expect_link(EXT2T_MNT "/slow", slow);
	struct kstat st;
	cr_assert_eq(vfs_lstat(EXT2T_MNT "/null", &st), 0);
	cr_expect_eq(st.rdev, MKDEV(1, 3));
	cr_assert_eq(vfs_lstat(EXT2T_MNT "/big", &st), 0);
	cr_expect_eq(st.rdev, MKDEV(300, 70000));
	const char *names[] = { "/fast", "/sixty", "/slow", "/fifo", "/null", "/big", "/target" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char p[32];
		snprintf(p, sizeof(p), EXT2T_MNT "%s", names[i]);
		cr_assert_eq(do_unlink(p), 0, "%s", p);
	}
	ext2t_statfs(&bfree, &ffree);
	cr_expect_eq(bfree, blocks0);
	cr_expect_eq(ffree, inodes0);
	ext2t_umount();
	ext2t_fsck_clean();
}

static bool has_index_flag(const char *path)
{
	return ext2t_sh("debugfs -R 'stat %s' %s 2>/dev/null | grep -q 'Flags: 0x1000'", path,
			ext2t_env.img) == 0;
}

Test(ext2_dirs, htree_read_as_linear)
{
	enum { N = 3000 };
	char path[160];

	cr_assert_eq(ext2t_sh("mkdir -p %s/src/big && cd %s/src/big && seq -f "
			      "'name-%%.0f-with-some-length' 1 %d | xargs touch",
			      ext2t_env.dir, ext2t_env.dir, N),
		     0);
	cr_assert_eq(ext2t_sh("mke2fs -q -F -t ext2 -b 1024 -d %s/src %s 16384k > /dev/null 2>&1 "
			      "&& e2fsck -fyD %s > /dev/null 2>&1; true",
			      ext2t_env.dir, ext2t_env.img, ext2t_env.img),
		     0);
	cr_assert(has_index_flag("/big"), "e2fsck -D made no htree");
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/big"), N + 2);
	for (int i = 1; i <= N; i += 97) {
		snprintf(path, sizeof(path), EXT2T_MNT "/big/name-%d-with-some-length", i);
		cr_assert_eq(ext2t_size(path), 0, "%s", path);
	}
	ext2t_umount();
	cr_assert(has_index_flag("/big"), "reading must not touch the index");
	ext2t_fsck_clean();
	cr_assert_eq(ext2t_mount(), 0);
	create_empty(EXT2T_MNT "/big/new-file");
	cr_assert_eq(do_unlink(EXT2T_MNT "/big/name-5-with-some-length"), 0);
	ext2t_umount();
	cr_assert(!has_index_flag("/big"), "a changed directory keeps a stale index");
	ext2t_fsck_clean();
	cr_assert_eq(
		ext2t_sh("debugfs -R 'ls /big' %s 2>/dev/null | grep -q new-file", ext2t_env.img), 0);
}
