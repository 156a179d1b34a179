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
/* A writable file, and what it held at start (NULL if write-only). */
struct fuzz_knob {
	char path[160];
	char *initial;
};

/*
 * Append to knobs (*nr of them, max at most) every writable regular file below dir,
 * max_depth levels down, in readdir order, leaving out the directories skip() says (NULL:
 * none). The order is the same on every run: inputs pick files by index.
 */
void fuzz_find_knobs(const char *dir, int max_depth, bool (*skip)(const char *dir),
		     struct fuzz_knob *knobs, int *nr, int max);
/*
 * The storage stack, nr_disks empty in-memory disks of 1 MiB (vda, vdb...: devices for
 * io.max and the bdi files), the VFS and the cgroup filesystem, as at boot.
 */
void fuzz_boot_cgroups(int nr_disks);
/* fuzz_boot_cgroups(), then groups a and a/b, with memory and io for each. */
void fuzz_boot_groups_a_b(int nr_disks);
/* Write how ("+memory +io") to the cgroup.subtree_control of cgroup ("" is the root). */
void fuzz_set_controllers(const char *cgroup, const char *how);

#endif
