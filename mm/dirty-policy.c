/*
 * The dirty-throttling policies (mm/dirty-policy.h): the list, the one in force
 * (/proc/sys/vm/dirty_policy), and what every policy's domain shares: what a wb's group
 * holds, the default position, and the domain's figures in a decision.
 *
 * What a group holds: the wb's dirty + writeback pages, or, for a cgroup's wb, the pages
 * its memory cgroup has dirty or under writeback if those are more. A group that dirties
 * pages of another group's inode (before the inode switches to it) has them counted in the
 * owner's wb, but charged to its own memory cgroup: so they count against its own policy
 * limit, and it cannot escape the policy by writing into someone else's file. The memcg's
 * count is over every disk; on a machine with several, a group's pages on one disk count
 * against its limit on the others too (stricter, never looser).
 */
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/vmstat.h>
#include <cgwb/compiler.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "dirty-policy.h"

const struct dirty_policy dirty_policy_linux = { .name = "linux" };

/* The policies there are, the default first. */
static const struct dirty_policy *const dirty_policies[] = {
	&dirty_policy_linux,
	&dirty_policy_bandwidth,
	&dirty_policy_fixed,
};

static const struct dirty_policy *dirty_policy_current = &dirty_policy_linux;

const struct dirty_policy *dirty_policy_get(void)
{
	return READ_ONCE(dirty_policy_current);
}

const char *dirty_policy_name(void)
{
	return dirty_policy_get()->name;
}

int dirty_policy_select(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(dirty_policies); i++) {
		const struct dirty_policy *p = dirty_policies[i];

		if (strcmp(p->name, name))
			continue;
		if (p->start)
			p->start();
		WRITE_ONCE(dirty_policy_current, p);
		return 0;
	}
	return -EINVAL;
}

void dirty_policy_for_each(void (*fn)(const char *name, void *arg), void *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(dirty_policies); i++)
		fn(dirty_policies[i]->name, arg);
}

void dirty_policy_for_each_param(void (*fn)(const char *name, void *arg), void *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(dirty_policies); i++) {
		const struct dirty_policy_param *p = dirty_policies[i]->params;

		for (; p && p->name; p++)
			fn(p->name, arg);
	}
}

/* The parameter called name, and its policy. */
static const struct dirty_policy_param *find_param(const char *name,
						   const struct dirty_policy **policy)
{
	for (size_t i = 0; i < ARRAY_SIZE(dirty_policies); i++) {
		const struct dirty_policy_param *p = dirty_policies[i]->params;

		for (; p && p->name; p++) {
			if (!strcmp(p->name, name)) {
				*policy = dirty_policies[i];
				return p;
			}
		}
	}
	return NULL;
}

int dirty_policy_param_show(const char *name, unsigned int *value)
{
	const struct dirty_policy *policy;
	const struct dirty_policy_param *p = find_param(name, &policy);

	if (!p)
		return -ENOENT;
	*value = p->selects && dirty_policy_get() != policy ? 0 : READ_ONCE(*p->value);
	return 0;
}

int dirty_policy_param_store(const char *name, unsigned long value)
{
	const struct dirty_policy *policy;
	const struct dirty_policy_param *p = find_param(name, &policy);

	if (!p)
		return -ENOENT;
	if (p->selects && !value) {
		/* the main knob's 0 means "off": Linux's law, if this policy was in force */
		if (dirty_policy_get() == policy)
			WRITE_ONCE(dirty_policy_current, &dirty_policy_linux);
		return 0;
	}
	if (value < p->min || value > p->max)
		return -EINVAL;
	WRITE_ONCE(*p->value, (unsigned int)value);
	if (p->selects)
		return dirty_policy_select(policy->name);
	return 0;
}

unsigned long dirty_policy_held(struct bdi_writeback *wb, bool exact, unsigned long *foreign)
{
	unsigned long held =
		exact ? (unsigned long)(wb_stat_sum(wb, WB_RECLAIMABLE) +
					wb_stat_sum(wb, WB_WRITEBACK)) :
			(unsigned long)(wb_stat(wb, WB_RECLAIMABLE) + wb_stat(wb, WB_WRITEBACK));
	struct mem_cgroup *memcg;
	long group;

	*foreign = 0;
	if (wb_is_root(wb))
		return held;
	memcg = wb_memcg(wb);
	group = memcg_page_state_local(memcg, NR_FILE_DIRTY) +
		memcg_page_state_local(memcg, NR_WRITEBACK);
	if (group <= (long)held)
		return held;
	*foreign = (unsigned long)group - held;
	return (unsigned long)group;
}

void dirty_policy_cubic(struct dirty_throttle_control *pdtc)
{
	unsigned long freerun = dirty_freerun_ceiling(pdtc->thresh, pdtc->bg_thresh);

	pdtc->setpoint = (freerun + pdtc->thresh) / 2;
	if (pdtc->wb_dirty >= pdtc->thresh)
		pdtc->pos_ratio = 0;
	else
		pdtc->pos_ratio = (unsigned long)pos_ratio_polynom(pdtc->setpoint, pdtc->wb_dirty,
								   pdtc->thresh);
}

bool pdtc_limits(struct dirty_throttle_control *pdtc, const struct dirty_policy *policy,
		 struct bdi_writeback *wb, const struct dirty_throttle_control *gdtc)
{
	if (!policy->wb_limits)
		return false;
	*pdtc = (struct dirty_throttle_control){
		.wb = wb,
		.policy = policy,
	};
	pdtc->wb_dirty = dirty_policy_held(wb, false, &pdtc->foreign);
	policy->wb_limits(pdtc, gdtc);
	if (!pdtc->thresh)
		return false;
	/* a cap small against the per-CPU error: the exact count, as Linux's wb_dirty_limits() */
	if (pdtc->thresh < 2 * wb_stat_error())
		pdtc->wb_dirty = dirty_policy_held(wb, true, &pdtc->foreign);
	pdtc->bg_thresh = min(pdtc->bg_thresh, pdtc->thresh);
	/* the domain is the wb's own: its figures are the wb's, as under strictlimit */
	pdtc->dirty = pdtc->wb_dirty;
	pdtc->wb_thresh = pdtc->thresh;
	pdtc->wb_bg_thresh = pdtc->bg_thresh;
	pdtc->freerun = pdtc->wb_dirty <= dirty_freerun_ceiling(pdtc->thresh, pdtc->bg_thresh);
	return true;
}

bool pdtc_foreign_counts(const struct dirty_throttle_control *pdtc)
{
	return pdtc->foreign > pdtc->bg_thresh / 2;
}

void pdtc_position(struct dirty_throttle_control *pdtc)
{
	if (pdtc->policy->position)
		pdtc->policy->position(pdtc);
	else
		dirty_policy_cubic(pdtc);
}
