/*
 * Memory system calls (Linux's mm/mmap.c, mprotect.c, madvise.c): brk, anonymous and
 * private file mappings, munmap, mprotect, madvise(MADV_DONTNEED). A shared mapping of a
 * file is not there yet (-ENODEV, logged once); a shared anonymous one is private, which
 * no program can tell apart without fork.
 */
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include <cgwb/file.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include "internal.h"

#define PROT_MASK (UPROT_READ | UPROT_WRITE | UPROT_EXEC)
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_TYPE 0x0f
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_FIXED_NOREPLACE 0x100000
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

/* Where the mapping goes: the hint if MAP_FIXED (or free), else below mmap_base. */
static long place(struct mm_struct *mm, u64 addr, u64 len, u64 flags)
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
	if (!(flags & MAP_ANONYMOUS)) {
		file = fd_file((int)fd);
		if (!file)
			return -EBADF;
		if (type == MAP_SHARED) {
			static bool said;

			if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
				pr_info("%s[%d]: shared file mappings are not supported yet\n",
					current->comm, current->pid);
			return -ENODEV;
		}
		if (!file->f_path.dentry)
			return -ENODEV;
	}
	mutex_lock(&mm->lock);
	at = place(mm, addr, len, flags);
	if (at >= 0) {
		long err = mm_map(mm, (u64)at, (u64)at + len, (unsigned int)(prot & PROT_MASK),
				  file, off, file ? (u64)at + len : 0);
		if (err)
			at = err;
	}
	mutex_unlock(&mm->lock);
	return at;
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
	{ 12, "brk", sys_brk },  { 28, "madvise", sys_madvise },
};

void sys_mm_init(void)
{
	syscalls_register(calls, ARRAY_SIZE(calls));
}
