/*
 * The standard namespace: a rootfs (ramfs) at "/", with devtmpfs on /dev, proc on /proc,
 * sysfs on /sys, debugfs on /sys/kernel/debug and tmpfs on /tmp; /mnt waits for a disk.
 */
#include <cgwb/fs.h>
#include <cgwb/vmscan.h>
#include <cgwb/vmstat.h>
#include <cgwb/writeback.h>
#include <cgwb/backing-dev.h>
#include <cgwb/pagemap.h>
#include <cgwb/blkdev.h>
#include <cgwb/printk.h>
#include <cgwb/trace/writeback.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/slab.h>
#include "vfs.h"
#include "sysfs/sysfs.h"

static bool vfs_ready;

static const struct {
	const char *dir;
	umode_t mode;
} root_dirs[] = {
	{ "/dev", 0755 }, { "/proc", 0555 }, { "/sys", 0555 }, { "/tmp", 01777 }, { "/mnt", 0755 },
};

static const struct {
	const char *type, *dir;
} std_mounts[] = {
	{ "devtmpfs", "/dev" }, { "proc", "/proc" },
	{ "sysfs", "/sys" },    { "debugfs", "/sys/kernel/debug" },
	{ "tmpfs", "/tmp" },
};

static void add_disk_files(struct gendisk *disk, void *arg)
{
	(void)arg;
	sysfs_add_disk(disk);
	sysfs_add_bdi(disk->bdi);
	debugfs_add_bdi(disk->bdi);
}

void vfs_add_disk(struct gendisk *disk)
{
	if (!vfs_ready)
		return; /* vfs_init() picks it up */
	devfs_add_disk(disk);
	add_disk_files(disk, NULL);
}

static void fix_mode(const char *name, umode_t mode)
{
	struct path path;

	if (!kern_path(name, 0, &path)) {
		struct inode *inode = path.dentry->d_inode;
		inode->i_mode = (inode->i_mode & S_IFMT) | mode;
		path_put(&path);
	}
}

/* The page cache, writeback and block-device layers, in the order they depend on each other. */
/* An exiting task's files and directory go (Linux's exit_files() and exit_fs()). */
static void fs_task_exit(struct task_struct *task)
{
	for (int fd = 0; fd < TASK_NR_FILES; fd++) {
		struct file *f = task->files[fd];

		task->files[fd] = NULL;
		fput(f);
	}
	exit_fs(task);
}

static const struct task_hooks fs_task_hooks = { .exit = fs_task_exit };

/* Reclaim: unused dentries pin inodes, unused inodes pin their pages; dentries go first. */
static unsigned long shrink_dcache(unsigned long nr)
{
	prune_dcache(nr);
	return 0; /* the pages come back with the inodes */
}

/* A disk appears: its bdi and block-device page cache, then its /dev and /sys entries. */
static int fs_disk_added(struct gendisk *disk)
{
	int err = bdev_attach_disk(disk);

	if (!err)
		vfs_add_disk(disk);
	return err;
}

static void fs_disk_io_done(struct gendisk *disk)
{
	if (unlikely(READ_ONCE(laptop_mode)) && disk->bdi)
		laptop_io_completion(disk->bdi);
}

static const struct disk_hooks fs_disk_hooks = { .added = fs_disk_added, .io_done = fs_disk_io_done };

static const struct flusher_hooks fs_flusher_hooks = {
	.mark_inode_dirty = __mark_inode_dirty,
	.sb_mark_inode_writeback = sb_mark_inode_writeback,
	.sb_clear_inode_writeback = sb_clear_inode_writeback,
	.wb_workfn = wb_workfn,
	.wakeup_flusher_threads = wakeup_flusher_threads,
	.wakeup_flusher_threads_bdi = wakeup_flusher_threads_bdi,
	.cleanup_offline_cgwb = cleanup_offline_cgwb,
	.cgroup_writeback_by_id = cgroup_writeback_by_id,
};

static struct shrinker dcache_shrinker = { .scan = shrink_dcache };
static struct shrinker icache_shrinker = { .scan = prune_icache };

void storage_init(void)
{
	register_flusher_hooks(&fs_flusher_hooks);
	register_task_hooks(&fs_task_hooks);
	register_shrinker(&dcache_shrinker);
	register_shrinker(&icache_shrinker);
	trace_register_system(&writeback_trace_system);
	register_disk_hooks(&fs_disk_hooks);
	refresh_node_stat_thresholds(); /* the CPUs are up */
	filemap_init();
	buffer_init();
	backing_dev_init();
	page_writeback_init();
	dirtytime_writeback_init();
	vmscan_init();
	bdev_init();
}

void vfs_init(void)
{
	int err;

	init_ramfs_fs();
	proc_init();
	sysfs_init();
	err = mount_root("rootfs");
	if (err)
		panic("VFS: cannot mount the root filesystem: %d", err);
	for (size_t i = 0; i < ARRAY_SIZE(root_dirs); i++) {
		err = do_mkdir(root_dirs[i].dir, root_dirs[i].mode);
		if (err)
			panic("VFS: cannot create %s: %d", root_dirs[i].dir, err);
		fix_mode(root_dirs[i].dir, root_dirs[i].mode);
	}
	for (size_t i = 0; i < ARRAY_SIZE(std_mounts); i++) {
		err = do_mount(std_mounts[i].type, std_mounts[i].dir, std_mounts[i].type, 0, NULL);
		if (err)
			panic("VFS: cannot mount %s on %s: %d", std_mounts[i].type,
			      std_mounts[i].dir, err);
	}
	vfs_ready = true;
	devfs_init();
	for_each_disk(add_disk_files, NULL);
}

/*
 * The first disk's filesystem goes on /mnt at boot when it holds one of the ext family,
 * mounted as its superblock says (blkdev_probe_fstype(): an ext4 or ext3 image as ext4).
 * Probed quietly: a raw disk is normal.
 */
void mount_boot_disk(void)
{
	struct gendisk *disk = get_disk_by_name("vda");
	const char *type;
	int err;

	if (!disk || !(type = blkdev_probe_fstype("vda", &err)))
		return;
	err = do_mount("/dev/vda", "/mnt", type, disk->read_only ? SB_RDONLY : 0, NULL);
	if (err)
		pr_warn("VFS: cannot mount /dev/vda (%s) on /mnt: %s\n", type, errstr(err));
	else
		pr_info("VFS: mounted /dev/vda (%s) on /mnt\n", type);
}

static void unmount_one(struct vfsmount *mnt, void *arg)
{
	char(*dirs)[64] = arg;

	if (!mnt->mnt_sb->s_bdev)
		return;
	for (int i = 0; i < 8; i++) {
		if (!dirs[i][0]) {
			d_path(&(struct path){ .mnt = mnt, .dentry = mnt->mnt_root }, dirs[i], 64);
			return;
		}
	}
}

/*
 * Power-off: write everything back, then unmount the disk filesystems so they are marked
 * clean (a busy one stays mounted, already synced).
 */
void vfs_shutdown(void)
{
	char dirs[8][64] = { { 0 } };

	ksys_sync();
	for_each_mount(unmount_one, dirs);
	for (int i = 7; i >= 0; i--)
		if (dirs[i][0])
			do_umount(dirs[i], 0);
}
