/*
 * The ext2 filesystem driver (fs/ext2/): the one thing the rest of the kernel calls.
 */
#ifndef CGWB_EXT2_H
#define CGWB_EXT2_H

#define EXT2_SUPER_MAGIC 0xEF53

/* Register "ext2" with the VFS. Call once at boot, before mounting a disk as ext2. */
int ext2_init(void);

#endif
