/*
 * The ext2 filesystem driver (fs/ext2/): the one thing the rest of the kernel calls.
 */
#ifndef CGWB_EXT2_H
#define CGWB_EXT2_H

#define EXT2_SUPER_MAGIC 0xEF53

/* Register "ext2" with the VFS. Call once at boot, before mounting a disk as ext2. */
int ext2_init(void);

/*
 * The superblock at byte 1024 of a device, EXT2_SB_PROBE_BYTES long: "ext2", "ext3" or
 * "ext4" as blkid would name it (by the features it needs), or NULL if it is none.
 */
#define EXT2_SB_PROBE_OFFSET 1024
#define EXT2_SB_PROBE_BYTES 1024
const char *ext2_probe_fstype(const void *superblock);

#endif
