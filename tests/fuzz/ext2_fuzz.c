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

FUZZ_FS_TARGET("ext2", (256u << 10), ext2_init)
