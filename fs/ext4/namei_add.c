/*
 * Adding a name to a hashed (htree) directory, as Linux's ext4_dx_add_entry(): the index
 * picks the leaf for the name's hash, and the name goes there if it has room. A full leaf
 * is split (do_split): its entries sorted by hash, the upper half (by bytes) moved into a
 * new block at the directory's end, both blocks packed, and the new block's first hash
 * (with its low bit set when a collision run continues across the split) inserted into
 * the index after the old leaf's entry. An index block that is full first makes room: a
 * full root moves its entries into a new node (the tree gets its one level of nodes), a
 * full node gives its upper half to a new node the root then points at. Past that (the
 * root and its node both full: largedir's third level) the name is refused, -ENOSPC, as
 * Linux without largedir does. Each step starts the insertion over from the probe.
 *
 * A linear directory of one block that has no room for a name becomes indexed, as Linux's
 * make_indexed_dir(): its entries after "." and ".." move to a new second block, the first
 * becomes the root (".." spanning the root info and one index entry for that leaf), and the
 * name is added through the index, which splits the full leaf. A linear directory that
 * already has more blocks stays linear, as on Linux.
 *
 * Callers hold the directory's i_rwsem. Every block changed gets its checksum (leaf tail
 * or dx tail) before it is marked dirty.
 */
#include "ext4_dx.h"
#include <cgwb/errno.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>

static struct ext2_dir_entry_2 *de_at(struct buffer_head *bh, unsigned int off)
{
	return (struct ext2_dir_entry_2 *)(bh->b_data + off);
}

/* Entries an index block holds between its count and its tail. */
static unsigned int dx_limit(struct inode *dir, unsigned int count_offset)
{
	unsigned int size = (unsigned int)dir->i_sb->s_blocksize;
	unsigned int tail = ext4_has_metadata_csum(dir->i_sb) ? sizeof(struct ext4_dx_tail) : 0;

	return (size - count_offset - tail) / sizeof(struct ext4_dx_entry);
}

static struct ext4_dx_countlimit *dx_countlimit(struct dx_frame *f)
{
	return (struct ext4_dx_countlimit *)f->entries;
}

static void dx_dirty(struct inode *dir, struct buffer_head *bh)
{
	ext4_dx_csum_set(dir, (u8 *)bh->b_data);
	ext2_dirty_metadata(dir->i_sb, bh);
}

/* (hash, block) into frame f right after the entry followed; f has room. */
static void dx_insert_block(struct inode *dir, struct dx_frame *f, u32 hash, u32 block)
{
	struct ext4_dx_entry *e = (struct ext4_dx_entry *)f->entries;
	unsigned int pos = (unsigned int)(f->at - f->entries) + 1;
	struct ext4_dx_countlimit *c = dx_countlimit(f);

	BUG_ON(f->count >= le16_to_cpu(c->limit));
	memmove(&e[pos + 1], &e[pos], (f->count - pos) * sizeof(*e));
	e[pos].hash = cpu_to_le32(hash);
	e[pos].block = cpu_to_le32(block);
	c->count = cpu_to_le16((u16)++f->count);
	dx_dirty(dir, f->bh);
}

/*
 * A new index node at the end of dir holding the n entries of src. Its entry 0 keeps only
 * its block: the hash field is the node's count and limit (the parent's entry holds the
 * hash the node starts at).
 */
static struct buffer_head *dx_new_node(struct inode *dir, const struct ext4_dx_entry *src,
				       unsigned int n, u32 *block)
{
	struct buffer_head *bh = ext2_dir_append_block(dir);
	struct ext4_dx_countlimit *c;

	if (IS_ERR(bh))
		return bh;
	*block = (u32)((dir->i_size >> dir->i_sb->s_blocksize_bits) - 1);
	memset(bh->b_data, 0, bh->b_size);
	de_at(bh, 0)->rec_len = cpu_to_le16((u16)bh->b_size); /* one empty entry spanning it */
	memcpy(bh->b_data + DX_NODE_COUNT_OFFSET, src, n * sizeof(*src));
	c = (void *)(bh->b_data + DX_NODE_COUNT_OFFSET);
	c->limit = cpu_to_le16((u16)dx_limit(dir, DX_NODE_COUNT_OFFSET));
	c->count = cpu_to_le16((u16)n);
	dx_dirty(dir, bh);
	return bh;
}

/* The root is full and has no nodes: its entries move into a node, the one it points at. */
static int dx_add_level(struct inode *dir, struct dx_frame *root)
{
	struct ext4_dx_entry *e = (struct ext4_dx_entry *)root->entries;
	struct ext4_dx_root_info *info = (void *)dx_root_info(root->bh);
	struct buffer_head *bh;
	u32 block;

	bh = dx_new_node(dir, e, root->count, &block);
	if (IS_ERR(bh))
		return (int)PTR_ERR(bh);
	brelse(bh);
	dx_countlimit(root)->count = cpu_to_le16(1);
	e[0].block = cpu_to_le32(block);
	info->indirect_levels = 1;
	dx_dirty(dir, root->bh);
	return 0;
}

/* A full node whose root has room: its upper half goes to a new node after it. */
static int dx_split_node(struct inode *dir, struct dx_frame *root, struct dx_frame *node)
{
	struct ext4_dx_entry *e = (struct ext4_dx_entry *)node->entries;
	unsigned int keep = node->count / 2;
	struct buffer_head *bh;
	u32 block, hash = le32_to_cpu(e[keep].hash);

	bh = dx_new_node(dir, &e[keep], node->count - keep, &block);
	if (IS_ERR(bh))
		return (int)PTR_ERR(bh);
	brelse(bh);
	dx_countlimit(node)->count = cpu_to_le16((u16)keep);
	node->count = keep;
	dx_dirty(dir, node->bh);
	dx_insert_block(dir, root, hash, block);
	return 0;
}

struct dx_map {
	u32 hash;
	u16 off, size;
};

static int dx_map_cmp(const struct dx_map *a, const struct dx_map *b)
{
	return a->hash < b->hash ? -1 : a->hash > b->hash;
}

/* The live entries of a leaf with their hashes, sorted by hash (insertion sort: < 1 block). */
static int dx_make_map(struct inode *dir, struct dx_frame *root, struct buffer_head *bh,
		       struct dx_map *map, unsigned int space)
{
	int n = 0;

	for (unsigned int off = 0; off < space; off += le16_to_cpu(de_at(bh, off)->rec_len)) {
		struct ext2_dir_entry_2 *de = de_at(bh, off);
		int i = n, err;

		if (!ext2_dirent_steps(dir, bh, off, space))
			return -EIO;
		if (!de->inode)
			continue;
		struct qstr q = { .name = de->name, .len = de->name_len };
		struct dx_map m = { .off = (u16)off, .size = (u16)EXT2_DIR_REC_LEN(de->name_len) };
		err = dx_hash(dir, dx_root_info(root->bh), &q, &m.hash);
		if (err)
			return err;
		while (i > 0 && dx_map_cmp(&map[i - 1], &m) > 0) {
			map[i] = map[i - 1];
			i--;
		}
		map[i] = m;
		n++;
	}
	return n;
}

/* Entries map[0..n) of src written packed into dst from its start; the last one spans. */
static void dx_pack(struct buffer_head *dst, const u8 *src, const struct dx_map *map,
		    unsigned int n, unsigned int space)
{
	unsigned int off = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct ext2_dir_entry_2 *de = de_at(dst, off);

		memcpy(de, src + map[i].off, map[i].size);
		de->rec_len = cpu_to_le16((u16)(i + 1 < n ? map[i].size : space - off));
		off += map[i].size;
	}
}

/* Split the full leaf bh (followed from f) in two by hash; the index gets the new one. */
static int dx_split_leaf(struct inode *dir, struct dx_frame *root, struct dx_frame *f,
			 struct buffer_head *bh)
{
	unsigned int space = (unsigned int)bh->b_size - ext4_dir_tail_len(dir->i_sb);
	struct dx_map *map = kmalloc(sizeof(*map) * (space / EXT2_DIR_REC_LEN(1) + 1), GFP_KERNEL);
	u8 *copy = kmalloc(bh->b_size, GFP_KERNEL);
	unsigned int split = 0, bytes = 0, total = 0;
	struct buffer_head *nbh = NULL;
	int n, err = -ENOMEM;
	u32 hash2;

	if (!map || !copy)
		goto out;
	n = dx_make_map(dir, root, bh, map, space);
	err = n < 0 ? n : 0;
	if (err || n < 2) {
		err = err ? err : -ENOSPC; /* one name fills the block: nothing to split */
		goto out;
	}
	for (int i = 0; i < n; i++)
		total += map[i].size;
	while (split < (unsigned int)n - 1 && bytes + map[split].size <= total / 2)
		bytes += map[split++].size;
	split = max(split, 1u);
	hash2 = map[split].hash;
	if (hash2 == map[split - 1].hash)
		hash2 |= 1; /* the collision run goes on in the new leaf */
	nbh = ext2_dir_append_block(dir);
	if (IS_ERR(nbh)) {
		err = (int)PTR_ERR(nbh);
		nbh = NULL;
		goto out;
	}
	memcpy(copy, bh->b_data, bh->b_size);
	dx_pack(nbh, copy, map + split, (unsigned int)n - split, space);
	dx_pack(bh, copy, map, split, space);
	ext4_dirblock_csum_set(dir, nbh, false);
	ext2_dirty_metadata(dir->i_sb, nbh);
	ext4_dirblock_csum_set(dir, bh, false);
	ext2_dirty_metadata(dir->i_sb, bh);
	dx_insert_block(dir, f, hash2, (u32)((dir->i_size >> dir->i_sb->s_blocksize_bits) - 1));
out:
	brelse(nbh);
	kfree(copy);
	kfree(map);
	return err;
}

/*
 * One try: 0 added, 1 the index or a leaf was split (look again), -errno. The frame a
 * leaf split needs room in is made room in first.
 */
static int dx_try_add(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	struct dx_frame frames[DX_MAX_LEVELS] = { 0 };
	unsigned int levels = 0;
	struct buffer_head *bh = NULL;
	struct dx_frame *f;
	unsigned long n;
	u32 hash;
	int err = dx_probe(dir, name, frames, &levels, &hash);

	if (err)
		goto out;
	f = &frames[levels];
	err = dx_block(dir, f->at, &n);
	bh = err ? NULL : ext2_dir_bread(dir, n);
	if (IS_ERR(bh)) {
		err = (int)PTR_ERR(bh);
		bh = NULL;
	}
	if (err)
		goto out;
	err = ext2_add_entry_to_block(dir, bh, name, inode);
	if (err != -ENOSPC)
		goto out;
	if (f->count < le16_to_cpu(dx_countlimit(f)->limit))
		err = dx_split_leaf(dir, &frames[0], f, bh);
	else if (!levels)
		err = dx_add_level(dir, &frames[0]);
	else if (frames[0].count < le16_to_cpu(dx_countlimit(&frames[0])->limit))
		err = dx_split_node(dir, &frames[0], f);
	else
		err = -ENOSPC;
	if (err == -ENOSPC)
		ext2_msg(dir->i_sb, KERN_ERR, "error: directory #%lu: directory index full",
			 dir->i_ino);
	err = err ? err : 1;
out:
	brelse(bh);
	dx_release(frames);
	return err;
}

/* The entries of a linear block 0 after "." and ".." (at off), or -EIO if not so laid out. */
static int dx_linear_entries(struct inode *dir, struct buffer_head *bh, unsigned int *off)
{
	struct ext2_dir_entry_2 *dot = de_at(bh, 0), *dotdot;
	unsigned int len = le16_to_cpu(dot->rec_len);

	if (dot->name_len != 1 || dot->name[0] != '.' || len != EXT2_DIR_REC_LEN(1))
		return -EIO;
	dotdot = de_at(bh, len);
	if (dotdot->name_len != 2 || memcmp(dotdot->name, "..", 2) ||
	    le16_to_cpu(dotdot->rec_len) < EXT2_DIR_REC_LEN(2))
		return -EIO;
	*off = len + le16_to_cpu(dotdot->rec_len);
	return 0;
}

/* Block 0's entries [off, space) into leaf (a new block), the last one spanning to space. */
static void dx_move_entries(struct buffer_head *root, unsigned int off, struct buffer_head *leaf,
			    unsigned int space)
{
	unsigned int at = 0, last = 0;

	memcpy(leaf->b_data, root->b_data + off, space - off);
	while (at < space - off) {
		last = at;
		at += le16_to_cpu(de_at(leaf, at)->rec_len);
	}
	de_at(leaf, last)->rec_len = cpu_to_le16((u16)(space - last));
}

/* Block 0 as the root of an index with one leaf, block 1. */
static void dx_make_root(struct inode *dir, struct buffer_head *bh)
{
	struct ext2_dir_entry_2 *dotdot = de_at(bh, EXT2_DIR_REC_LEN(1));
	struct ext4_dx_root_info *info = (struct ext4_dx_root_info *)(bh->b_data + 24);
	struct ext4_dx_entry *e = (struct ext4_dx_entry *)(bh->b_data + DX_ROOT_COUNT_OFFSET);
	struct ext4_dx_countlimit *c = (struct ext4_dx_countlimit *)e;
	u8 version = EXT2_SB(dir->i_sb)->s_es->s_def_hash_version;

	dotdot->rec_len = cpu_to_le16((u16)(bh->b_size - EXT2_DIR_REC_LEN(1)));
	memset(info, 0, bh->b_size - 24);
	info->hash_version = version <= DX_HASH_TEA ? version : DX_HASH_HALF_MD4;
	info->info_length = sizeof(*info);
	c->limit = cpu_to_le16((u16)dx_limit(dir, DX_ROOT_COUNT_OFFSET));
	c->count = cpu_to_le16(1);
	e[0].block = cpu_to_le32(1);
}

/*
 * The name into dir's only block, or, when it has no room there, dir made indexed: 0 added,
 * 1 made indexed (add through the index), -errno.
 */
static int dx_make_indexed_dir(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	unsigned int space = (unsigned int)dir->i_sb->s_blocksize - ext4_dir_tail_len(dir->i_sb);
	struct buffer_head *bh = ext2_dir_bread(dir, 0), *leaf;
	unsigned int off;
	int err;

	if (IS_ERR(bh))
		return (int)PTR_ERR(bh);
	err = ext2_add_entry_to_block(dir, bh, name, inode);
	if (err != -ENOSPC)
		goto out;
	err = dx_linear_entries(dir, bh, &off);
	if (err || off >= space) {
		err = 1; /* not laid out as make_indexed_dir needs: it stays linear */
		goto out;
	}
	leaf = ext2_dir_append_block(dir);
	if (IS_ERR(leaf)) {
		err = (int)PTR_ERR(leaf);
		goto out;
	}
	dx_move_entries(bh, off, leaf, space);
	ext4_dirblock_csum_set(dir, leaf, false);
	ext2_dirty_metadata(dir->i_sb, leaf);
	brelse(leaf);
	dx_make_root(dir, bh);
	dx_dirty(dir, bh);
	EXT2_I(dir)->i_flags |= EXT2_INDEX_FL;
	mark_inode_dirty(dir);
	err = 1;
out:
	brelse(bh);
	return err;
}

static bool dx_may_index(struct inode *dir)
{
	struct super_block *sb = dir->i_sb;

	return (le32_to_cpu(EXT2_SB(sb)->s_es->s_feature_compat) & EXT2_FEATURE_COMPAT_DIR_INDEX) &&
	       dir->i_size == (loff_t)sb->s_blocksize;
}

int ext4_dx_add_entry(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	int err = 1;

	if (!ext4_dir_is_indexed(dir)) {
		if (!dx_may_index(dir))
			return 1;
		err = dx_make_indexed_dir(dir, name, inode);
		if (err != 1 || !ext4_dir_is_indexed(dir))
			return err;
	}
	/* a split of the leaf, and before it at most two of the index: then there is room */
	for (int tries = 0; tries < 4 && err == 1; tries++)
		err = dx_try_add(dir, name, inode);
	return err == 1 ? -EIO : err;
}
