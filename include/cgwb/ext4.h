/*
 * The ext4 filesystem type (fs/ext4/ over fs/ext2/'s driver: docs/ext4.md). It mounts ext2
 * images as "ext2" does, and ext4 images (extents, 64bit, flex_bg, metadata_csum).
 */
#ifndef CGWB_EXT4_H
#define CGWB_EXT4_H

/**
 * ext4_init() - register the "ext4" filesystem type with the VFS
 *
 * Context: boot, once, before a disk is mounted as ext4.
 * Return: 0, or -EBUSY if it is registered already.
 */
int ext4_init(void);

#endif
