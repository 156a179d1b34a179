/* Path walk: ".", "..", symlinks (loops: ELOOP), mount crossing, cwd, error codes. */
#include "vfs_test.h"
#include <cgwb/string.h>

TestSuite(vfs_walk, .init = vfs_test_setup, .fini = vfs_test_teardown);

static int path_of(const char *name, unsigned int flags, char *buf)
{
	struct path p;
	int err = kern_path(name, flags, &p);

	if (err)
		return err;
	err = d_path(&p, buf, PATH_MAX);
	path_put(&p);
	return err;
}

Test(vfs_walk, dots_and_slashes)
{
	char buf[PATH_MAX];

	cr_assert_eq(do_mkdir("/tmp/a", 0755), 0);
	cr_assert_eq(do_mkdir("/tmp/a/b", 0755), 0);
	cr_assert_eq(path_of("/tmp/a/./b/..//b/", 0, buf), 0);
	cr_assert_str_eq(buf, "/tmp/a/b");
	cr_assert_eq(path_of("/../../tmp/..", 0, buf), 0);
	cr_assert_str_eq(buf, "/");
	cr_assert_eq(path_of("/", 0, buf), 0);
	cr_assert_str_eq(buf, "/");
	cr_assert_eq(path_of("", 0, buf), -ENOENT);
	cr_assert_eq(path_of("/tmp/nope/x", 0, buf), -ENOENT);
}

Test(vfs_walk, file_in_the_middle_is_enotdir)
{
	char buf[PATH_MAX];

	cr_assert_eq(vt_write("/tmp/f", "x", O_TRUNC), 1);
	cr_assert_eq(path_of("/tmp/f/x", 0, buf), -ENOTDIR);
	cr_assert_eq(path_of("/tmp/f/", 0, buf), -ENOTDIR);
	cr_assert_eq(path_of("/tmp/f", LOOKUP_DIRECTORY, buf), -ENOTDIR);
}

Test(vfs_walk, name_too_long)
{
	char name[300], buf[PATH_MAX];
	char *longpath = calloc(1, PATH_MAX + 10);

	memset(name, 'a', 256);
	name[256] = 0;
	cr_assert_eq(do_mkdir(name, 0755), -ENAMETOOLONG);
	memset(longpath, '/', PATH_MAX + 5);
	cr_assert_eq(path_of(longpath, 0, buf), -ENAMETOOLONG);
	free(longpath);
}

Test(vfs_walk, symlinks_relative_absolute_and_loops)
{
	char buf[PATH_MAX];

	cr_assert_eq(do_mkdir("/tmp/d", 0755), 0);
	cr_assert_eq(vt_write("/tmp/d/file", "data", 0), 4);
	cr_assert_eq(do_symlink("d/file", "/tmp/rel"), 0);
	cr_assert_eq(do_symlink("/tmp/d", "/tmp/abs"), 0);
	cr_assert_eq(vt_read("/tmp/rel", buf, sizeof(buf)), 4);
	cr_assert_str_eq(buf, "data");
	cr_assert_eq(vt_read("/tmp/abs/file", buf, sizeof(buf)), 4);
	cr_assert_eq(path_of("/tmp/abs", 0, buf), 0);
	cr_assert_str_eq(buf, "/tmp/abs"); /* not followed without LOOKUP_FOLLOW */
	cr_assert_eq(path_of("/tmp/abs", LOOKUP_FOLLOW, buf), 0);
	cr_assert_str_eq(buf, "/tmp/d");
	cr_assert_eq(path_of("/tmp/abs/", 0, buf), 0); /* a trailing slash follows */
	cr_assert_str_eq(buf, "/tmp/d");
	cr_assert_eq(do_readlink("/tmp/rel", buf, sizeof(buf)), 6);
	cr_assert_str_eq(buf, "d/file");

	cr_assert_eq(do_symlink("loop2", "/tmp/loop1"), 0);
	cr_assert_eq(do_symlink("loop1", "/tmp/loop2"), 0);
	cr_assert_eq(path_of("/tmp/loop1", LOOKUP_FOLLOW, buf), -ELOOP);
	cr_assert_eq(vt_open_err("/tmp/loop1/x", O_RDONLY), -ELOOP);
	cr_assert_eq(do_symlink("nowhere", "/tmp/dangling"), 0);
	cr_assert_eq(path_of("/tmp/dangling", LOOKUP_FOLLOW, buf), -ENOENT);
	/* O_CREAT through a dangling link creates its target */
	cr_assert_eq(vt_write("/tmp/dangling", "new", 0), 3);
	cr_assert_eq(vt_read("/tmp/nowhere", buf, sizeof(buf)), 3);
}

Test(vfs_walk, symlink_chain_depth)
{
	char name[32], target[32], buf[PATH_MAX];

	cr_assert_eq(vt_write("/tmp/l0", "end", 0), 3);
	for (int i = 1; i <= 8; i++) {
		snprintf(name, sizeof(name), "/tmp/l%d", i);
		snprintf(target, sizeof(target), "l%d", i - 1);
		cr_assert_eq(do_symlink(target, name), 0);
	}
	cr_assert_eq(vt_read("/tmp/l8", buf, sizeof(buf)), 3);
	cr_assert_eq(do_symlink("l8", "/tmp/l9"), 0);
	cr_assert_eq(vt_read("/tmp/l9", buf, sizeof(buf)), -ELOOP);
}

Test(vfs_walk, mounts_are_crossed_both_ways)
{
	char buf[PATH_MAX];
	struct path p;

	cr_assert_eq(do_mkdir("/mnt/m", 0755), 0);
	cr_assert_eq(vt_write("/mnt/m/under", "hidden", 0), 6);
	cr_assert_eq(do_mount("none", "/mnt/m", "tmpfs", 0, NULL), 0);
	cr_assert_eq(vt_open_err("/mnt/m/under", O_RDONLY), -ENOENT);
	cr_assert_eq(vt_write("/mnt/m/over", "top", 0), 3);
	cr_assert_eq(kern_path("/mnt/m/over/..", 0, &p), -ENOTDIR);
	cr_assert_eq(kern_path("/mnt/m/..", 0, &p), 0);
	cr_assert_eq(d_path(&p, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "/mnt");
	cr_assert_str_eq(mnt_fstype(p.mnt), "rootfs");
	path_put(&p);
	cr_assert_eq(kern_path("/mnt/m", 0, &p), 0);
	cr_assert_str_eq(mnt_fstype(p.mnt), "tmpfs");
	path_put(&p);
	cr_assert_eq(do_umount("/mnt/m", 0), 0);
	cr_assert_eq(vt_read("/mnt/m/under", buf, sizeof(buf)), 6);
	cr_assert_eq(do_umount("/mnt/m", 0), -EINVAL);
}

Test(vfs_walk, relative_to_cwd)
{
	char buf[PATH_MAX];
	struct path p;

	cr_assert_eq(do_mkdir("/tmp/w", 0755), 0);
	cr_assert_eq(set_fs_pwd("/tmp/w"), 0);
	cr_assert_eq(vt_write("rel", "r", 0), 1);
	cr_assert_eq(vt_read("/tmp/w/rel", buf, sizeof(buf)), 1);
	get_fs_pwd(&p);
	cr_assert_eq(d_path(&p, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "/tmp/w");
	path_put(&p);
	cr_assert_eq(set_fs_pwd("rel"), -ENOTDIR);
	cr_assert_eq(set_fs_pwd(".."), 0);
	cr_assert_eq(vt_read("w/rel", buf, sizeof(buf)), 1);
	exit_fs(current);
}
