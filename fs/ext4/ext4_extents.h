/*
 * The extent tree's node helpers, shared by the files that read it (extents.c), grow it
 * (extents_alloc.c) and shrink it (extents_truncate.c). Internal to fs/ext4/.
 */
#ifndef FS_EXT4_EXT4_EXTENTS_H
#define FS_EXT4_EXT4_EXTENTS_H

#include "ext4.h"

#define EXT_MAX_BLOCKS 0xffffffffu /* logical blocks are 32 bits */

static inline struct ext4_extent_header *ext_root(struct inode *inode)
{
	return (struct ext4_extent_header *)EXT2_I(inode)->i_data;
}

static inline struct ext4_extent *ext_first(const struct ext4_extent_header *eh)
{
	return (struct ext4_extent *)(eh + 1);
}

static inline struct ext4_extent_idx *idx_first(const struct ext4_extent_header *eh)
{
	return (struct ext4_extent_idx *)(eh + 1);
}

static inline u32 ext_len(const struct ext4_extent *ex)
{
	u32 len = le16_to_cpu(ex->ee_len);

	return len > EXT4_EXT_INIT_MAX_LEN ? len - EXT4_EXT_INIT_MAX_LEN : len;
}

static inline bool ext_unwritten(const struct ext4_extent *ex)
{
	return le16_to_cpu(ex->ee_len) > EXT4_EXT_INIT_MAX_LEN;
}

/* The longest extent of either state: 32768 written, 32767 unwritten (ee_len's top bit). */
static inline u32 ext_max_len(bool unwritten)
{
	return unwritten ? EXT4_EXT_INIT_MAX_LEN - 1 : EXT4_EXT_INIT_MAX_LEN;
}

static inline void ext_set_len(struct ext4_extent *ex, u32 len, bool unwritten)
{
	ex->ee_len = cpu_to_le16((u16)(unwritten ? len + EXT4_EXT_INIT_MAX_LEN : len));
}

/* Slots a node of space bytes holds (the root: 60 bytes, 4 slots). */
static inline unsigned int ext_space(unsigned int space)
{
	return (space - sizeof(struct ext4_extent_header)) / sizeof(struct ext4_extent);
}

/* The first logical block of entry i of a node: extents and index entries alike. */
static inline u32 ext_key(const struct ext4_extent_header *eh, unsigned int i)
{
	return le32_to_cpu(ext_first(eh)[i].ee_block);
}

/* A node read from disk and checked; ERR_PTR on failure (extents.c). */
struct buffer_head *ext4_ext_read_node(struct inode *inode, u32 pblk, unsigned int depth);
/* How many entries of the node start at or before lblk (extents.c). */
unsigned int ext4_ext_bisect(const struct ext4_extent_header *eh, u32 lblk);

/* A path from the root down to a leaf (extents_alloc.c). */
struct ext4_ext_path {
	struct ext4_extent_header *hdr;
	struct buffer_head *bh; /* NULL for the root, in the inode */
	u32 pblk;               /* the node's block (0: the root) */
	unsigned int pos;       /* index levels: the entry followed */
};

/* The path to the leaf that covers (or would cover) lblk: its depth, or -errno. */
int ext4_find_extent(struct inode *inode, u32 lblk, struct ext4_ext_path *path);
void ext_path_release(struct ext4_ext_path *path, unsigned int depth);
/* A node changed: its checksum and a dirty buffer, or a dirty inode for the root. */
void ext_node_dirty(struct inode *inode, struct ext4_ext_path *p);
/* The hole at lblk: its length, and where its blocks would go (*goal; 0: anywhere). */
u32 ext_hole(struct ext4_ext_path *path, unsigned int depth, u32 lblk, u32 *goal);
/* [lblk, lblk + len) -> pblk, a hole until now, into the tree (splits, growth). */
int ext4_ext_insert_extent(struct inode *inode, u32 lblk, u32 pblk, u32 len, bool unwritten);
/* Map lblk's run whether written or not (*unwritten says): blocks, 0 for a hole, -EIO. */
int ext4_ext_map_any(struct inode *inode, u32 lblk, unsigned long maxblocks, u32 *bno,
		     bool *unwritten);

#endif
