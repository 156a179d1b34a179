/*
 * The memory controller's objects: a mem_cgroup per cgroup where memory is enabled (the
 * root's always), with its page counter, its LRU lists (mm/vmscan.c) and its cgwb list
 * (mm/backing-dev.c), and the lookups from tasks and pages to memcgs.
 *
 * Lifetime: every charged page holds a css reference on its memcg, so a memcg removed
 * (rmdir, or memory disabled above it) stays, offline, while pages are charged to it: its
 * pages are still reclaimed from its lists and still count in its ancestors' memory.stat.
 * When the last page goes, the css is released and the memcg freed.
 */
#include "memcg.h"
#include <cgwb/backing-dev.h>
#include <cgwb/vmscan.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

struct mem_cgroup *root_mem_cgroup;

struct mem_cgroup *mem_cgroup_from_task(struct task_struct *task)
{
	return mem_cgroup_from_css(task_css(task, memory_cgrp_id));
}

struct mem_cgroup *get_mem_cgroup_from_current(void)
{
	return mem_cgroup_from_css(task_get_css(current, memory_cgrp_id));
}

struct mem_cgroup *page_memcg(struct page *page)
{
	struct mem_cgroup *memcg = READ_ONCE(compound_head(page)->memcg);

	return memcg ? memcg : root_mem_cgroup;
}

struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg)
{
	return mem_cgroup_from_css(memcg->css.parent);
}

struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev)
{
	if (!root)
		root = root_mem_cgroup;
	return mem_cgroup_from_css(css_next_descendant_pre(prev ? &prev->css : NULL, &root->css));
}

void mem_cgroup_iter_break(struct mem_cgroup *root, struct mem_cgroup *prev)
{
	(void)root;
	if (prev)
		css_put(&prev->css);
}

void memcg_memory_event(struct mem_cgroup *memcg, enum memcg_event_item event)
{
	do
		__atomic_add_fetch(&memcg->events[event], 1, __ATOMIC_RELAXED);
	while ((memcg = parent_mem_cgroup(memcg)) && !mem_cgroup_is_root(memcg));
}

/* A smoothed dirty limit of the old size could let dirty pages overshoot the new one. */
void mem_cgroup_limits_changed(struct mem_cgroup *memcg)
{
	wb_domain_size_changed(&memcg->cgwb_domain);
}

static struct cgroup_subsys_state *mem_cgroup_css_alloc(struct cgroup_subsys_state *parent_css)
{
	struct mem_cgroup *parent = mem_cgroup_from_css(parent_css);
	struct mem_cgroup *memcg = kzalloc(sizeof(*memcg), GFP_KERNEL);

	if (!memcg)
		return ERR_PTR(-ENOMEM);
	memcg->lruvec = lruvec_alloc(GFP_KERNEL);
	if (!memcg->lruvec) {
		kfree(memcg);
		return ERR_PTR(-ENOMEM);
	}
	if (memcg_stat_init(memcg)) {
		lruvec_free(memcg->lruvec);
		kfree(memcg);
		return ERR_PTR(-ENOMEM);
	}
	page_counter_init(&memcg->memory, parent ? &parent->memory : NULL);
	INIT_LIST_HEAD(&memcg->cgwb_list);
	wb_domain_init(&memcg->cgwb_domain);
	if (!parent)
		root_mem_cgroup = memcg;
	return &memcg->css;
}

/* No new charges come (the css is offline); its wbs are killed so its inodes move up. */
static void mem_cgroup_css_offline(struct cgroup_subsys_state *css)
{
	wb_memcg_offline(mem_cgroup_from_css(css));
}

static void mem_cgroup_css_free(struct cgroup_subsys_state *css)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(css);
	struct mem_cgroup *parent = parent_mem_cgroup(memcg);

	/* every page held a reference: none can be charged now */
	WARN_ON(page_counter_read(&memcg->memory));
	WARN_ON(!list_empty(&memcg->cgwb_list));
	if (parent)
		memcg_stat_fold(memcg, parent);
	mem_cgroup_foreign_wait(memcg); /* a queued flush completes into memcg's records */
	wb_domain_exit(&memcg->cgwb_domain);
	memcg_stat_exit(memcg);
	lruvec_free(memcg->lruvec);
	kfree(memcg);
}

struct cgroup_subsys memory_cgrp_subsys = {
	.name = "memory",
	.id = memory_cgrp_id,
	.css_alloc = mem_cgroup_css_alloc,
	.css_offline = mem_cgroup_css_offline,
	.css_free = mem_cgroup_css_free,
	.dfl_cftypes = memcg_files,
};
