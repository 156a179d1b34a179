/*
 * A bdi's guaranteed and capped share of the dirty threshold (/sys/class/bdi/MAJ:MIN/
 * min_ratio, max_ratio, min_bytes, max_bytes, strict_limit), with Linux's rules: ratios are
 * kept in BDI_RATIO_SCALE units; the min_ratios of all bdis together stay below 100 %, so
 * that some of the threshold is always left to be shared by recent completions; a min above
 * the max (or a max below the min) is refused. Byte values are converted to a ratio of the
 * global dirty threshold at the time they are written, and read back the same way.
 */
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/spinlock.h>
#include <cgwb/errno.h>
#include <cgwb/mm.h>

unsigned int bdi_min_ratio;
static DEFINE_SPINLOCK(bdi_ratio_lock);

int bdi_set_min_ratio_no_scale(struct backing_dev_info *bdi, unsigned int min_ratio)
{
	unsigned long flags;
	int ret = 0;

	if (min_ratio > 100 * BDI_RATIO_SCALE)
		return -EINVAL;
	spin_lock_irqsave(&bdi_ratio_lock, flags);
	if (min_ratio > bdi->max_ratio) {
		ret = -EINVAL;
	} else if (min_ratio < bdi->min_ratio) {
		bdi_min_ratio -= bdi->min_ratio - min_ratio;
		bdi->min_ratio = min_ratio;
	} else if (bdi_min_ratio + (min_ratio - bdi->min_ratio) < 100 * BDI_RATIO_SCALE) {
		bdi_min_ratio += min_ratio - bdi->min_ratio;
		bdi->min_ratio = min_ratio;
	} else {
		ret = -EINVAL; /* all bdis' guarantees would take the whole threshold */
	}
	spin_unlock_irqrestore(&bdi_ratio_lock, flags);
	return ret;
}

int bdi_set_max_ratio_no_scale(struct backing_dev_info *bdi, unsigned int max_ratio)
{
	unsigned long flags;
	int ret = 0;

	if (max_ratio > 100 * BDI_RATIO_SCALE)
		return -EINVAL;
	spin_lock_irqsave(&bdi_ratio_lock, flags);
	if (bdi->min_ratio > max_ratio) {
		ret = -EINVAL;
	} else {
		bdi->max_ratio = max_ratio;
		bdi->max_prop_frac = FPROP_FRAC_BASE * max_ratio / (100 * BDI_RATIO_SCALE);
	}
	spin_unlock_irqrestore(&bdi_ratio_lock, flags);
	return ret;
}

int bdi_set_min_ratio(struct backing_dev_info *bdi, unsigned int min_ratio)
{
	if (min_ratio > 100)
		return -EINVAL;
	return bdi_set_min_ratio_no_scale(bdi, min_ratio * BDI_RATIO_SCALE);
}

int bdi_set_max_ratio(struct backing_dev_info *bdi, unsigned int max_ratio)
{
	if (max_ratio > 100)
		return -EINVAL;
	return bdi_set_max_ratio_no_scale(bdi, max_ratio * BDI_RATIO_SCALE);
}

static u64 bdi_get_bytes(unsigned int ratio)
{
	unsigned long bg, thresh;

	global_dirty_limits(&bg, &thresh);
	return (u64)thresh * PAGE_SIZE * ratio / BDI_RATIO_SCALE / 100;
}

/* A ratio of the current global dirty threshold; -EINVAL if it is 100 % or more. */
static long bdi_ratio_from_pages(u64 pages)
{
	unsigned long bg, thresh;
	u64 ratio;

	global_dirty_limits(&bg, &thresh);
	if (pages > thresh) /* also keeps the product below from overflowing */
		return -EINVAL;
	ratio = pages * 100 * BDI_RATIO_SCALE / max(thresh, 1UL);
	return (long)ratio;
}

u64 bdi_get_min_bytes(struct backing_dev_info *bdi)
{
	return bdi_get_bytes(bdi->min_ratio);
}

u64 bdi_get_max_bytes(struct backing_dev_info *bdi)
{
	return bdi_get_bytes(bdi->max_ratio);
}

int bdi_set_min_bytes(struct backing_dev_info *bdi, u64 min_bytes)
{
	long ratio = bdi_ratio_from_pages(min_bytes >> PAGE_SHIFT);

	return ratio < 0 ? (int)ratio : bdi_set_min_ratio_no_scale(bdi, (unsigned int)ratio);
}

int bdi_set_max_bytes(struct backing_dev_info *bdi, u64 max_bytes)
{
	long ratio = bdi_ratio_from_pages(max_bytes >> PAGE_SHIFT);

	return ratio < 0 ? (int)ratio : bdi_set_max_ratio_no_scale(bdi, (unsigned int)ratio);
}

/* Throttle on the bdi's own share even while the domain runs free (FUSE in Linux). */
int bdi_set_strict_limit(struct backing_dev_info *bdi, unsigned int strict_limit)
{
	if (strict_limit > 1)
		return -EINVAL;
	if (strict_limit)
		bdi->capabilities |= BDI_CAP_STRICTLIMIT;
	else
		bdi->capabilities &= ~BDI_CAP_STRICTLIMIT;
	return 0;
}
