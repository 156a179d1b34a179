/*
 * /sys/class/bdi/MAJ:MIN: a device's share of the dirty threshold, with Linux's files,
 * parsing and errors: min_ratio and max_ratio in percent, their _fine twins in
 * BDI_RATIO_SCALE units (1/10000 %), min_bytes and max_bytes (converted to and from a
 * ratio of the global threshold at the time), strict_limit (0 or 1). Bad numbers give
 * -EINVAL or -ERANGE; values the rules refuse (mm/backing-dev-ratio.c) give -EINVAL and change
 * nothing. A bdi lives as long as its disk, and disks are never removed.
 */
#include <cgwb/pseudofs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include "sysfs.h"

static int min_ratio_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%u\n",
			  ((struct backing_dev_info *)private)->min_ratio / BDI_RATIO_SCALE);
}

static int max_ratio_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%u\n",
			  ((struct backing_dev_info *)private)->max_ratio / BDI_RATIO_SCALE);
}

static int min_ratio_fine_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%u\n", ((struct backing_dev_info *)private)->min_ratio);
}

static int max_ratio_fine_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%u\n", ((struct backing_dev_info *)private)->max_ratio);
}

static int min_bytes_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%llu\n", (unsigned long long)bdi_get_min_bytes(private));
}

static int max_bytes_show(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%llu\n", (unsigned long long)bdi_get_max_bytes(private));
}

static int strict_limit_show(struct seq_buf *s, void *private)
{
	struct backing_dev_info *bdi = private;

	return seq_printf(s, "%d\n", !!(bdi->capabilities & BDI_CAP_STRICTLIMIT));
}

/*
 * Linux 6.1 keeps the file for old tools but always shows 0 and points to the queue's
 * stable_writes, which says whether the device needs pages kept stable under writeback.
 */
static int stable_pages_required_show(struct seq_buf *s, void *private)
{
	struct backing_dev_info *bdi = private;
	static bool warned;

	if (!warned) {
		warned = true;
		printk(KERN_WARNING "bdi %s: %s\n", bdi->dev_name,
		       "the stable_pages_required attribute has been removed. "
		       "Use the stable_writes queue attribute instead.");
	}
	return seq_puts(s, "0\n");
}

/* One unsigned number, as kstrtouint reads it (a trailing newline allowed). */
static int store_uint(const char *buf, int (*set)(struct backing_dev_info *, unsigned int),
		      void *private)
{
	unsigned int v;
	int err = kstrtouint(buf, 10, &v);

	return err ? err : set(private, v);
}

static int store_u64(const char *buf, int (*set)(struct backing_dev_info *, u64), void *private)
{
	u64 v;
	int err = kstrtoull(buf, 10, &v);

	return err ? err : set(private, v);
}

static int min_ratio_store(const char *buf, size_t len, void *private)
{
	return store_uint(buf, bdi_set_min_ratio, private);
}

static int max_ratio_store(const char *buf, size_t len, void *private)
{
	return store_uint(buf, bdi_set_max_ratio, private);
}

static int min_ratio_fine_store(const char *buf, size_t len, void *private)
{
	return store_uint(buf, bdi_set_min_ratio_no_scale, private);
}

static int max_ratio_fine_store(const char *buf, size_t len, void *private)
{
	return store_uint(buf, bdi_set_max_ratio_no_scale, private);
}

static int min_bytes_store(const char *buf, size_t len, void *private)
{
	return store_u64(buf, bdi_set_min_bytes, private);
}

static int max_bytes_store(const char *buf, size_t len, void *private)
{
	return store_u64(buf, bdi_set_max_bytes, private);
}

static int strict_limit_store(const char *buf, size_t len, void *private)
{
	return store_uint(buf, bdi_set_strict_limit, private);
}

static const struct {
	const char *name;
	pseudo_show_t show;
	pseudo_store_t store;
} bdi_files[] = {
	{ "min_ratio", min_ratio_show, min_ratio_store },
	{ "max_ratio", max_ratio_show, max_ratio_store },
	{ "min_ratio_fine", min_ratio_fine_show, min_ratio_fine_store },
	{ "max_ratio_fine", max_ratio_fine_show, max_ratio_fine_store },
	{ "min_bytes", min_bytes_show, min_bytes_store },
	{ "max_bytes", max_bytes_show, max_bytes_store },
	{ "strict_limit", strict_limit_show, strict_limit_store },
	{ "stable_pages_required", stable_pages_required_show, NULL },
};

void sysfs_add_bdi(struct backing_dev_info *bdi)
{
	struct pseudo_node *class = pseudo_lookup(pseudo_sysfs_root(), "class"), *root, *dir;

	if (!class || !bdi || !bdi->dev_name[0])
		return;
	root = pseudo_lookup(class, "bdi");
	if (!root)
		return;
	dir = pseudo_mkdir(root, bdi->dev_name);
	if (IS_ERR(dir))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(bdi_files); i++)
		pseudo_create_file(dir, bdi_files[i].name, bdi_files[i].store ? 0644 : 0444,
				   bdi_files[i].show, bdi_files[i].store, bdi);
}
