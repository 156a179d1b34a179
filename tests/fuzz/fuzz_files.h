/*
 * Shared by the harnesses that write pseudo files (pseudo, cgroup, limits, tracefs): one
 * write or read of a whole file through the VFS, as `echo TEXT > FILE` and `cat FILE`
 * would, and the checks every such file must pass whatever was written to it.
 */
#ifndef CGWB_FUZZ_FILES_H
#define CGWB_FUZZ_FILES_H

#include <cgwb/types.h>

/* Open (O_WRONLY | O_TRUNC), one write of len bytes, close: bytes written or -errno. */
long fuzz_write(const char *path, const void *buf, size_t len);
/* The whole file into buf (NUL-terminated, at most size - 1 bytes): its length or -errno. */
long fuzz_read(const char *path, char *buf, size_t size);
/* Pseudo files hold text: printable ASCII, tabs and newlines. Anything else panics. */
void fuzz_check_text(const char *path, const char *buf, long n);
bool fuzz_ends_with(const char *s, const char *tail);
/*
 * A file holding one number or "max" (-1): its value. Unreadable or anything else panics
 * (the caller knows the file must hold one).
 */
long long fuzz_read_number(const char *path);
/* The directory part of path ("/a/b" for "/a/b/c"), into dir. */
void fuzz_dirname(const char *path, char *dir, size_t size);

#endif
