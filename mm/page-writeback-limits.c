/*
 * Dirty limits: how much of a domain's memory may be dirty (domain_dirty_limits), what a
 * memcg domain counts as its memory (mdtc_calc_avail), and a wb's share of a domain's
 * threshold (__wb_calc_thresh), as in Linux's mm/page-writeback.c.
 *
 * Every function here takes a dirty_throttle_control already filled by the caller, so the
 * arithmetic can be checked on worked values without the rest of the kernel; only
 * domain_dirty_avail() and the wb_*thresh entry points read live counters.
 */
#include <cgwb/writeback.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/vmstat.h>
#include <cgwb/mm.h>
#include <cgwb/trace/writeback.h>
#include "internal.h"
#include "dirty-policy.h"

int dirty_background_ratio = 10;
unsigned long dirty_background_bytes;
int vm_dirty_ratio = 20;
unsigned long vm_dirty_bytes;

void gdtc_init(struct dirty_throttle_control *dtc, struct bdi_writeback *wb)
{
	*dtc = (struct dirty_throttle_control){
		.dom = &global_wb_domain,
		.wb = wb,
		.wb_completions = wb ? &wb->completions : NULL,
	};
}

bool mdtc_init(struct dirty_throttle_control *mdtc, struct bdi_writeback *wb,
	       struct dirty_throttle_control *gdtc)
{
	*mdtc = (struct dirty_throttle_control){
		.dom = mem_cgroup_wb_domain(wb),
		.gdtc = gdtc,
		.wb = wb,
		.wb_completions = &wb->memcg_completions,
	};
	return mdtc->dom != NULL;
}

unsigned long global_dirtyable_memory(void)
{
	unsigned long free = nr_free_pages();

	free -= min(free, totalreserve_pages);
	return free + global_node_page_state(NR_INACTIVE_FILE) +
	       global_node_page_state(NR_ACTIVE_FILE) + 1;
}

/*
 * A memcg may still grow into the system's clean memory that it does not already hold,
 * up to its headroom: its avail is its own file pages plus the smaller of the two.
 */
void mdtc_calc_avail(struct dirty_throttle_control *mdtc, unsigned long filepages,
		     unsigned long headroom)
{
	struct dirty_throttle_control *gdtc = mdtc->gdtc;
	unsigned long clean = filepages - min(filepages, mdtc->dirty);
	unsigned long global_clean = gdtc->avail - min(gdtc->avail, gdtc->dirty);
	unsigned long other_clean = global_clean - min(global_clean, clean);

	mdtc->avail = filepages + min(headroom, other_clean);
}

void domain_dirty_avail(struct dirty_throttle_control *dtc, bool include_writeback)
{
	if (dtc->gdtc) {
		unsigned long filepages, headroom, writeback;

		mem_cgroup_wb_stats(dtc->wb, &filepages, &headroom, &dtc->dirty, &writeback);
		if (include_writeback)
			dtc->dirty += writeback;
		mdtc_calc_avail(dtc, filepages, headroom);
	} else {
		dtc->avail = global_dirtyable_memory();
		dtc->dirty = global_node_page_state(NR_FILE_DIRTY);
		if (include_writeback)
			dtc->dirty += global_node_page_state(NR_WRITEBACK);
	}
}

void domain_dirty_limits(struct dirty_throttle_control *dtc)
{
	unsigned long bytes = vm_dirty_bytes, bg_bytes = dirty_background_bytes;
	/* ratios in 1/PAGE_SIZE units rather than percent, for precision */
	unsigned long ratio = (unsigned long)vm_dirty_ratio * PAGE_SIZE / 100;
	unsigned long bg_ratio = (unsigned long)dirty_background_ratio * PAGE_SIZE / 100;
	unsigned long thresh, bg_thresh;

	if (dtc->gdtc) {
		/* byte limits are system-wide: a memcg gets their ratio of global avail */
		unsigned long global_avail = dtc->gdtc->avail;

		if (bytes)
			ratio = min(DIV_ROUND_UP(bytes, global_avail), PAGE_SIZE);
		if (bg_bytes)
			bg_ratio = min(DIV_ROUND_UP(bg_bytes, global_avail), PAGE_SIZE);
		bytes = bg_bytes = 0;
	}
	if (bytes)
		thresh = DIV_ROUND_UP(bytes, PAGE_SIZE);
	else
		thresh = ratio * dtc->avail / PAGE_SIZE;
	if (bg_bytes)
		bg_thresh = DIV_ROUND_UP(bg_bytes, PAGE_SIZE);
	else
		bg_thresh = bg_ratio * dtc->avail / PAGE_SIZE;
	/* the control law assumes page counts that fit in 32 bits */
	thresh = min(thresh, (unsigned long)UINT_MAX);
	if (bg_thresh >= thresh)
		bg_thresh = thresh / 2;
	dtc->thresh = thresh;
	dtc->bg_thresh = bg_thresh;
	if (!dtc->gdtc)
		trace_global_dirty_state(bg_thresh, thresh);
}

void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty)
{
	struct dirty_throttle_control gdtc;

	gdtc_init(&gdtc, NULL);
	gdtc.avail = global_dirtyable_memory();
	domain_dirty_limits(&gdtc);
	*pbackground = gdtc.bg_thresh;
	*pdirty = gdtc.thresh;
}

/*
 * The bdi's min/max ratio, scaled by this wb's part of the bdi's write bandwidth: a bdi's
 * guarantee and cap are shared among its cgroup wbs.
 */
static void wb_min_max_ratio(struct bdi_writeback *wb, unsigned long *minp, unsigned long *maxp)
{
	unsigned long this_bw = READ_ONCE(wb->avg_write_bandwidth);
	unsigned long tot_bw = READ_ONCE(wb->bdi->tot_write_bandwidth);
	u64 lo = wb->bdi->min_ratio, hi = wb->bdi->max_ratio;

	/* a wb that just became clean is no longer in the total: keep the bdi's values */
	if (this_bw < tot_bw) {
		if (lo)
			lo = lo * this_bw / tot_bw;
		if (hi < 100 * BDI_RATIO_SCALE)
			hi = hi * this_bw / tot_bw;
	}
	*minp = (unsigned long)lo;
	*maxp = (unsigned long)hi;
}

unsigned long __wb_calc_thresh(struct dirty_throttle_control *dtc, unsigned long thresh)
{
	struct bdi_writeback *wb = dtc->wb;
	unsigned long num, den, wb_min, wb_max;
	u64 wb_thresh, wb_max_thresh;

	fprop_fraction(&dtc->dom->completions, dtc->wb_completions, &num, &den);
	wb_thresh = (u64)thresh * (100 * BDI_RATIO_SCALE - bdi_min_ratio) / (100 * BDI_RATIO_SCALE);
	wb_thresh = wb_thresh * num / den;
	wb_min_max_ratio(wb, &wb_min, &wb_max);
	wb_thresh += (u64)thresh * wb_min / (100 * BDI_RATIO_SCALE);
	/* an idle wb's floor is wb_position_ratio()'s, as 6.1's (not 6.13's, here) */
	wb_max_thresh = (u64)thresh * wb_max / (100 * BDI_RATIO_SCALE);
	return (unsigned long)min(wb_thresh, wb_max_thresh);
}

/*
 * The wb's dirty + writeback pages against its share. A share not large against what the
 * per-CPU parts can hide is compared with exact sums: the reads could report thresh + n
 * pages while thresh - m are dirty (m + n parked on the CPUs), and a wb with a small share
 * would be throttled for pages it has not got, or let through with pages it has.
 */
void wb_dirty_limits(struct dirty_throttle_control *dtc)
{
	struct bdi_writeback *wb = dtc->wb;

	dtc->wb_thresh = __wb_calc_thresh(dtc, dtc->thresh);
	dtc->wb_bg_thresh =
		dtc->thresh ? (unsigned long)((u64)dtc->wb_thresh * dtc->bg_thresh / dtc->thresh) : 0;
	if (dtc->wb_thresh < 2 * wb_stat_error())
		dtc->wb_dirty = (unsigned long)(wb_stat_sum(wb, WB_RECLAIMABLE) +
						wb_stat_sum(wb, WB_WRITEBACK));
	else
		dtc->wb_dirty =
			(unsigned long)(wb_stat(wb, WB_RECLAIMABLE) + wb_stat(wb, WB_WRITEBACK));
}

unsigned long wb_calc_thresh(struct bdi_writeback *wb, unsigned long thresh)
{
	struct dirty_throttle_control gdtc;

	gdtc_init(&gdtc, wb);
	domain_dirty_avail(&gdtc, true);
	return __wb_calc_thresh(&gdtc, thresh);
}

unsigned long cgwb_calc_thresh(struct bdi_writeback *wb)
{
	struct dirty_throttle_control gdtc, mdtc;

	gdtc_init(&gdtc, NULL);
	if (!mdtc_init(&mdtc, wb, &gdtc))
		return 0;
	domain_dirty_avail(&gdtc, true);
	domain_dirty_avail(&mdtc, true);
	domain_dirty_limits(&mdtc);
	return __wb_calc_thresh(&mdtc, mdtc.thresh);
}

unsigned long wb_dirty_thresh(struct bdi_writeback *wb, unsigned long thresh)
{
	if (mem_cgroup_wb_domain(wb))
		return cgwb_calc_thresh(wb);
	return wb_calc_thresh(wb, thresh);
}

/* The wb's dirty pages to compare with bound: exact if the bound is small (wb_dirty_limits()). */
static unsigned long wb_reclaimable_against(struct bdi_writeback *wb, unsigned long bound)
{
	if (bound < 2 * wb_stat_error())
		return (unsigned long)wb_stat_sum(wb, WB_RECLAIMABLE);
	return (unsigned long)wb_stat(wb, WB_RECLAIMABLE);
}

/*
 * Background writeback of wb goes on while, in its global or its memcg domain, either the
 * domain's dirty pages exceed its background threshold or the wb's own dirty pages exceed
 * its share of it. Pages under writeback do not count: the question is whether to start
 * more IO.
 */
static bool domain_over_bg_thresh(struct dirty_throttle_control *dtc)
{
	domain_dirty_avail(dtc, false);
	domain_dirty_limits(dtc);
	if (dtc->dirty > dtc->bg_thresh)
		return true;
	dtc->wb_bg_thresh = __wb_calc_thresh(dtc, dtc->bg_thresh);
	dtc->wb_dirty = wb_reclaimable_against(dtc->wb, dtc->wb_bg_thresh);
	return dtc->wb_dirty > dtc->wb_bg_thresh;
}

bool wb_over_bg_thresh(struct bdi_writeback *wb)
{
	struct dirty_throttle_control gdtc, mdtc, pdtc;

	gdtc_init(&gdtc, wb);
	if (domain_over_bg_thresh(&gdtc))
		return true;
	/* a policy's domain: the wb's dirty pages over its background level */
	if (pdtc_limits(&pdtc, dirty_policy_get(), wb, &gdtc) &&
	    wb_reclaimable_against(wb, pdtc.bg_thresh) > pdtc.bg_thresh)
		return true;
	return mdtc_init(&mdtc, wb, &gdtc) && domain_over_bg_thresh(&mdtc);
}
