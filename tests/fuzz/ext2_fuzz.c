/*
 * libFuzzer harness: mount-and-walk of corrupt ext2 images.
 *
 * Each input is the start of an image (the rest of the 256 KiB disk reads as zeros:
 * mke2fs leaves the end of a small image empty, so a seed is a few dozen KiB), put on the
 * disk (fuzz_fs.c), mounted read-only and walked: readdir, stat of each entry, a read of
 * every file (its start, and its end past any hole), readlink of every symlink. Then
 * umount. Then the image is mounted read-write for a short round of changes (create,
 * write, truncate, rename, link, delete, including the first file the walk found) so that
 * allocation and freeing meet the corruption too. Every umount must succeed.
 */
#include <stdint.h>
#include <stddef.h>
#include <cgwb/fs.h>
#include <cgwb/ext2.h>
#include <cgwb/bug.h>
#include "fuzz_fs.h"

#define DISK_BYTES (256u << 10) /* longer inputs are refused, shorter zero-padded */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_fs_boot(DISK_BYTES);
	BUG_ON(ext2_init());
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_fs_one_input(data, size, "ext2");
}
