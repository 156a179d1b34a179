/* Shared set-up and helpers of the VFS unit tests (test_vfs_*.c). */
#ifndef CGWB_TEST_VFS_H
#define CGWB_TEST_VFS_H

#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/vmscan.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "host.h"

/* The kernel's boot order for the page cache, writeback and the VFS. */
static inline void vfs_test_setup(void)
{
	host_platform_init(64 << 20);
	storage_init();
	vfs_init();
}

static inline void vfs_test_teardown(void)
{
	host_platform_exit();
}

/* Write str to path (created or truncated): bytes written or -errno. */
static inline long vt_write(const char *path, const char *str, unsigned int flags)
{
	struct file *f = filp_open(path, O_WRONLY | O_CREAT | flags, 0644);
	long n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = file_write(f, str, strlen(str));
	fput(f);
	return n;
}

/* Read path into buf (NUL-terminated): bytes read or -errno. */
static inline long vt_read(const char *path, char *buf, size_t size)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	long n, total = 0;

	if (IS_ERR(f))
		return PTR_ERR(f);
	while ((size_t)total < size - 1 &&
	       (n = file_read(f, buf + total, size - 1 - (size_t)total)) > 0)
		total += n;
	buf[total] = 0;
	fput(f);
	return total;
}

static inline int vt_open_err(const char *path, unsigned int flags)
{
	struct file *f = filp_open(path, flags, 0644);

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	fput(f);
	return 0;
}

#endif
