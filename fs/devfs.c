/*
 * /dev, devtmpfs-style: a tmpfs-like mount in which the kernel creates a node for each
 * registered character device (with its device number, so open finds it through
 * def_chr_fops) and for each disk (S_IFBLK, opened through def_blk_fops: buffered through
 * the block device's page cache, O_DIRECT to the raw path). Users may add or remove nodes
 * like in any directory.
 */
#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include "vfs.h"

static bool devfs_up;

static void devfs_mknod(const char *name, umode_t mode, dev_t dev)
{
	char path[64];
	int err;

	if (!devfs_up)
		return;
	snprintf(path, sizeof(path), "/dev/%s", name);
	err = do_mknod(path, mode, dev);
	if (err && err != -EEXIST)
		pr_warn("devfs: cannot create %s: %s\n", path, errstr(err));
}

void devfs_add_chrdev(const struct char_device *dev)
{
	/* the mode is set after the umask, as udev rules would */
	umode_t perm = !strcmp(dev->name, "console") ? 0600 : 0666;

	devfs_mknod(dev->name, S_IFCHR | perm, chrdev_devt(dev));
	if (devfs_up) {
		struct path path;
		char name[64];

		snprintf(name, sizeof(name), "/dev/%s", dev->name);
		if (!kern_path(name, 0, &path)) {
			struct inode *inode = path.dentry->d_inode;
			inode->i_mode = (inode->i_mode & S_IFMT) | perm;
			path_put(&path);
		}
	}
}

void devfs_add_disk(struct gendisk *disk)
{
	devfs_mknod(disk->disk_name, S_IFBLK | 0660, disk->part0->bd_dev);
}

static void add_chrdev_cb(const struct char_device *dev, void *arg)
{
	(void)arg;
	devfs_add_chrdev(dev);
}

static void add_disk_cb(struct gendisk *disk, void *arg)
{
	(void)arg;
	devfs_add_disk(disk);
}

/* /dev is mounted: create the nodes of everything registered so far. */
void devfs_init(void)
{
	devfs_up = true;
	for_each_chrdev(add_chrdev_cb, NULL);
	for_each_disk(add_disk_cb, NULL);
}
