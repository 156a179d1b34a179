/* Shared inside fs/: writeback work items, wb list helpers, the block device aops. */
#ifndef CGWB_FS_INTERNAL_H
#define CGWB_FS_INTERNAL_H

#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>

/* buffer-lru.c: recently used buffers, each held by a reference (see there). */
struct buffer_head *bh_lru_lookup(struct block_device *bdev, sector_t block, unsigned int size);
void bh_lru_install(struct buffer_head *bh);
void bh_lru_evict(struct page *page);

/* fs-writeback.c */
struct inode *wb_inode(struct list_head *head);
bool inode_io_list_move_locked(struct inode *inode, struct bdi_writeback *wb, struct list_head *head);
void wb_io_lists_populated(struct bdi_writeback *wb);
void wb_io_lists_depopulated(struct bdi_writeback *wb);
void inode_cgwb_move_to_attached(struct inode *inode, struct bdi_writeback *wb);
struct bdi_writeback *inode_to_wb_and_lock_list(struct inode *inode);
void redirty_tail_locked(struct inode *inode, struct bdi_writeback *wb);
void redirty_tail(struct inode *inode, struct bdi_writeback *wb);
void requeue_io(struct inode *inode, struct bdi_writeback *wb);
void queue_io(struct bdi_writeback *wb, struct wb_writeback_work *work, unsigned long dirtied_before);
int __writeback_single_inode(struct inode *inode, struct writeback_control *wbc);
int writeback_single_inode(struct inode *inode, struct writeback_control *wbc);
void requeue_inode(struct inode *inode, struct bdi_writeback *wb, struct writeback_control *wbc,
		   unsigned long dirtied_before);
void inode_sleep_on_writeback(struct inode *inode);
void inode_sync_complete_locked(struct inode *inode);

/* fs-writeback-flusher.c */
void wb_queue_work(struct bdi_writeback *wb, struct wb_writeback_work *work);
void wb_wait_for_completion(struct wb_completion *done);
long wb_split_bdi_pages(struct bdi_writeback *wb, long nr_pages);

/* buffer.c: the page cache of a block device (its inode in the bdev filesystem) */
extern const struct address_space_operations def_blk_aops;

#endif
