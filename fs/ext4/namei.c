/*
 * Lookups in hashed (htree) directories: the name's hash picks, through the root's index
 * (and one level of index nodes below it), the one leaf block that can hold it, instead of
 * every block being read. The index lives in blocks that read as empty directory blocks to
 * anything that does not know it (the root's entries hide in ".."'s slack, a node's in an
 * unused entry spanning the block), so the linear code of fs/ext2/dir.c stays right for
 * everything else, and is the fallback.
 *
 * Policy, as Linux's: the index is believed (a name whose leaf does not hold it is not
 * there), except where it cannot be followed: an unknown hash version, more levels than
 * this driver reads (largedir), counts or blocks that do not fit. Those fall back to the
 * linear scan with a warning, once per lookup. Read errors and bad checksums are errors.
 * A hash collision run that continues into the next leaf is followed; one that would
 * continue into the next index node falls back too.
 */
#include "ext4_dx.h"
#include <cgwb/errno.h>

bool ext4_dir_is_indexed(struct inode *dir)
{
	struct super_block *sb = dir->i_sb;

	return (EXT2_I(dir)->i_flags & EXT2_INDEX_FL) &&
	       (le32_to_cpu(EXT2_SB(sb)->s_es->s_feature_compat) & EXT2_FEATURE_COMPAT_DIR_INDEX);
}

static int dx_bad(struct inode *dir, const char *why, unsigned int value)
{
	ext2_msg(dir->i_sb, KERN_WARNING,
		 "warning: directory #%lu: htree index: %s (%u); searching it linearly", dir->i_ino,
		 why, value);
	return -EOPNOTSUPP;
}

/* The hash of name as the root says to compute it. */
int dx_hash(struct inode *dir, const struct ext4_dx_root_info *info, const struct qstr *name,
	    u32 *hash)
{
	struct ext2_super_block *es = EXT2_SB(dir->i_sb)->s_es;
	unsigned int version = info->hash_version;
	u32 seed[4];

	if (version > DX_HASH_TEA)
		return dx_bad(dir, "unrecognised hash version", version);
	if (le32_to_cpu(es->s_flags) & EXT2_FLAGS_UNSIGNED_HASH)
		version += DX_HASH_LEGACY_UNSIGNED;
	for (int i = 0; i < 4; i++)
		seed[i] = le32_to_cpu(es->s_hash_seed[i]);
	return ext4fs_dirhash(name->name, (int)name->len, version, seed, hash);
}

/* The entries of an index block at off, checked to fit the block; then the search. */
static int dx_frame_fill(struct inode *dir, struct dx_frame *f, unsigned int off, u32 hash)
{
	unsigned int size = (unsigned int)dir->i_sb->s_blocksize;
	const struct ext4_dx_countlimit *c = (const void *)(f->bh->b_data + off);
	unsigned int limit = le16_to_cpu(c->limit), lo = 1, hi;
	unsigned int tail = ext4_has_metadata_csum(dir->i_sb) ? sizeof(struct ext4_dx_tail) : 0;

	f->count = le16_to_cpu(c->count);
	if (!f->count || f->count > limit || off + limit * sizeof(struct ext4_dx_entry) > size - tail)
		return dx_bad(dir, "bad count or limit", f->count);
	f->entries = (const void *)c;
	/* the last entry whose hash is at or below the name's; entry 0 stands for "lowest" */
	hi = f->count;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (le32_to_cpu(f->entries[mid].hash) <= hash)
			lo = mid + 1;
		else
			hi = mid;
	}
	f->at = &f->entries[lo - 1];
	return 0;
}

/* The logical block an index entry points at, checked to be inside the directory. */
int dx_block(struct inode *dir, const struct ext4_dx_entry *e, unsigned long *n)
{
	*n = le32_to_cpu(e->block) & DX_BLOCK_MASK;
	if (*n >= (unsigned long)(dir->i_size >> dir->i_sb->s_blocksize_bits) || !*n)
		return dx_bad(dir, "index entry pointing outside the directory", (unsigned int)*n);
	return 0;
}

/* Root to the deepest index frame for hash; frames hold references. */
int dx_probe(struct inode *dir, const struct qstr *name, struct dx_frame *frames,
	     unsigned int *levels, u32 *hash)
{
	const struct ext4_dx_root_info *info;
	int err;

	frames[0].bh = ext2_dir_bread(dir, 0);
	if (IS_ERR(frames[0].bh))
		return (int)PTR_ERR(frames[0].bh);
	info = dx_root_info(frames[0].bh);
	if (info->reserved_zero || info->info_length != sizeof(*info))
		return dx_bad(dir, "bad root info length", info->info_length);
	if (info->indirect_levels >= DX_MAX_LEVELS)
		return dx_bad(dir, "too many levels", info->indirect_levels);
	*levels = info->indirect_levels;
	err = dx_hash(dir, info, name, hash);
	if (!err)
		err = dx_frame_fill(dir, &frames[0], DX_ROOT_COUNT_OFFSET, *hash);
	for (unsigned int l = 1; !err && l <= *levels; l++) {
		unsigned long n;

		err = dx_block(dir, frames[l - 1].at, &n);
		if (err)
			break;
		frames[l].bh = ext2_dir_bread(dir, n);
		if (IS_ERR(frames[l].bh))
			return (int)PTR_ERR(frames[l].bh);
		err = dx_frame_fill(dir, &frames[l], DX_NODE_COUNT_OFFSET, *hash);
	}
	return err;
}

void dx_release(struct dx_frame *frames)
{
	for (int i = 0; i < DX_MAX_LEVELS; i++)
		if (!IS_ERR_OR_NULL(frames[i].bh))
			brelse(frames[i].bh);
}

/*
 * Does the name's collision run go on past f->at? 1 into the next entry of f, 0 not, or
 * -EOPNOTSUPP when it would cross into the next index node (not followed here).
 */
static int dx_next_leaf(struct dx_frame *f, bool deepest_is_root, u32 hash)
{
	u32 next;

	if (f->at + 1 >= f->entries + f->count)
		return deepest_is_root ? 0 : -EOPNOTSUPP;
	next = le32_to_cpu(f->at[1].hash);
	if (!(next & 1) || (next & ~1u) != hash)
		return 0;
	f->at++;
	return 1;
}

struct ext2_dir_entry_2 *ext4_dx_find_entry(struct inode *dir, const struct qstr *name,
					    struct buffer_head **bhp)
{
	struct dx_frame frames[DX_MAX_LEVELS] = { 0 };
	unsigned int levels = 0, size = (unsigned int)dir->i_sb->s_blocksize;
	struct ext2_dir_entry_2 *de = NULL;
	u32 hash = 0;
	int err;

	if (!ext4_dir_is_indexed(dir))
		return ERR_PTR(-EOPNOTSUPP);
	err = dx_probe(dir, name, frames, &levels, &hash);

	while (!err) {
		unsigned long n;
		struct buffer_head *bh;

		err = dx_block(dir, frames[levels].at, &n);
		bh = err ? NULL : ext2_dir_bread(dir, n);
		if (IS_ERR(bh))
			err = (int)PTR_ERR(bh);
		if (err)
			break;
		de = ext2_search_dir_block(dir, bh, size, name);
		if (IS_ERR(de)) {
			err = (int)PTR_ERR(de);
			brelse(bh);
			break;
		}
		if (de) {
			*bhp = bh;
			break;
		}
		brelse(bh);
		err = dx_next_leaf(&frames[levels], !levels, hash);
		if (err <= 0)
			break;
		err = 0;
	}
	dx_release(frames);
	return err ? ERR_PTR(err) : de;
}
