/*
 * libFuzzer harness: mount-and-walk of corrupt ext2 images.
 *
 * The whole storage stack runs on the host platform (as in the unit tests) over a disk in
 * memory, brought up once for the whole run. Each input is the start of an image (the rest
 * of the 256 KiB disk reads as zeros: mke2fs leaves the end of a small image empty, so a
 * seed is a few dozen KiB). It is copied onto the disk, whose block device keeps nothing
 * cached between inputs (umount drops the cache; the harness checks), mounted read-only,
 * and every directory is walked: readdir, stat of each entry, a read of every file (its
 * start, and its end past any hole), readlink of every symlink. Then umount. Then the
 * image is mounted read-write for a short round of changes (create, write, truncate,
 * rename, link, delete, including the first file the walk found) so that allocation and
 * freeing meet the corruption too. Whatever the image holds, nothing may crash, hang or
 * trip a sanitizer; errors are fine.
 *
 * Speed matters (the goal is 10^6 inputs): nothing per input is done that the input does
 * not need, and the sizes are small (a few KiB written, one fsync).
 */
#include <stdint.h>
#include <stddef.h>
#include <cgwb/fs.h>
#include <cgwb/ext2.h>
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

#define DISK_BYTES (256u << 10) /* longer inputs are refused, shorter zero-padded */
#define MAX_DEPTH 12
#define MAX_ENTRIES 64         /* per directory walked */
#define READ_BYTES (64u << 10) /* from the start and from the end of each file */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static u8 *disk_mem;
static struct block_device *disk_bdev;
static char *read_buf;
static char victim[PATH_MAX]; /* the first regular file the walk met */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct gendisk *disk;

	(void)argc;
	(void)argv;
	host_platform_init(64 << 20);
	storage_init();
	vfs_init();
	BUG_ON(ext2_init());
	disk_mem = kzalloc(DISK_BYTES, GFP_KERNEL);
	read_buf = kmalloc(READ_BYTES, GFP_KERNEL);
	BUG_ON(!disk_mem || !read_buf);
	disk = filedisk_add_mem("vda", disk_mem, DISK_BYTES, false, NULL);
	BUG_ON(!disk);
	disk_bdev = disk->part0;
	return 0;
}

/*
 * Put the image straight into the disk's memory. The block device must hold nothing from
 * the previous input (umount and a failed mount leave nothing cached), or the image would
 * not be what the mount reads: a page left behind is a finding.
 */
static void load_image(const uint8_t *data, size_t size)
{
	invalidate_bdev(disk_bdev);
	if (bdev_mapping(disk_bdev)->nrpages)
		panic("ext2-fuzz: %lu pages of the disk still cached after umount",
		      bdev_mapping(disk_bdev)->nrpages);
	memcpy(disk_mem, data, size);
	memset(disk_mem + size, 0, DISK_BYTES - size);
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

static void walk(const char *dir, int depth);

static void visit(const char *path, int depth)
{
	struct kstat st;
	char target[PATH_MAX];

	if (vfs_lstat(path, &st))
		return;
	if (S_ISDIR(st.mode))
		walk(path, depth + 1);
	else if (S_ISREG(st.mode))
		read_file(path, st.size);
	if (S_ISREG(st.mode) && !victim[0])
		strlcpy(victim, path, sizeof(victim));
	else if (S_ISLNK(st.mode))
		do_readlink(path, target, sizeof(target));
}

static void walk(const char *dir, int depth)
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
static void change_things(void)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > DISK_BYTES)
		return -1; /* not an image of this disk: kept out of the corpus */
	load_image(data, size);
	victim[0] = 0;
	if (do_mount("/dev/vda", "/mnt", "ext2", SB_RDONLY, NULL))
		return 0;
	walk("/mnt", 0);
	BUG_ON(do_umount("/mnt", 0));
	if (!do_mount("/dev/vda", "/mnt", "ext2", 0, NULL)) {
		change_things();
		BUG_ON(do_umount("/mnt", 0));
	}
	return 0;
}
