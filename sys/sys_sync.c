/*
 * Writeback and the cache asked for by a program (Linux's fs/sync.c and mm/fadvise.c):
 * fsync, fdatasync, sync, sync_file_range, fadvise64. The writes go as the inode's wb's
 * IO (its io cgroup), whoever asks, as in Linux.
 */
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/pagemap.h>
#include <cgwb/errno.h>
#include "internal.h"

#define SYNC_FILE_RANGE_WAIT_BEFORE 1
#define SYNC_FILE_RANGE_WRITE 2
#define SYNC_FILE_RANGE_WAIT_AFTER 4
#define POSIX_FADV_DONTNEED 4
#define LLONG_MAX_OFF ((loff_t)(~0ULL >> 1))

static long sys_fsync(u64 fd, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);

	return f ? vfs_fsync(f, 0) : -EBADF;
}

static long sys_fdatasync(u64 fd, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);

	return f ? vfs_fsync(f, 1) : -EBADF;
}

static long sys_sync(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	ksys_sync();
	return 0;
}

/* The last byte of [off, off + len); len 0, or a range past what loff_t holds: every byte on. */
static loff_t range_end(loff_t off, loff_t len)
{
	if (!len || len > LLONG_MAX_OFF - off)
		return LLONG_MAX_OFF;
	return off + len - 1;
}

/*
 * As Linux's: WRITE alone starts the range's writeback without waiting (WB_SYNC_NONE);
 * with both waits it is a data-integrity write of the range. No metadata, no device flush.
 */
static long sys_sync_file_range(u64 fd, u64 off, u64 len, u64 flags, u64 a4, u64 a5)
{
	const u64 all = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			SYNC_FILE_RANGE_WAIT_AFTER;
	struct file *f = fd_file((int)fd);
	struct address_space *mapping;
	loff_t end;
	int err = 0;

	if ((flags & ~all) || (s64)off < 0 || (s64)len < 0)
		return -EINVAL;
	if (!f)
		return -EBADF;
	mapping = f->f_mapping;
	if (!mapping || !mapping->host || !S_ISREG(mapping->host->i_mode))
		return f->f_path.dentry ? -EINVAL : -ESPIPE;
	end = range_end((loff_t)off, (loff_t)len);
	if (flags & SYNC_FILE_RANGE_WAIT_BEFORE)
		err = filemap_fdatawait_range(mapping, (loff_t)off, end);
	if (!err && (flags & SYNC_FILE_RANGE_WRITE))
		err = __filemap_fdatawrite_range(mapping, (loff_t)off, end,
						 (flags & all) == all ? WB_SYNC_ALL : WB_SYNC_NONE);
	if (!err && (flags & SYNC_FILE_RANGE_WAIT_AFTER))
		err = filemap_fdatawait_range(mapping, (loff_t)off, end);
	return err;
}

/*
 * Advice; DONTNEED starts the range's writeback without waiting and drops the clean cached
 * pages it covers whole, as Linux 6.1's (fio invalidates its files so before a job).
 */
static long sys_fadvise64(u64 fd, u64 off, u64 len, u64 advice, u64 a4, u64 a5)
{
	struct file *f = fd_file((int)fd);
	pgoff_t first, last;
	loff_t end;

	if (!f)
		return -EBADF;
	if (advice > 5 || (s64)off < 0 || (s64)len < 0)
		return -EINVAL;
	if (advice != POSIX_FADV_DONTNEED || !f->f_mapping || !f->f_mapping->host)
		return 0;
	end = range_end((loff_t)off, (loff_t)len);
	__filemap_fdatawrite_range(f->f_mapping, (loff_t)off, end, WB_SYNC_NONE);
	first = (pgoff_t)DIV_ROUND_UP(off, PAGE_SIZE);
	last = (pgoff_t)(end >> PAGE_SHIFT);
	if ((end & (PAGE_SIZE - 1)) != PAGE_SIZE - 1) { /* a partial last page stays */
		if (!last)
			return 0;
		last--;
	}
	if (last >= first)
		invalidate_mapping_pages(f->f_mapping, first, last);
	return 0;
}

static const struct syscall_def calls[] = {
	{ 74, "fsync", sys_fsync },
	{ 75, "fdatasync", sys_fdatasync },
	{ 162, "sync", sys_sync },
	{ 221, "fadvise64", sys_fadvise64 },
	{ 277, "sync_file_range", sys_sync_file_range },
};

const struct syscall_table sys_sync_calls = { calls, ARRAY_SIZE(calls) };
