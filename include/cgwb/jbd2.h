/*
 * jbd2, the journal of ext4 (fs/jbd2/): its on-disk format, loading a journal and
 * replaying what a crash left in it, and writing through it: handles, transactions,
 * kjournald2's commits and checkpoints (docs/ext4.md).
 *
 * Everything in the journal is big-endian, unlike the filesystem around it. The journal
 * is a ring of blocks from s_first to s_maxlen - 1 (journal blocks, mapped to the device
 * by the owner's bmap): transactions of a descriptor block (tags naming the filesystem
 * blocks whose copies follow), the copies, more descriptors, revoke blocks (filesystem
 * blocks earlier transactions must not replay), and a commit block.
 */
#ifndef CGWB_JBD2_H
#define CGWB_JBD2_H

#include <cgwb/types.h>
#include <cgwb/spinlock.h>
#include <cgwb/wait.h>
#include <cgwb/list.h>
#include <cgwb/xarray.h>

struct block_device;
struct buffer_head;

#define JBD2_MAGIC_NUMBER 0xc03b3998U

/* h_blocktype */
#define JBD2_DESCRIPTOR_BLOCK 1
#define JBD2_COMMIT_BLOCK 2
#define JBD2_SUPERBLOCK_V1 3
#define JBD2_SUPERBLOCK_V2 4
#define JBD2_REVOKE_BLOCK 5
#define JBD2_FC_BLOCK 6

typedef struct journal_header_s {
	u32 h_magic;
	u32 h_blocktype;
	u32 h_sequence; /* the transaction */
} journal_header_t;

/* Descriptor tags (journal_tag_bytes() says which and how long); t_flags: */
#define JBD2_FLAG_ESCAPE 1    /* the copy's first 4 bytes were the magic: put it back */
#define JBD2_FLAG_SAME_UUID 2 /* no 16-byte uuid after this tag */
#define JBD2_FLAG_DELETED 4
#define JBD2_FLAG_LAST_TAG 8

typedef struct journal_block_tag3_s { /* csum_v3 */
	u32 t_blocknr;
	u32 t_flags;
	u32 t_blocknr_high; /* 64bit only */
	u32 t_checksum;     /* crc32c(seed, sequence, the copy) */
} journal_block_tag3_t;

typedef struct journal_block_tag_s { /* without csum_v3 */
	u32 t_blocknr;
	u16 t_checksum; /* csum_v2: the low 16 bits of the same crc32c */
	u16 t_flags;
	u32 t_blocknr_high; /* 64bit only */
} journal_block_tag_t;

/* The last 4 bytes of descriptor and revoke blocks with csum_v2/v3. */
struct jbd2_journal_block_tail {
	u32 t_checksum; /* crc32c(seed, the block with this field zero) */
};

typedef struct jbd2_journal_revoke_header_s {
	journal_header_t r_header;
	u32 r_count; /* bytes used in the block, this header included */
} jbd2_journal_revoke_header_t;

struct commit_header {
	u32 h_magic;
	u32 h_blocktype;
	u32 h_sequence;
	u8 h_chksum_type;
	u8 h_chksum_size;
	u8 h_padding[2];
	u32 h_chksum[8]; /* csum_v2/v3: [0] = crc32c(seed, the block with it zero) */
	u64 h_commit_sec;
	u32 h_commit_nsec;
};

typedef struct journal_superblock_s {
	journal_header_t s_header;
	u32 s_blocksize;
	u32 s_maxlen;   /* journal blocks */
	u32 s_first;    /* the first block of the log */
	u32 s_sequence; /* the first transaction expected in the log */
	u32 s_start;    /* its first block; 0: the journal is empty (clean) */
	s32 s_errno;
	u32 s_feature_compat;
	u32 s_feature_incompat;
	u32 s_feature_ro_compat;
	u8 s_uuid[16];
	u32 s_nr_users;
	u32 s_dynsuper;
	u32 s_max_transaction;
	u32 s_max_trans_data;
	u8 s_checksum_type;
	u8 s_padding2[3];
	u32 s_num_fc_blks;
	u32 s_padding[41];
	u32 s_checksum; /* csum_v2/v3: crc32c(~0, this block with the field zero) */
	u8 s_users[16 * 48];
} journal_superblock_t;
_Static_assert(sizeof(journal_superblock_t) == 1024, "the journal superblock is 1 KiB");

#define JBD2_FEATURE_COMPAT_CHECKSUM 0x1 /* v1 commit checksums: not checked */
#define JBD2_FEATURE_INCOMPAT_REVOKE 0x1
#define JBD2_FEATURE_INCOMPAT_64BIT 0x2
#define JBD2_FEATURE_INCOMPAT_ASYNC_COMMIT 0x4
#define JBD2_FEATURE_INCOMPAT_CSUM_V2 0x8
#define JBD2_FEATURE_INCOMPAT_CSUM_V3 0x10
#define JBD2_FEATURE_INCOMPAT_FAST_COMMIT 0x20
#define JBD2_KNOWN_INCOMPAT_FEATURES                                          \
	(JBD2_FEATURE_INCOMPAT_REVOKE | JBD2_FEATURE_INCOMPAT_64BIT |         \
	 JBD2_FEATURE_INCOMPAT_ASYNC_COMMIT | JBD2_FEATURE_INCOMPAT_CSUM_V2 | \
	 JBD2_FEATURE_INCOMPAT_CSUM_V3)

/* A journal's block n -> the device block holding it (0, or -errno). */
typedef int (*jbd2_bmap_t)(void *owner, u32 n, u64 *pblock);

struct task_struct;
typedef struct journal_s journal_t;

/*
 * A transaction: the metadata buffers changed since the last commit, and the handles open
 * on it. The buffers are linked through their b_jnext in the order they joined, each
 * referenced (BH_JList): joining allocates nothing, so it cannot fail for memory. One
 * forgotten (its block freed) stays linked until the commit but loses BH_JDirty: it is
 * neither logged nor written home. One transaction at a time is running; a commit locks
 * it (no new handle), waits for the open ones, logs and checkpoints it.
 */
typedef struct transaction_s {
	u32 t_tid;
	unsigned int t_updates;                          /* open handles; j_state_lock */
	unsigned int t_nr_buffers;                       /* those with BH_JDirty; j_state_lock */
	struct buffer_head *t_buffers, **t_buffers_tail; /* by b_jnext; j_state_lock */
} transaction_t;

/* An atomic change (one system call's metadata), as Linux's handle_t; nests per task. */
typedef struct jbd2_journal_handle {
	struct list_head h_list; /* journal's j_handles */
	struct task_struct *h_task;
	int h_ref;
	bool h_saved_nofs; /* the task's memalloc_nofs before its first start */
} handle_t;

/* What the filesystem does at a commit, with the transaction locked (no handle open). */
struct jbd2_commit_ops {
	/* metadata kept in memory (inodes) into its buffers: jbd2_journal_dirty_metadata() */
	int (*flush_metadata)(journal_t *j);
	/* data=ordered: the data of blocks this transaction makes visible, written and waited */
	int (*write_data)(journal_t *j);
};

struct journal_s {
	struct block_device *j_dev;
	unsigned int j_blocksize;
	u32 j_total_len; /* blocks the owner gave the journal */
	jbd2_bmap_t j_bmap;
	void *j_owner;
	const char *j_devname; /* for messages */
	struct buffer_head *j_sb_buffer;
	journal_superblock_t *j_superblock; /* in j_sb_buffer */
	u32 j_first, j_last;                /* the log: [j_first, j_last) */
	u32 j_incompat;
	u32 j_csum_seed;            /* csum_v2/v3: crc32c(~0, s_uuid) */
	u32 j_transaction_sequence; /* the next transaction's id after load */
	/* what the last recovery did (tests and messages) */
	u32 j_replayed_transactions, j_replayed_blocks, j_revoked_blocks;

	/* the writing side (transaction.c, commit.c), once jbd2_journal_start_thread() ran */
	spinlock_t j_state_lock;
	transaction_t *j_running_transaction;
	bool j_barrier;                   /* a commit holds the running transaction: handles wait */
	struct list_head j_handles;       /* open handles, to find the current task's */
	wait_queue_head_t j_wait_updates; /* the commit, for the open handles to close */
	wait_queue_head_t j_wait_transaction_locked; /* handles, for the commit to end */
	wait_queue_head_t j_wait_commit;             /* kjournald2, for work */
	wait_queue_head_t j_wait_done_commit;        /* fsync, for its transaction's commit */
	u32 j_commit_sequence;           /* the last transaction committed (and checkpointed) */
	u32 j_commit_request;            /* the latest transaction someone wants committed */
	unsigned long j_commit_interval; /* jiffies between commits of a running transaction */
	unsigned int j_max_transaction_buffers;
	struct task_struct *j_task; /* kjournald2 */
	bool j_stop;
	int j_errno; /* a failed commit: the journal is aborted, handles get -EROFS */
	const struct jbd2_commit_ops *j_commit_ops;
	void *j_private; /* the filesystem's */
	u64 j_commits;   /* transactions committed (tests and messages) */
};

/**
 * jbd2_journal_init() - describe a journal, without reading it
 * @bdev: the device it is on
 * @blocksize: its block size
 * @len: its length in blocks
 * @bmap: maps a journal block to a device block (the journal inode's blocks)
 * @owner: passed to @bmap
 * @devname: the name messages and the kjournald2 thread use
 *
 * Context: process context (mount); may sleep.
 * Return: the journal (jbd2_journal_load() reads it), or NULL without memory.
 */
journal_t *jbd2_journal_init(struct block_device *bdev, unsigned int blocksize, u32 len,
			     jbd2_bmap_t bmap, void *owner, const char *devname);
/**
 * jbd2_journal_destroy() - free a journal
 * @journal: the journal, its thread stopped (jbd2_journal_stop_thread()), or NULL
 *
 * Context: process context.
 */
void jbd2_journal_destroy(journal_t *journal);
/**
 * jbd2_journal_load() - read a journal and replay it if needed
 * @journal: the journal from jbd2_journal_init()
 *
 * Reads and checks the journal superblock; if the log is not empty, replays it (committed
 * transactions, less what later ones revoked) onto the device, waits for the writes, then
 * marks the journal empty.
 *
 * Context: process context (mount); sleeps.
 * Return: 0, or a negative errno with the reason logged: nothing is replayed on a bad
 * superblock; a log cut short by damage is replayed up to the damage, as Linux's.
 */
int jbd2_journal_load(journal_t *journal);

/* ---------------------------------------------------------------- writing */
/**
 * jbd2_journal_start_thread() - start writing through a loaded journal
 * @j: the journal, loaded
 * @interval_ms: how often a running transaction is committed
 * @ops: the filesystem's hooks around a commit
 * @private: the filesystem's data, in j_private
 *
 * Opens a running transaction and starts kjournald2 (in the root cgroup: journal IO is
 * nobody's), which commits it every @interval_ms, or sooner when asked or full.
 *
 * Context: process context (mount); may sleep.
 * Return: 0, or a negative errno if the transaction or the thread could not be made.
 */
int jbd2_journal_start_thread(journal_t *j, unsigned int interval_ms,
			      const struct jbd2_commit_ops *ops, void *private);
/**
 * jbd2_journal_stop_thread() - stop writing through a journal (umount)
 * @j: the journal; nothing is done if its thread is not running
 *
 * kjournald2 makes a last commit and stops; then the journal is marked empty, unless it
 * was aborted.
 *
 * Context: process context; sleeps; no handle of the caller open.
 * Return: 0, the error that aborted the journal, or the superblock write's.
 */
int jbd2_journal_stop_thread(journal_t *j);
/**
 * jbd2_journal_start() - open a handle on the running transaction
 * @j: the journal
 *
 * A task that has a handle open gets the same one back (nested; each start is matched by
 * a stop). Waits while the running transaction is full or being committed. Until the
 * handle is stopped the task's allocations do not enter the filesystem (memalloc_nofs),
 * as Linux's: reclaim must not wait for this handle's commit.
 *
 * Context: process context; may sleep.
 * Return: the handle; ERR_PTR(-EROFS) once the journal is aborted, or ERR_PTR(-ENOMEM).
 */
handle_t *jbd2_journal_start(journal_t *j);
/**
 * jbd2_journal_stop() - close a handle
 * @j: the journal
 * @handle: the current task's handle, from jbd2_journal_start()
 *
 * The outermost stop lets the transaction commit once no other handle is open on it.
 *
 * Context: process context, the task that started it; never sleeps.
 */
void jbd2_journal_stop(journal_t *j, handle_t *handle);
/**
 * jbd2_journal_current_handle() - the current task's open handle
 * @j: the journal
 *
 * Context: any task context; never sleeps.
 * Return: the handle, or NULL if the task has none open.
 */
handle_t *jbd2_journal_current_handle(journal_t *j);
/**
 * jbd2_journal_dirty_metadata() - a metadata buffer changed under a handle
 * @j: the journal
 * @bh: the buffer; it joins the running transaction (which takes a reference on it)
 *
 * Only a change under a handle, or by the commit itself, can be made atomic: anything
 * else is warned about once, and joins the transaction all the same.
 *
 * Context: process context with a handle open; never sleeps.
 */
void jbd2_journal_dirty_metadata(journal_t *j, struct buffer_head *bh);
/**
 * jbd2_journal_forget() - a metadata block was freed
 * @j: the journal
 * @bh: its buffer; the running transaction no longer writes it (no copy, no checkpoint)
 *
 * Context: process context with a handle open; never sleeps.
 */
void jbd2_journal_forget(journal_t *j, struct buffer_head *bh);
/**
 * jbd2_log_start_commit() - ask kjournald2 to commit the running transaction, not waiting
 * @j: the journal
 *
 * For a caller that may hold a handle (which the commit waits for): its next handle, as
 * everyone's, waits until the commit has locked and written the transaction.
 *
 * Context: any task context; never sleeps.
 * Return: the id of the transaction asked for.
 */
u32 jbd2_log_start_commit(journal_t *j);
/**
 * jbd2_journal_force_commit() - commit the running transaction now and wait (fsync, sync)
 * @j: the journal
 *
 * Called with a handle of the caller open, it warns and returns 0 at once: that handle
 * would hold the commit up forever.
 *
 * Context: process context; sleeps.
 * Return: 0 once the transaction is committed, or the error that aborted the journal.
 */
int jbd2_journal_force_commit(journal_t *j);

#endif
