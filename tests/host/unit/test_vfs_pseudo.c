/* The pseudo filesystem framework and the /proc and /sys files built on it. */
#include "vfs_test.h"
#include <cgwb/pseudofs.h>
#include <cgwb/string.h>

TestSuite(vfs_pseudo, .init = vfs_test_setup, .fini = vfs_test_teardown);

static int value = 5;
static int shows;

static int value_show(struct seq_buf *s, void *private)
{
	shows++;
	return seq_printf(s, "value %d\n", *(int *)private);
}

static int value_store(const char *buf, size_t len, void *private)
{
	int v;

	if (kstrtoint(buf, 10, &v))
		return -EINVAL;
	if (v < 0)
		return -ERANGE;
	*(int *)private = v;
	return 0;
}

static struct pseudo_node *mount_test_fs(void)
{
	struct pseudo_node *root = pseudo_fs_register("testfs", 0x1234);

	cr_assert(!IS_ERR(root));
	cr_assert_eq(do_mkdir("/mnt/p", 0755), 0);
	cr_assert_eq(do_mount("none", "/mnt/p", "testfs", 0, NULL), 0);
	return root;
}

Test(vfs_pseudo, show_snapshot_and_store_errors)
{
	struct pseudo_node *root = mount_test_fs();
	char buf[64];
	struct file *f;

	cr_assert(!IS_ERR(pseudo_create_file(root, "v", 0644, value_show, value_store, &value)));
	cr_assert_eq(vt_read("/mnt/p/v", buf, sizeof(buf)), 8);
	cr_assert_str_eq(buf, "value 5\n");
	/* an open file keeps the content it saw at open */
	f = filp_open("/mnt/p/v", O_RDONLY, 0);
	cr_assert(!IS_ERR(f));
	value = 6;
	cr_assert_eq(file_read(f, buf, 3), 3);
	cr_assert_eq(file_read(f, buf + 3, 60), 5);
	buf[8] = 0;
	cr_assert_str_eq(buf, "value 5\n");
	fput(f);
	cr_assert_eq(vt_write("/mnt/p/v", "42\n", O_TRUNC), 3);
	cr_assert_eq(value, 42);
	cr_assert_eq(vt_write("/mnt/p/v", "abc", O_TRUNC), -EINVAL);
	cr_assert_eq(vt_write("/mnt/p/v", "-1", O_TRUNC), -ERANGE);
	cr_assert_eq(value, 42);
	/* no such file, and no creating files in a pseudo directory */
	cr_assert_eq(vt_open_err("/mnt/p/nope", O_RDONLY), -ENOENT);
	cr_assert_eq(vt_open_err("/mnt/p/nope", O_WRONLY | O_CREAT), -EACCES);
}

Test(vfs_pseudo, access_follows_callbacks)
{
	struct pseudo_node *root = mount_test_fs();
	int before;

	pseudo_create_file(root, "ro", 0444, value_show, NULL, &value);
	pseudo_create_file(root, "wo", 0200, NULL, value_store, &value);
	cr_assert_eq(vt_open_err("/mnt/p/ro", O_WRONLY), -EACCES);
	cr_assert_eq(vt_open_err("/mnt/p/wo", O_RDONLY), -EACCES);
	before = shows;
	cr_assert_eq(vt_write("/mnt/p/wo", "3", 0), 1);
	cr_assert_eq(shows, before); /* opening to write does not show */
	cr_assert_eq(value, 3);
	cr_assert(IS_ERR(pseudo_create_file(root, "ro", 0444, value_show, NULL, &value)));
}

Test(vfs_pseudo, removed_nodes_disappear)
{
	struct pseudo_node *root = mount_test_fs(), *dir, *file;
	char buf[64];
	struct file *f;

	dir = pseudo_mkdir_p(root, "a/b");
	cr_assert(!IS_ERR(dir));
	file = pseudo_create_file(dir, "v", 0644, value_show, value_store, &value);
	cr_assert_eq(pseudo_lookup(root, "a/b/v"), file);
	f = filp_open("/mnt/p/a/b/v", O_RDWR, 0);
	cr_assert(!IS_ERR(f));
	pseudo_remove(pseudo_lookup(root, "a"));
	cr_assert_null(pseudo_lookup(root, "a"));
	cr_assert_eq(vt_open_err("/mnt/p/a/b/v", O_RDONLY), -ENOENT);
	cr_assert_eq(vt_open_err("/mnt/p/a", O_RDONLY), -ENOENT);
	/* the open file reads its snapshot, writes fail */
	cr_assert_gt(file_read(f, buf, sizeof(buf)), 0);
	cr_assert_eq(file_write(f, "1", 1), -ENODEV);
	fput(f);
}

static int made, refused;

static int grp_mkdir(struct pseudo_node *parent, const char *name, void *private)
{
	struct pseudo_node *d;

	if (!strcmp(name, "bad"))
		return -EINVAL;
	d = pseudo_mkdir(parent, name);
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	pseudo_create_file(d, "stat", 0444, value_show, NULL, private);
	made++;
	return 0;
}

static int grp_rmdir(struct pseudo_node *parent, struct pseudo_node *dir, void *private)
{
	if (!strcmp(pseudo_name(dir), "busy")) {
		refused++;
		return -EBUSY;
	}
	return 0;
}

static const struct pseudo_dir_ops grp_ops = { .mkdir = grp_mkdir, .rmdir = grp_rmdir };

Test(vfs_pseudo, mkdir_and_rmdir_hooks)
{
	struct pseudo_node *root = mount_test_fs();
	char buf[64];

	cr_assert(!IS_ERR(pseudo_mkdir_ops(root, "grp", &grp_ops, &value)));
	cr_assert_eq(do_mkdir("/mnt/p/grp/g1", 0755), 0);
	cr_assert_eq(made, 1);
	cr_assert_gt(vt_read("/mnt/p/grp/g1/stat", buf, sizeof(buf)), 0);
	cr_assert_eq(do_mkdir("/mnt/p/grp/bad", 0755), -EINVAL);
	cr_assert_eq(do_mkdir("/mnt/p/grp/g1", 0755), -EEXIST);
	cr_assert_eq(do_mkdir("/mnt/p/plain", 0755), -EPERM);
	cr_assert_eq(do_mkdir("/mnt/p/grp/busy", 0755), 0);
	cr_assert_eq(do_rmdir("/mnt/p/grp/busy"), -EBUSY);
	cr_assert_eq(refused, 1);
	cr_assert_eq(do_rmdir("/mnt/p/grp/g1"), 0);
	cr_assert_eq(vt_open_err("/mnt/p/grp/g1/stat", O_RDONLY), -ENOENT);
	cr_assert_null(pseudo_lookup(root, "grp/g1"));
	cr_assert_eq(do_unlink("/mnt/p/grp/busy/stat"), -EPERM);
}

/* As Linux's vfs_rmdir: the names cached below a removed directory go with it. */
Test(vfs_pseudo, rmdir_forgets_the_names_below)
{
	struct pseudo_node *root = mount_test_fs();
	unsigned long before;
	char buf[64];

	cr_assert(!IS_ERR(pseudo_mkdir_ops(root, "grp", &grp_ops, &value)));
	cr_assert_eq(vt_open_err("/mnt/p/grp", O_RDONLY), 0);
	before = nr_dentries_cached();
	cr_assert_eq(do_mkdir("/mnt/p/grp/g1", 0755), 0);
	cr_assert_gt(vt_read("/mnt/p/grp/g1/stat", buf, sizeof(buf)), 0);
	cr_assert_eq(nr_dentries_cached(), before + 2);
	cr_assert_eq(do_rmdir("/mnt/p/grp/g1"), 0);
	cr_assert_eq(nr_dentries_cached(), before);
}

Test(vfs_pseudo, proc_files)
{
	char *buf = malloc(8192);

	cr_assert_gt(vt_read("/proc/meminfo", buf, 8192), 0);
	cr_assert(strstr(buf, "MemTotal:"));
	cr_assert(strstr(buf, "Dirty:"));
	cr_assert(strstr(buf, "Writeback:"));
	cr_assert_gt(vt_read("/proc/vmstat", buf, 8192), 0);
	cr_assert(strstr(buf, "nr_dirty "));
	cr_assert(strstr(buf, "nr_written "));
	cr_assert_gt(vt_read("/proc/mounts", buf, 8192), 0);
	cr_assert(strstr(buf, "tmpfs /tmp tmpfs rw 0 0\n"));
	cr_assert_eq(vt_write("/proc/sys/vm/dirty_bytes", "1000000", O_TRUNC), 7);
	cr_assert_eq(vm_dirty_bytes, 1000000);
	cr_assert_eq(vm_dirty_ratio, 0);
	cr_assert_eq(vt_write("/proc/sys/vm/dirty_ratio", "30\n", O_TRUNC), 3);
	cr_assert_eq(vm_dirty_ratio, 30);
	cr_assert_eq(vm_dirty_bytes, 0);
	cr_assert_eq(vt_write("/proc/sys/vm/dirty_ratio", "101", O_TRUNC), -EINVAL);
	cr_assert_eq(vt_write("/proc/sys/vm/dirty_bytes", "100", O_TRUNC), -EINVAL);
	cr_assert_eq(vt_write("/proc/sys/vm/drop_caches", "3", O_TRUNC), 1);
	cr_assert_eq(vt_write("/proc/sys/vm/drop_caches", "0", O_TRUNC), -EINVAL);
	cr_assert_eq(vt_read("/proc/sys/vm/dirty_ratio", buf, 8192), 3);
	cr_assert_str_eq(buf, "30\n");
	cr_assert_eq(vt_open_err("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY), 0);
	free(buf);
}

Test(vfs_pseudo, seq_buf_grows)
{
	struct seq_buf s;

	seq_buf_init(&s);
	for (int i = 0; i < 1000; i++)
		seq_printf(&s, "line %d\n", i);
	cr_assert_eq(s.err, 0);
	cr_assert(strstr(s.buf, "line 999\n"));
	cr_assert_eq(s.len, strlen(s.buf));
	seq_buf_free(&s);
}

static int ticks_show(struct seq_buf *s, void *private)
{
	int *left = private;

	if (*left > 0)
		seq_printf(s, "tick %d\n", (*left)--);
	return 0;
}

/* A stream calls show() per read once the last output is consumed; empty output ends it. */
Test(vfs_pseudo, stream_shows_per_read)
{
	struct pseudo_node *root = mount_test_fs();
	static int left = 3;
	char buf[256];

	cr_assert(!IS_ERR(pseudo_create_stream(root, "ticks", 0444, ticks_show, &left)));
	cr_assert_eq(left, 3, "nothing runs at creation");
	cr_assert_eq(vt_read("/mnt/p/ticks", buf, sizeof(buf)), 21);
	cr_assert_str_eq(buf, "tick 3\ntick 2\ntick 1\n");
	cr_assert_eq(vt_open_err("/mnt/p/ticks", O_WRONLY), -EACCES);
	cr_assert(IS_ERR(pseudo_create_stream(root, "none", 0444, NULL, NULL)));
}
