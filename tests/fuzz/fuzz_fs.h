/*
 * Shared by the disk filesystem harnesses (ext2_fuzz.c, ext4_fuzz.c): the storage stack
 * over one in-memory disk, an input copied onto it, the walk of a mounted image and a
 * round of changes on a read-write mount. Whatever the image holds, nothing may crash,
 * hang or trip a sanitizer; errors are fine.
 */
#ifndef CGWB_FUZZ_FS_H
#define CGWB_FUZZ_FS_H

#include <cgwb/types.h>

/* The stack up (the caller registers its filesystem types after), a disk of disk_bytes. */
void fuzz_fs_boot(size_t disk_bytes);
/*
 * The input onto the disk, the rest zeros. The block device must hold nothing from the
 * previous input (umount and a failed mount leave nothing cached): a page left behind
 * panics, as a finding.
 */
void fuzz_fs_load_image(const u8 *data, size_t size);
/*
 * Every directory under /mnt: readdir, stat of each entry, a read of every file (its
 * start, and its end past any hole), readlink of every symlink. Remembers the first
 * regular file for fuzz_fs_change_things().
 */
void fuzz_fs_walk(void);
/* Create, write, truncate, rename, link, unlink under /mnt, and the file the walk found. */
void fuzz_fs_change_things(void);
/*
 * One input of a harness: onto the disk (-1 if longer than it), mounted read-only as type
 * and walked, then mounted read-write for a round of changes. Every umount must succeed.
 */
int fuzz_fs_one_input(const u8 *data, size_t size, const char *type);

/* A harness's two entry points: a disk of disk_bytes, register() types, inputs as type. */
#define FUZZ_FS_TARGET(type, disk_bytes, register_types)              \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); \
	int LLVMFuzzerInitialize(int *argc, char ***argv);            \
	int LLVMFuzzerInitialize(int *argc, char ***argv)             \
	{                                                             \
		(void)argc;                                           \
		(void)argv;                                           \
		fuzz_fs_boot(disk_bytes);                             \
		BUG_ON(register_types());                             \
		return 0;                                             \
	}                                                             \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)  \
	{                                                             \
		return fuzz_fs_one_input(data, size, type);           \
	}

#endif
