/*
 * metadata_csum: every piece of metadata carries a crc32c, chained from a seed made of the
 * filesystem's uuid (or s_checksum_seed with csum_seed, so the uuid can change), and for
 * what belongs to an inode (the inode itself, its extent blocks, a directory's blocks)
 * further from the inode's number and generation, so that a block that is valid but
 * another inode's, or a stale inode's, does not pass.
 *
 * Each check answers true on an image without metadata_csum: the callers ask
 * unconditionally. The checksum fields themselves are hashed as zeros where they sit
 * inside the checksummed bytes (group descriptors, inodes), as e2fsprogs and Linux do.
 * Images with only the older gdt_csum (uninit_bg) have their descriptors checked by crc16.
 */
#include "ext4.h"
#include <cgwb/crc32c.h>
#include <cgwb/crc16.h>
#include <cgwb/string.h>

#define EXT4_GOOD_OLD_INODE_SIZE 128

static u16 get_le16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

void ext4_init_csum_seed(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;

	if (ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_CSUM_SEED))
		sbi->s_csum_seed = le32_to_cpu(es->s_checksum_seed);
	else
		sbi->s_csum_seed = crc32c(~0u, es->s_uuid, sizeof(es->s_uuid));
}

static u32 ext4_superblock_csum(const struct ext2_super_block *es)
{
	return crc32c(~0u, es, __builtin_offsetof(struct ext2_super_block, s_checksum));
}

bool ext4_superblock_csum_verify(struct super_block *sb)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;

	return !ext4_has_metadata_csum(sb) || le32_to_cpu(es->s_checksum) == ext4_superblock_csum(es);
}

void ext4_superblock_csum_set(struct super_block *sb)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;

	if (ext4_has_metadata_csum(sb))
		es->s_checksum = cpu_to_le32(ext4_superblock_csum(es));
}

/*
 * gdt_csum, metadata_csum's predecessor: crc16 of the uuid, the group and the descriptor
 * without its checksum field (the 64bit half only when the image is 64bit).
 */
static u16 ext4_gdt_csum(struct super_block *sb, unsigned int group, const u8 *gd)
{
	unsigned int off = __builtin_offsetof(struct ext4_group_desc, bg_checksum);
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;
	unsigned int size = EXT2_SB(sb)->s_desc_size;
	__le32 le_group = cpu_to_le32(group);
	u16 crc = crc16(0xffff, es->s_uuid, sizeof(es->s_uuid));

	crc = crc16(crc, &le_group, sizeof(le_group));
	crc = crc16(crc, gd, off);
	if (ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_64BIT) && size > off + 2)
		crc = crc16(crc, gd + off + 2, size - off - 2);
	return crc;
}

static bool ext4_has_gdt_csum(struct super_block *sb)
{
	return ext2_has_ro_compat(sb, EXT4_FEATURE_RO_COMPAT_GDT_CSUM);
}

/* The descriptor's 16-bit checksum as the image keeps it (crc32c's low half, or crc16). */
static u16 ext4_group_desc_csum(struct super_block *sb, unsigned int group, const void *gd)
{
	unsigned int off = __builtin_offsetof(struct ext4_group_desc, bg_checksum);
	unsigned int size = EXT2_SB(sb)->s_desc_size;
	__le32 le_group = cpu_to_le32(group);
	const __le16 zero = 0;
	u32 crc;

	if (!ext4_has_metadata_csum(sb))
		return ext4_gdt_csum(sb, group, gd);
	crc = crc32c(EXT2_SB(sb)->s_csum_seed, &le_group, sizeof(le_group));
	crc = crc32c(crc, gd, off);
	crc = crc32c(crc, &zero, sizeof(zero));
	crc = crc32c(crc, (const u8 *)gd + off + 2, size - off - 2);
	return (u16)crc;
}

bool ext4_group_desc_csum_verify(struct super_block *sb, unsigned int group, const void *gd)
{
	if (!ext4_has_metadata_csum(sb) && !ext4_has_gdt_csum(sb))
		return true;
	return ext4_group_desc_csum(sb, group, gd) ==
	       le16_to_cpu(((const struct ext4_group_desc *)gd)->bg_checksum);
}

void ext4_group_desc_csum_set(struct super_block *sb, unsigned int group, void *gd)
{
	if (ext4_has_metadata_csum(sb) || ext4_has_gdt_csum(sb))
		((struct ext4_group_desc *)gd)->bg_checksum =
			cpu_to_le16(ext4_group_desc_csum(sb, group, gd));
}

/*
 * A bitmap's checksum in its group's descriptor: crc32c of the bits the group has (a
 * block bitmap's blocks per group, an inode bitmap's inodes per group), the high half
 * only in descriptors long enough to hold it.
 */
void ext4_bitmap_csum_set(struct super_block *sb, void *gd, const u8 *bitmap, bool inodes)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext4_group_desc *d = gd;
	u32 bits = inodes ? sbi->s_inodes_per_group : sbi->s_blocks_per_group;
	u32 crc;

	if (!ext4_has_metadata_csum(sb))
		return;
	crc = crc32c(sbi->s_csum_seed, bitmap, bits / 8);
	if (inodes)
		d->bg_inode_bitmap_csum_lo = cpu_to_le16((u16)crc);
	else
		d->bg_block_bitmap_csum_lo = cpu_to_le16((u16)crc);
	if (sbi->s_desc_size < EXT4_MIN_DESC_SIZE_64BIT)
		return;
	if (inodes)
		d->bg_inode_bitmap_csum_hi = cpu_to_le16((u16)(crc >> 16));
	else
		d->bg_block_bitmap_csum_hi = cpu_to_le16((u16)(crc >> 16));
}

u32 ext4_inode_csum_seed(struct super_block *sb, unsigned long ino, u32 generation)
{
	__le32 le_ino = cpu_to_le32((u32)ino), le_gen = cpu_to_le32(generation);
	u32 crc = crc32c(EXT2_SB(sb)->s_csum_seed, &le_ino, sizeof(le_ino));

	return crc32c(crc, &le_gen, sizeof(le_gen));
}

/*
 * The inode's checksum: its low half in osd2, its high half after i_extra_isize when the
 * extra space reaches it. raw's i_extra_isize has been checked against the inode size.
 */
static bool ext4_inode_has_csum_hi(struct super_block *sb, const u8 *raw)
{
	return EXT2_SB(sb)->s_inode_size > EXT4_GOOD_OLD_INODE_SIZE &&
	       get_le16(raw + EXT4_INODE_EXTRA_ISIZE) >= 4;
}

/* The checksum of the raw inode, its fields hashed as zeros (16 bits without the high half). */
static u32 ext4_inode_csum(struct super_block *sb, unsigned long ino, const u8 *raw)
{
	unsigned int size = EXT2_SB(sb)->s_inode_size, off = EXT4_INODE_CHECKSUM_HI;
	bool has_hi = ext4_inode_has_csum_hi(sb, raw);
	const struct ext2_inode *i = (const struct ext2_inode *)raw;
	const __le16 zero = 0;
	u32 crc;

	crc = crc32c(ext4_inode_csum_seed(sb, ino, le32_to_cpu(i->i_generation)), raw,
		     EXT4_INODE_CHECKSUM_LO);
	crc = crc32c(crc, &zero, sizeof(zero));
	crc = crc32c(crc, raw + EXT4_INODE_CHECKSUM_LO + 2,
		     EXT4_GOOD_OLD_INODE_SIZE - EXT4_INODE_CHECKSUM_LO - 2);
	if (size > EXT4_GOOD_OLD_INODE_SIZE) {
		crc = crc32c(crc, raw + EXT4_GOOD_OLD_INODE_SIZE, off - EXT4_GOOD_OLD_INODE_SIZE);
		if (has_hi) {
			crc = crc32c(crc, &zero, sizeof(zero));
			off += 2;
		}
		crc = crc32c(crc, raw + off, size - off);
	}
	return has_hi ? crc : crc & 0xffff;
}

bool ext4_inode_csum_verify(struct super_block *sb, unsigned long ino, const u8 *raw)
{
	u32 provided;

	if (!ext4_has_metadata_csum(sb))
		return true;
	provided = get_le16(raw + EXT4_INODE_CHECKSUM_LO);
	if (ext4_inode_has_csum_hi(sb, raw))
		provided |= (u32)get_le16(raw + EXT4_INODE_CHECKSUM_HI) << 16;
	return provided == ext4_inode_csum(sb, ino, raw);
}

static void put_le16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

void ext4_inode_csum_set(struct super_block *sb, unsigned long ino, u8 *raw)
{
	u32 crc;

	if (!ext4_has_metadata_csum(sb))
		return;
	crc = ext4_inode_csum(sb, ino, raw);
	put_le16(raw + EXT4_INODE_CHECKSUM_LO, (u16)crc);
	if (ext4_inode_has_csum_hi(sb, raw))
		put_le16(raw + EXT4_INODE_CHECKSUM_HI, (u16)(crc >> 16));
}

/* eh heads a tree block whose eh_max has been checked to leave room for the tail. */
bool ext4_extent_block_csum_verify(struct inode *inode, const struct ext4_extent_header *eh)
{
	size_t len = sizeof(*eh) + le16_to_cpu(eh->eh_max) * sizeof(struct ext4_extent);
	const struct ext4_extent_tail *t = (const void *)((const u8 *)eh + len);

	if (!ext4_has_metadata_csum(inode->i_sb))
		return true;
	return le32_to_cpu(t->et_checksum) == crc32c(EXT2_I(inode)->i_csum_seed, eh, len);
}

void ext4_extent_block_csum_set(struct inode *inode, struct ext4_extent_header *eh)
{
	size_t len = sizeof(*eh) + le16_to_cpu(eh->eh_max) * sizeof(struct ext4_extent);
	struct ext4_extent_tail *t = (void *)((u8 *)eh + len);

	if (ext4_has_metadata_csum(inode->i_sb))
		t->et_checksum = cpu_to_le32(crc32c(EXT2_I(inode)->i_csum_seed, eh, len));
}

/* Where an htree block's count/limit sits: 8 in a node, 32 in the root; 0 if neither. */
static unsigned int dx_count_offset(const u8 *block, unsigned int size)
{
	const struct ext2_dir_entry_2 *de = (const void *)block;
	const struct ext2_dir_entry_2 *dotdot = (const void *)(block + 12);
	const u8 *info = block + 24; /* dx_root_info: reserved_zero (4), hash, info_length */

	if (le16_to_cpu(de->rec_len) == size)
		return 8;
	if (le16_to_cpu(de->rec_len) != 12 || le16_to_cpu(dotdot->rec_len) != size - 12)
		return 0;
	if (info[0] | info[1] | info[2] | info[3] || info[5] != 8)
		return 0;
	return 32;
}

/* The count entries from off, then the tail whole with its checksum field as zeros. */
static u32 dx_csum(struct inode *dir, const u8 *block, unsigned int off, unsigned int count,
		   const struct ext4_dx_tail *t)
{
	const __le32 zero = 0;
	u32 crc = crc32c(EXT2_I(dir)->i_csum_seed, block, off + count * 8);

	crc = crc32c(crc, t, __builtin_offsetof(struct ext4_dx_tail, dt_checksum));
	return crc32c(crc, &zero, sizeof(zero));
}

static const char *dx_csum_problem(struct inode *dir, const u8 *block, unsigned int size)
{
	unsigned int off = dx_count_offset(block, size), limit, count;
	const struct ext4_dx_countlimit *c = (const void *)(block + off);
	const struct ext4_dx_tail *t;

	if (!off)
		return "htree block without a count (run e2fsck -D)";
	limit = le16_to_cpu(c->limit);
	count = le16_to_cpu(c->count);
	if (off + limit * 8 > size - sizeof(*t) || count > limit)
		return "htree block without room for its checksum (run e2fsck -D)";
	t = (const void *)(block + off + limit * 8);
	return le32_to_cpu(t->dt_checksum) == dx_csum(dir, block, off, count, t) ? NULL :
										   "htree block "
										   "checksum "
										   "invalid";
}

/* An htree root or node we changed (its limit leaves room for the tail: dx_limit()). */
void ext4_dx_csum_set(struct inode *dir, u8 *block)
{
	unsigned int size = (unsigned int)dir->i_sb->s_blocksize;
	unsigned int off = dx_count_offset(block, size);
	const struct ext4_dx_countlimit *c = (const void *)(block + off);
	struct ext4_dx_tail *t;

	if (!ext4_has_metadata_csum(dir->i_sb) || WARN_ON_ONCE(!off))
		return;
	t = (void *)(block + off + le16_to_cpu(c->limit) * 8);
	t->dt_reserved = 0;
	t->dt_checksum = cpu_to_le32(dx_csum(dir, block, off, le16_to_cpu(c->count), t));
}

/* A leaf we changed; a new one gets its tail first (the entries end before it). */
void ext4_dirblock_csum_set(struct inode *dir, struct buffer_head *bh, bool new)
{
	unsigned int size = (unsigned int)bh->b_size;
	struct ext4_dir_entry_tail *t = (void *)(bh->b_data + size - sizeof(*t));

	if (!ext4_has_metadata_csum(dir->i_sb))
		return;
	if (new) {
		memset(t, 0, sizeof(*t));
		t->det_rec_len = cpu_to_le16(sizeof(*t));
		t->det_reserved_ft = EXT4_DIR_TAIL_FT;
	}
	t->det_checksum =
		cpu_to_le32(crc32c(EXT2_I(dir)->i_csum_seed, bh->b_data, size - sizeof(*t)));
}

unsigned int ext4_dir_tail_len(struct super_block *sb)
{
	return ext4_has_metadata_csum(sb) ? sizeof(struct ext4_dir_entry_tail) : 0;
}

static const char *leaf_csum_problem(struct inode *dir, const u8 *block, unsigned int size)
{
	const struct ext4_dir_entry_tail *t = (const void *)(block + size - sizeof(*t));

	if (t->det_reserved_zero1 || le16_to_cpu(t->det_rec_len) != sizeof(*t) ||
	    t->det_reserved_zero2 || t->det_reserved_ft != EXT4_DIR_TAIL_FT)
		return "no space for directory leaf checksum (run e2fsck -D)";
	if (le32_to_cpu(t->det_checksum) != crc32c(EXT2_I(dir)->i_csum_seed, block, size - sizeof(*t)))
		return "directory leaf block checksum invalid";
	return NULL;
}

/*
 * Block n of dir: in an indexed directory, block 0 and any block whose first entry spans
 * it are htree blocks (as Linux decides); everything else is a leaf with a tail.
 */
int ext4_dirblock_csum_verify(struct inode *dir, const u8 *block, unsigned long n, const char **why)
{
	unsigned int size = (unsigned int)dir->i_sb->s_blocksize;
	const struct ext2_dir_entry_2 *de = (const void *)block;
	bool dx = (EXT2_I(dir)->i_flags & EXT2_INDEX_FL) && (!n || le16_to_cpu(de->rec_len) == size);

	if (!ext4_has_metadata_csum(dir->i_sb))
		return 0;
	*why = dx ? dx_csum_problem(dir, block, size) : leaf_csum_problem(dir, block, size);
	return *why ? -EIO : 0;
}
