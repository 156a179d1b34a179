/* Names for error numbers, for messages (portable). */
#include <cgwb/errno.h>
#include <cgwb/compiler.h>

const char *errstr(int err)
{
	static const struct {
		int e;
		const char *name;
	} names[] = {
		{ EPERM, "Operation not permitted" },
		{ ENOENT, "No such file or directory" },
		{ ESRCH, "No such process" },
		{ EINTR, "Interrupted" },
		{ EIO, "Input/output error" },
		{ ENXIO, "No such device or address" },
		{ E2BIG, "Argument list too long" },
		{ ENOEXEC, "Exec format error" },
		{ EBADF, "Bad file descriptor" },
		{ ECHILD, "No child processes" },
		{ EAGAIN, "Resource temporarily unavailable" },
		{ ENOMEM, "Cannot allocate memory" },
		{ EACCES, "Permission denied" },
		{ EFAULT, "Bad address" },
		{ ENOTBLK, "Block device required" },
		{ EBUSY, "Device or resource busy" },
		{ EEXIST, "File exists" },
		{ EXDEV, "Invalid cross-device link" },
		{ ENODEV, "No such device" },
		{ ENOTDIR, "Not a directory" },
		{ EISDIR, "Is a directory" },
		{ EINVAL, "Invalid argument" },
		{ ENFILE, "Too many open files in system" },
		{ EMFILE, "Too many open files" },
		{ ENOTTY, "Inappropriate ioctl for device" },
		{ EFBIG, "File too large" },
		{ ENOSPC, "No space left on device" },
		{ ESPIPE, "Illegal seek" },
		{ EROFS, "Read-only file system" },
		{ EMLINK, "Too many links" },
		{ EPIPE, "Broken pipe" },
		{ ERANGE, "Numerical result out of range" },
		{ EDEADLK, "Resource deadlock avoided" },
		{ ENAMETOOLONG, "File name too long" },
		{ ENOSYS, "Function not implemented" },
		{ ENOTEMPTY, "Directory not empty" },
		{ ELOOP, "Too many levels of symbolic links" },
		{ ENODATA, "No data available" },
		{ EOVERFLOW, "Value too large for defined data type" },
		{ ELIBBAD, "Accessing a corrupted shared library" },
		{ EOPNOTSUPP, "Operation not supported" },
		{ ETIMEDOUT, "Connection timed out" },
		{ EUCLEAN, "Structure needs cleaning" },
		{ ECANCELED, "Operation canceled" },
	};

	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].e == err)
			return names[i].name;
	return "Unknown error";
}
