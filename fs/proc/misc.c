/* /proc/diskstats, /proc/mounts, /proc/uptime, /proc/filesystems. */
#include <cgwb/pseudofs.h>
#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include <cgwb/sched.h>
#include <cgwb/jiffies.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "../vfs.h"
#include "proc.h"

static void diskstats_one(struct gendisk *disk, void *arg)
{
	char line[256];

	diskstats_format(disk, line, sizeof(line));
	seq_puts(arg, line);
}

static int diskstats_show(struct seq_buf *s, void *private)
{
	(void)private;
	for_each_disk(diskstats_one, s);
	return 0;
}

static void mounts_one(struct vfsmount *mnt, void *arg)
{
	struct seq_buf *s = arg;
	struct super_block *sb = mnt->mnt_sb;
	struct path mp = { .mnt = mnt, .dentry = mnt->mnt_root };
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	char opts[128];

	if (!buf || d_path(&mp, buf, PATH_MAX)) {
		kfree(buf);
		return;
	}
	seq_printf(s, "%s %s %s %s%s", mnt->mnt_devname, buf, mnt_fstype(mnt),
		   mnt_is_readonly(mnt) ? "ro" : "rw", sb->s_flags & SB_LAZYTIME ? ",lazytime" : "");
	if (sb->s_op && sb->s_op->show_options && !sb->s_op->show_options(sb, opts, sizeof(opts)) &&
	    opts[0])
		seq_printf(s, ",%s", opts);
	seq_puts(s, " 0 0\n");
	kfree(buf);
}

static int mounts_show(struct seq_buf *s, void *private)
{
	(void)private;
	for_each_mount(mounts_one, s);
	return 0;
}

static void add_idle_time(struct task_struct *t, void *arg)
{
	if (t->flags & PF_IDLE)
		*(u64 *)arg += t->sum_exec_ns;
}

static int uptime_show(struct seq_buf *s, void *private)
{
	u64 up = ktime_get_ns(), idle = 0;

	(void)private;
	for_each_task(add_idle_time, &idle)
		;
	seq_printf(s, "%llu.%02llu %llu.%02llu\n", up / NSEC_PER_SEC,
		   up % NSEC_PER_SEC / (NSEC_PER_SEC / 100), idle / NSEC_PER_SEC,
		   idle % NSEC_PER_SEC / (NSEC_PER_SEC / 100));
	return 0;
}

static void filesystems_one(struct file_system_type *fs, void *arg)
{
	if (!strcmp(fs->name, "bdev"))
		return;
	seq_printf(arg, "%s\t%s\n", fs->requires_dev ? "" : "nodev", fs->name);
}

static int filesystems_show(struct seq_buf *s, void *private)
{
	(void)private;
	for_each_fs_type(filesystems_one, s);
	return 0;
}

void proc_misc_init(struct pseudo_node *root)
{
	pseudo_create_file(root, "diskstats", 0444, diskstats_show, NULL, NULL);
	pseudo_create_file(root, "mounts", 0444, mounts_show, NULL, NULL);
	pseudo_create_file(root, "uptime", 0444, uptime_show, NULL, NULL);
	pseudo_create_file(root, "filesystems", 0444, filesystems_show, NULL, NULL);
}
