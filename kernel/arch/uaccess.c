/*
 * Copying from and to a program's memory (<cgwb/user.h>): the range must lie in the user
 * half, and a fault the address space cannot resolve ends the copy (uaccess.S's fixup)
 * with -EFAULT instead of an oops. Only from a program's task, interrupts on, no spinlock
 * held: a fault may read a file.
 */
#include <cgwb/user.h>
#include <cgwb/errno.h>
#include <cgwb/mm.h>

int copy_from_user(void *dst, u64 src, size_t len)
{
	if (!access_ok(src, len))
		return -EFAULT;
	return copy_user_generic(dst, (const void *)(uintptr_t)src, len) ? -EFAULT : 0;
}

int copy_to_user(u64 dst, const void *src, size_t len)
{
	if (!access_ok(dst, len))
		return -EFAULT;
	return copy_user_generic((void *)(uintptr_t)dst, src, len) ? -EFAULT : 0;
}

long strncpy_from_user(char *dst, u64 src, size_t size)
{
	size_t done = 0;

	while (done < size) {
		/* up to the end of src's page: the next one may not be there */
		size_t n = min(size - done, PAGE_SIZE - ((src + done) & ~PAGE_MASK));

		if (copy_from_user(dst + done, src + done, n))
			return -EFAULT;
		for (size_t i = 0; i < n; i++) {
			if (!dst[done + i])
				return (long)(done + i);
		}
		done += n;
	}
	return -ENAMETOOLONG;
}
