/* /proc/meminfo: Linux's field names and layout ("Name:" padded to 16, kB in 8 columns). */
#include <cgwb/pseudofs.h>
#include <cgwb/fs.h>
#include <cgwb/mm.h>
#include <cgwb/vmstat.h>
#include <cgwb/slab.h>
#include <cgwb/blkdev.h>
#include "proc.h"

static void show_val_kb(struct seq_buf *s, const char *name, unsigned long pages)
{
	seq_printf(s, "%-16s%8lu kB\n", name, pages << (PAGE_SHIFT - 10));
}

static void add_bdev_pages(struct gendisk *disk, void *arg)
{
	struct address_space *mapping = disk->part0->bd_mapping;

	if (mapping)
		*(unsigned long *)arg += READ_ONCE(mapping->nrpages);
}

/* Block device page cache ("Buffers"): raw device IO and filesystem metadata. */
static unsigned long nr_blockdev_pages(void)
{
	unsigned long pages = 0;

	for_each_disk(add_bdev_pages, &pages);
	return pages;
}

/* Free memory plus the page cache reclaim could take, less what reclaim keeps (Linux's estimate). */
static unsigned long mem_available(unsigned long free)
{
	unsigned long reserve = totalreserve_pages;
	unsigned long file = global_node_page_state_snapshot(NR_ACTIVE_FILE) +
			     global_node_page_state_snapshot(NR_INACTIVE_FILE);
	long avail = (long)free - (long)reserve;

	avail += (long)(file - min(file / 2, reserve));
	return avail < 0 ? 0 : (unsigned long)avail;
}

static int meminfo_show(struct seq_buf *s, void *private)
{
	unsigned long buffers = nr_blockdev_pages();
	unsigned long file = global_node_page_state_snapshot(NR_FILE_PAGES);
	unsigned long active = global_node_page_state_snapshot(NR_ACTIVE_FILE);
	unsigned long inactive = global_node_page_state_snapshot(NR_INACTIVE_FILE);
	unsigned long slab = slab_pages();
	struct sysinfo i;

	(void)private;
	si_meminfo(&i);
	show_val_kb(s, "MemTotal:", i.totalram);
	show_val_kb(s, "MemFree:", i.freeram);
	show_val_kb(s, "MemAvailable:", mem_available(i.freeram));
	show_val_kb(s, "Buffers:", buffers);
	show_val_kb(s, "Cached:", file > buffers ? file - buffers : 0);
	show_val_kb(s, "SwapCached:", 0);
	show_val_kb(s, "Active:", active);
	show_val_kb(s, "Inactive:", inactive);
	show_val_kb(s, "Active(anon):", 0);
	show_val_kb(s, "Inactive(anon):", 0);
	show_val_kb(s, "Active(file):", active);
	show_val_kb(s, "Inactive(file):", inactive);
	show_val_kb(s, "Unevictable:", global_node_page_state_snapshot(NR_UNEVICTABLE));
	show_val_kb(s, "Mlocked:", 0);
	show_val_kb(s, "SwapTotal:", 0);
	show_val_kb(s, "SwapFree:", 0);
	show_val_kb(s, "Dirty:", global_node_page_state_snapshot(NR_FILE_DIRTY));
	show_val_kb(s, "Writeback:", global_node_page_state_snapshot(NR_WRITEBACK));
	show_val_kb(s, "AnonPages:", global_node_page_state_snapshot(NR_ANON_MAPPED));
	show_val_kb(s, "Mapped:", 0);
	show_val_kb(s, "Shmem:", global_node_page_state_snapshot(NR_SHMEM));
	show_val_kb(s, "KReclaimable:", 0);
	show_val_kb(s, "Slab:", slab);
	show_val_kb(s, "SReclaimable:", 0);
	show_val_kb(s, "SUnreclaim:", slab);
	return 0;
}

void proc_meminfo_init(struct pseudo_node *root)
{
	pseudo_create_file(root, "meminfo", 0444, meminfo_show, NULL, NULL);
}
