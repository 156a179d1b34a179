/*
 * ext4 inside fs/ext4/: what ext4 adds to ext2's format (extents, 64-byte group
 * descriptors, flex_bg, crc32c metadata checksums, the journal's superblock fields) and the
 * functions that handle it.
 *
 * There is one driver for the ext2 family: fs/ext2/ mounts, reads and writes, and asks
 * here whenever the image has an ext4 feature (an inode with EXT4_EXTENTS_FL maps its
 * blocks through ext4_ext_map_blocks(), a metadata block read is checked by ext4_*_csum_*
 * on a metadata_csum image, a flex_bg image's block pointers are checked against the
 * system zone). Mounted as "ext2", an image with an ext4 incompat feature is refused as
 * Linux's ext2 refuses it; mounted as "ext4", ext2 images are mounted as before.
 */
#ifndef CGWB_FS_EXT4_H
#define CGWB_FS_EXT4_H

#include "../ext2/ext2.h"
#include <cgwb/ext4.h>

/* ---------------------------------------------------------------- features */
#define EXT4_FEATURE_COMPAT_SPARSE_SUPER2 0x0200
#define EXT4_FEATURE_COMPAT_FAST_COMMIT 0x0400
#define EXT4_FEATURE_COMPAT_STABLE_INODES 0x0800
#define EXT4_FEATURE_COMPAT_ORPHAN_FILE 0x1000

#define EXT4_FEATURE_RO_COMPAT_HUGE_FILE 0x0008
#define EXT4_FEATURE_RO_COMPAT_GDT_CSUM 0x0010
#define EXT4_FEATURE_RO_COMPAT_DIR_NLINK 0x0020
#define EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE 0x0040
#define EXT4_FEATURE_RO_COMPAT_METADATA_CSUM 0x0400

#define EXT4_FEATURE_INCOMPAT_MMP 0x0100
#define EXT4_FEATURE_INCOMPAT_CSUM_SEED 0x2000

/*
 * What a mount of type "ext4" reads, and writes when the image has no journal (an image
 * with one mounts read-only until the journal's write side exists). needs_recovery has
 * the journal replayed at mount (journal.c).
 */
#define EXT4_FEATURE_INCOMPAT_SUPP                                        \
	(EXT2_FEATURE_INCOMPAT_FILETYPE | EXT4_FEATURE_INCOMPAT_EXTENTS | \
	 EXT4_FEATURE_INCOMPAT_64BIT | EXT4_FEATURE_INCOMPAT_FLEX_BG |    \
	 EXT4_FEATURE_INCOMPAT_CSUM_SEED)
#define EXT4_FEATURE_RO_COMPAT_SUPP                                              \
	(EXT2_FEATURE_RO_COMPAT_SUPP | EXT4_FEATURE_RO_COMPAT_HUGE_FILE |        \
	 EXT4_FEATURE_RO_COMPAT_DIR_NLINK | EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE | \
	 EXT4_FEATURE_RO_COMPAT_METADATA_CSUM | EXT4_FEATURE_RO_COMPAT_GDT_CSUM)

#define EXT4_CRC32C_CHKSUM 1 /* s_checksum_type */
#define EXT4_MIN_DESC_SIZE_64BIT 64
#define EXT4_MAX_DESC_SIZE EXT2_MIN_BLOCK_SIZE

/* i_flags */
#define EXT4_HUGE_FILE_FL 0x00040000 /* i_blocks counts filesystem blocks, not sectors */
#define EXT4_INLINE_DATA_FL 0x10000000

/* ---------------------------------------------------------------- on-disk structures */

/* The 64bit feature's group descriptor (s_desc_size bytes, at least 64); ext2's is the first 32. */
struct ext4_group_desc {
	__le32 bg_block_bitmap_lo;
	__le32 bg_inode_bitmap_lo;
	__le32 bg_inode_table_lo;
	__le16 bg_free_blocks_count_lo;
	__le16 bg_free_inodes_count_lo;
	__le16 bg_used_dirs_count_lo;
	__le16 bg_flags;
	__le32 bg_exclude_bitmap_lo;
	__le16 bg_block_bitmap_csum_lo;
	__le16 bg_inode_bitmap_csum_lo;
	__le16 bg_itable_unused_lo;
	__le16 bg_checksum; /* crc32c(seed, group, descriptor) & 0xffff */
	__le32 bg_block_bitmap_hi;
	__le32 bg_inode_bitmap_hi;
	__le32 bg_inode_table_hi;
	__le16 bg_free_blocks_count_hi;
	__le16 bg_free_inodes_count_hi;
	__le16 bg_used_dirs_count_hi;
	__le16 bg_itable_unused_hi;
	__le32 bg_exclude_bitmap_hi;
	__le16 bg_block_bitmap_csum_hi;
	__le16 bg_inode_bitmap_csum_hi;
	__le32 bg_reserved;
};
_Static_assert(sizeof(struct ext4_group_desc) == 64, "ext4_group_desc is 64 bytes");

/* bg_flags */
#define EXT4_BG_INODE_UNINIT 0x0001 /* inode table and bitmap not initialised */
#define EXT4_BG_BLOCK_UNINIT 0x0002 /* block bitmap not initialised */
#define EXT4_BG_INODE_ZEROED 0x0004

/* Byte offsets inside an on-disk inode of what lies past ext2's 128 bytes, and osd2's. */
#define EXT4_INODE_BLOCKS_HIGH 0x74 /* __le16 l_i_blocks_high (huge_file) */
#define EXT4_INODE_FILE_ACL_HIGH 0x76
#define EXT4_INODE_CHECKSUM_LO 0x7C /* __le16 l_i_checksum_lo */
#define EXT4_INODE_EXTRA_ISIZE 0x80 /* __le16 i_extra_isize: bytes used past 128 */
#define EXT4_INODE_CHECKSUM_HI 0x82 /* __le16 i_checksum_hi, if i_extra_isize >= 4 */
#define EXT4_INODE_CTIME_EXTRA 0x84 /* __le32 each: epoch bits (2), nanoseconds (30) */
#define EXT4_INODE_MTIME_EXTRA 0x88
#define EXT4_INODE_ATIME_EXTRA 0x8C

/* Extents: a tree whose root is i_block (60 bytes: a header and 4 entries). */
#define EXT4_EXT_MAGIC 0xF30A
#define EXT4_MAX_EXTENT_DEPTH 5
#define EXT4_EXT_INIT_MAX_LEN 32768u /* ee_len above this: unwritten, len - 32768 */

struct ext4_extent_header {
	__le16 eh_magic;
	__le16 eh_entries;
	__le16 eh_max;
	__le16 eh_depth; /* 0: the entries are extents; else index entries */
	__le32 eh_generation;
};

struct ext4_extent {
	__le32 ee_block; /* first logical block */
	__le16 ee_len;
	__le16 ee_start_hi;
	__le32 ee_start_lo;
};

struct ext4_extent_idx {
	__le32 ei_block; /* the first logical block the subtree covers */
	__le32 ei_leaf_lo;
	__le16 ei_leaf_hi;
	__le16 ei_unused;
};

/* After eh_max entries of a tree block: crc32c(inode seed, the block up to here). */
struct ext4_extent_tail {
	__le32 et_checksum;
};

/* The last 12 bytes of a directory leaf block on a metadata_csum image: a fake entry. */
#define EXT4_DIR_TAIL_FT 0xDE
struct ext4_dir_entry_tail {
	__le32 det_reserved_zero1; /* looks like an unused entry */
	__le16 det_rec_len;        /* 12 */
	u8 det_reserved_zero2;     /* name_len 0 */
	u8 det_reserved_ft;        /* EXT4_DIR_TAIL_FT */
	__le32 det_checksum;       /* crc32c(inode seed, the block before the tail) */
};

/* htree blocks: count and limit of dx entries, and the checksum after limit entries */
struct ext4_dx_countlimit {
	__le16 limit;
	__le16 count;
};

struct ext4_dx_tail {
	__le32 dt_reserved;
	__le32 dt_checksum;
};

/* htree: the root's info after "." and "..", and its hash versions */
struct ext4_dx_root_info {
	__le32 reserved_zero;
	u8 hash_version;
	u8 info_length; /* 8 */
	u8 indirect_levels;
	u8 unused_flags;
};

struct ext4_dx_entry {
	__le32 hash; /* the first entry's place holds the count and limit */
	__le32 block;
};

enum {
	DX_HASH_LEGACY,
	DX_HASH_HALF_MD4,
	DX_HASH_TEA,
	DX_HASH_LEGACY_UNSIGNED,
	DX_HASH_HALF_MD4_UNSIGNED,
	DX_HASH_TEA_UNSIGNED,
};
#define EXT2_FLAGS_UNSIGNED_HASH 0x0002 /* s_flags: names were hashed as unsigned chars */
#define EXT4_HTREE_EOF_32BIT 0x7fffffffu

/* ---------------------------------------------------------------- in memory */

/* A run of blocks the filesystem's own metadata takes (block_validity.c). */
struct ext4_system_zone {
	u32 start;
	u32 count;
	u32 ino; /* the inode whose blocks these are (the journal's), 0 for metadata */
};

/* Checksums are kept on mounts of type ext4 (ext2's refuses an image with them). */
static inline bool ext4_has_metadata_csum(struct super_block *sb)
{
	return EXT2_SB(sb)->s_family && ext2_has_ro_compat(sb, EXT4_FEATURE_RO_COMPAT_METADATA_CSUM);
}

static inline bool ext4_has_feature_flex_bg(struct super_block *sb)
{
	return ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_FLEX_BG);
}

/* ---------------------------------------------------------------- shared functions */

/* super.c */
/* Features and geometry of an ext4 image at mount: 0, or -errno with the reason logged. */
int ext4_check_features(struct super_block *sb, int flags);
int ext4_load_super(struct super_block *sb);
/* What is wrong with group's descriptor as ext4 sees it (checksum, 64-bit parts), or NULL. */
const char *ext4_group_desc_problem(struct super_block *sb, unsigned int group, const void *gd);

/* csum.c: each returns true when the checksum is right (or the image keeps none) */
void ext4_init_csum_seed(struct super_block *sb);
bool ext4_superblock_csum_verify(struct super_block *sb);
void ext4_superblock_csum_set(struct super_block *sb);
bool ext4_group_desc_csum_verify(struct super_block *sb, unsigned int group, const void *gd);
void ext4_group_desc_csum_set(struct super_block *sb, unsigned int group, void *gd);
/* A bitmap's checksum into its descriptor gd (before the descriptor's own is set). */
void ext4_bitmap_csum_set(struct super_block *sb, void *gd, const u8 *bitmap, bool inodes);
void ext4_inode_csum_set(struct super_block *sb, unsigned long ino, u8 *raw);
void ext4_extent_block_csum_set(struct inode *inode, struct ext4_extent_header *eh);
void ext4_dx_csum_set(struct inode *dir, u8 *block);
void ext4_dirblock_csum_set(struct inode *dir, struct buffer_head *bh, bool new);
/* The checksum tail at the end of each directory leaf: 12 bytes, or 0 without metadata_csum. */
unsigned int ext4_dir_tail_len(struct super_block *sb);
/* The seed of an inode's checksums: the filesystem's, its number and its generation. */
u32 ext4_inode_csum_seed(struct super_block *sb, unsigned long ino, u32 generation);
bool ext4_inode_csum_verify(struct super_block *sb, unsigned long ino, const u8 *raw);
bool ext4_extent_block_csum_verify(struct inode *inode, const struct ext4_extent_header *eh);
/* A directory block: a leaf with its tail, or an htree node (-EIO and why if bad). */
int ext4_dirblock_csum_verify(struct inode *dir, const u8 *block, unsigned long n, const char **why);

/* journal.c: replay the journal of a needs_recovery image, then clear the flag */
int ext4_recover_journal(struct super_block *sb);
/* The journal inode, checked; its block n -> the device block (jbd2's bmap). */
struct inode *ext4_get_journal_inode(struct super_block *sb);
int ext4_journal_bmap(void *owner, u32 n, u64 *pblock);

/* ext4_jbd2.c: writing through the journal (the family's journal hooks) */
int ext4_journal_start(struct super_block *sb);
void ext4_journal_stop(struct super_block *sb);
void ext4_dirty_metadata(struct super_block *sb, struct buffer_head *bh);
void ext4_forget(struct super_block *sb, struct buffer_head *bh);
void ext4_dirty_inode(struct inode *inode);
void ext4_evict_inode(struct inode *inode);
void ext4_ordered_data(struct inode *inode, unsigned int nblocks);
int ext4_force_commit(struct super_block *sb);
int ext4_parse_option(struct super_block *sb, const char *opt, size_t len);
int ext4_journal_start_rw(struct super_block *sb);
int ext4_journal_stop_rw(struct super_block *sb);

/* namei.c: lookups through an htree index */
/*
 * The entry for name as ext2_find_entry() returns it, found through the index: NULL when
 * the index says it is not there, ERR_PTR(-EOPNOTSUPP) when the directory is not indexed
 * or the index cannot be followed (logged; the caller scans the blocks instead, as Linux
 * falls back on ERR_BAD_DX_DIR).
 */
struct ext2_dir_entry_2 *ext4_dx_find_entry(struct inode *dir, const struct qstr *name,
					    struct buffer_head **bhp);

/* Add name through dir's index: 0, -errno, or 1 when dir has none (ext2 adds it). */
int ext4_dx_add_entry(struct inode *dir, const struct qstr *name, struct inode *inode);

/* hash.c: a name's htree hash (low bit clear), or -EINVAL for an unknown version */
int ext4fs_dirhash(const char *name, int len, unsigned int version, const u32 seed[4], u32 *hash);

/* extents.c */
int ext4_ext_check_inode(struct inode *inode);
int ext4_ext_map_blocks(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno);
int ext4_ext_is_unwritten(struct inode *inode, u32 lblk);

/* extents_alloc.c: ext2_get_blocks() of an extent-mapped inode (flags as there) */
int ext4_get_blocks(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno,
		    int flags, bool *new);
/* extents_convert.c: [lblk, lblk + len) is on disk: its unwritten extents become written */
int ext4_convert_unwritten_extents(struct inode *inode, u32 lblk, u32 len);

/* extents_truncate.c: free every block mapping data at or past byte size */
int ext4_ext_truncate(struct inode *inode, loff_t size);

/* balloc.c */
int ext4_init_uninit_groups(struct super_block *sb);
void ext4_group_csum_set(struct super_block *sb, unsigned int group,
			 struct buffer_head *block_bitmap, struct buffer_head *inode_bitmap);
/* orphan.c: the orphan list (inodes unlinked while open) */
void ext4_orphan_add(struct inode *inode);
void ext4_orphan_del(struct inode *inode);
int ext4_orphan_cleanup(struct super_block *sb);
/* ialloc.c: where a new inode goes on a flex_bg image, or -EOPNOTSUPP */
int ext4_find_inode_group(struct super_block *sb, struct inode *dir, bool is_dir);
void ext4_inode_taken(struct super_block *sb, unsigned int group, u32 bit);

/* inode.c */
/* The on-disk inode before it is believed: its extra size, its checksum. */
int ext4_check_raw_inode(struct super_block *sb, unsigned long ino, const u8 *raw);
/* What ext4 adds to an inode ext2_iget() has filled: i_blocks' high bits, the extent root. */
int ext4_fill_inode(struct inode *inode, const u8 *raw);
void ext4_init_inode(struct inode *inode, struct inode *dir);
void ext4_write_raw_inode(struct inode *inode, u8 *raw, bool new);

/* block_validity.c */
int ext4_setup_system_zone(struct super_block *sb);
void ext4_release_system_zone(struct super_block *sb);
/* Does [start, start + count) meet metadata, or blocks another inode than ino owns? */
bool ext4_in_system_zone(struct super_block *sb, u32 start, u32 count, unsigned long ino);

#endif
