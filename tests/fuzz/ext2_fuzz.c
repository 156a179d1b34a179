/*
 * libFuzzer harness: mount-and-walk of corrupt ext2 images.
 *
 * The whole storage stack runs on the host platform (as in the unit tests) over a disk in
 * memory. Each input is an image: it is written onto the disk through /dev/vda (so the
 * block device's cache, which outlives a mount, agrees with it), mounted read-only, and
 * every directory is walked: readdir, stat of each entry, a read of every file (its
 * start, and its end past any hole), readlink of every symlink. Then umount. Then the
 * image is mounted read-write for a short round of changes (create, write, truncate,
 * rename, link, delete, including the first file the walk found) so that allocation and
 * freeing meet the corruption too. Whatever the image holds, nothing may crash, hang or
 * trip a sanitizer; errors are fine.
 */
#include <stdint.h>
#include <stddef.h>
#include <cgwb/fs.h>
#include <cgwb/ext2.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/vmscan.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "host.h"
#include "filedisk.h"
#include "fuzz_dir.h"

#define DISK_BYTES (1u << 20)          /* inputs are cut (or zero-padded) to this */
#define CHUNK 4096
#define MAX_DEPTH 12
#define MAX_ENTRIES 64                 /* per directory walked */
#define READ_BYTES (64u << 10)         /* from the start and from the end of each file */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static u8 *disk_mem;
static u8 *shadow;                     /* what the disk holds now, to write only changes */
static char *read_buf;
static char victim[PATH_MAX];          /* the first regular file the walk met */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	host_platform_init(64 << 20);
	storage_init();
	vfs_init();
	BUG_ON(ext2_init());
	disk_mem = kzalloc(DISK_BYTES, GFP_KERNEL);
	shadow = kzalloc(DISK_BYTES, GFP_KERNEL);
	read_buf = kmalloc(READ_BYTES, GFP_KERNEL);
	BUG_ON(!disk_mem || !shadow || !read_buf);
	BUG_ON(!filedisk_add_mem("vda", disk_mem, DISK_BYTES, false, NULL));
	return 0;
}

/* Put the image on the disk through its page cache, a chunk where it changed. */
static void load_image(const uint8_t *data, size_t size)
{
	static u8 chunk[CHUNK];
	struct file *f = filp_open("/dev/vda", O_RDWR, 0);

	BUG_ON(IS_ERR(f));
	for (size_t off = 0; off < DISK_BYTES; off += CHUNK) {
		size_t n = off < size ? min((size_t)CHUNK, size - off) : 0;

		memset(chunk, 0, CHUNK);
		memcpy(chunk, data + off, n);
		if (!memcmp(chunk, shadow + off, CHUNK))
			continue;
		memcpy(shadow + off, chunk, CHUNK);
		f->f_pos = (loff_t)off;
		BUG_ON(file_write_all(f, chunk, CHUNK) != CHUNK);
	}
	vfs_fsync(f, 0);
	fput(f);
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

static void write_file(const char *path, loff_t pos, size_t len)
{
	struct file *f = filp_open(path, O_WRONLY | O_CREAT, 0644);

	if (IS_ERR(f))
		return;
	memset(read_buf, 0x5a, min(len, (size_t)READ_BYTES));
	f->f_pos = pos;
	file_write_all(f, read_buf, min(len, (size_t)READ_BYTES));
	vfs_fsync(f, 0);
	fput(f);
}

/* A round of changes on a read-write mount; every step may fail. */
static void change_things(void)
{
	struct kstatfs st;
	struct path root;

	if (!kern_path("/mnt", 0, &root)) {
		vfs_statfs(&root, &st);
		path_put(&root);
	}
	do_mkdir("/mnt/fz", 0755);
	write_file("/mnt/fz/a", 0, 30000);
	write_file("/mnt/fz/a", 300000, 5000);
	do_truncate("/mnt/fz/a", 7000);
	do_rename("/mnt/fz/a", "/mnt/fz/b");
	do_symlink("b", "/mnt/fz/l");
	do_link("/mnt/fz/b", "/mnt/fz/c");
	do_mkdir("/mnt/fz/d", 0755);
	if (victim[0]) {
		write_file(victim, 4096, 3000);
		do_unlink(victim);
	}
	do_unlink("/mnt/fz/b");
	do_unlink("/mnt/fz/c");
	do_unlink("/mnt/fz/l");
	do_rmdir("/mnt/fz/d");
	do_rmdir("/mnt/fz");
	ksys_sync();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
	/* what the changes (or a failed mount recording an error) left on the disk */
	memcpy(shadow, disk_mem, DISK_BYTES);
	return 0;
}
