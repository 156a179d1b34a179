/* Directory operations and opening: POSIX semantics and error codes on ramfs/tmpfs. */
#include "vfs_test.h"
#include <cgwb/string.h>

TestSuite(vfs_ops, .init = vfs_test_setup, .fini = vfs_test_teardown);

Test(vfs_ops, create_and_remove_errors)
{
	cr_assert_eq(do_mkdir("/tmp/d", 0755), 0);
	cr_assert_eq(do_mkdir("/tmp/d", 0755), -EEXIST);
	cr_assert_eq(do_mkdir("/tmp/x/y", 0755), -ENOENT);
	cr_assert_eq(vt_write("/tmp/d/f", "1", 0), 1);
	cr_assert_eq(do_unlink("/tmp/d"), -EISDIR);
	cr_assert_eq(do_rmdir("/tmp/d"), -ENOTEMPTY);
	cr_assert_eq(do_rmdir("/tmp/d/f"), -ENOTDIR);
	cr_assert_eq(do_unlink("/tmp/d/f/"), -ENOTDIR);
	cr_assert_eq(do_unlink("/tmp/d/nope"), -ENOENT);
	cr_assert_eq(do_rmdir("/tmp/d/."), -EINVAL);
	cr_assert_eq(do_link("/tmp/d", "/tmp/dlink"), -EPERM);
	cr_assert_eq(do_unlink("/tmp/d/f"), 0);
	cr_assert_eq(do_rmdir("/tmp/d"), 0);
	cr_assert_eq(do_rmdir("/tmp/d"), -ENOENT);
	cr_assert_eq(do_rmdir("/tmp"), -EBUSY); /* a mountpoint */
}

Test(vfs_ops, open_flags)
{
	char buf[64];

	cr_assert_eq(vt_write("/tmp/f", "hello", 0), 5);
	cr_assert_eq(vt_open_err("/tmp/f", O_WRONLY | O_CREAT | O_EXCL), -EEXIST);
	cr_assert_eq(vt_open_err("/tmp", O_WRONLY), -EISDIR);
	cr_assert_eq(vt_open_err("/tmp/f", O_RDONLY | O_DIRECTORY), -ENOTDIR);
	cr_assert_eq(vt_open_err("/tmp/nope", O_RDONLY), -ENOENT);
	cr_assert_eq(vt_open_err("/tmp/new/", O_WRONLY | O_CREAT), -EISDIR);
	cr_assert_eq(vt_write("/tmp/f", " world", O_APPEND), 6);
	cr_assert_eq(vt_read("/tmp/f", buf, sizeof(buf)), 11);
	cr_assert_str_eq(buf, "hello world");
	cr_assert_eq(vt_write("/tmp/f", "bye", O_TRUNC), 3);
	cr_assert_eq(vt_read("/tmp/f", buf, sizeof(buf)), 3);
	cr_assert_str_eq(buf, "bye");
}

Test(vfs_ops, rename_semantics)
{
	char buf[64];

	cr_assert_eq(vt_write("/tmp/a", "A", 0), 1);
	cr_assert_eq(vt_write("/tmp/b", "B", 0), 1);
	cr_assert_eq(do_rename("/tmp/a", "/tmp/b"), 0); /* replaces b */
	cr_assert_eq(vt_read("/tmp/b", buf, sizeof(buf)), 1);
	cr_assert_str_eq(buf, "A");
	cr_assert_eq(vt_open_err("/tmp/a", O_RDONLY), -ENOENT);

	cr_assert_eq(do_mkdir("/tmp/d", 0755), 0);
	cr_assert_eq(do_mkdir("/tmp/d/sub", 0755), 0);
	cr_assert_eq(do_rename("/tmp/d", "/tmp/d/sub/inside"), -EINVAL);
	cr_assert_eq(do_rename("/tmp/b", "/tmp/d"), -EISDIR);
	cr_assert_eq(do_rename("/tmp/d", "/tmp/b"), -ENOTDIR);
	cr_assert_eq(do_mkdir("/tmp/e", 0755), 0);
	cr_assert_eq(vt_write("/tmp/e/x", "x", 0), 1);
	cr_assert_eq(do_rename("/tmp/d", "/tmp/e"), -ENOTEMPTY);
	cr_assert_eq(do_rename("/tmp/b", "/tmp/d/sub/b2"), 0);
	cr_assert_eq(vt_read("/tmp/d/sub/b2", buf, sizeof(buf)), 1);
	cr_assert_eq(do_rename("/tmp/d", "/tmp/renamed-with-a-name-longer-than-the-inline-buffer"),
		     0);
	cr_assert_eq(vt_read("/tmp/renamed-with-a-name-longer-than-the-inline-buffer/sub/b2", buf,
			     sizeof(buf)),
		     1);
	cr_assert_eq(do_rename("/tmp/e/x", "/x"), -EXDEV); /* tmpfs to rootfs */
	cr_assert_eq(do_rename("/tmp/nope", "/tmp/z"), -ENOENT);
}

Test(vfs_ops, hard_links_share_the_inode)
{
	struct kstat st;
	char buf[16];

	cr_assert_eq(vt_write("/tmp/one", "1", 0), 1);
	cr_assert_eq(do_link("/tmp/one", "/tmp/two"), 0);
	cr_assert_eq(vfs_stat("/tmp/two", &st), 0);
	cr_assert_eq(st.nlink, 2);
	cr_assert_eq(do_unlink("/tmp/one"), 0);
	cr_assert_eq(vt_read("/tmp/two", buf, sizeof(buf)), 1);
	cr_assert_eq(vfs_stat("/tmp/two", &st), 0);
	cr_assert_eq(st.nlink, 1);
}

Test(vfs_ops, truncate_and_stat)
{
	struct kstat st;
	char buf[64];

	cr_assert_eq(vt_write("/tmp/t", "0123456789", 0), 10);
	cr_assert_eq(do_truncate("/tmp/t", 4), 0);
	cr_assert_eq(vt_read("/tmp/t", buf, sizeof(buf)), 4);
	cr_assert_str_eq(buf, "0123");
	cr_assert_eq(do_truncate("/tmp/t", 8192), 0);
	cr_assert_eq(vfs_stat("/tmp/t", &st), 0);
	cr_assert_eq(st.size, 8192);
	cr_assert(S_ISREG(st.mode));
	cr_assert_eq(do_truncate("/tmp", 0), -EISDIR);
	cr_assert_eq(do_truncate("/tmp/t", -1), -EINVAL);
}

struct names {
	struct dir_context ctx;
	char all[256];
	int n;
};

static bool add(struct dir_context *ctx, const char *name, int len, loff_t off, u64 ino,
		unsigned int type)
{
	struct names *nm = container_of(ctx, struct names, ctx);

	strncat(nm->all, name, (size_t)len);
	strcat(nm->all, type == DT_DIR ? "/ " : " ");
	nm->n++;
	return true;
}

Test(vfs_ops, readdir_lists_live_names)
{
	struct names nm = { .ctx.actor = add };
	struct file *f;

	cr_assert_eq(do_mkdir("/tmp/r", 0755), 0);
	cr_assert_eq(vt_write("/tmp/r/f1", "", 0), 0);
	cr_assert_eq(do_mkdir("/tmp/r/sub", 0755), 0);
	cr_assert_eq(vt_write("/tmp/r/gone", "", 0), 0);
	cr_assert_eq(do_unlink("/tmp/r/gone"), 0);
	f = filp_open("/tmp/r", O_RDONLY | O_DIRECTORY, 0);
	cr_assert(!IS_ERR(f));
	cr_assert_eq(iterate_dir(f, &nm.ctx), 0);
	cr_assert_eq(nm.n, 4, "%s", nm.all);
	cr_assert(strstr(nm.all, "./ ../ "));
	cr_assert(strstr(nm.all, "f1 "));
	cr_assert(strstr(nm.all, "sub/ "));
	cr_assert(!strstr(nm.all, "gone"));
	/* at the end: nothing more */
	cr_assert_eq(iterate_dir(f, &nm.ctx), 0);
	cr_assert_eq(nm.n, 4);
	fput(f);
}

Test(vfs_ops, devices_in_dev)
{
	char buf[16];
	struct kstat st;

	cr_assert_eq(vfs_stat("/dev/null", &st), 0);
	cr_assert(S_ISCHR(st.mode));
	cr_assert_eq(st.rdev, MKDEV(1, 3));
	cr_assert_eq(vt_write("/dev/null", "gone", 0), 4);
	cr_assert_eq(vt_read("/dev/null", buf, sizeof(buf)), 0);
	cr_assert_eq(do_mknod("/tmp/mynull", S_IFCHR | 0666, MKDEV(1, 3)), 0);
	cr_assert_eq(vt_write("/tmp/mynull", "x", 0), 1);
	cr_assert_eq(do_mknod("/tmp/bad", S_IFCHR | 0666, MKDEV(99, 99)), 0);
	cr_assert_eq(vt_open_err("/tmp/bad", O_RDONLY), -ENXIO);
}
