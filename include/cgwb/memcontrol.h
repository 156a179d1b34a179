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
/**
 * mem_cgroup_from_task() - the memory cgroup a task is charged to
 * @task: the task
 *
 * The effective memcg of the task's cgroup: the nearest ancestor with the controller
 * enabled, root_mem_cgroup at worst. No reference is taken: the memcg may be freed a
 * grace period after the task leaves it, so the caller holds rcu_read_lock() or keeps it
 * alive otherwise (task_get_css() takes a reference).
 *
 * Context: any context; never sleeps.
 * Return: the memcg, never NULL.
 */
struct mem_cgroup *mem_cgroup_from_task(struct task_struct *task);
/**
 * page_memcg() - the memory cgroup a page is charged to
 * @page: the page; a page of a large folio answers for the folio (its head holds the charge)
 *
 * The page's charge holds a reference on the memcg; the caller keeps the page charged
 * (page locked, under writeback, or not yet out of the page cache) while it uses it.
 *
 * Context: any context; never sleeps.
 * Return: the page's memcg; root_mem_cgroup for a page that is not charged.
 */
struct mem_cgroup *page_memcg(struct page *page);
static inline bool mem_cgroup_is_root(const struct mem_cgroup *memcg)
{
	return memcg == root_mem_cgroup;
}
static inline int mem_cgroup_id(const struct mem_cgroup *memcg)
{
	return memcg->css.id;
}
/**
 * parent_mem_cgroup() - the parent of a memory cgroup
 * @memcg: the memcg; the caller holds a reference on it (which pins its parent)
 *
 * Context: any context; never sleeps.
 * Return: the parent, or NULL for the root.
 */
struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg);

/**
 * mem_cgroup_charge() - charge a new page-cache folio to the current task's memcg
 * @page: the folio's head page, not charged yet: all of its pages are charged
 * @gfp: whether the charge may wait
 *
 * Over memory.max (of the memcg or an ancestor), a charge that may wait makes the group
 * over its limit reclaim its own pages and wait for its writeback, or OOM-kills in it,
 * and then goes through; over memory.high the memcg reclaims down to it afterwards. On
 * success page->memcg is set and holds a reference on the memcg.
 *
 * Context: process context; may sleep if @gfp allows blocking.
 * Return: 0, or -ENOMEM over the limit when @gfp forbids waiting.
 */
int mem_cgroup_charge(struct page *page, gfp_t gfp);
/**
 * mem_cgroup_split_folio() - the pages of a folio being split take its charge
 * @head: the folio's head page, charged or not
 * @nr: its number of pages
 *
 * The charge of the whole folio stays: each page is now charged one page of it, to the
 * same memcg, with a reference of its own.
 *
 * Context: split_folio(), the folio's count frozen; any context; never sleeps.
 */
void mem_cgroup_split_folio(struct page *head, unsigned long nr);
/**
 * mem_cgroup_uncharge() - a folio leaves the page cache: its charge goes back
 * @page: the folio's head page; nothing is done if it is not charged
 *
 * Drops the page's reference on its memcg.
 *
 * Context: any context (the last put_page() of a cached page); never sleeps.
 */
void mem_cgroup_uncharge(struct page *page);
/**
 * mem_cgroup_mod_page_state() - count a page-state change in the page's memcg
 * @page: the page; nothing is counted if it is not charged
 * @item: the counter (NR_FILE_DIRTY, NR_WRITEBACK...)
 * @delta: the change
 *
 * Called by mod_page_state(), with the node's count.
 *
 * Context: any context; never sleeps.
 */
void mem_cgroup_mod_page_state(struct page *page, enum node_stat_item item, long delta);
/**
 * memcg_page_state_local() - a memcg's own page-state counter, exact
 * @memcg: the memcg
 * @item: the counter
 *
 * Per-CPU counts are summed, not read from a possibly stale total.
 *
 * Context: any context; never sleeps.
 * Return: the count of pages of @memcg alone (it may be negative for a moment).
 */
long memcg_page_state_local(struct mem_cgroup *memcg, enum node_stat_item item);
/**
 * memcg_page_state() - a memcg's hierarchical page-state counter, exact
 * @memcg: the memcg
 * @item: the counter
 *
 * Context: any context; walks the subtree under the irq-safe css_set_lock; never sleeps.
 * Return: the count of pages of @memcg and its descendants (0 if the sum is negative).
 */
unsigned long memcg_page_state(struct mem_cgroup *memcg, enum node_stat_item item);

/* The controller (registered with cgroup_register_subsys before cgroup_init). */
extern struct cgroup_subsys memory_cgrp_subsys;
/**
 * mem_cgroup_iter() - walk a memcg subtree, pre-order
 * @root: the subtree's root (NULL: every memcg)
 * @prev: the memcg the previous call returned, NULL to start
 *
 * Offline memcgs are visited too. The reference on @prev is dropped; a walk left early
 * ends with mem_cgroup_iter_break(@root, memcg) to drop the last one.
 *
 * Context: any context; never sleeps.
 * Return: the memcg after @prev (@root first), with a reference; NULL at the end.
 */
struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev);
void mem_cgroup_iter_break(struct mem_cgroup *root, struct mem_cgroup *prev);

/* Foreign dirtying (cg/memcg/memcg-foreign.c). */
/**
 * mem_cgroup_track_foreign_dirty() - a page was dirtied in an inode another memcg owns
 * @page: the page just dirtied
 * @wb: the wb of the page's inode
 *
 * If @wb serves another memcg than the page's, the page's memcg remembers @wb (its
 * device and memcg) in its records of foreign wbs, so that it can flush them when it is
 * throttled (mem_cgroup_flush_foreign()).
 *
 * Context: any context; never sleeps.
 */
void mem_cgroup_track_foreign_dirty(struct page *page, struct bdi_writeback *wb);
/**
 * mem_cgroup_flush_foreign() - flush the foreign wbs a throttled memcg dirtied for
 * @wb: the wb its dirtier is throttled with; its memcg's records are used
 *
 * Queues writeback (cgroup_writeback_by_id()) of each foreign wb recorded recently and
 * not being flushed already: the memcg's own dirty pages there count against it, but only
 * that wb's flusher writes them.
 *
 * Context: any context; never sleeps (nothing waits for the works).
 */
void mem_cgroup_flush_foreign(struct bdi_writeback *wb);

/* memory.max/high changed: the memcg's dirty domain forgets its smoothed limit. */
void mem_cgroup_limits_changed(struct mem_cgroup *memcg);

/* Cgroup writeback's view of a memcg (cg/memcg/memcg-writeback.c). */
/**
 * mem_cgroup_wb_domain() - the dirty domain of a wb's memcg
 * @wb: the wb
 *
 * Context: any context; never sleeps.
 * Return: the memcg's cgwb_domain, or NULL for the root memcg (its wbs are only in the
 * global domain).
 */
struct wb_domain *mem_cgroup_wb_domain(struct bdi_writeback *wb);
/**
 * mem_cgroup_wb_stats() - the memcg domain's inputs for a wb
 * @wb: the wb; its memcg and its descendants are counted
 * @pfilepages: set to the file pages on their LRU lists
 * @pheadroom: set to the least room left under memory.max and memory.high in the memcg
 *             and its ancestors below the root (PAGE_COUNTER_MAX without limits)
 * @pdirty: set to their dirty pages
 * @pwriteback: set to their pages under writeback
 *
 * Counts in pages, summed exactly in one walk of the subtree.
 *
 * Context: any context; walks the subtree under the irq-safe css_set_lock; never sleeps.
 */
void mem_cgroup_wb_stats(struct bdi_writeback *wb, unsigned long *pfilepages,
			 unsigned long *pheadroom, unsigned long *pdirty, unsigned long *pwriteback);

#endif
