/*
 * Helpers of the ext2 host tests (no tests here): see test_ext2.h.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cgwb/fs.h>
#include <cgwb/ext2.h>
#include <cgwb/ext4.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/vmscan.h>
#include <cgwb/slab.h>
#include "host.h"
#include "test_ext2.h"

struct ext2t ext2t_env;

void ext2t_boot(size_t mem_mib)
{
	host_platform_init(mem_mib << 20);
	storage_init();
	vfs_init();
	cr_assert_eq(ext2_init(), 0);
	cr_assert_eq(ext4_init(), 0);
	strcpy(ext2t_env.dir, "/tmp/ext2t.XXXXXX");
	cr_assert_not_null(mkdtemp(ext2t_env.dir));
	snprintf(ext2t_env.img, sizeof(ext2t_env.img), "%s/disk.img", ext2t_env.dir);
}

void ext2t_shutdown(void)
{
	if (ext2t_env.dir[0] && !getenv("EXT2T_KEEP"))
		ext2t_sh("rm -rf %s", ext2t_env.dir);
	host_platform_exit();
}

int ext2t_sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

bool ext2t_sh_number(unsigned long long *v, const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	FILE *p;
	bool ok;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	cr_assert_not_null(p, "%s", cmd);
	ok = fscanf(p, "%llu", v) == 1;
	pclose(p);
	if (!ok)
		*v = 0;
	return ok;
}

void ext2t_mkfs(const char *opts, unsigned int size_kib)
{
	int rc = ext2t_sh("mke2fs -q -F -t ext2 %s %s %uk > %s/mkfs.log 2>&1", opts ? opts : "",
			  ext2t_env.img, size_kib, ext2t_env.dir);

	cr_assert_eq(rc, 0, "mke2fs %s failed", opts ? opts : "");
}

int ext2t_mount(void)
{
	return do_mount("/dev/vda", EXT2T_MNT, "ext2", 0, NULL);
}

void ext2t_attach(void)
{
	if (!ext2t_env.disk) {
		ext2t_env.disk = filedisk_add("vda", ext2t_env.img, false, NULL);
		cr_assert_not_null(ext2t_env.disk);
	}
}

int ext2t_attach_mount(void)
{
	ext2t_attach();
	return ext2t_mount();
}

void ext2t_umount(void)
{
	cr_assert_eq(do_umount(EXT2T_MNT, 0), 0, "umount failed");
}

/* The lines e2fsck -fn prints for a clean filesystem. */
static bool fsck_line_ok(const char *line)
{
	static const char *const ok[] = {
		"e2fsck ", "Pass 1:", "Pass 2:", "Pass 3:", "Pass 4:", "Pass 5:",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strncmp(line, ok[i], strlen(ok[i])))
			return true;
	/*
	 * An extent tree with room to spare after a truncate: e2fsck offers to repack it (an
	 * optimisation, exit status 0), as it does for Linux's own trees. Not an error.
	 */
	if (strstr(line, "extent tree (at level ") && strstr(line, ") could be narrower.  "
								   "Optimize? no"))
		return true;
	/* the summary: "IMG: 11/2048 files (0.0% non-contiguous), 1324/8192 blocks" */
	return strstr(line, " files (") && strstr(line, " blocks");
}

/* The image the host tools look at: a snapshot if a test set one, else the disk. */
static const char *check_image(void)
{
	return ext2t_env.check_img[0] ? ext2t_env.check_img : ext2t_env.img;
}

void ext2t_fsck_clean(void)
{
	char log[160], line[512];
	int rc = ext2t_sh("e2fsck -fn %s > %s/fsck.log 2>&1", check_image(), ext2t_env.dir);
	FILE *f;

	snprintf(log, sizeof(log), "%s/fsck.log", ext2t_env.dir);
	f = fopen(log, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			continue;
		cr_expect(fsck_line_ok(line), "e2fsck: %s", line);
	}
	fclose(f);
	cr_assert_eq(rc, 0, "e2fsck -fn exit status %d (log in %s)", rc, log);
}

void ext2t_expect_dump(const char *path, const void *data, size_t len)
{
	char out[160];
	FILE *f;
	u8 *buf = malloc(len + 1);
	size_t got;

	snprintf(out, sizeof(out), "%s/dump.out", ext2t_env.dir);
	unlink(out);
	cr_assert_eq(
		ext2t_sh("debugfs -R 'dump %s %s' %s > /dev/null 2>&1", path, out, check_image()), 0);
	f = fopen(out, "rb");
	cr_assert_not_null(f, "debugfs could not dump %s", path);
	got = fread(buf, 1, len + 1, f);
	fclose(f);
	cr_expect_eq(got, len, "%s: debugfs dumped %zu bytes, expected %zu", path, got, len);
	cr_expect(got != len || !memcmp(buf, data, len), "%s: contents differ on disk", path);
	free(buf);
}

void ext2t_expect_dump_pattern(const char *path, u32 seed, size_t len)
{
	u8 *buf = malloc(len ? len : 1);

	cr_assert_not_null(buf);
	ext2t_fill(buf, len, seed, 0);
	ext2t_expect_dump(path, buf, len);
	free(buf);
}

static unsigned long dumpe2fs_field(const char *field)
{
	char out[160], line[256];
	unsigned long v = ~0UL;
	FILE *f;

	snprintf(out, sizeof(out), "%s/dumpe2fs.out", ext2t_env.dir);
	cr_assert_eq(ext2t_sh("dumpe2fs -h %s > %s 2>/dev/null", check_image(), out), 0);
	f = fopen(out, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)))
			v = strtoul(line + strlen(field), NULL, 10);
	fclose(f);
	cr_assert_neq(v, ~0UL, "dumpe2fs: no %s", field);
	return v;
}

void ext2t_poke(long offset, const void *buf, size_t len)
{
	FILE *f = fopen(ext2t_env.img, "r+b");

	if (!f)
		f = fopen(ext2t_env.img, "w+b");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, offset, SEEK_SET), 0);
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
}

void ext2t_peek(long offset, void *buf, size_t len)
{
	FILE *f = fopen(ext2t_env.img, "rb");

	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, offset, SEEK_SET), 0);
	cr_assert_eq(fread(buf, 1, len, f), len);
	fclose(f);
}

void ext2t_disk_free(u64 *blocks, u64 *inodes)
{
	*blocks = dumpe2fs_field("Free blocks:");
	*inodes = dumpe2fs_field("Free inodes:");
}

u8 ext2t_pattern(u32 seed, u64 offset)
{
	u64 x = (offset / 8 + 1) * 0x9e3779b97f4a7c15ULL ^ ((u64)seed << 32 | seed);

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 32;
	return (u8)(x >> ((offset % 8) * 8));
}

void ext2t_fill(void *buf, size_t len, u32 seed, u64 offset)
{
	for (size_t i = 0; i < len; i++)
		((u8 *)buf)[i] = ext2t_pattern(seed, offset + i);
}

int ext2t_write(const char *path, unsigned int flags, loff_t pos, const void *buf, size_t len)
{
	struct file *f = filp_open(path, O_WRONLY | O_CREAT | flags, 0644);
	ssize_t n;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	if (!(flags & O_APPEND))
		f->f_pos = pos;
	n = file_write_all(f, buf, len);
	fput(f);
	return n < 0 ? (int)n : 0;
}

int ext2t_fsync(const char *path)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	int err;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	err = vfs_fsync(f, 0);
	fput(f);
	return err;
}

int ext2t_write_pattern(const char *path, u32 seed, loff_t pos, u64 len)
{
	size_t chunk = 256 << 10;
	u8 *buf = kmalloc(chunk, GFP_KERNEL);
	struct file *f = filp_open(path, O_WRONLY | O_CREAT, 0644);
	int err = 0;

	cr_assert_not_null(buf);
	if (IS_ERR(f)) {
		kfree(buf);
		return (int)PTR_ERR(f);
	}
	f->f_pos = pos;
	for (u64 done = 0; done < len && !err;) {
		size_t n = (size_t)min((u64)chunk, len - done);
		ext2t_fill(buf, n, seed, (u64)pos + done);
		ssize_t w = file_write_all(f, buf, n);
		if (w < 0)
			err = (int)w;
		done += n;
	}
	fput(f);
	kfree(buf);
	return err;
}

int ext2t_read(const char *path, loff_t pos, void *buf, size_t len, ssize_t *got)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	size_t done = 0;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	f->f_pos = pos;
	while (done < len) {
		ssize_t n = file_read(f, (char *)buf + done, len - done);
		if (n < 0) {
			fput(f);
			return (int)n;
		}
		if (!n)
			break;
		done += (size_t)n;
	}
	fput(f);
	*got = (ssize_t)done;
	return 0;
}

int ext2t_check_pattern(const char *path, u32 seed, u64 len)
{
	size_t chunk = 256 << 10;
	u8 *buf = kmalloc(chunk, GFP_KERNEL);
	int bad = 0;

	cr_assert_not_null(buf);
	cr_assert_eq(ext2t_size(path), (loff_t)len, "%s: size %lld, expected %llu", path,
		     ext2t_size(path), (unsigned long long)len);
	for (u64 done = 0; done < len && !bad;) {
		size_t n = (size_t)min((u64)chunk, len - done);
		ssize_t got;
		int err = ext2t_read(path, (loff_t)done, buf, n, &got);

		cr_assert_eq(err, 0, "%s: read error %d at %llu", path, err,
			     (unsigned long long)done);
		cr_assert_eq(got, (ssize_t)n, "%s: short read at %llu", path,
			     (unsigned long long)done);
		for (size_t i = 0; i < n; i++) {
			if (buf[i] != ext2t_pattern(seed, done + i)) {
				cr_log_error("%s: byte %llu is %#x, expected %#x", path,
					     (unsigned long long)(done + i), buf[i],
					     ext2t_pattern(seed, done + i));
				bad = 1;
				break;
			}
		}
		done += n;
	}
	kfree(buf);
	return bad ? -EIO : 0;
}

loff_t ext2t_size(const char *path)
{
	struct kstat st;
	int err = vfs_lstat(path, &st);

	return err ? err : st.size;
}

struct readdir_ctx {
	struct dir_context ctx;
	void (*fn)(const char *name, int len, u64 ino, unsigned int type, void *arg);
	void *arg;
	int count;
};

static bool readdir_actor(struct dir_context *ctx, const char *name, int namelen, loff_t offset,
			  u64 ino, unsigned int type)
{
	struct readdir_ctx *rc = container_of(ctx, struct readdir_ctx, ctx);

	(void)offset;
	rc->count++;
	if (rc->fn)
		rc->fn(name, namelen, ino, type, rc->arg);
	return true;
}

int ext2t_readdir(const char *path, void (*fn)(const char *, int, u64, unsigned int, void *),
		  void *arg)
{
	struct readdir_ctx rc = { .ctx.actor = readdir_actor, .fn = fn, .arg = arg };
	struct file *f = filp_open(path, O_RDONLY | O_DIRECTORY, 0);
	int err;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	do {
		int before = rc.count;
		err = iterate_dir(f, &rc.ctx);
		if (rc.count == before)
			break;
	} while (!err);
	fput(f);
	return err ? err : rc.count;
}

int ext2t_count_entries(const char *path)
{
	return ext2t_readdir(path, NULL, NULL);
}

struct super_block *ext2t_sb(void)
{
	struct super_block *sb;
	struct path p;

	cr_assert_eq(kern_path(EXT2T_MNT, LOOKUP_FOLLOW, &p), 0);
	sb = p.mnt->mnt_sb;
	path_put(&p);
	return sb;
}

void ext2t_statfs(u64 *bfree, u64 *ffree)
{
	struct kstatfs st;
	struct path p;

	cr_assert_eq(kern_path(EXT2T_MNT, LOOKUP_FOLLOW, &p), 0);
	cr_assert_eq(vfs_statfs(&p, &st), 0);
	path_put(&p);
	*bfree = st.f_bfree;
	*ffree = st.f_ffree;
}
