/*
 * libFuzzer harness: mount-and-walk of corrupt ext4 images.
 *
 * Each input is the start of an image of a 2 MiB disk (room for the smallest journal; the
 * rest reads as zeros), put on the disk (fuzz_fs.c), mounted read-only as type ext4 and
 * walked: readdir (hashed directories' checksums), stat, reads of every file (extent
 * trees at any depth), readlink. The seeds are Debian's `mke2fs -t ext4` images, with and
 * without journal and metadata_csum. Mounts read-write are tried too: they must be refused
 * for ext4 features (and for journals) until writing them exists, and they run the ext2
 * round of changes when the input is an ext2 image, which type ext4 mounts as ext2 does.
 * Every umount must succeed.
 */
#include <stdint.h>
#include <stddef.h>
#include <cgwb/fs.h>
#include <cgwb/ext4.h>
#include <cgwb/bug.h>
#include "fuzz_fs.h"

FUZZ_FS_TARGET("ext4", (2u << 20), ext4_init)
