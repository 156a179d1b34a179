/* sync(2), syncfs and the sync done at unmount. */
#include <cgwb/fs.h>
#include <cgwb/writeback.h>
#include <cgwb/backing-dev.h>
#include <cgwb/buffer_head.h>
#include <cgwb/blkdev.h>

int sb_take_wb_err(struct super_block *sb)
{
	int err = READ_ONCE(sb->s_wb_err);

	if (err)
		WRITE_ONCE(sb->s_wb_err, 0);
	return err;
}

/* The sync itself; errors it meets stay recorded for syncfs and umount to report. */
static int __sync_filesystem(struct super_block *sb)
{
	int err = 0, err2;

	sync_inodes_sb(sb);
	if (sb->s_op->sync_fs) {
		err = sb->s_op->sync_fs(sb, 0);
		err2 = sb->s_op->sync_fs(sb, 1);
		if (!err)
			err = err2;
	}
	if (sb->s_bdev) {
		err2 = sync_blockdev(sb->s_bdev);
		if (!err)
			err = err2;
		err2 = blkdev_issue_flush(sb->s_bdev);
		if (!err)
			err = err2;
	}
	return err;
}

/* Integrity writeback of one superblock: data, inodes, the filesystem's own state, metadata buffers. */
int sync_filesystem(struct super_block *sb)
{
	int err, err2;

	if (sb->s_flags & SB_RDONLY)
		return sb_take_wb_err(sb);
	err = __sync_filesystem(sb);
	err2 = sb_take_wb_err(sb); /* this sync's errors, and older ones nobody was told of */
	return err ? err : err2;
}

int vfs_syncfs(const char *name)
{
	struct path path;
	int err = kern_path(name, LOOKUP_FOLLOW, &path);

	if (err)
		return err;
	err = sync_filesystem(path.mnt->mnt_sb);
	path_put(&path);
	return err;
}

static void sync_one_sb(struct super_block *sb, void *unused)
{
	(void)unused;
	/* sync(2) reports nothing: the errors wait for syncfs or umount, as Linux's errseq */
	if (sb->s_root && sb->s_bdi && bdi_cap_writeback(sb->s_bdi) && !(sb->s_flags & SB_RDONLY))
		__sync_filesystem(sb);
}

static void flush_one_disk(struct gendisk *disk, void *unused)
{
	(void)unused;
	/* raw buffered writes to the device, then its volatile cache */
	if (disk->part0 && disk->part0->bd_mapping && !disk->read_only) {
		sync_blockdev(disk->part0);
		blkdev_issue_flush(disk->part0);
	}
}

void ksys_sync(void)
{
	wakeup_flusher_threads(WB_REASON_SYNC);
	iterate_supers(sync_one_sb, NULL);
	for_each_disk(flush_one_disk, NULL);
	if (unlikely(READ_ONCE(laptop_mode)))
		laptop_sync_completion();
}
