/*
 * libFuzzer harness: mount-and-walk of corrupt ext4 images.
 *
 * Each input is the start of an image of a 2 MiB disk (room for the smallest journal; the
 * rest reads as zeros), put on the disk (fuzz_fs.c), mounted read-only as type ext4 and
 * walked: readdir (hashed directories' checksums), stat, reads of every file (extent
 * trees at any depth), readlink. The seeds are Debian's `mke2fs -t ext4` images, with and
 * without journal and metadata_csum. Mounts read-write are tried too: refused for images
 * with a journal (its write side is missing), and running the round of changes on the
 * others: ext4 images without a journal (extents, checksums kept) and ext2 images, which
 * type ext4 mounts as ext2 does.
 * Every umount must succeed.
 */
#include <stdint.h>
#include <stddef.h>
#include <cgwb/fs.h>
#include <cgwb/ext4.h>
#include <cgwb/bug.h>
#include "fuzz_fs.h"

FUZZ_FS_TARGET("ext4", (2u << 20), ext4_init)
