/*
 * Shared by the memory controller's files: memcontrol.c (the objects and their lifetimes),
 * memcg-charge.c (charging and uncharging), memcg-reclaim.c (keeping groups within their
 * limits), memcg-oom.c (the OOM killer for a limit that cannot be kept), memcg-stat.c
 * (page-state counters and their hierarchical sums) and memcg-files.c (memory.* files).
 */
#ifndef CGWB_CG_MEMCG_H
#define CGWB_CG_MEMCG_H

#include <cgwb/memcontrol.h>
#include <cgwb/page_counter.h>

struct pseudo_node;

/* memcontrol.c */
/* The current task's memcg, referenced. */
struct mem_cgroup *get_mem_cgroup_from_current(void);
/* Count an event in memcg and its ancestors below the root (memory.events is hierarchical). */
void memcg_memory_event(struct mem_cgroup *memcg, enum memcg_event_item event);

/* memcg-reclaim.c */
struct memcg_reclaim {
	unsigned int retries;   /* rounds left that free nothing, with nothing to wait for */
	unsigned long progress; /* jiffies of the last page freed */
};
void memcg_reclaim_init(struct memcg_reclaim *r);
/* Dirty or under-writeback pages in memcg's subtree: waiting makes them reclaimable. */
bool memcg_writeback_pending(struct mem_cgroup *memcg);
/* Free about nr pages of memcg's subtree, or wait for writeback: false when hopeless. */
bool memcg_reclaim_round(struct mem_cgroup *memcg, unsigned long nr, gfp_t gfp,
			 struct memcg_reclaim *r);
/* Before a charge that may wait: keep a few pages free for charges that cannot. */
void memcg_keep_reserve(struct mem_cgroup *memcg, gfp_t gfp);
/* After a charge: trim memcg and its ancestors back to memory.high. */
void memcg_reclaim_high(struct mem_cgroup *memcg, gfp_t gfp);
/* New memory.max / memory.high in pages: reclaim down to them as far as possible. */
void memcg_set_max(struct mem_cgroup *memcg, unsigned long nr_pages);
void memcg_set_high(struct mem_cgroup *memcg, unsigned long nr_pages);

/* memcg-stat.c */
/* The per-CPU counters of a new memcg (-ENOMEM), and freeing them. */
int memcg_stat_init(struct mem_cgroup *memcg);
void memcg_stat_exit(struct mem_cgroup *memcg);
/* Exact sums (the per-CPU counts summed): memory.stat and the dirty domain read these. */
struct memcg_stat_sums {
	long stat[NR_VM_NODE_STAT_ITEMS];
	unsigned long pgscan, pgsteal;
};
/* memcg and its descendants, offline ones included. */
void memcg_stat_sum(struct mem_cgroup *memcg, struct memcg_stat_sums *sums);
/* A freed memcg's counters go to its parent, so that hierarchical sums do not drop. */
void memcg_stat_fold(struct mem_cgroup *memcg, struct mem_cgroup *parent);

/* memcg-foreign.c */
/* Wait for the foreign flushes memcg queued (they report into its records): before freeing. */
void mem_cgroup_foreign_wait(struct mem_cgroup *memcg);

/* memcg-oom.c */
/*
 * Nothing can be reclaimed for a charge of the current task below memcg's memory.max:
 * kill it (and its memory.oom.group) if it may be killed. True if it was (the charge may
 * then go past the limit: the task is dying), false if nobody was killed.
 */
bool mem_cgroup_out_of_memory(struct mem_cgroup *memcg, gfp_t gfp);

/* memcg-files.c */
extern const struct cftype memcg_files[];

#endif
