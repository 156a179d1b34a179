/*
 * The htree index's frames and probe, shared by lookups (namei.c) and insertion
 * (namei_add.c). Internal to fs/ext4/.
 */
#ifndef FS_EXT4_EXT4_DX_H
#define FS_EXT4_EXT4_DX_H

#include "ext4.h"

#define DX_BLOCK_MASK 0x0fffffffu /* the high bits of an index entry's block are not ours */
#define DX_ROOT_COUNT_OFFSET 32   /* ".", "..", then the root info */
#define DX_NODE_COUNT_OFFSET 8    /* one empty entry spanning the block */
#define DX_MAX_LEVELS 2           /* the root, and one level of nodes (no largedir) */

struct dx_frame {
	struct buffer_head *bh;
	const struct ext4_dx_entry *entries, *at;
	unsigned int count;
};

static inline const struct ext4_dx_root_info *dx_root_info(const struct buffer_head *bh)
{
	return (const void *)(bh->b_data + 24);
}

bool ext4_dir_is_indexed(struct inode *dir);
/* The hash of name as the root's info says to compute it; -EOPNOTSUPP if it cannot. */
int dx_hash(struct inode *dir, const struct ext4_dx_root_info *info, const struct qstr *name,
	    u32 *hash);
/* The logical block an index entry points at, checked to be inside the directory. */
int dx_block(struct inode *dir, const struct ext4_dx_entry *e, unsigned long *n);
/* Root to the deepest index frame for name's hash; frames hold references (dx_release). */
int dx_probe(struct inode *dir, const struct qstr *name, struct dx_frame *frames,
	     unsigned int *levels, u32 *hash);
void dx_release(struct dx_frame *frames);

#endif
