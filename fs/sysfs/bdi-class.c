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
#include <cgwb/slab.h>
#include "sysfs.h"

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

/*
 * The knobs, one show and one store for all: shown as a decimal number (the unsigned int
 * at offset in the bdi over scale, or what get() gives); written as one, kstrtouint's for
 * set() (-ERANGE past UINT_MAX), kstrtoull's for set_u64(). The setters say what is refused.
 */
struct bdi_attr {
	const char *name;
	size_t offset;
	unsigned int scale;
	u64 (*get)(struct backing_dev_info *bdi);
	int (*set)(struct backing_dev_info *bdi, unsigned int v);
	int (*set_u64)(struct backing_dev_info *bdi, u64 v);
};

static u64 bdi_strict_limit(struct backing_dev_info *bdi)
{
	return !!(bdi->capabilities & BDI_CAP_STRICTLIMIT);
}

#define BDI_RATIO_ATTR(_name, field, _scale, setter)                               \
	{                                                                          \
		.name = _name, .offset = offsetof(struct backing_dev_info, field), \
		.scale = _scale, .set = setter                                     \
	}

static const struct bdi_attr bdi_attrs[] = {
	BDI_RATIO_ATTR("min_ratio", min_ratio, BDI_RATIO_SCALE, bdi_set_min_ratio),
	BDI_RATIO_ATTR("max_ratio", max_ratio, BDI_RATIO_SCALE, bdi_set_max_ratio),
	BDI_RATIO_ATTR("min_ratio_fine", min_ratio, 1, bdi_set_min_ratio_no_scale),
	BDI_RATIO_ATTR("max_ratio_fine", max_ratio, 1, bdi_set_max_ratio_no_scale),
	{ .name = "min_bytes", .get = bdi_get_min_bytes, .set_u64 = bdi_set_min_bytes },
	{ .name = "max_bytes", .get = bdi_get_max_bytes, .set_u64 = bdi_set_max_bytes },
	{ .name = "strict_limit", .get = bdi_strict_limit, .set = bdi_set_strict_limit },
};

/* A knob's file: what its callbacks are given (made with the bdi's directory, kept as long). */
struct bdi_attr_file {
	struct backing_dev_info *bdi;
	const struct bdi_attr *attr;
};

static int bdi_attr_show(struct seq_buf *s, void *private)
{
	const struct bdi_attr_file *f = private;
	const struct bdi_attr *attr = f->attr;
	u64 v;

	if (attr->get)
		v = attr->get(f->bdi);
	else
		v = *(const unsigned int *)((const char *)f->bdi + attr->offset) / attr->scale;
	return seq_printf(s, "%llu\n", (unsigned long long)v);
}

static int bdi_attr_store(const char *buf, size_t len, void *private)
{
	const struct bdi_attr_file *f = private;
	u64 v;
	int err = kstrtoull(buf, 10, &v);

	if (err)
		return err;
	if (f->attr->set_u64)
		return f->attr->set_u64(f->bdi, v);
	if (v > UINT_MAX)
		return -ERANGE;
	return f->attr->set(f->bdi, (unsigned int)v);
}

void sysfs_add_bdi(struct backing_dev_info *bdi)
{
	struct pseudo_node *class = pseudo_lookup(pseudo_sysfs_root(), "class"), *root, *dir;
	struct bdi_attr_file *files;

	if (!class || !bdi || !bdi->dev_name[0])
		return;
	root = pseudo_lookup(class, "bdi");
	if (!root)
		return;
	dir = pseudo_mkdir(root, bdi->dev_name);
	if (IS_ERR(dir))
		return;
	files = kcalloc(ARRAY_SIZE(bdi_attrs), sizeof(*files), GFP_KERNEL);
	if (!files)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(bdi_attrs); i++) {
		files[i] = (struct bdi_attr_file){ bdi, &bdi_attrs[i] };
		pseudo_create_file(dir, bdi_attrs[i].name, 0644, bdi_attr_show, bdi_attr_store,
				   &files[i]);
	}
	pseudo_create_file(dir, "stable_pages_required", 0444, stable_pages_required_show, NULL, bdi);
}
