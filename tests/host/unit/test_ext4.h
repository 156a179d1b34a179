/*
 * Shared by the ext4 host tests (test_ext4_*.c), over test_ext2.h's stack and tools: an
 * image made by `mke2fs -t ext4 -d` from a known tree, mounted as type ext4, and the
 * checks that the tree reads back.
 */
#ifndef TEST_EXT4_H
#define TEST_EXT4_H

#include <cgwb/types.h>

#define SPARSE_CHUNKS 24 /* 4 KiB pieces 64 KiB apart: more extents than the root holds */
#define DIR_ENTRIES 400  /* several blocks: e2fsck -D indexes it */

/*
 * The tree: /f0../f7 (0 B to 3 MiB), /sparse (SPARSE_CHUNKS chunks), /dir/sub/deep,
 * /big (DIR_ENTRIES files), /fast and /slow symlinks. mke2fs -t ext4 OPTS -d TREE on a
 * 32 MiB image, then e2fsck -D so that /big is hashed.
 */
void ext4t_make_image(const char *opts);
/* Attach the image and mount it as ext4 on /mnt with flags; mount's error. */
int ext4t_mount(unsigned long flags);
/* Everything of the tree but /sparse reads back (expectations, not assertions). */
void ext4t_check_tree(void);
/* /sparse: its chunks, and zeros between them. */
void ext4t_check_sparse(void);
/* debugfs set_super_value: the superblock rewritten with a right checksum. */
void ext4t_set_super_value(const char *field, const char *value);
/* How many leaf extents of `debugfs ex path` the awk pattern what picks (/Uninit/...). */
unsigned long long ext4t_extents_matching(const char *path, const char *what);

#endif
