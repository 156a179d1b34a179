/*
 * The ext2 filesystem driver (fs/ext2/): the one thing the rest of the kernel calls.
 */
#ifndef CGWB_EXT2_H
#define CGWB_EXT2_H

#define EXT2_SUPER_MAGIC 0xEF53

/**
 * ext2_init() - register the "ext2" filesystem type with the VFS
 *
 * Context: boot, once, before a disk is mounted as ext2.
 * Return: 0, or -EBUSY if it is registered already.
 */
int ext2_init(void);

/* Where the superblock ext2_probe_fstype() reads is on a device, and its length. */
#define EXT2_SB_PROBE_OFFSET 1024
#define EXT2_SB_PROBE_BYTES 1024
/**
 * ext2_probe_fstype() - name the ext filesystem a superblock describes
 * @superblock: the EXT2_SB_PROBE_BYTES bytes at byte EXT2_SB_PROBE_OFFSET of a device
 *
 * As blkid would name it, by the features it needs: a journal makes it ext3, features
 * beyond ext3's make it ext4. An external journal device is none of them.
 *
 * Context: any context.
 * Return: "ext2", "ext3" or "ext4" (static), or NULL if it is none of them.
 */
const char *ext2_probe_fstype(const void *superblock);

#endif
