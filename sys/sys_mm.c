/*
 * Memory system calls (Linux's mm/mmap.c, mprotect.c, madvise.c, msync.c): brk, anonymous
 * and file mappings, private and shared, munmap, mprotect, madvise(MADV_DONTNEED), msync.
 * A shared anonymous mapping is, as Linux's (shmem_zero_setup()), a shared mapping of a
 * file nobody can name: here one made and unlinked at once in /tmp (ramfs).
 */
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include <cgwb/file.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/string.h>
#include "internal.h"

#define PROT_MASK (UPROT_READ | UPROT_WRITE | UPROT_EXEC)
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_TYPE 0x0f
#define MAP_ANONYMOUS 0x20
#define MADV_DONTNEED 4

static long sys_brk(u64 brk, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	return (long)mm_brk(current->mm, brk);
}

static bool range_mapped(struct mm_struct *mm, u64 start, u64 end)
{
	struct vm_area_struct *v;

	list_for_each_entry(v, &mm->vmas, node) {
		if (v->start < end && v->end > start)
			return true;
	}
	return false;
}

long mmap_place(struct mm_struct *mm, u64 addr, u64 len, u64 flags)
{
	bool fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);

	if (fixed || (addr && !(addr & ~PAGE_MASK))) {
		bool fits = !(addr & ~PAGE_MASK) && access_ok(addr, len) && addr >= PAGE_SIZE;

		if (fits && (flags & MAP_FIXED_NOREPLACE) && range_mapped(mm, addr, addr + len))
			return -EEXIST;
		if (fits && (fixed || !range_mapped(mm, addr, addr + len)))
			return (long)addr;
		if (fixed)
			return -EINVAL;
	}
	addr = mm_get_unmapped_area(mm, len);
	return addr ? (long)addr : -ENOMEM;
}

static long sys_mmap(u64 addr, u64 len, u64 prot, u64 flags, u64 fd, u64 off)
{
	struct mm_struct *mm = current->mm;
	struct file *file = NULL;
	u64 type = flags & MAP_TYPE;
	long at;

	if (!len || (off & ~PAGE_MASK) || (type != MAP_SHARED && type != MAP_PRIVATE) ||
	    PAGE_ALIGN(len) < len)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	if (flags & MAP_ANONYMOUS) {
		if (type == MAP_SHARED) {
			file = shmem_file_setup(len);
			if (IS_ERR(file))
				return PTR_ERR(file);
		}
		off = 0;
	} else {
		file = fd_file((int)fd);
		if (!file)
			return -EBADF;
		if (!file->f_path.dentry || !file->f_mapping || !file->f_mapping->a_ops->readpage)
			return -ENODEV;
		if ((file->f_flags & O_ACCMODE) == O_WRONLY ||
		    (type == MAP_SHARED && (prot & UPROT_WRITE) &&
		     (file->f_flags & O_ACCMODE) != O_RDWR))
			return -EACCES;
		get_file(file);
	}
	mutex_lock(&mm->lock);
	at = mmap_place(mm, addr, len, flags);
	if (at >= 0) {
		unsigned int p = (unsigned int)(prot & PROT_MASK);
		long err = type == MAP_SHARED ?
				   mm_map_shared(mm, (u64)at, (u64)at + len, p, file, off) :
				   mm_map(mm, (u64)at, (u64)at + len, p, file, off,
					  file ? (u64)at + len : 0);
		if (err)
			at = err;
	}
	mutex_unlock(&mm->lock);
	if (file)
		fput(file); /* the area holds its own */
	return at;
}

struct file *shmem_file_setup(u64 len)
{
	static unsigned int seq;
	char name[64];
	struct file *f;
	int err;

	snprintf(name, sizeof(name), "/tmp/.shm-%d-%u", current->pid,
		 __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
	f = filp_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (IS_ERR(f))
		return f;
	err = do_unlink(name);
	if (!err)
		err = vfs_truncate(&f->f_path, (loff_t)len);
	if (err) {
		fput(f);
		return ERR_PTR(err);
	}
	return f;
}

#define MS_ASYNC 1
#define MS_INVALIDATE 2
#define MS_SYNC 4

/*
 * The shared file range of the first area in [*at, end), referenced (NULL for a private
 * area), *at moved past it; a hole before it or no area at all sets *err to -ENOMEM.
 */
static struct file *msync_next(struct mm_struct *mm, u64 *at, u64 end, loff_t *from, loff_t *to,
			       long *err)
{
	struct vm_area_struct *v, *found = NULL;
	struct file *file = NULL;

	mutex_lock(&mm->lock);
	list_for_each_entry(v, &mm->vmas, node) {
		if (v->end > *at && v->start < end) {
			found = v;
			break;
		}
	}
	if (!found || found->start > *at)
		*err = -ENOMEM; /* unmapped addresses, as Linux */
	if (found) {
		*at = max(*at, found->start);
		if (found->shared) {
			file = get_file(found->file);
			*from = (loff_t)(found->file_off + (*at - found->start));
			*to = (loff_t)(found->file_off + (min(found->end, end) - found->start)) - 1;
		}
		*at = min(found->end, end);
	} else {
		*at = end;
	}
	mutex_unlock(&mm->lock);
	return file;
}

/* msync: MS_SYNC writes and waits for the shared file pages in the range (MS_ASYNC is
 * nothing, as on Linux since 2.6.19: the pages are dirty already). */
static long sys_msync(u64 start, u64 len, u64 flags, u64 a3, u64 a4, u64 a5)
{
	u64 end = start + PAGE_ALIGN(len), at = start;
	long err = 0;

	if ((start & ~PAGE_MASK) || (flags & ~(u64)(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) ||
	    ((flags & MS_ASYNC) && (flags & MS_SYNC)) || end < start)
		return -EINVAL;
	while ((flags & MS_SYNC) && at < end) {
		loff_t from = 0, to = 0;
		struct file *file = msync_next(current->mm, &at, end, &from, &to, &err);

		if (file) {
			long e = vfs_fsync_range(file, from, to, 0);

			err = err ? err : e;
			fput(file);
		}
	}
	return err;
}

static long sys_munmap(u64 addr, u64 len, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct mm_struct *mm = current->mm;
	long err;

	if ((addr & ~PAGE_MASK) || !len || !access_ok(addr, PAGE_ALIGN(len)))
		return -EINVAL;
	mutex_lock(&mm->lock);
	err = mm_unmap(mm, addr, addr + PAGE_ALIGN(len));
	mutex_unlock(&mm->lock);
	return err;
}

static long sys_mprotect(u64 addr, u64 len, u64 prot, u64 a3, u64 a4, u64 a5)
{
	struct mm_struct *mm = current->mm;
	long err;

	if ((addr & ~PAGE_MASK) || !access_ok(addr, PAGE_ALIGN(len)) || (prot & ~PROT_MASK))
		return -EINVAL;
	if (!len)
		return 0;
	mutex_lock(&mm->lock);
	err = mm_protect(mm, addr, addr + PAGE_ALIGN(len), (unsigned int)prot);
	mutex_unlock(&mm->lock);
	return err;
}

static long sys_madvise(u64 addr, u64 len, u64 advice, u64 a3, u64 a4, u64 a5)
{
	struct mm_struct *mm = current->mm;

	if ((addr & ~PAGE_MASK) || !access_ok(addr, PAGE_ALIGN(len)))
		return -EINVAL;
	if (advice != MADV_DONTNEED)
		return 0; /* advice only */
	mutex_lock(&mm->lock);
	mm_zap(mm, addr, addr + PAGE_ALIGN(len));
	mutex_unlock(&mm->lock);
	return 0;
}

static const struct syscall_def calls[] = {
	{ 9, "mmap", sys_mmap }, { 10, "mprotect", sys_mprotect }, { 11, "munmap", sys_munmap },
	{ 12, "brk", sys_brk },  { 26, "msync", sys_msync },       { 28, "madvise", sys_madvise },
};

const struct syscall_table sys_mm_calls = { calls, ARRAY_SIZE(calls) };
