/*
 * The memory controller: page-cache pages are charged to the memory cgroup of the task
 * that first brings them in (Linux's first-use rule) and stay charged there until freed.
 * Each memcg has a page counter with memory.max / memory.high limits and page-state
 * counters that move with the node counters at every page transition.
 */
#ifndef CGWB_MEMCONTROL_H
#define CGWB_MEMCONTROL_H

#include <cgwb/percpu_counter.h>
#include <cgwb/cgroup.h>
#include <cgwb/vmstat.h>
#include <cgwb/gfp.h>
#include <cgwb/writeback.h>

struct page;
struct bdi_writeback;

/* As Linux: a limit in pages whose size in bytes still fits a long (reads back as bytes). */
#define PAGE_COUNTER_MAX (LONG_MAX / PAGE_SIZE)

struct page_counter {
	unsigned long usage; /* pages charged (this memcg and its descendants) */
	unsigned long max;
	unsigned long high;
	unsigned long watermark; /* peak usage */
	struct page_counter *parent;
};

enum memcg_event_item {
	MEMCG_LOW,
	MEMCG_HIGH,
	MEMCG_MAX,            /* usage hit memory.max and reclaim was needed */
	MEMCG_OOM,            /* the limit could not be kept */
	MEMCG_OOM_KILL,       /* a task was killed for it (counted where the task is) */
	MEMCG_OOM_GROUP_KILL, /* memory.oom.group killed the whole group */
	NR_MEMCG_EVENTS,
};

/*
 * One record of "this memcg dirtied pages of an inode owned by another group's wb": the
 * wb's bdi and memcg ids (no references: lookups by id tolerate their going away), when it
 * was last seen, and the count of flushes of it in flight (0: none; Linux starts its
 * completion at 1 for a waiter that never comes). See cg/memcg/memcg-foreign.c.
 */
#define MEMCG_CGWB_FRN_CNT 4

struct memcg_cgwb_frn {
	u64 bdi_id;
	int memcg_id;
	unsigned long at; /* jiffies; 0: never seen, or flushed since */
	struct wb_completion done;
};

struct mem_cgroup {
	struct cgroup_subsys_state css;
	struct page_counter memory;
	long stat[NR_VM_NODE_STAT_ITEMS]; /* local (this memcg only) page-state counters */
	/* NR_FILE_DIRTY and NR_WRITEBACK are these instead: per CPU (cg/memcg/memcg-stat.c) */
	struct percpu_counter pcpu_stat[2];
	unsigned long events[NR_MEMCG_EVENTS];
	bool oom_group; /* memory.oom.group: an OOM kill takes every task */
	unsigned long pgscan, pgsteal;
	struct list_head cgwb_list;   /* its bdi_writebacks (mm/backing-dev.c) */
	struct wb_domain cgwb_domain; /* its wbs' dirty domain (unused in the root) */
	void *lruvec;                 /* its LRU lists (mm/vmscan.c) */
	struct memcg_cgwb_frn cgwb_frn[MEMCG_CGWB_FRN_CNT]; /* foreign wbs it dirtied for */
};

extern struct mem_cgroup *root_mem_cgroup;

static inline struct mem_cgroup *mem_cgroup_from_css(struct cgroup_subsys_state *css)
{
	return css ? (struct mem_cgroup *)((char *)css - offsetof(struct mem_cgroup, css)) : NULL;
}
/* The effective memcg of a task (root if the controller is not enabled on its cgroup). */
struct mem_cgroup *mem_cgroup_from_task(struct task_struct *task);
/* The memcg a page is charged to: root_mem_cgroup for uncharged pages. */
struct mem_cgroup *page_memcg(struct page *page);
static inline bool mem_cgroup_is_root(const struct mem_cgroup *memcg)
{
	return memcg == root_mem_cgroup;
}
static inline int mem_cgroup_id(const struct mem_cgroup *memcg)
{
	return memcg->css.id;
}
struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg);

/*
 * Charge a new page-cache page to the current task's memcg (page->memcg set). Over the
 * limit, the memcg reclaims its own clean pages and waits for its writeback; -ENOMEM
 * only if gfp forbids waiting.
 */
int mem_cgroup_charge(struct page *page, gfp_t gfp);
/* The page leaves the page cache: its charge goes back. */
void mem_cgroup_uncharge(struct page *page);
/* A page-state change of a charged page (called by mod_page_state). */
void mem_cgroup_mod_page_state(struct page *page, enum node_stat_item item, long delta);
/* Local and hierarchical (this memcg plus descendants) page-state counters, exact. */
long memcg_page_state_local(struct mem_cgroup *memcg, enum node_stat_item item);
unsigned long memcg_page_state(struct mem_cgroup *memcg, enum node_stat_item item);

/* The controller (registered with cgroup_register_subsys before cgroup_init). */
extern struct cgroup_subsys memory_cgrp_subsys;
/*
 * Walk root's subtree (NULL: every memcg), root first, offline memcgs included: returns the
 * memcg after prev (NULL to start), referenced, dropping prev's reference; NULL at the end.
 * A walk left early ends with mem_cgroup_iter_break(root, memcg).
 */
struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev);
void mem_cgroup_iter_break(struct mem_cgroup *root, struct mem_cgroup *prev);

/*
 * Foreign dirtying (cg/memcg/memcg-foreign.c). A page of page's memcg was dirtied in an inode
 * owned by wb: if wb serves another memcg, remember it in the page memcg's records.
 */
void mem_cgroup_track_foreign_dirty(struct page *page, struct bdi_writeback *wb);
/* Throttled with wb: queue writeback of the foreign wbs recently dirtied for by its memcg. */
void mem_cgroup_flush_foreign(struct bdi_writeback *wb);

/* memory.max/high changed: the memcg's dirty domain forgets its smoothed limit. */
void mem_cgroup_limits_changed(struct mem_cgroup *memcg);

/*
 * Cgroup writeback's view of a memcg (cg/memcg/memcg-writeback.c). The dirty domain of wb's
 * memcg, NULL for the root memcg (its wbs are only in the global domain).
 */
struct wb_domain *mem_cgroup_wb_domain(struct bdi_writeback *wb);
/*
 * The memcg domain's inputs for wb, hierarchical (the memcg and its descendants): file
 * pages on the LRU lists, dirty and writeback pages, and the headroom, the least room left
 * under memory.max/memory.high in the memcg and its ancestors below the root
 * (PAGE_COUNTER_MAX without limits).
 */
void mem_cgroup_wb_stats(struct bdi_writeback *wb, unsigned long *pfilepages,
			 unsigned long *pheadroom, unsigned long *pdirty, unsigned long *pwriteback);

#endif
