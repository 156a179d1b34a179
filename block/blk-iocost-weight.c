/*
 * io.cost's hierarchical weights. A group's share of the disk is the product, down its
 * path from the root, of its weight over the sum of its active siblings' weights
 * (hweight_active). Only active groups (IO in the current or the last period) count, so an
 * idle group's share goes to the others. A group that uses less than its share donates:
 * its inuse weight is lowered below its active weight, and the shares computed from inuse
 * weights (hweight_inuse), which is what a group pays its IO with, grow for the others.
 *
 * The sums of each level are kept in the parent (child_active_sum, child_inuse_sum) and
 * changed by propagate_weights(); hweights are computed lazily and cached until the next
 * change (ioc->hweight_gen). Everything here runs under ioc->lock.
 */
#include "blk-cgroup.h"
#include <cgwb/jiffies.h>

void ioc_now(struct ioc *ioc, struct ioc_now *now)
{
	now->now_ns = ktime_get_ns();
	now->now = now->now_ns / NSEC_PER_USEC;
	now->vrate = ioc->vtime_base_rate;
	now->vnow = ioc->period_at_vtime + (now->now - ioc->period_at) * now->vrate;
}

/*
 * A parent is active while any child is, with its own weight, and its inuse in the
 * proportion its children keep of theirs: what they donate, it donates one level up.
 */
void propagate_weights(struct ioc_gq *iocg, u32 active, u32 inuse)
{
	struct ioc *ioc = iocg->ioc;

	inuse = active ? clamp(inuse, 1U, active) : 0;
	for (int lvl = iocg->level; lvl > 0; lvl--) {
		struct ioc_gq *child = iocg->ancestors[lvl], *parent = iocg->ancestors[lvl - 1];
		u32 parent_active = 0, parent_inuse = 0;

		parent->child_active_sum += (s64)active - child->active;
		parent->child_inuse_sum += (s64)inuse - child->inuse;
		child->active = active;
		child->inuse = inuse;
		if (parent->child_active_sum) {
			parent_active = parent->weight;
			parent_inuse = (u32)DIV_ROUND_UP((u64)parent_active * parent->child_inuse_sum,
							 parent->child_active_sum);
		}
		if (parent_active == parent->active && parent_inuse == parent->inuse)
			break;
		active = parent_active;
		inuse = parent_inuse;
	}
	ioc->hweight_gen++;
}

void current_hweight(struct ioc_gq *iocg, u32 *hw_activep, u32 *hw_inusep)
{
	struct ioc *ioc = iocg->ioc;
	u32 hwa = WEIGHT_ONE, hwi = WEIGHT_ONE;

	if (iocg->hweight_gen == ioc->hweight_gen)
		goto out;
	for (int lvl = 0; lvl < iocg->level; lvl++) {
		struct ioc_gq *parent = iocg->ancestors[lvl], *child = iocg->ancestors[lvl + 1];
		u64 active_sum = max_t(u64, child->active, parent->child_active_sum);
		u64 inuse_sum = max_t(u64, child->inuse, parent->child_inuse_sum);

		if (!active_sum || !inuse_sum)
			continue; /* child not active (yet): it would have it all */
		hwa = (u32)((u64)hwa * child->active / active_sum);
		hwi = (u32)((u64)hwi * child->inuse / inuse_sum);
	}
	iocg->hweight_active = max(hwa, 1U);
	iocg->hweight_inuse = max(hwi, 1U);
	iocg->hweight_gen = ioc->hweight_gen;
out:
	if (hw_activep)
		*hw_activep = iocg->hweight_active;
	if (hw_inusep)
		*hw_inusep = iocg->hweight_inuse;
}

static u32 iocg_weight_in_force(struct ioc_gq *iocg)
{
	struct blkcg *blkcg = iocg_to_blkg(iocg)->blkcg;

	return iocg->cfg_weight ? iocg->cfg_weight : READ_ONCE(blkcg->ioc_dfl_weight) * WEIGHT_ONE;
}

void weight_updated(struct ioc_gq *iocg, struct ioc_now *now)
{
	u32 weight = iocg_weight_in_force(iocg);

	(void)now;
	iocg->last_inuse = weight;
	if (weight != iocg->weight && iocg->active)
		propagate_weights(iocg, weight, iocg->abs_vdebt ? 0 : weight); /* debt owns inuse */
	iocg->weight = weight;
}

void iocg_init(struct ioc *ioc, struct ioc_gq *iocg, struct blkcg_gq *blkg, struct ioc_now *now)
{
	struct blkcg_gq *pos;
	int level = 0;

	if (blkg->parent && !blkg->parent->iocg.ioc)
		iocg_init(ioc, &blkg->parent->iocg, blkg->parent, now);
	for (pos = blkg->parent; pos; pos = pos->parent)
		level++;
	iocg->ioc = ioc;
	iocg->level = level;
	for (pos = blkg; pos; pos = pos->parent)
		iocg->ancestors[level--] = &pos->iocg;
	iocg->vtime = now->vnow;
	iocg->done_vtime = now->vnow;
	iocg->active_period = ioc->cur_period;
	iocg->hweight_gen = ioc->hweight_gen - 1;
	weight_updated(iocg, now);
}
