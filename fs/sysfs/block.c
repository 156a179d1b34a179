/* /sys/block/NAME: a disk's size, statistics and queue limits, in Linux's formats. */
#include <cgwb/pseudofs.h>
#include <cgwb/blkdev.h>
#include <cgwb/errno.h>
#include "../vfs.h"
#include "sysfs.h"

static int stat_show(struct seq_buf *s, void *private)
{
	char line[256];

	disk_stat_format(private, line, sizeof(line));
	return seq_puts(s, line);
}

static int size_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%llu\n", (unsigned long long)((struct gendisk *)private)->capacity);
}

static int ro_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%d\n", ((struct gendisk *)private)->read_only);
}

static int dev_show(struct seq_buf *s, void *private)
{
	struct gendisk *disk = private;

	return seq_printf(s, "%d:%d\n", disk->major, disk->first_minor);
}

static int zero_show(struct seq_buf *s, void *private)
{
	(void)private;
	return seq_puts(s, "0\n");
}

static const struct queue_limits *lim(void *private)
{
	return &((struct gendisk *)private)->queue->limits;
}

#define LIMIT_SHOW(name, expr)                                        \
	static int name##_show(struct seq_buf *s, void *private)      \
	{                                                             \
		return seq_printf(s, "%lu\n", (unsigned long)(expr)); \
	}

LIMIT_SHOW(logical_block_size, lim(private)->logical_block_size)
LIMIT_SHOW(physical_block_size, lim(private)->physical_block_size)
LIMIT_SHOW(max_sectors_kb, lim(private)->max_hw_sectors / 2)
LIMIT_SHOW(max_segments, lim(private)->max_segments)
LIMIT_SHOW(max_segment_size, lim(private)->max_segment_size)
LIMIT_SHOW(minimum_io_size,
	   lim(private)->io_min ? lim(private)->io_min : lim(private)->physical_block_size)
LIMIT_SHOW(optimal_io_size, lim(private)->io_opt)
LIMIT_SHOW(nr_requests, ((struct gendisk *)private)->queue->queue_depth)

struct disk_file {
	const char *name;
	pseudo_show_t show;
};

static const struct disk_file disk_files[] = {
	{ "stat", stat_show }, { "size", size_show },      { "ro", ro_show },
	{ "dev", dev_show },   { "removable", zero_show },
};

static const struct disk_file queue_files[] = {
	{ "logical_block_size", logical_block_size_show },
	{ "hw_sector_size", logical_block_size_show },
	{ "physical_block_size", physical_block_size_show },
	{ "max_sectors_kb", max_sectors_kb_show },
	{ "max_hw_sectors_kb", max_sectors_kb_show },
	{ "max_segments", max_segments_show },
	{ "max_segment_size", max_segment_size_show },
	{ "minimum_io_size", minimum_io_size_show },
	{ "optimal_io_size", optimal_io_size_show },
	{ "nr_requests", nr_requests_show },
	{ "rotational", zero_show },
	{ "stable_writes", zero_show }, /* virtio-blk without integrity: pages may change */
};

void sysfs_add_disk(struct gendisk *disk)
{
	struct pseudo_node *block = pseudo_lookup(pseudo_sysfs_root(), "block"), *dir, *queue;

	if (!block)
		return;
	dir = pseudo_mkdir(block, disk->disk_name);
	if (IS_ERR(dir))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(disk_files); i++)
		pseudo_create_file(dir, disk_files[i].name, 0444, disk_files[i].show, NULL, disk);
	queue = pseudo_mkdir(dir, "queue");
	if (IS_ERR(queue))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(queue_files); i++)
		pseudo_create_file(queue, queue_files[i].name, 0444, queue_files[i].show, NULL, disk);
}
