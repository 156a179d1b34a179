/*
 * Buffer heads: filesystem blocks inside pages of a block device's page cache. ext2 reads
 * and writes its metadata (superblock, group descriptors, bitmaps, inode tables, indirect
 * and directory blocks) through them; dirty buffers dirty their page, and the block
 * device's inode is written back like any other (by the root wb).
 */
#ifndef CGWB_BUFFER_HEAD_H
#define CGWB_BUFFER_HEAD_H

#include <cgwb/mm.h>
#include <cgwb/blkdev.h>

struct block_device;
struct super_block;
struct buffer_head;

enum bh_state_bits {
	BH_Uptodate,    /* contains valid data */
	BH_Dirty,       /* must be written */
	BH_Lock,        /* IO in progress or exclusive use */
	BH_Req,         /* has been submitted for IO */
	BH_Mapped,      /* b_blocknr is valid */
	BH_New,         /* just allocated on disk */
	BH_Write_EIO,   /* the last write failed */
	BH_Async_Write, /* part of its page's current writeback */
	BH_Verified,    /* checked by its filesystem since it was read (ext4's checksums) */
	BH_JList,       /* on the running transaction's list, referenced by it (jbd2) */
	BH_JDirty,      /* and changed in it: logged by its commit (not if forgotten since) */
};

typedef void(bh_end_io_t)(struct buffer_head *bh, int uptodate);

struct buffer_head {
	unsigned long b_state;
	struct buffer_head *b_this_page; /* circular list of the page's buffers */
	struct page *b_page;
	sector_t b_blocknr; /* in units of b_size */
	char *b_data;
	struct block_device *b_bdev;
	bh_end_io_t *b_end_io;
	void *b_private;
	struct buffer_head *b_jnext; /* next on the running transaction's list (BH_JList) */
	u32 b_size;
	int b_count;
};

/* Atomic: IO completion (interrupt context) changes the state of buffers tasks are using. */
#define BUFFER_FNS(bit, name)                                                               \
	static inline bool buffer_##name(const struct buffer_head *bh)                      \
	{                                                                                   \
		return __atomic_load_n(&bh->b_state, __ATOMIC_RELAXED) & (1UL << BH_##bit); \
	}                                                                                   \
	static inline void set_buffer_##name(struct buffer_head *bh)                        \
	{                                                                                   \
		__atomic_fetch_or(&bh->b_state, 1UL << BH_##bit, __ATOMIC_SEQ_CST);         \
	}                                                                                   \
	static inline void clear_buffer_##name(struct buffer_head *bh)                      \
	{                                                                                   \
		__atomic_fetch_and(&bh->b_state, ~(1UL << BH_##bit), __ATOMIC_SEQ_CST);     \
	}

BUFFER_FNS(Uptodate, uptodate)
BUFFER_FNS(Dirty, dirty)
BUFFER_FNS(Lock, locked)
BUFFER_FNS(Req, req)
BUFFER_FNS(Mapped, mapped)
BUFFER_FNS(New, new)
BUFFER_FNS(Write_EIO, write_io_error)
BUFFER_FNS(Async_Write, async_write)
BUFFER_FNS(Verified, verified)
BUFFER_FNS(JList, jlist)
BUFFER_FNS(JDirty, jdirty)

/* The buffer for block of sb's device, read if needed; NULL on IO error (logged). */
struct buffer_head *sb_bread(struct super_block *sb, sector_t block);
/* The buffer without reading it (the caller overwrites it whole: set_buffer_uptodate). */
struct buffer_head *sb_getblk(struct super_block *sb, sector_t block);
struct buffer_head *__bread(struct block_device *bdev, sector_t block, unsigned int size);
struct buffer_head *__getblk(struct block_device *bdev, sector_t block, unsigned int size);
void get_bh(struct buffer_head *bh);
void brelse(struct buffer_head *bh);
void mark_buffer_dirty(struct buffer_head *bh);
/* Write a dirty buffer now and wait: 0 or -EIO. */
int sync_dirty_buffer(struct buffer_head *bh);
void lock_buffer(struct buffer_head *bh);
void unlock_buffer(struct buffer_head *bh);
void wait_on_buffer(struct buffer_head *bh);
/* Write every dirty buffer of the device and wait (umount, sync): 0 or the first error. */
int sync_blockdev(struct block_device *bdev);
/* Drop the device's clean cached buffers (after umount, or a mount of garbage). */
void invalidate_bdev(struct block_device *bdev);
/* Forget a buffer about to be freed on disk (a freed indirect block): clean, not written. */
void bforget(struct buffer_head *bh);

/* The device's page cache, where the buffers live. */
static inline struct address_space *bdev_mapping(struct block_device *bdev)
{
	return bdev->bd_mapping;
}

#endif
