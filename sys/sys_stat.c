/*
 * File attributes (Linux's fs/stat.c, fs/statfs.c): stat, lstat, fstat, newfstatat, statx,
 * statfs and fstatfs, in the layouts of x86-64 Linux. statx answers the basic attributes (STATX_BASIC_STATS) whatever
 * it is asked, as Linux may; no birth time, mount id or direct IO alignment yet.
 */
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "internal.h"

#define AT_NO_AUTOMOUNT 0x800
#define AT_STATX_SYNC_TYPE 0x6000
#define STATX_BASIC_STATS 0x7ffU
#define STATX__RESERVED 0x80000000U

/* struct stat of x86-64 Linux */
struct linux_stat {
	u64 st_dev, st_ino, st_nlink;
	u32 st_mode, st_uid, st_gid, pad0;
	u64 st_rdev;
	s64 st_size, st_blksize, st_blocks;
	u64 st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	s64 unused[3];
};

struct statx_timestamp {
	s64 tv_sec;
	u32 tv_nsec;
	s32 reserved;
};

/* struct statx (256 bytes) */
struct linux_statx {
	u32 stx_mask, stx_blksize;
	u64 stx_attributes;
	u32 stx_nlink, stx_uid, stx_gid;
	u16 stx_mode, spare0;
	u64 stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	u32 stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	u64 stx_mnt_id;
	u32 stx_dio_mem_align, stx_dio_offset_align;
	u64 spare3[12];
};

/* struct statfs of x86-64 Linux */
struct linux_statfs {
	s64 f_type, f_bsize;
	u64 f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	s32 f_fsid[2];
	s64 f_namelen, f_frsize, f_flags, f_spare[4];
};

/* A device number as programs see it (Linux's new_encode_dev(): 12-bit major, 20-bit minor). */
static u64 encode_dev(dev_t dev)
{
	u64 major = MAJOR(dev), minor = MINOR(dev);

	return (minor & 0xff) | (major << 8) | ((minor & ~0xffULL) << 12);
}

static long put_stat(const struct kstat *k, u64 ubuf)
{
	struct linux_stat st = {
		.st_dev = encode_dev(k->dev),
		.st_ino = k->ino,
		.st_nlink = k->nlink,
		.st_mode = k->mode,
		.st_uid = k->uid,
		.st_gid = k->gid,
		.st_rdev = encode_dev(k->rdev),
		.st_size = k->size,
		.st_blksize = k->blksize,
		.st_blocks = (s64)k->blocks,
		.st_atime = (u64)k->atime.tv_sec,
		.st_atime_nsec = (u64)k->atime.tv_nsec,
		.st_mtime = (u64)k->mtime.tv_sec,
		.st_mtime_nsec = (u64)k->mtime.tv_nsec,
		.st_ctime = (u64)k->ctime.tv_sec,
		.st_ctime_nsec = (u64)k->ctime.tv_nsec,
	};

	return copy_to_user(ubuf, &st, sizeof(st));
}

static struct statx_timestamp statx_time(struct timespec64 t)
{
	return (struct statx_timestamp){ .tv_sec = t.tv_sec, .tv_nsec = (u32)t.tv_nsec };
}

static long put_statx(const struct kstat *k, u64 ubuf)
{
	struct linux_statx stx = {
		.stx_mask = STATX_BASIC_STATS,
		.stx_blksize = k->blksize,
		.stx_nlink = k->nlink,
		.stx_uid = k->uid,
		.stx_gid = k->gid,
		.stx_mode = (u16)k->mode,
		.stx_ino = k->ino,
		.stx_size = (u64)k->size,
		.stx_blocks = k->blocks,
		.stx_atime = statx_time(k->atime),
		.stx_ctime = statx_time(k->ctime),
		.stx_mtime = statx_time(k->mtime),
		.stx_rdev_major = MAJOR(k->rdev),
		.stx_rdev_minor = MINOR(k->rdev),
		.stx_dev_major = MAJOR(k->dev),
		.stx_dev_minor = MINOR(k->dev),
	};

	return copy_to_user(ubuf, &stx, sizeof(stx));
}

/* An open file's attributes; the console and pipes have no path: a character device. */
static long file_kstat(struct file *f, struct kstat *k)
{
	*k = (struct kstat){ .mode = S_IFCHR | 0620, .nlink = 1, .blksize = 1024 };
	if (!f)
		return -EBADF;
	return f->f_path.dentry ? vfs_getattr(&f->f_path, k) : 0;
}

static long path_kstat(int dirfd, u64 upath, bool follow, struct kstat *k)
{
	long err = 0;
	char *path = get_path(dirfd, upath, &err);

	if (!path)
		return err;
	err = follow ? vfs_stat(path, k) : vfs_lstat(path, k);
	kfree(path);
	return err;
}

/* The *at form: with AT_EMPTY_PATH an empty path names dirfd's own file. */
static long at_kstat(u64 dirfd, u64 upath, u64 flags, struct kstat *k)
{
	char first;

	if ((flags & AT_EMPTY_PATH) && !copy_from_user(&first, upath, 1) && !first)
		return file_kstat(fd_file((int)dirfd), k);
	return path_kstat((int)dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), k);
}

static long sys_newfstatat(u64 dirfd, u64 path, u64 buf, u64 flags, u64 a4, u64 a5)
{
	struct kstat k;
	long err = at_kstat(dirfd, path, flags, &k);

	return err ? err : put_stat(&k, buf);
}

/* stat and lstat are newfstatat from the working directory, as Linux's vfs_stat(). */
static long sys_stat(u64 path, u64 buf, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return sys_newfstatat((u64)(s64)AT_FDCWD, path, buf, 0, 0, 0);
}

static long sys_lstat(u64 path, u64 buf, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return sys_newfstatat((u64)(s64)AT_FDCWD, path, buf, AT_SYMLINK_NOFOLLOW, 0, 0);
}

static long sys_fstat(u64 fd, u64 buf, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct kstat k;
	long err = file_kstat(fd_file((int)fd), &k);

	return err ? err : put_stat(&k, buf);
}

static long sys_statx(u64 dirfd, u64 path, u64 flags, u64 mask, u64 buf, u64 a5)
{
	const u64 known = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE;
	struct kstat k;
	long err;

	if ((flags & ~known) || (flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE ||
	    (mask & STATX__RESERVED))
		return -EINVAL;
	err = at_kstat(dirfd, path, flags, &k);
	return err ? err : put_statx(&k, buf);
}

static long put_statfs(const struct path *path, u64 ubuf)
{
	struct kstatfs k = { 0 };
	struct linux_statfs st;
	long err = vfs_statfs(path, &k);

	if (err)
		return err;
	st = (struct linux_statfs){
		.f_type = k.f_type,
		.f_bsize = k.f_bsize,
		.f_blocks = k.f_blocks,
		.f_bfree = k.f_bfree,
		.f_bavail = k.f_bavail,
		.f_files = k.f_files,
		.f_ffree = k.f_ffree,
		.f_namelen = k.f_namelen,
		.f_frsize = k.f_bsize,
	};
	return copy_to_user(ubuf, &st, sizeof(st));
}

static long sys_statfs(u64 upath, u64 buf, u64 a2, u64 a3, u64 a4, u64 a5)
{
	long err = 0;
	char *name = get_path(AT_FDCWD, upath, &err);
	struct path path;

	if (!name)
		return err;
	err = kern_path(name, LOOKUP_FOLLOW, &path);
	kfree(name);
	if (err)
		return err;
	err = put_statfs(&path, buf);
	path_put(&path);
	return err;
}

/* The console and pipes are on no file system here: an empty one is told of (Linux names
 * its pipefs or devpts). */
static long sys_fstatfs(u64 fd, u64 buf, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);
	struct linux_statfs st = { .f_bsize = PAGE_SIZE, .f_frsize = PAGE_SIZE, .f_namelen = 255 };

	if (!f)
		return -EBADF;
	if (f->f_path.dentry)
		return put_statfs(&f->f_path, buf);
	return copy_to_user(buf, &st, sizeof(st));
}

static const struct syscall_def calls[] = {
	{ 4, "stat", sys_stat },         { 5, "fstat", sys_fstat },
	{ 6, "lstat", sys_lstat },       { 137, "statfs", sys_statfs },
	{ 138, "fstatfs", sys_fstatfs }, { 262, "newfstatat", sys_newfstatat },
	{ 332, "statx", sys_statx },
};

const struct syscall_table sys_stat_calls = { calls, ARRAY_SIZE(calls) };
