/*
 * The disk filesystem harnesses' shared part (fuzz_fs.h): the storage stack on the host
 * platform over a disk in memory, brought up once for the whole run; an input copied onto
 * the disk; the walk of a mounted image and a round of changes.
 *
 * Speed matters (the goal is 10^6 inputs): nothing per input is done that the input does
 * not need, and the sizes are small (a few KiB written, one fsync).
 */
#include <cgwb/fs.h>
#include <cgwb/buffer_head.h>
#include <cgwb/pagemap.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/vmscan.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "host.h"
#include "filedisk.h"
#include "fuzz_dir.h"
#include "fuzz_fs.h"

#define MAX_DEPTH 12
#define MAX_ENTRIES 64         /* per directory walked */
#define READ_BYTES (64u << 10) /* from the start and from the end of each file */

static u8 *disk_mem;
static size_t disk_size;
static struct block_device *disk_bdev;
static char *read_buf;
static char victim[PATH_MAX]; /* the first regular file the walk met */

void fuzz_fs_boot(size_t disk_bytes)
{
	struct gendisk *disk;

	host_platform_init(64 << 20);
	storage_init();
	vfs_init();
	disk_size = disk_bytes;
	disk_mem = kzalloc(disk_size, GFP_KERNEL);
	read_buf = kmalloc(READ_BYTES, GFP_KERNEL);
	BUG_ON(!disk_mem || !read_buf);
	disk = filedisk_add_mem("vda", disk_mem, disk_size, false, NULL);
	BUG_ON(!disk);
	disk_bdev = disk->part0;
}

void fuzz_fs_load_image(const u8 *data, size_t size)
{
	invalidate_bdev(disk_bdev);
	if (bdev_mapping(disk_bdev)->nrpages)
		panic("fuzz: %lu pages of the disk still cached after umount",
		      bdev_mapping(disk_bdev)->nrpages);
	memcpy(disk_mem, data, size);
	memset(disk_mem + size, 0, disk_size - size);
	victim[0] = 0;
}

static void read_file(const char *path, loff_t size)
{
	struct file *f = filp_open(path, O_RDONLY, 0);

	if (IS_ERR(f))
		return;
	file_read(f, read_buf, READ_BYTES);
	if (size > (loff_t)READ_BYTES) {
		f->f_pos = size - (loff_t)READ_BYTES;
		file_read(f, read_buf, READ_BYTES);
	}
	fput(f);
}

static void walk_dir(const char *dir, int depth);

static void visit(const char *path, int depth)
{
	struct kstat st;
	char target[PATH_MAX];

	if (vfs_lstat(path, &st))
		return;
	if (S_ISDIR(st.mode))
		walk_dir(path, depth + 1);
	else if (S_ISREG(st.mode))
		read_file(path, st.size);
	if (S_ISREG(st.mode) && !victim[0])
		strlcpy(victim, path, sizeof(victim));
	else if (S_ISLNK(st.mode))
		do_readlink(path, target, sizeof(target));
}

static void walk_dir(const char *dir, int depth)
{
	struct fuzz_dir *w;

	if (depth > MAX_DEPTH)
		return;
	w = fuzz_dir_read(dir);
	if (!w)
		return;
	for (int i = 0; i < w->n && i < MAX_ENTRIES; i++) {
		size_t len = strlen(dir) + 1 + strlen(w->names[i]) + 1;
		char *path = kmalloc(len, GFP_KERNEL);

		if (!path)
			break;
		snprintf(path, len, "%s/%s", dir, w->names[i]);
		visit(path, depth);
		kfree(path);
	}
	kfree(w);
}

void fuzz_fs_walk(void)
{
	walk_dir("/mnt", 0);
}

static void write_file(const char *path, loff_t pos, size_t len, bool fsync)
{
	struct file *f = filp_open(path, O_WRONLY | O_CREAT, 0644);

	if (IS_ERR(f))
		return;
	memset(read_buf, 0x5a, min(len, (size_t)READ_BYTES));
	f->f_pos = pos;
	file_write_all(f, read_buf, min(len, (size_t)READ_BYTES));
	if (fsync)
		vfs_fsync(f, 0);
	fput(f);
}

/*
 * A round of changes on a read-write mount; every step may fail. The sizes are the least
 * that reach each kind of block: 14 KiB needs an indirect block with 1 KiB blocks, offset
 * 300000 a double indirect one. umount writes the rest: one fsync covers that path.
 */
void fuzz_fs_change_things(void)
{
	struct kstatfs st;
	struct path root;

	if (!kern_path("/mnt", 0, &root)) {
		vfs_statfs(&root, &st);
		path_put(&root);
	}
	do_mkdir("/mnt/fz", 0755);
	write_file("/mnt/fz/a", 0, 14000, true);
	write_file("/mnt/fz/a", 300000, 3000, false);
	do_truncate("/mnt/fz/a", 7000);
	do_rename("/mnt/fz/a", "/mnt/fz/b");
	do_symlink("b", "/mnt/fz/l");
	do_link("/mnt/fz/b", "/mnt/fz/c");
	do_mkdir("/mnt/fz/d", 0755);
	if (victim[0]) {
		write_file(victim, 4096, 3000, false);
		do_unlink(victim);
	}
	do_unlink("/mnt/fz/b");
	do_unlink("/mnt/fz/c");
	do_unlink("/mnt/fz/l");
	do_rmdir("/mnt/fz/d");
	do_rmdir("/mnt/fz");
}

int fuzz_fs_one_input(const u8 *data, size_t size, const char *type)
{
	if (size > disk_size)
		return -1; /* not an image of this disk: kept out of the corpus */
	fuzz_fs_load_image(data, size);
	if (do_mount("/dev/vda", "/mnt", type, SB_RDONLY, NULL))
		return 0;
	fuzz_fs_walk();
	BUG_ON(do_umount("/mnt", 0));
	if (!do_mount("/dev/vda", "/mnt", type, 0, NULL)) {
		fuzz_fs_change_things();
		/*
		 * Unmounted whatever it returns; -EIO and -ENOSPC are writeback errors umount
		 * reports, as a corrupt image can make delayed allocation fail at writeback
		 * (ext4: free counts that promise blocks the bitmaps do not have end in -ENOSPC,
		 * as Linux's mpage_map_and_submit_extent() records it).
		 */
		int err = do_umount("/mnt", 0);

		BUG_ON(err && err != -EIO && err != -ENOSPC);
	}
	return 0;
}
