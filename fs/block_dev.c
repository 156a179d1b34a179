/*
 * Block devices as files: each disk has an inode in the "bdev" pseudo filesystem whose page
 * cache holds the device's blocks (buffered raw IO and filesystem metadata buffers), a
 * backing_dev_info for its writeback, and file operations for /dev/vdX.
 */
#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include <cgwb/buffer_head.h>
#include <cgwb/backing-dev.h>
#include <cgwb/pagemap.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "internal.h"

static struct file_system_type bdev_fs_type = { .name = "bdev" };
static const struct super_operations bdev_sops = { 0 };
struct super_block *blockdev_superblock;

static loff_t bdev_size(struct block_device *bdev)
{
	return (loff_t)bdev_nr_sectors(bdev) << SECTOR_SHIFT;
}

/*
 * A registered disk gets its page-cache inode and its backing device (writeback context).
 * Called by add_disk().
 */
int bdev_attach_disk(struct gendisk *disk)
{
	struct block_device *bdev = disk->part0;
	struct inode *inode;

	disk->bdi = bdi_alloc();
	if (!disk->bdi)
		return -ENOMEM;
	bdi_register(disk->bdi, "%d:%d", disk->major, disk->first_minor);
	disk->bdi->disk = disk;

	if (!blockdev_superblock)
		return 0; /* no VFS (block-layer unit tests): the disk works without a page cache */
	inode = new_inode(blockdev_superblock);
	if (!inode)
		return -ENOMEM;
	inode->i_mode = S_IFBLK | 0600;
	inode->i_rdev = bdev->bd_dev;
	inode->i_bdev = bdev;
	inode->i_size = bdev_size(bdev);
	inode->i_blkbits = PAGE_SHIFT;
	inode->i_data.a_ops = &def_blk_aops;
	inode->i_data.gfp_mask = GFP_NOFS;
	inode->i_ino = bdev->bd_dev;
	insert_inode_hash(inode); /* hashed: dirtying puts it on its wb's lists */
	bdev->bd_block_size = PAGE_SIZE;
	bdev->bd_mapping = inode->i_mapping;
	return 0;
}

static struct inode *bdev_inode(struct block_device *bdev)
{
	return ((struct address_space *)bdev->bd_mapping)->host;
}

/* Change the size of the device's buffers (a filesystem mounts with its block size). */
int set_blocksize(struct block_device *bdev, unsigned int size)
{
	if (size < SECTOR_SIZE || size > PAGE_SIZE || !is_power_of_2(size) ||
	    size < bdev_logical_block_size(bdev))
		return -EINVAL;
	if (bdev->bd_block_size == size)
		return 0;
	sync_blockdev(bdev);
	invalidate_bdev(bdev);
	bdev->bd_block_size = size;
	bdev_inode(bdev)->i_blkbits = (unsigned int)ilog2(size);
	return 0;
}

int sb_set_blocksize(struct super_block *sb, int size)
{
	if (set_blocksize(sb->s_bdev, (unsigned int)size))
		return 0;
	sb->s_blocksize = (unsigned long)size;
	sb->s_blocksize_bits = (unsigned char)ilog2((unsigned long)size);
	return size;
}

/* ---------------------------------------------------------------- /dev/vdX */

static int blkdev_open(struct inode *inode, struct file *file)
{
	struct block_device *bdev = file->private_data;

	(void)inode;
	if (!bdev || !bdev->bd_mapping)
		return -ENXIO;
	if ((file->f_flags & O_ACCMODE) != O_RDONLY && bdev->bd_disk->read_only)
		return -EROFS;
	file->f_mapping = bdev->bd_mapping;
	file->f_inode = bdev_inode(bdev);
	return 0;
}

static ssize_t blkdev_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	struct block_device *bdev = file->private_data;

	if (file->f_flags & O_DIRECT) {
		ssize_t n = blkdev_read_at(bdev, buf, len, *pos, file->f_flags);
		if (n > 0)
			*pos += n;
		return n;
	}
	return generic_file_read(file, buf, len, pos);
}

static ssize_t blkdev_write_file(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct block_device *bdev = file->private_data;
	loff_t size = bdev_size(bdev);
	ssize_t n;

	if (*pos >= size)
		return -ENOSPC;
	len = (size_t)min((loff_t)len, size - *pos);
	if (file->f_flags & O_DIRECT) {
		n = blkdev_write_at(bdev, buf, len, *pos, file->f_flags);
	} else {
		n = generic_perform_write(file, buf, len, *pos);
		if (n > 0 && (file->f_flags & O_DSYNC)) {
			int err = vfs_fsync_range(file, *pos, *pos + n - 1, 1);
			if (err)
				return err;
		}
	}
	if (n > 0)
		*pos += n;
	return n;
}

static int blkdev_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct block_device *bdev = file->private_data;
	int err = filemap_write_and_wait_range(bdev->bd_mapping, start, end);
	int err2 = blkdev_issue_flush(bdev);

	(void)datasync;
	return err ? err : err2;
}

static loff_t blkdev_llseek(struct file *file, loff_t offset, int whence)
{
	struct block_device *bdev = file->private_data;
	loff_t base = whence == SEEK_END ? bdev_size(bdev) : whence == SEEK_CUR ? file->f_pos : 0;

	if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END)
		return -EINVAL;
	/* a device has a fixed size: nothing lies beyond its end (Linux's fixed_size_llseek) */
	if (base + offset < 0 || base + offset > bdev_size(bdev))
		return -EINVAL;
	file->f_pos = base + offset;
	return file->f_pos;
}

const struct file_operations def_blk_fops = {
	.open = blkdev_open,
	.read = blkdev_read,
	.write = blkdev_write_file,
	.fsync = blkdev_fsync,
	.llseek = blkdev_llseek,
};

void bdev_init(void)
{
	blockdev_superblock = alloc_super(&bdev_fs_type, 0);
	BUG_ON(IS_ERR_OR_NULL(blockdev_superblock));
	blockdev_superblock->s_op = &bdev_sops;
	blockdev_superblock->s_iflags |= SB_I_BDEV;
	blockdev_superblock->s_maxbytes = LLONG_MAX;
	blockdev_superblock->s_bdi = &noop_backing_dev_info;
	up_write(&blockdev_superblock->s_umount);
}
