/*
 * ext2 inside fs/ext2/: the on-disk format (little-endian, revision 0 and 1), the in-memory
 * superblock and inode, and what the files of the driver share.
 *
 * Locking, outermost first:
 *   dir->i_rwsem (VFS)          directory contents, held by the VFS around namespace ops
 *   inode->i_rwsem (VFS)        i_size changes (write, truncate)
 *   ei->truncate_mutex          the block map: i_data[] and the indirect blocks; the
 *                               inode's reservation window (i_rsv_*)
 *   sbi->s_lock (mutex)         inode placement (ialloc.c's search over the groups, ext4's
 *                               flex_bg/Orlov choice) and the superblock's own fields
 *   sb_bgl_lock(sbi, group)     one group's bitmaps, its descriptor (counts, flags,
 *                               checksums) and its reservation-window map (reserve.c)
 *   ei->i_block_reservation_lock  the inode's delayed-allocation count (delalloc.c)
 * The group locks are spinlocks, as Linux's struct blockgroup_lock: a block allocation in
 * one group never meets one in another, and takes no lock of the whole filesystem. Their
 * sections never sleep (a bitmap is read before its lock is taken), one is held at a time,
 * and inside one only the journal's j_state_lock is taken (a buffer dirtied). The free
 * counts of the whole filesystem are per-CPU counters (s_freeblocks_counter,
 * s_freeinodes_counter, s_dirtyclusters_counter): changed after the group's lock is let
 * go, exact when summed with no change in flight (statfs, the superblock's write).
 * sbi->s_commit_lock (fsync's metadata commit) is taken with no other of these held; the
 * commit takes s_lock inside it. ext4's orphan list has its own s_orphan_lock.
 */
#ifndef CGWB_FS_EXT2_H
#define CGWB_FS_EXT2_H

#include <cgwb/fs.h>
#include <cgwb/ext2.h>
#include <cgwb/buffer_head.h>
#include <cgwb/mutex.h>
#include <cgwb/spinlock.h>
#include <cgwb/percpu_counter.h>
#include <cgwb/printk.h>
#include <cgwb/ratelimit.h>

/* The disk is little-endian like the CPUs we run on; the helpers keep the intent visible. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "ext2: only little-endian hosts are supported"
#endif
typedef u16 __le16;
typedef u32 __le32;
#define le16_to_cpu(x) ((u16)(x))
#define le32_to_cpu(x) ((u32)(x))
#define cpu_to_le16(x) ((__le16)(x))
#define cpu_to_le32(x) ((__le32)(x))
static inline void le16_add_cpu(__le16 *v, int d)
{
	*v = (__le16)(*v + d);
}
static inline void le32_add_cpu(__le32 *v, int d)
{
	*v = (__le32)(*v + (u32)d);
}

/* ---------------------------------------------------------------- on-disk constants */
#define EXT2_SB_OFFSET 1024 /* the superblock's byte offset on the device */
#define EXT2_MIN_BLOCK_LOG_SIZE 10
#define EXT2_MIN_BLOCK_SIZE 1024
#define EXT2_MAX_BLOCK_LOG_SIZE 12 /* blocks larger than a page are not supported */
#define EXT2_ROOT_INO 2
#define EXT2_RESIZE_INO 7
#define EXT2_GOOD_OLD_FIRST_INO 11
#define EXT2_GOOD_OLD_INODE_SIZE 128
#define EXT2_GOOD_OLD_REV 0
#define EXT2_DYNAMIC_REV 1
#define EXT2_LINK_MAX 32000
#define EXT2_NAME_LEN 255

#define EXT2_NDIR_BLOCKS 12
#define EXT2_IND_BLOCK 12
#define EXT2_DIND_BLOCK 13
#define EXT2_TIND_BLOCK 14
#define EXT2_N_BLOCKS 15

/* s_state */
#define EXT2_VALID_FS 0x0001
#define EXT2_ERROR_FS 0x0002
/* s_errors */
#define EXT2_ERRORS_CONTINUE 1
#define EXT2_ERRORS_RO 2
#define EXT2_ERRORS_PANIC 3

#define EXT2_FEATURE_COMPAT_DIR_PREALLOC 0x0001
#define EXT2_FEATURE_COMPAT_IMAGIC_INODES 0x0002
#define EXT3_FEATURE_COMPAT_HAS_JOURNAL 0x0004
#define EXT2_FEATURE_COMPAT_EXT_ATTR 0x0008
#define EXT2_FEATURE_COMPAT_RESIZE_INO 0x0010
#define EXT2_FEATURE_COMPAT_DIR_INDEX 0x0020

#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER 0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE 0x0002
#define EXT2_FEATURE_RO_COMPAT_BTREE_DIR 0x0004

#define EXT2_FEATURE_INCOMPAT_COMPRESSION 0x0001
#define EXT2_FEATURE_INCOMPAT_FILETYPE 0x0002
#define EXT3_FEATURE_INCOMPAT_RECOVER 0x0004
#define EXT3_FEATURE_INCOMPAT_JOURNAL_DEV 0x0008
#define EXT2_FEATURE_INCOMPAT_META_BG 0x0010
/* ext4's incompat bits the shared code reads (descriptor size, flex_bg layout, file size) */
#define EXT4_FEATURE_INCOMPAT_EXTENTS 0x0040
#define EXT4_FEATURE_INCOMPAT_64BIT 0x0080
#define EXT4_FEATURE_INCOMPAT_FLEX_BG 0x0200

/* What this driver understands; compat features need no support by definition. */
#define EXT2_FEATURE_INCOMPAT_SUPP EXT2_FEATURE_INCOMPAT_FILETYPE
#define EXT2_FEATURE_RO_COMPAT_SUPP \
	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | EXT2_FEATURE_RO_COMPAT_LARGE_FILE)

/* i_flags */
#define EXT2_SECRM_FL 0x00000001
#define EXT2_UNRM_FL 0x00000002
#define EXT2_COMPR_FL 0x00000004
#define EXT2_SYNC_FL 0x00000008
#define EXT2_IMMUTABLE_FL 0x00000010
#define EXT2_APPEND_FL 0x00000020
#define EXT2_NODUMP_FL 0x00000040
#define EXT2_NOATIME_FL 0x00000080
#define EXT2_INDEX_FL 0x00001000 /* hashed directory index (htree) */
#define EXT2_DIRSYNC_FL 0x00010000
#define EXT2_TOPDIR_FL 0x00020000
#define EXT4_EXTENTS_FL 0x00080000
/* what a new inode takes from its directory */
#define EXT2_FL_INHERITED                                                               \
	(EXT2_SECRM_FL | EXT2_UNRM_FL | EXT2_COMPR_FL | EXT2_SYNC_FL | EXT2_NODUMP_FL | \
	 EXT2_NOATIME_FL | EXT2_DIRSYNC_FL)

/* directory entry file types (the filetype feature) */
enum {
	EXT2_FT_UNKNOWN,
	EXT2_FT_REG_FILE,
	EXT2_FT_DIR,
	EXT2_FT_CHRDEV,
	EXT2_FT_BLKDEV,
	EXT2_FT_FIFO,
	EXT2_FT_SOCK,
	EXT2_FT_SYMLINK,
	EXT2_FT_MAX
};

/* ---------------------------------------------------------------- on-disk structures */
struct ext2_super_block {
	__le32 s_inodes_count;
	__le32 s_blocks_count;
	__le32 s_r_blocks_count;
	__le32 s_free_blocks_count;
	__le32 s_free_inodes_count;
	__le32 s_first_data_block;
	__le32 s_log_block_size;
	__le32 s_log_frag_size;
	__le32 s_blocks_per_group;
	__le32 s_frags_per_group;
	__le32 s_inodes_per_group;
	__le32 s_mtime;
	__le32 s_wtime;
	__le16 s_mnt_count;
	__le16 s_max_mnt_count;
	__le16 s_magic;
	__le16 s_state;
	__le16 s_errors;
	__le16 s_minor_rev_level;
	__le32 s_lastcheck;
	__le32 s_checkinterval;
	__le32 s_creator_os;
	__le32 s_rev_level;
	__le16 s_def_resuid;
	__le16 s_def_resgid;
	/* EXT2_DYNAMIC_REV only */
	__le32 s_first_ino;
	__le16 s_inode_size;
	__le16 s_block_group_nr;
	__le32 s_feature_compat;
	__le32 s_feature_incompat;
	__le32 s_feature_ro_compat;
	u8 s_uuid[16];
	char s_volume_name[16];
	char s_last_mounted[64];
	__le32 s_algorithm_usage_bitmap;
	u8 s_prealloc_blocks;
	u8 s_prealloc_dir_blocks;
	__le16 s_reserved_gdt_blocks;
	u8 s_journal_uuid[16];
	__le32 s_journal_inum;
	__le32 s_journal_dev;
	__le32 s_last_orphan;
	__le32 s_hash_seed[4];
	u8 s_def_hash_version;
	u8 s_jnl_backup_type;
	__le16 s_desc_size; /* 64bit: bytes per group descriptor */
	__le32 s_default_mount_opts;
	__le32 s_first_meta_bg;
	/* ext4's fields from here (fs/ext4/ reads them; ext2 keeps the error record) */
	__le32 s_mkfs_time;
	__le32 s_jnl_blocks[17]; /* the journal inode's i_block, i_size_high and i_size */
	__le32 s_blocks_count_hi;
	__le32 s_r_blocks_count_hi;
	__le32 s_free_blocks_count_hi;
	__le16 s_min_extra_isize;
	__le16 s_want_extra_isize;
	__le32 s_flags;
	__le16 s_raid_stride;
	__le16 s_mmp_update_interval;
	__le32 s_mmp_block[2];
	__le32 s_raid_stripe_width;
	u8 s_log_groups_per_flex;
	u8 s_checksum_type;
	__le16 s_reserved_pad;
	__le32 s_kbytes_written[2];
	__le32 s_snapshot_inum;
	__le32 s_snapshot_id;
	__le32 s_snapshot_r_blocks_count[2];
	__le32 s_snapshot_list;
	__le32 s_error_count; /* errors ever recorded (0x194) */
	__le32 s_first_error_time;
	__le32 s_first_error_ino;
	__le32 s_first_error_block_lo, s_first_error_block_hi;
	u8 s_first_error_func[32];
	__le32 s_first_error_line;
	__le32 s_last_error_time;
	__le32 s_last_error_ino;
	__le32 s_last_error_line;
	__le32 s_last_error_block_lo, s_last_error_block_hi;
	u8 s_last_error_func[32];
	u8 s_mount_opts[64];
	__le32 s_usr_quota_inum;
	__le32 s_grp_quota_inum;
	__le32 s_overhead_clusters;
	__le32 s_backup_bgs[2];
	u8 s_encrypt_algos[4];
	u8 s_encrypt_pw_salt[16];
	__le32 s_lpf_ino;
	__le32 s_prj_quota_inum;
	__le32 s_checksum_seed; /* the csum_seed feature's: crc32c(~0, s_uuid) otherwise */
	__le32 s_reserved[98];
	__le32 s_checksum; /* crc32c(~0, the superblock before this field) */
};
_Static_assert(__builtin_offsetof(struct ext2_super_block, s_blocks_count_hi) == 0x150, "ext4's "
											"fields "
											"sit where "
											"e2fsprogs "
											"reads "
											"them");
_Static_assert(__builtin_offsetof(struct ext2_super_block, s_checksum_seed) == 0x270, "s_checksum_"
										      "seed sits "
										      "where "
										      "e2fsprogs "
										      "reads it");
_Static_assert(__builtin_offsetof(struct ext2_super_block, s_error_count) == 0x194, "s_error_count "
										    "sits where "
										    "e2fsprogs "
										    "reads it");
_Static_assert(sizeof(struct ext2_super_block) == 1024, "ext2_super_block is one KiB");

struct ext2_group_desc {
	__le32 bg_block_bitmap;
	__le32 bg_inode_bitmap;
	__le32 bg_inode_table;
	__le16 bg_free_blocks_count;
	__le16 bg_free_inodes_count;
	__le16 bg_used_dirs_count;
	__le16 bg_pad;
	__le32 bg_reserved[3];
};
_Static_assert(sizeof(struct ext2_group_desc) == 32, "ext2_group_desc is 32 bytes");

/* The first 128 bytes of every on-disk inode; bigger inodes keep the rest as they are. */
struct ext2_inode {
	__le16 i_mode;
	__le16 i_uid;
	__le32 i_size;
	__le32 i_atime;
	__le32 i_ctime;
	__le32 i_mtime;
	__le32 i_dtime;
	__le16 i_gid;
	__le16 i_links_count;
	__le32 i_blocks; /* 512-byte units, indirect blocks included */
	__le32 i_flags;
	__le32 i_osd1;
	__le32 i_block[EXT2_N_BLOCKS];
	__le32 i_generation;
	__le32 i_file_acl;  /* extended attribute block */
	__le32 i_size_high; /* i_dir_acl in revision 0 */
	__le32 i_faddr;
	u8 i_frag;
	u8 i_fsize;
	__le16 i_pad1;
	__le16 i_uid_high;
	__le16 i_gid_high;
	__le32 i_reserved2;
};
_Static_assert(sizeof(struct ext2_inode) == 128, "ext2_inode is 128 bytes");

struct ext2_dir_entry_2 {
	__le32 inode;   /* 0: unused entry */
	__le16 rec_len; /* to the next entry; the last one reaches the block end */
	u8 name_len;
	u8 file_type;
	char name[];
};

#define EXT2_DIR_PAD 4
#define EXT2_DIR_REC_LEN(name_len) \
	((unsigned int)((name_len) + 8 + EXT2_DIR_PAD - 1) & ~(unsigned int)(EXT2_DIR_PAD - 1))

/* Extended attribute block header: only its reference count matters to us (inode deletion). */
#define EXT2_XATTR_MAGIC 0xEA020000
struct ext2_xattr_header {
	__le32 h_magic;
	__le32 h_refcount;
	__le32 h_blocks;
	__le32 h_hash;
	__le32 h_reserved[4];
};

/* ---------------------------------------------------------------- in memory */
/*
 * Per-group locks, as Linux's struct blockgroup_lock: groups hash onto a fixed array of
 * spinlocks, each on its own cache line, so two CPUs allocating in two groups touch
 * neither each other's lock nor its line. 64 is Linux's figure for a handful of CPUs.
 */
#define EXT2_NR_BG_LOCKS 64
struct bgl_lock {
	spinlock_t lock;
	u8 pad[64 - sizeof(spinlock_t)]; /* padded, not aligned: kzalloc() promises no 64 */
};
struct blockgroup_lock {
	struct bgl_lock locks[EXT2_NR_BG_LOCKS];
};

struct ext4_system_zone;
struct ext2_family_ops;

/*
 * IOs into unwritten extents whose conversion has not run yet (io_end.c), of an inode or
 * of a filesystem, oldest first: each gets the next number, so "every IO numbered up to n
 * is converted" is a question about the oldest one left, whatever order they end in.
 */
struct ext2_unwritten {
	spinlock_t lock;
	struct list_head pending;
	u64 last; /* the newest IO's number */
};

struct ext2_sb_info {
	struct buffer_head *s_sbh;     /* the block holding the superblock */
	struct ext2_super_block *s_es; /* in s_sbh */
	struct buffer_head **s_group_desc;
	unsigned int s_gdb_count; /* group descriptor blocks */
	unsigned int s_desc_per_block;
	unsigned int s_groups_count;
	u32 s_blocks_per_group;
	u32 s_inodes_per_group;
	u32 s_itb_per_group; /* inode table blocks per group */
	u32 s_inodes_per_block;
	u32 s_first_data_block;
	u32 s_blocks_count;
	u32 s_inodes_count;
	u32 s_first_ino;
	unsigned int s_inode_size;
	unsigned int s_addr_per_block_bits;
	u16 s_mount_state;               /* s_state when mounted: restored at umount */
	u16 s_errors;                    /* EXT2_ERRORS_*: errors= or the superblock's default */
	bool s_errors_panic_asked;       /* errors=panic given at mount (a disk cannot ask it) */
	unsigned int s_bdev_wb_err_seen; /* the device's wb_err_count when last checked */
	u32 s_next_generation;           /* under s_lock */
	struct mutex s_lock; /* inode placement, the superblock's fields (the opening) */
	struct blockgroup_lock s_blockgroup_lock; /* sb_bgl_lock(): one group's state */
	/* the groups' totals, set from the descriptors at mount (the opening) */
	struct percpu_counter s_freeblocks_counter;
	struct percpu_counter s_freeinodes_counter;
	/* fsync's commit of the device's metadata (fs/ext2/file.c), one at a time */
	struct mutex s_commit_lock;
	u64 s_commits_started; /* under s_commit_lock; read without it */
	u64 s_commits_done;    /* under s_commit_lock */
	int s_commit_err;      /* the last commit's status; under s_commit_lock */
	u8 **s_rsv_map;        /* per group: blocks in files' windows (reserve.c); group lock */
	/* per group, with a journal: blocks freed in the running transaction (balloc.c) */
	u8 **s_pending_free;
	unsigned long s_pending_free_count; /* atomic */
	/* ext4 (fs/ext4/): set at mount, constant afterwards */
	const struct ext2_family_ops *s_family; /* what type ext4 adds; NULL for type ext2 */
	unsigned int s_desc_size; /* bytes per group descriptor: 32, or 64+ with 64bit */
	u32 s_csum_seed;          /* metadata_csum: crc32c(~0, uuid) or s_checksum_seed */
	struct ext4_system_zone *s_system_zone; /* flex_bg: sorted metadata runs */
	spinlock_t s_sb_csum_lock; /* the superblock's checksum is taken on a stable buffer */
	/* ext4 with a journal (fs/ext4/ext4_jbd2.c) */
	struct journal_s *s_journal;       /* NULL: no journal, or not written through */
	unsigned int s_commit_interval_ms; /* commit=, in seconds on the command line */
	bool s_data_writeback;             /* data=writeback (else ordered) */
	spinlock_t s_journal_inodes_lock;
	struct list_head s_journal_inodes; /* inodes changed in the running transaction */
	unsigned long s_ordered_blocks;    /* its ordered data, in blocks; atomic */
	struct mutex s_orphan_lock;
	struct list_head s_orphans; /* the orphan list in memory, s_last_orphan's first */
	bool s_orphan_cleanup;      /* a mount frees the orphans: their inodes may be read */
	unsigned int s_system_zone_count;
	/* ext4's delayed allocation (delalloc.c, io_end.c) */
	bool s_nodelalloc; /* the nodelalloc mount option: blocks allocated at write time */
	bool s_noload;     /* noload (norecovery): the journal is neither replayed nor used */
	/* blocks reserved by delayed writes, not yet allocated: ext4's s_dirtyclusters_counter */
	struct percpu_counter s_dirtyclusters_counter;
	struct ext2_unwritten s_unwritten; /* IOs whose unwritten extents are not converted yet */
	/* ext4's rate limits of its log lines (error.c); none for ext2 */
	struct ratelimit_state s_msg_ratelimit_state, s_err_ratelimit_state;
};

struct ext2_inode_info {
	u32 i_data[EXT2_N_BLOCKS]; /* block map, CPU order; under truncate_mutex */
	u32 i_flags;
	u32 i_file_acl;
	u32 i_dtime;
	u32 i_block_group;
	u32 i_dir_start_lookup; /* directory block where the last lookup hit */
	/* the last allocation: the next sequential block goes right after it */
	u32 i_next_alloc_block;
	u32 i_next_alloc_goal;
	u32 i_map_gen; /* truncations of the block map or extent tree: writeback's run */
	/* the reservation window (reserve.c): bits [start, end) of group; truncate_mutex */
	u32 i_rsv_group;
	u32 i_rsv_start, i_rsv_end;
	u32 i_rsv_size;                  /* the next window's size, in blocks */
	u32 i_csum_seed;                 /* metadata_csum: seed of this inode's blocks' checksums */
	struct list_head i_journal_list; /* ext4 with a journal: changed since the last commit */
	struct list_head i_orphan;       /* on s_orphans: unlinked while open (fs/ext4/orphan.c) */
	bool i_new;                      /* never written: write the whole on-disk inode */
	/* data=ordered: blocks allocated written since the last commit; its data goes first */
	bool i_ordered_data;
	u32 i_reserved_data_blocks; /* delayed blocks reserved (delalloc.c); the lock below */
	spinlock_t i_block_reservation_lock;
	struct ext2_unwritten i_unwritten; /* this inode's IOs waiting for conversion */
	/*
	 * ext4's delayed allocation: the size the disk may say (Linux's i_disksize), raised
	 * only as far as data is there to read (written and converted), so that a crash
	 * leaves an appended tail absent or whole, never zeros. i_block_reservation_lock.
	 */
	loff_t i_disksize;
	bool i_loaded; /* read or created: eviction may free what it owns */
	struct mutex truncate_mutex;
	struct inode vfs_inode;
};

static inline struct ext2_sb_info *EXT2_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline spinlock_t *sb_bgl_lock(struct ext2_sb_info *sbi, unsigned int group)
{
	return &sbi->s_blockgroup_lock.locks[group & (EXT2_NR_BG_LOCKS - 1)].lock;
}

/*
 * What a member of the family adds to this driver, filled in by its type at mount
 * (fs/ext4/super.c for ext4; NULL for type ext2). The shared code asks through this table
 * where an image may have that member's features, and only here: fs/ext4/ calls ext2's
 * helpers, never the reverse. Every member is set when the table is.
 */
struct ext2_family_ops {
	/* mount and remount: the features this type accepts for flags (SB_RDONLY or not) */
	int (*check_features)(struct super_block *sb, int flags);
	/* after ext2's geometry, before descriptors: checksum seed, 64-bit, s_maxbytes */
	int (*load_super)(struct super_block *sb);
	/* why a group's descriptor is bad beyond ext2's range checks, or NULL */
	const char *(*group_desc_problem)(struct super_block *sb, unsigned int group, const void *gd);
	/* the descriptors are loaded and checked (the system zone is built here) */
	int (*load_descriptors)(struct super_block *sb);
	/* needs_recovery: replay the journal; the mount then starts over */
	int (*recover)(struct super_block *sb);
	void (*release)(struct super_block *sb);
	/* blocks statfs does not count, or 0 to count ext2's way */
	u32 (*overhead_blocks)(struct super_block *sb);
	/* does [start, start + count) meet metadata or blocks another inode than ino owns? */
	bool (*in_system_zone)(struct super_block *sb, u32 start, u32 count, unsigned long ino);
	/* the raw inode before ext2 reads it (extra size, checksum), and what it adds after */
	int (*check_raw_inode)(struct super_block *sb, unsigned long ino, const u8 *raw);
	int (*fill_inode)(struct inode *inode, const u8 *raw);
	/* ext2_get_blocks() of an inode that is not block-mapped (EXT4_EXTENTS_FL) */
	int (*get_blocks)(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno,
			  int flags, bool *new);
	/* [lblk, lblk + len) is on disk: its unwritten extents become written (a handle held) */
	int (*convert_unwritten)(struct inode *inode, u32 lblk, u32 len);
	/* ext2_truncate_blocks() of such an inode */
	int (*truncate_blocks)(struct inode *inode, loff_t size);
	/* a directory block's checksum: 0, or -EIO and why */
	int (*dirblock_csum_verify)(struct inode *dir, const u8 *block, unsigned long n,
				    const char **why);
	/* a lookup through an index, or ERR_PTR(-EOPNOTSUPP) to scan the blocks */
	struct ext2_dir_entry_2 *(*dx_find_entry)(struct inode *dir, const struct qstr *name,
						  struct buffer_head **bhp);

	/* writing: each keeps what the member adds to a piece of metadata right */
	/* the superblock's buffer is about to be marked dirty (its checksum) */
	void (*super_csum_set)(struct super_block *sb);
	/* the mount becomes writable (mount or remount): what must be done before any write */
	int (*make_writable)(struct super_block *sb);
	/* group's descriptor changed, and the bitmaps given (NULL: unchanged): checksums */
	void (*group_csum_set)(struct super_block *sb, unsigned int group,
			       struct buffer_head *block_bitmap, struct buffer_head *inode_bitmap);
	/* inode number ino was taken from its group's bitmap (bg_itable_unused) */
	void (*inode_taken)(struct super_block *sb, unsigned int group, u32 bit);
	/* the group a new inode goes in (flex_bg), or -EOPNOTSUPP for ext2's choice */
	int (*find_inode_group)(struct super_block *sb, struct inode *dir, bool is_dir);
	/* an inode's last link went (under a handle); it is evicted, or freed (under one) */
	void (*orphan_add)(struct inode *inode);
	void (*orphan_del)(struct inode *inode);
	/* a read-write mount: the orphans a crash left are freed or truncated */
	int (*orphan_cleanup)(struct super_block *sb);
	/* a new inode: its flags (extents) and in-memory fields before it is first written */
	void (*init_inode)(struct inode *inode, struct inode *dir);
	/* the raw inode ext2 has filled: the fields past its 128 bytes, the checksum */
	void (*write_raw_inode)(struct inode *inode, u8 *raw, bool new);
	/* bytes at the end of each directory leaf block that are not entries (a tail) */
	unsigned int (*dir_tail_len)(struct super_block *sb);
	/* a directory leaf block changed (or is new: its tail is made): its checksum */
	void (*dirblock_csum_set)(struct inode *dir, struct buffer_head *bh, bool new);
	/* add an entry through dir's index: 0, -errno, or 1 if dir has none (ext2's scan adds) */
	int (*dx_add_entry)(struct inode *dir, const struct qstr *name, struct inode *inode);

	/* the journal (each a no-op, or ext2's way, on an image without one) */
	/* a mount option ext2 does not know: 0 taken, or -EINVAL */
	int (*parse_option)(struct super_block *sb, const char *opt, size_t len);
	/* an atomic change begins and ends (nested per task): ext2_journal_start/stop() */
	int (*journal_start)(struct super_block *sb);
	void (*journal_stop)(struct super_block *sb);
	/* a metadata buffer changed (under a handle): to the journal, or dirty */
	void (*dirty_metadata)(struct super_block *sb, struct buffer_head *bh);
	/* a metadata block is freed: the journal must not write the buffer */
	void (*forget)(struct super_block *sb, struct buffer_head *bh);
	/* mark_inode_dirty(): the inode goes into its buffer at the next commit */
	void (*dirty_inode)(struct inode *inode);
	/* the inode leaves the cache (under a handle): it goes into its buffer now */
	void (*evict_inode)(struct inode *inode);
	/* nblocks allocated at write time are the next commit's ordered data (a handle held) */
	void (*ordered_data)(struct inode *inode, unsigned int nblocks);
	/* fsync, sync, write_inode(WB_SYNC_ALL): 1 if there is no journal, else the commit's error */
	int (*force_commit)(struct super_block *sb);
	/* the mount becomes read-only or goes: the last commit, the journal empty */
	int (*make_readonly)(struct super_block *sb);
};

static inline const struct ext2_family_ops *ext2_family(struct super_block *sb)
{
	return EXT2_SB(sb)->s_family;
}

static inline struct ext2_inode_info *EXT2_I(struct inode *inode)
{
	return container_of(inode, struct ext2_inode_info, vfs_inode);
}

/*
 * Delayed allocation (delalloc.c): regular extent-mapped files of a type ext4 mount
 * without nodelalloc get their blocks at writeback, as unwritten extents.
 */
/* The size the on-disk inode gets (inode.c). */
loff_t ext2_disk_size(struct inode *inode);
/* Data up to size is on disk: the on-disk size may grow to it (never past i_size). */
void ext2_update_disksize(struct inode *inode, loff_t size);
/* The size was set (truncate, or read from disk): the disk says it too. */
void ext2_set_disksize(struct inode *inode, loff_t size);
static inline bool ext2_inode_delalloc(struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);

	return sbi->s_family && !sbi->s_nodelalloc && S_ISREG(inode->i_mode) &&
	       (EXT2_I(inode)->i_flags & EXT4_EXTENTS_FL);
}

static inline unsigned int ext2_addr_per_block(struct super_block *sb)
{
	return (unsigned int)(sb->s_blocksize / sizeof(__le32));
}

static inline bool ext2_has_incompat(struct super_block *sb, u32 mask)
{
	return le32_to_cpu(EXT2_SB(sb)->s_es->s_feature_incompat) & mask;
}

static inline bool ext2_has_ro_compat(struct super_block *sb, u32 mask)
{
	return le32_to_cpu(EXT2_SB(sb)->s_es->s_feature_ro_compat) & mask;
}

static inline u32 ext2_group_first_block(struct super_block *sb, unsigned int group)
{
	return EXT2_SB(sb)->s_first_data_block + group * EXT2_SB(sb)->s_blocks_per_group;
}

static inline u32 ext2_group_last_block(struct super_block *sb, unsigned int group)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	return group == sbi->s_groups_count - 1 ?
		       sbi->s_blocks_count - 1 :
		       ext2_group_first_block(sb, group) + sbi->s_blocks_per_group - 1;
}

/* Block numbers a file may point at: inside the filesystem, past the primary superblock. */
static inline bool ext2_block_in_range(struct super_block *sb, u32 block)
{
	return block > EXT2_SB(sb)->s_first_data_block && block < EXT2_SB(sb)->s_blocks_count;
}

/* A symlink whose target is in i_data: no blocks but maybe an extended attribute block. */
static inline bool ext2_inode_is_fast_symlink(struct inode *inode)
{
	u64 ea_blocks = EXT2_I(inode)->i_file_acl ? inode->i_sb->s_blocksize >> 9 : 0;

	return S_ISLNK(inode->i_mode) && inode->i_blocks == ea_blocks;
}

/* ---------------------------------------------------------------- shared functions */
/* super.c */
/* The mount of a family member: ops is what its type adds (NULL for ext2 itself). */
struct super_block *ext2_mount_family(struct file_system_type *fs_type, int flags,
				      const char *dev_name, void *data,
				      const struct ext2_family_ops *ops);

/* error.c */
__printf(3, 4) void ext2_error(struct super_block *sb, const char *func, const char *fmt, ...);
__printf(3, 4) void ext2_msg(struct super_block *sb, const char *level, const char *fmt, ...);
/* A new mount's limits on its log lines: ext4's, none for ext2. */
void ext2_ratelimit_init(struct ext2_sb_info *sbi);
/* sync, umount: a metadata write the device's writeback failed since the last look */
void ext2_check_bdev_write_error(struct super_block *sb, const char *func);

/* metadata.c */
/* The in-memory counters and times into the superblock's buffer; written now if sync. */
int ext2_commit_super(struct super_block *sb, bool sync);
void ext2_write_super(struct super_block *sb);
/* The superblock's buffer changed: its checksum (ext4) set again. */
void ext2_sb_csum(struct super_block *sb);
/* ... and written home in place: the journal's own state, errors, an image without one. */
void ext2_sb_dirty(struct super_block *sb);
/* ... under a handle (orphan list, a feature): journalled, home after its commit. */
void ext2_sb_dirty_metadata(struct super_block *sb);
/*
 * The journal's share of the shared code (ext4 with a journal; otherwise plain): a handle
 * around each change (0 or -EROFS), metadata buffers dirtied and freed through it.
 */
int ext2_journal_start(struct super_block *sb);
void ext2_journal_stop(struct super_block *sb);
void ext2_dirty_metadata(struct super_block *sb, struct buffer_head *bh);
/* bforget() of a metadata block being freed */
void ext2_forget_metadata(struct super_block *sb, struct buffer_head *bh);
/* A change as one handle: the value of call, or the start's error. */
#define EXT2_JOURNALLED(sb, call)                   \
	({                                          \
		int __err = ext2_journal_start(sb); \
		if (!__err) {                       \
			__err = (call);             \
			ext2_journal_stop(sb);      \
		}                                   \
		__err;                              \
	})

/* balloc.c */
/* sparse_super: only groups 0, 1 and powers of 3, 5 and 7 hold superblock copies */
bool ext2_group_has_super(struct super_block *sb, unsigned int group);
/* blocks at the start of group taken by the superblock and descriptor copies */
u32 ext2_group_sb_blocks(struct super_block *sb, unsigned int group);
struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb, unsigned int group,
					    struct buffer_head **bhp);
/*
 * ext4: room for n more blocks that no delayed block's reservation covers, leaving the
 * reservations and a slack for the extent tree (Linux's ext4_has_free_clusters()).
 */
bool ext2_has_free_blocks(struct super_block *sb, unsigned long n);
/* ext2_new_blocks() flags */
#define EXT2_ALLOC_RESERVED 0x1 /* covered by a delayed block's reservation, or tree blocks */
u32 ext2_new_blocks(struct inode *inode, u32 goal, unsigned long *count, int *errp,
		    unsigned int flags);
void ext2_free_blocks(struct inode *inode, u32 block, unsigned long count);
int ext2_pending_frees_init(struct super_block *sb);
void ext2_pending_frees_destroy(struct super_block *sb);
/* The commit: blocks freed in its transaction are given back to their groups in it. */
void ext2_commit_pending_frees(struct super_block *sb);
/* Blocks freed and waiting for the commit (a write short of space may ask for one). */
static inline unsigned long ext2_pending_frees(struct super_block *sb)
{
	return __atomic_load_n(&EXT2_SB(sb)->s_pending_free_count, __ATOMIC_RELAXED);
}
/* Sum of the descriptors' free blocks: the counter's value at mount (and a check of it). */
u32 ext2_count_free_blocks(struct super_block *sb);
int ext2_check_descriptors(struct super_block *sb);
/* group's descriptor changed, and the bitmaps given (NULL: not): checksums, all dirty */
void ext2_group_dirty(struct super_block *sb, unsigned int group, struct buffer_head *block_bitmap,
		      struct buffer_head *inode_bitmap);
/* Why a block pointer of inode read from disk must not be followed ("out of range"...), or NULL. */
const char *ext2_block_pointer_problem(struct inode *inode, u32 block);

/* bitmap.c */
unsigned int ext2_find_next_zero_bit(const u8 *map, unsigned int size, unsigned int start);
unsigned int ext2_find_next_set_bit(const u8 *map, unsigned int size, unsigned int start);
unsigned int ext2_count_zero_bits(const u8 *map, unsigned int size);
static inline bool ext2_test_bit(const u8 *map, unsigned int nr)
{
	return map[nr >> 3] & (1u << (nr & 7));
}
static inline void ext2_set_bit(u8 *map, unsigned int nr)
{
	map[nr >> 3] |= (u8)(1u << (nr & 7));
}
static inline void ext2_clear_bit(u8 *map, unsigned int nr)
{
	map[nr >> 3] &= (u8) ~(1u << (nr & 7));
}

/* ialloc.c */
struct inode *ext2_new_inode(struct inode *dir, umode_t mode);
void ext2_free_inode(struct inode *inode);
/* Sum of the descriptors' free inodes, as ext2_count_free_blocks(). */
u32 ext2_count_free_inodes(struct super_block *sb);

/* inode.c */
struct inode *ext2_iget(struct super_block *sb, unsigned long ino);
struct inode *ext2_iget_special(struct super_block *sb, unsigned long ino);
/* The on-disk inode inside its inode table block (*bhp, referenced), or an ERR_PTR. */
struct ext2_inode *ext2_get_raw_inode(struct super_block *sb, unsigned long ino,
				      struct buffer_head **bhp);
int ext2_write_inode(struct inode *inode, struct writeback_control *wbc);
void ext2_evict_inode(struct inode *inode);
int ext2_setattr(struct dentry *dentry, struct iattr *attr);
/* The in-memory inode into its on-disk buffer, now (dirtied through the journal, if any). */
int ext2_update_inode(struct inode *inode);
void ext2_dirty_inode(struct inode *inode, int flags);
void ext2_set_inode_ops(struct inode *inode);
void ext2_set_dir_changed(struct inode *dir);
struct inode *ext2_alloc_inode(struct super_block *sb);
void ext2_destroy_inode(struct inode *inode);

/* blockmap.c */
#define EXT2_GET_BLOCKS_CREATE 0x1
/* ext4's writeback of delayed blocks: unwritten extents map, holes become unwritten ones */
#define EXT2_GET_BLOCKS_UNWRIT 0x2
/* with UNWRIT: direct IO's, no delayed allocation reservation covers the new blocks */
#define EXT2_GET_BLOCKS_DIO 0x4
int ext2_get_blocks(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno,
		    int flags, bool *new);
loff_t ext2_max_size(unsigned int blkbits);

/* truncate.c */
int ext2_truncate_blocks(struct inode *inode, loff_t size);

/* xattr.c */
void ext2_xattr_delete_inode(struct inode *inode);

/* dir.c */
int ext2_readdir(struct file *file, struct dir_context *ctx);
u32 ext2_inode_by_name(struct inode *dir, const struct qstr *name, int *errp);
struct ext2_dir_entry_2 *ext2_find_entry(struct inode *dir, const struct qstr *name,
					 struct buffer_head **bhp);
/* Directory block n, read and checked; ERR_PTR on a hole, a bad block or an IO error. */
struct buffer_head *ext2_dir_bread(struct inode *dir, unsigned long n);
/* The live entry for name in a checked directory block of size bytes, NULL, or -EIO. */
struct ext2_dir_entry_2 *ext2_search_dir_block(struct inode *dir, struct buffer_head *bh,
					       unsigned int size, const struct qstr *name);
/* Whether a walk of a leaf block may step over the entry at off (logs an error if not). */
bool ext2_dirent_steps(struct inode *dir, struct buffer_head *bh, unsigned int off,
		       unsigned int size);
int ext2_add_link(struct inode *dir, const struct qstr *name, struct inode *inode);
/* name -> inode into leaf block bh if it has room: 0, -ENOSPC, or -EEXIST. */
int ext2_add_entry_to_block(struct inode *dir, struct buffer_head *bh, const struct qstr *name,
			    struct inode *inode);
/* A new empty leaf at the end of dir (its tail made), the size grown; ERR_PTR on failure. */
struct buffer_head *ext2_dir_append_block(struct inode *dir);
int ext2_delete_entry(struct inode *dir, struct ext2_dir_entry_2 *de, struct buffer_head *bh);
int ext2_make_empty(struct inode *inode, struct inode *parent);
int ext2_empty_dir(struct inode *inode);
void ext2_set_link(struct inode *dir, struct ext2_dir_entry_2 *de, struct buffer_head *bh,
		   struct inode *inode, bool update_times);
struct ext2_dir_entry_2 *ext2_dotdot(struct inode *dir, struct buffer_head **bhp, int *errp);
extern const struct file_operations ext2_dir_operations;

/* namei.c */
extern const struct inode_operations ext2_dir_inode_operations;
extern const struct inode_operations ext2_special_inode_operations;

/* reserve.c: reservation windows (see there) */
int ext2_rsv_init(struct super_block *sb);
void ext2_rsv_destroy(struct super_block *sb);
/* The inode's window goes back: truncate, a writer's close, eviction. */
void ext2_discard_reservation(struct inode *inode);
/* Does the inode's next allocation use a window of its own? */
bool ext2_rsv_wanted(struct inode *inode);
/* A window's bits [start, end) of group's map; empty when start == end. */
struct ext2_rsv_window {
	u32 group, start, end;
};
/* Under group's lock: choose and take blocks in its bitmap map (reserve.c). */
long ext2_rsv_alloc(struct super_block *sb, struct inode *inode, unsigned int group, u8 *map,
		    u32 size, u32 goal_bit, bool whole, unsigned long *count,
		    struct ext2_rsv_window *stale);
/* A window ext2_rsv_alloc() left behind in another group: cleared under that group's lock. */
void ext2_rsv_clear_window(struct super_block *sb, const struct ext2_rsv_window *w);

/* io_end.c: the conversion of unwritten extents after their IO */
void ext2_unwritten_init(struct ext2_unwritten *u);
/* Every IO numbered up to the result is converted (the number of the newest: all are). */
u64 ext2_unwritten_done(struct ext2_unwritten *u);
/* fsync: every IO of the inode begun before the call is converted (later ones are not waited). */
void ext2_unwritten_wait(struct inode *inode);
/* sync, umount: the same for the whole filesystem. */
void ext2_unwritten_wait_sb(struct super_block *sb);
/* Eviction: every IO of the inode converted (it may hold no reference to the inode). */
void ext2_unwritten_wait_all(struct inode *inode);

/* file.c */
int ext2_fsync(struct file *file, loff_t start, loff_t end, int datasync);
extern const struct file_operations ext2_file_operations;
extern const struct inode_operations ext2_file_inode_operations;

/* fallocate.c: ext4's allocating fallocate (unwritten extents) */
long ext2_fallocate(struct file *file, int mode, loff_t offset, loff_t len);

/* direct.c: O_DIRECT (-ENOTBLK: the page cache's path must take the rest) */
ssize_t ext2_direct_write(struct file *file, const char *buf, size_t len, loff_t *pos);
ssize_t ext2_direct_read(struct file *file, char *buf, size_t len, loff_t *pos);

/* readpage.c, writeback.c, aops.c */
int ext2_readpage(struct file *file, struct page *page);
void ext2_readahead(struct readahead_control *ractl);
int ext2_writepages(struct address_space *mapping, struct writeback_control *wbc);
int ext2_writepage(struct page *page, struct writeback_control *wbc);
extern const struct address_space_operations ext2_aops;
int ext2_zero_tail(struct inode *inode, loff_t size);
/* A failed write gives back the blocks it allocated past the end of file. */
void ext2_write_failed(struct inode *inode, loff_t end);
/*
 * ext2_get_blocks() with CREATE under a handle of its own, tried again after a commit
 * while -ENOSPC comes with freed blocks waiting for one (the caller holds no handle).
 */
int ext2_get_blocks_create(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno,
			   int flags, bool *new);

/* symlink.c */
extern const struct inode_operations ext2_symlink_inode_operations;
extern const struct inode_operations ext2_fast_symlink_inode_operations;
int ext2_write_symlink(struct inode *inode, const char *target, unsigned int len);

#endif
