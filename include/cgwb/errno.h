/* Error numbers: Linux's values. Functions return them negated (-EIO). */
#ifndef CGWB_ERRNO_H
#define CGWB_ERRNO_H

#include <cgwb/types.h>

#ifndef CGWB_KERNEL
#include <errno.h>
#else
#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define ENOTBLK 15
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define ENOTTY 25
#define ETXTBSY 26
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EROFS 30
#define EMLINK 31
#define EPIPE 32
#define EDOM 33
#define ERANGE 34
#define EDEADLK 35
#define ENAMETOOLONG 36
#define ENOLCK 37
#define ENOSYS 38
#define ENOTEMPTY 39
#define ELOOP 40
#define ENODATA 61
#define ETIME 62
#define EOVERFLOW 75
#define ELIBBAD 80
#define EUCLEAN 117
#define EOPNOTSUPP 95
#define ETIMEDOUT 110
#define ECANCELED 125
#endif

#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) ((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}
static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}
static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}
/* An error pointer of one type passed on as another. */
static inline void *ERR_CAST(const void *ptr)
{
	return (void *)ptr;
}

/**
 * errstr() - the message for an error number, as strerror gives it
 * @err: the error, negative or positive (-EIO and EIO alike)
 *
 * Context: any context.
 * Return: the message ("Input/output error" for -EIO), or "Unknown error"; static.
 */
const char *errstr(int err);

#endif
