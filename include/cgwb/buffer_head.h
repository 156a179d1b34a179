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

/**
 * sb_bread() - the buffer of a block of a filesystem's device, read if needed
 * @sb: the superblock; the buffer has its block size
 * @block: the block number, in that size
 *
 * As __bread() on @sb's device.
 *
 * Context: process context; may sleep.
 * Return: the buffer, uptodate, with a reference (brelse() it); NULL on an IO error
 * (logged) or a block past the device's end.
 */
struct buffer_head *sb_bread(struct super_block *sb, sector_t block);
/**
 * sb_getblk() - the buffer of a block of a filesystem's device, not read
 * @sb: the superblock
 * @block: the block number
 *
 * For a caller that overwrites the block whole (then set_buffer_uptodate()). As
 * __getblk() on @sb's device.
 *
 * Context: process context; may sleep.
 * Return: the buffer with a reference, or NULL as __getblk().
 */
struct buffer_head *sb_getblk(struct super_block *sb, sector_t block);
/**
 * __bread() - the buffer of a block of a device, read if needed
 * @bdev: the device
 * @block: the block number, in @size units
 * @size: the block size, a power of two from SECTOR_SIZE to PAGE_SIZE
 *
 * A buffer that is not uptodate is read synchronously, under its lock.
 *
 * Context: process context; may sleep.
 * Return: the buffer, uptodate, with a reference; NULL on an IO error (logged) or as
 * __getblk().
 */
struct buffer_head *__bread(struct block_device *bdev, sector_t block, unsigned int size);
/**
 * __getblk() - the buffer of a block of a device, not read
 * @bdev: the device
 * @block: the block number, in @size units
 * @size: the block size, a power of two from SECTOR_SIZE to PAGE_SIZE
 *
 * Looked up in this CPU's buffer LRU, then in the device's page cache, where the page and
 * its buffers are made if absent: as Linux's grow_dev_page(), the allocation does not fail
 * (metadata has nowhere else to go).
 *
 * Context: process context; may sleep.
 * Return: the buffer with a reference; NULL (logged) for a bad size, a block past the
 * device's end, or a page whose buffers have another size and are busy.
 */
struct buffer_head *__getblk(struct block_device *bdev, sector_t block, unsigned int size);
/**
 * get_bh() - take another reference on a buffer
 * @bh: the buffer
 *
 * Context: any context; never sleeps.
 */
void get_bh(struct buffer_head *bh);
/**
 * brelse() - drop a reference on a buffer
 * @bh: the buffer, or NULL
 *
 * The buffer stays cached with its page; a buffer without references can be freed with
 * it.
 *
 * Context: any context; never sleeps.
 */
void brelse(struct buffer_head *bh);
/**
 * mark_buffer_dirty() - mark an uptodate buffer dirty
 * @bh: the buffer
 *
 * Its page is marked dirty too (set_page_dirty()), so the device's writeback writes it.
 *
 * Context: any context where set_page_dirty() may run; never sleeps.
 */
void mark_buffer_dirty(struct buffer_head *bh);
/**
 * sync_dirty_buffer() - write a dirty buffer now and wait for it
 * @bh: the buffer; nothing is written if it is clean
 *
 * Context: process context; sleeps; must not hold the buffer's lock.
 * Return: 0, or -EIO if the write failed.
 */
int sync_dirty_buffer(struct buffer_head *bh);
/**
 * lock_buffer() - lock a buffer, waiting for its holder
 * @bh: the buffer
 *
 * The wait is an IO wait; IO in the waiter's own plug is sent before it sleeps.
 *
 * Context: process context; may sleep.
 */
void lock_buffer(struct buffer_head *bh);
/**
 * unlock_buffer() - unlock a buffer and wake its waiters
 * @bh: the buffer
 *
 * Context: any context, IO completion included; never sleeps.
 */
void unlock_buffer(struct buffer_head *bh);
/**
 * wait_on_buffer() - wait until a buffer is unlocked (its IO done)
 * @bh: the buffer
 *
 * Context: process context; may sleep.
 */
void wait_on_buffer(struct buffer_head *bh);
/**
 * sync_blockdev() - write every dirty buffer of a device and wait (umount, sync)
 * @bdev: the device
 *
 * Context: process context; sleeps.
 * Return: 0, or the first negative errno of the writes or of the device's recorded
 * writeback error.
 */
int sync_blockdev(struct block_device *bdev);
/**
 * invalidate_bdev() - drop a device's clean, unused cached buffers
 * @bdev: the device (after umount, or a mount of garbage)
 *
 * The buffer LRUs are emptied first, as Linux's invalidate_bh_lrus(), so that their
 * references do not keep pages; dirty, locked or referenced pages stay.
 *
 * Context: process context; may sleep.
 */
void invalidate_bdev(struct block_device *bdev);
/**
 * bforget() - forget a buffer whose block is about to be freed on disk
 * @bh: the buffer (a freed indirect block), or NULL
 *
 * It is made clean, so it is not written, and the caller's reference is dropped.
 *
 * Context: any context; never sleeps.
 */
void bforget(struct buffer_head *bh);

/* The device's page cache, where the buffers live. */
static inline struct address_space *bdev_mapping(struct block_device *bdev)
{
	return bdev->bd_mapping;
}

#endif
