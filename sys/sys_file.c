/*
 * File system calls (Linux's fs/read_write.c, open.c, stat.c, namei.c, fcntl.c). A
 * program's descriptors are its table (files.c: the shell gave 0, 1 and 2). Data passes
 * through a kernel bounce buffer of at most IO_CHUNK bytes: the file systems copy with
 * memcpy, which must not fault on a program's bad pointer. Directory descriptors for the
 * *at calls: AT_FDCWD or an absolute path only (-EINVAL otherwise, for now).
 */
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/file.h>
#include <cgwb/bio.h>
#include <cgwb/slab.h>
#include <cgwb/vmalloc.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "internal.h"

#define IO_CHUNK (1UL << 20) /* dd's and fio's largest common record */
#define AT_REMOVEDIR 0x200
#define IOV_MAX 1024
#define O_KNOWN                                                                                \
	(O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC | O_APPEND | O_SYNC | O_DIRECT | O_DIRECTORY | \
	 O_NONBLOCK)

char *get_path(int dirfd, u64 upath, long *err)
{
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);
	long n = path ? strncpy_from_user(path, upath, PATH_MAX) : -ENOMEM;

	if (n >= 0 && dirfd != AT_FDCWD && path[0] != '/')
		n = -EINVAL;
	if (n < 0) {
		kfree(path);
		*err = n;
		return NULL;
	}
	return path;
}

/*
 * One chunk of a read or write between a file and a program's buffer, at *pos. With
 * O_DIRECT the kernel buffer sits as far past a 512-byte boundary as the program's does,
 * so that direct IO finds the program's buffer aligned or not, as Linux would.
 */
static long rw_chunk(struct file *file, u64 ubuf, size_t len, loff_t *pos, bool write)
{
	size_t skew = (file->f_flags & O_DIRECT) ? (size_t)(ubuf & (SECTOR_SIZE - 1)) : 0;
	void *mem = kvmalloc(len + skew, GFP_KERNEL);
	char *kbuf = (char *)mem + skew;
	long n;

	if (!mem)
		return -ENOMEM;
	if (write) {
		n = copy_from_user(kbuf, ubuf, len);
		if (!n)
			n = kernel_write(file, kbuf, len, pos);
	} else {
		n = kernel_read(file, kbuf, len, pos);
		if (n > 0 && copy_to_user(ubuf, kbuf, (size_t)n))
			n = -EFAULT;
	}
	kvfree(mem);
	return n;
}

/* Whole chunks until len, a short one, an error (reported only if nothing was done). */
static long do_rw(struct file *file, u64 ubuf, size_t len, loff_t *pos, bool write)
{
	size_t done = 0;

	if (!file)
		return -EBADF;
	if (!access_ok(ubuf, len))
		return -EFAULT;
	while (done < len) {
		size_t chunk = min(len - done, IO_CHUNK);
		long n = rw_chunk(file, ubuf + done, chunk, pos, write);

		if (n < 0)
			return done ? (long)done : n;
		done += (size_t)n;
		if ((size_t)n < chunk)
			break;
	}
	return (long)done;
}

static long sys_read(u64 fd, u64 buf, u64 count, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);

	return do_rw(f, buf, count, f ? &f->f_pos : NULL, false);
}

static long sys_write(u64 fd, u64 buf, u64 count, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);

	return do_rw(f, buf, count, f ? &f->f_pos : NULL, true);
}

static long sys_pread64(u64 fd, u64 buf, u64 count, u64 off, u64 a4, u64 a5)
{
	loff_t pos = (loff_t)off;

	return pos < 0 ? -EINVAL : do_rw(fd_file((int)fd), buf, count, &pos, false);
}

static long sys_pwrite64(u64 fd, u64 buf, u64 count, u64 off, u64 a4, u64 a5)
{
	loff_t pos = (loff_t)off;

	return pos < 0 ? -EINVAL : do_rw(fd_file((int)fd), buf, count, &pos, true);
}

struct iovec_user {
	u64 base, len;
};

/* The vector at *pos (NULL: the file's position). */
static long do_rwv_at(int fd, u64 uiov, u64 cnt, loff_t *pos, bool write)
{
	struct file *f = fd_file(fd);
	struct iovec_user iov;
	long total = 0;

	if (!f)
		return -EBADF;
	if (cnt > IOV_MAX)
		return -EINVAL;
	if (!pos)
		pos = &f->f_pos;
	for (u64 i = 0; i < cnt; i++) {
		long n = copy_from_user(&iov, uiov + i * sizeof(iov), sizeof(iov));

		if (!n)
			n = do_rw(f, iov.base, iov.len, pos, write);
		if (n < 0)
			return total ? total : n;
		total += n;
		if ((u64)n < iov.len)
			break;
	}
	return total;
}

static long do_rwv(int fd, u64 uiov, u64 cnt, bool write)
{
	return do_rwv_at(fd, uiov, cnt, NULL, write);
}

/* preadv/pwritev at pos; the *v2 forms take -1 for the file's position, and no flags. */
static long do_prwv(u64 fd, u64 iov, u64 cnt, u64 pos, u64 flags, bool v2, bool write)
{
	loff_t at = (loff_t)pos;

	if (flags)
		return -EOPNOTSUPP; /* RWF_HIPRI, RWF_DSYNC...: not yet */
	if (v2 && at == -1)
		return do_rwv_at((int)fd, iov, cnt, NULL, write);
	return at < 0 ? -EINVAL : do_rwv_at((int)fd, iov, cnt, &at, write);
}

static long sys_preadv(u64 fd, u64 iov, u64 cnt, u64 pos, u64 a4, u64 a5)
{
	return do_prwv(fd, iov, cnt, pos, 0, false, false);
}

static long sys_pwritev(u64 fd, u64 iov, u64 cnt, u64 pos, u64 a4, u64 a5)
{
	return do_prwv(fd, iov, cnt, pos, 0, false, true);
}

static long sys_preadv2(u64 fd, u64 iov, u64 cnt, u64 pos, u64 pos_high, u64 flags)
{
	return do_prwv(fd, iov, cnt, pos, flags, true, false);
}

static long sys_pwritev2(u64 fd, u64 iov, u64 cnt, u64 pos, u64 pos_high, u64 flags)
{
	return do_prwv(fd, iov, cnt, pos, flags, true, true);
}

static long sys_readv(u64 fd, u64 iov, u64 cnt, u64 a3, u64 a4, u64 a5)
{
	return do_rwv((int)fd, iov, cnt, false);
}

static long sys_writev(u64 fd, u64 iov, u64 cnt, u64 a3, u64 a4, u64 a5)
{
	return do_rwv((int)fd, iov, cnt, true);
}

static long do_open(int dirfd, u64 upath, u64 flags, u64 mode)
{
	long err = 0;
	char *path = get_path(dirfd, upath, &err);
	struct file *f;

	if (!path)
		return err;
	f = filp_open(path, (unsigned int)(flags & O_KNOWN), (umode_t)(mode & 07777));
	kfree(path);
	if (IS_ERR(f))
		return PTR_ERR(f);
	err = fd_install(f, 0);
	if (err < 0)
		fput(f);
	return err;
}

static long sys_open(u64 path, u64 flags, u64 mode, u64 a3, u64 a4, u64 a5)
{
	return do_open(AT_FDCWD, path, flags, mode);
}

static long sys_openat(u64 dirfd, u64 path, u64 flags, u64 mode, u64 a4, u64 a5)
{
	return do_open((int)dirfd, path, flags, mode);
}

static long sys_close(u64 fd, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_remove((int)fd);

	if (!f)
		return -EBADF;
	fput(f); /* a call of another thread's that looked it up keeps its own reference */
	return 0;
}

static long sys_lseek(u64 fd, u64 off, u64 whence, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);

	return f ? vfs_llseek(f, (loff_t)off, (int)whence) : -EBADF;
}

/* ksys_fallocate(): the descriptor, then vfs_fallocate()'s checks and the file system's. */
static long sys_fallocate(u64 fd, u64 mode, u64 off, u64 len, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);

	return f ? vfs_fallocate(f, (int)mode, (loff_t)off, (loff_t)len) : -EBADF;
}

static long sys_ftruncate(u64 fd, u64 len, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);

	if (!f)
		return -EBADF;
	if ((loff_t)len < 0)
		return -EINVAL;
	return f->f_path.dentry ? vfs_truncate(&f->f_path, (loff_t)len) : -EINVAL;
}

static long sys_ioctl(u64 fd, u64 cmd, u64 arg, u64 a3, u64 a4, u64 a5)
{
	return fd_file((int)fd) ? -ENOTTY : -EBADF; /* no terminal settings yet */
}

static long do_dup(int oldfd, int newfd, bool exact)
{
	struct file *f = fd_file(oldfd);

	if (!f)
		return -EBADF;
	if (!exact) {
		int fd = fd_install(get_file(f), newfd);

		if (fd < 0)
			fput(f);
		return fd;
	}
	if (newfd < 0 || newfd >= TASK_NR_FILES)
		return -EBADF;
	if (newfd == oldfd)
		return newfd;
	fput(fd_replace(newfd, get_file(f)));
	return newfd;
}

static long sys_dup(u64 fd, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return do_dup((int)fd, 0, false);
}

static long sys_dup2(u64 oldfd, u64 newfd, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return do_dup((int)oldfd, (int)newfd, true);
}

static long sys_dup3(u64 oldfd, u64 newfd, u64 flags, u64 a3, u64 a4, u64 a5)
{
	return oldfd == newfd ? -EINVAL : do_dup((int)oldfd, (int)newfd, true);
}

#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030

static long sys_fcntl(u64 fd, u64 cmd, u64 arg, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return do_dup((int)fd, (int)arg, false);
	case F_GETFD:
	case F_SETFD:
		return 0; /* close-on-exec means nothing without exec */
	case F_GETFL:
		return f->f_flags;
	case F_SETFL: /* O_APPEND and O_NONBLOCK change; the others stay, as Linux */
		WRITE_ONCE(f->f_flags, (f->f_flags & ~(unsigned int)(O_APPEND | O_NONBLOCK)) |
					       ((unsigned int)arg & (O_APPEND | O_NONBLOCK)));
		return 0;
	default:
		return -EINVAL;
	}
}

/* The calls that take one path and act on the name. */
static long path_call(int dirfd, u64 upath, int (*fn)(const char *))
{
	long err = 0;
	char *path = get_path(dirfd, upath, &err);

	if (!path)
		return err;
	err = fn(path);
	kfree(path);
	return err;
}

static long sys_unlink(u64 path, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return path_call(AT_FDCWD, path, do_unlink);
}

static long sys_rmdir(u64 path, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return path_call(AT_FDCWD, path, do_rmdir);
}

static long sys_unlinkat(u64 dirfd, u64 path, u64 flags, u64 a3, u64 a4, u64 a5)
{
	return path_call((int)dirfd, path, (flags & AT_REMOVEDIR) ? do_rmdir : do_unlink);
}

static int mkdir_default(const char *path)
{
	return do_mkdir(path, 0755);
}

static long sys_mkdir(u64 path, u64 mode, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return path_call(AT_FDCWD, path, mkdir_default); /* modes are not kept per call yet */
}

static long sys_mkdirat(u64 dirfd, u64 path, u64 mode, u64 a3, u64 a4, u64 a5)
{
	return path_call((int)dirfd, path, mkdir_default);
}

static long sys_chdir(u64 path, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return path_call(AT_FDCWD, path, set_fs_pwd);
}

static long do_rename2(int olddir, u64 oldp, int newdir, u64 newp)
{
	long err = 0;
	char *from = get_path(olddir, oldp, &err), *to = from ? get_path(newdir, newp, &err) : NULL;

	if (to)
		err = do_rename(from, to);
	kfree(from);
	kfree(to);
	return err;
}

static long sys_rename(u64 oldp, u64 newp, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return do_rename2(AT_FDCWD, oldp, AT_FDCWD, newp);
}

static long sys_renameat(u64 od, u64 oldp, u64 nd, u64 newp, u64 a4, u64 a5)
{
	return do_rename2((int)od, oldp, (int)nd, newp);
}

static long sys_renameat2(u64 od, u64 oldp, u64 nd, u64 newp, u64 flags, u64 a5)
{
	return flags ? -EINVAL : do_rename2((int)od, oldp, (int)nd, newp);
}

/* Everyone is root: a name that exists may be accessed (X_OK aside). */
static int access_exists(const char *path)
{
	struct kstat k;

	return vfs_stat(path, &k);
}

static long sys_access(u64 upath, u64 mode, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return path_call(AT_FDCWD, upath, access_exists);
}

static long sys_faccessat(u64 dirfd, u64 upath, u64 mode, u64 a3, u64 a4, u64 a5)
{
	return path_call((int)dirfd, upath, access_exists);
}

static long sys_getcwd(u64 ubuf, u64 size, u64 a2, u64 a3, u64 a4, u64 a5)
{
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	struct path pwd;
	long err;

	if (!buf)
		return -ENOMEM;
	get_fs_pwd(&pwd);
	err = d_path(&pwd, buf, PATH_MAX);
	path_put(&pwd);
	if (!err)
		err = strlen(buf) + 1 > size ? -ERANGE : (long)strlen(buf) + 1;
	if (err > 0 && copy_to_user(ubuf, buf, (size_t)err))
		err = -EFAULT;
	kfree(buf);
	return err;
}

static long do_readlink2(int dirfd, u64 upath, u64 ubuf, u64 size)
{
	long err = 0;
	char *path = get_path(dirfd, upath, &err), *buf;

	if (!path)
		return err;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	err = buf ? do_readlink(path, buf, (int)min(size, (u64)PATH_MAX)) : -ENOMEM;
	if (err > 0 && copy_to_user(ubuf, buf, (size_t)err))
		err = -EFAULT;
	kfree(buf);
	kfree(path);
	return err;
}

static long sys_readlink(u64 path, u64 buf, u64 size, u64 a3, u64 a4, u64 a5)
{
	return do_readlink2(AT_FDCWD, path, buf, size);
}

static long sys_readlinkat(u64 dirfd, u64 path, u64 buf, u64 size, u64 a4, u64 a5)
{
	return do_readlink2((int)dirfd, path, buf, size);
}

struct getdents_ctx {
	struct dir_context ctx;
	char *buf;
	size_t size, used;
	bool full; /* an entry did not fit */
};

/* struct linux_dirent64: ino, next offset, record length, type, name, 8-byte aligned */
static bool fill_dirent64(struct dir_context *ctx, const char *name, int len, loff_t off, u64 ino,
			  unsigned int type)
{
	struct getdents_ctx *g = container_of(ctx, struct getdents_ctx, ctx);
	size_t reclen = ALIGN(19 + (size_t)len + 1, 8);
	char *rec = g->buf + g->used;
	s64 next = off + 1;
	u16 rl = (u16)reclen;
	u8 t = (u8)type;

	if (g->used + reclen > g->size) {
		g->full = true;
		return false;
	}
	memset(rec, 0, reclen);
	memcpy(rec, &ino, 8);
	memcpy(rec + 8, &next, 8);
	memcpy(rec + 16, &rl, 2);
	memcpy(rec + 18, &t, 1);
	memcpy(rec + 19, name, (size_t)len);
	g->used += reclen;
	return true;
}

static long sys_getdents64(u64 fd, u64 ubuf, u64 count, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);
	struct getdents_ctx g = { .ctx.actor = fill_dirent64, .size = min(count, (u64)65536) };
	long err;

	if (!f)
		return -EBADF;
	g.buf = kmalloc(g.size ? g.size : 1, GFP_KERNEL);
	if (!g.buf)
		return -ENOMEM;
	err = iterate_dir(f, &g.ctx);
	if (!err && !g.used && g.full)
		err = -EINVAL; /* the buffer cannot hold the next entry */
	if (!err && g.used && copy_to_user(ubuf, g.buf, g.used))
		err = -EFAULT;
	kfree(g.buf);
	return err ? err : (long)g.used;
}

static long sys_umask(u64 mask, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return 022; /* modes are not masked yet: the usual mask, reported */
}

static const struct syscall_def calls[] = {
	{ 0, "read", sys_read },
	{ 1, "write", sys_write },
	{ 2, "open", sys_open },
	{ 3, "close", sys_close },
	{ 8, "lseek", sys_lseek },
	{ 16, "ioctl", sys_ioctl },
	{ 17, "pread64", sys_pread64 },
	{ 18, "pwrite64", sys_pwrite64 },
	{ 19, "readv", sys_readv },
	{ 20, "writev", sys_writev },
	{ 21, "access", sys_access },
	{ 32, "dup", sys_dup },
	{ 33, "dup2", sys_dup2 },
	{ 72, "fcntl", sys_fcntl },
	{ 77, "ftruncate", sys_ftruncate },
	{ 79, "getcwd", sys_getcwd },
	{ 80, "chdir", sys_chdir },
	{ 82, "rename", sys_rename },
	{ 83, "mkdir", sys_mkdir },
	{ 84, "rmdir", sys_rmdir },
	{ 87, "unlink", sys_unlink },
	{ 89, "readlink", sys_readlink },
	{ 95, "umask", sys_umask },
	{ 217, "getdents64", sys_getdents64 },
	{ 257, "openat", sys_openat },
	{ 258, "mkdirat", sys_mkdirat },
	{ 263, "unlinkat", sys_unlinkat },
	{ 264, "renameat", sys_renameat },
	{ 267, "readlinkat", sys_readlinkat },
	{ 269, "faccessat", sys_faccessat },
	{ 285, "fallocate", sys_fallocate },
	{ 292, "dup3", sys_dup3 },
	{ 295, "preadv", sys_preadv },
	{ 296, "pwritev", sys_pwritev },
	{ 316, "renameat2", sys_renameat2 },
	{ 327, "preadv2", sys_preadv2 },
	{ 328, "pwritev2", sys_pwritev2 },
};

const struct syscall_table sys_file_calls = { calls, ARRAY_SIZE(calls) };
